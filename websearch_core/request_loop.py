"""The one request loop every provider runs through.

A provider describes its protocol as data and pure hooks (:mod:`websearch_core.providers.base`);
this loop is the only code that sends a provider's requests. It sees a provider only as a
:class:`~websearch_core.provider_types.LoopProvider`, so it imports nothing from the
providers package (which imports it). For each call it:

1. lets the provider resolve what it needs first (:meth:`prepare`, e.g. a valid OAuth token);
2. sends the first request (:meth:`first_request`) through the transport, which applies the
   attempt's time budget, the size cap and the redirect policy;
3. refreshes a stored OAuth token once when the provider's refresh statuses come back, and
   sends the same step again;
4. sends the same step again while :meth:`retry_delay` names a wait (by default the
   provider's :class:`RetryPolicy` and the server's hint), never waiting past the
   attempt's remaining time;
5. asks :meth:`follow_up` for the next request after every response (paging, a second
   endpoint, a continuation, an MCP session's next call) until it says done, and
   :meth:`after_failure` whether a transport failure leaves another way to try (at once
   or after a :class:`DelayedRequest`'s wait); before each request it keeps the notes a
   hook recorded on the flow (:mod:`websearch_core.provider_notes`);
6. classifies the last response's status through the :class:`ErrorMap` that
   :meth:`error_map` chooses for the flow (no hook raises for a status) and hands the
   whole exchange to :meth:`parse`.

Sanitising, result caps and redaction of the parsed response happen one step up, in
:func:`websearch_core.orchestration.attempt.run_attempt`, for every provider alike.
"""

import asyncio
import logging
import math
from collections.abc import Awaitable, Mapping
from typing import Any

from .deadline import remaining_budget
from .errors import ProviderNotConfiguredError, SearchProviderError
from .models import SearchParams, SearchResponse
from .provider_types import DelayedRequest, Exchange, Flow, LoopProvider, ProviderContext
from .sign_in_sends import judged_refusal
from .transport import (
    API_RESPONSE,
    HttpRequest,
    HttpResponse,
    SseResponse,
    Transport,
    apply_base_url,
)

logger = logging.getLogger("websearch_core")

__all__ = ["run_protocol", "send_step"]


def send_step(
    provider: LoopProvider, request: HttpRequest, context: ProviderContext
) -> Awaitable[HttpResponse | SseResponse]:
    """Send one request of ``provider``'s protocol (streamed when the request says so).

    Returns the fetcher's own awaitable rather than awaiting it in a frame of this
    function: every response a search waits for resumes each coroutine between the event
    loop and the chain, and this one only chooses where the request goes.
    """
    if request.fetch_with is not None:  # a step another fetcher makes (headless Chromium)
        return request.fetch_with(context)
    info = provider.info
    transport = context.transport
    # The cap and the body's name are passed only when they are not the transport's own:
    # transport stand-ins (the tests' scripted ones, a caller's own) need not take the
    # keywords, and 59 tests' do not. Streams are only ever APIs'.
    cap = provider.max_response_bytes
    if cap is not None:
        cap = min(cap, transport.max_response_bytes)
    if request.stream:
        if cap is None:
            return transport.send_sse(info.id, info.label, request)
        return transport.send_sse(info.id, info.label, request, max_response_bytes=cap)
    options: dict[str, Any] = {}
    if cap is not None:
        options["max_response_bytes"] = cap
    if info.response_name != API_RESPONSE:
        options["response_name"] = info.response_name
    return transport.send(info.id, info.label, request, **options)


async def run_protocol(
    provider: LoopProvider, params: SearchParams, context: ProviderContext
) -> SearchResponse:
    """Run ``provider``'s protocol for one search and return what it parsed.

    Raises:
        SearchProviderError: A transport failure, an error status (typed by the provider's
            error map), or a body the provider could not parse.
    """
    flow = Flow(params=params, context=context)
    await provider.prepare(flow)
    # Which hook a refresh rebuilds the step with, as a flag: a bound method kept in a
    # name is one more object every search in flight holds across its request.
    following = False
    request = provider.first_request(flow)
    refreshed = False
    while request is not None:
        if flow.notes:  # a hook learnt something the providers table shows
            await _keep_notes(provider, flow)
        _refuse_misdirected_sign_in(provider, flow, request)
        try:
            response = await send_step(provider, request, context)
        except SearchProviderError as error:
            # A transport failure (timeout, reset, cap): the provider may try another way.
            step = await _after_failure(provider, flow, request, error)
            if step is None:
                if flow.done:  # the provider keeps what earlier steps brought
                    break
                raise
            following, request, flow.resends = True, step, 0
            continue
        if not refreshed and _wants_refresh(provider, flow, response):
            refreshed = True
            if await _refresh(provider, flow, response.status):
                request = provider.follow_up(flow) if following else provider.first_request(flow)
                continue
        wait = provider.retry_delay(flow, response)
        if wait is not None and await _wait(wait):
            flow.resends += 1
            continue
        flow.exchanges.append(Exchange(request=request, response=response))
        # The exchange holds the response for the hooks; this name would hold it through
        # the next send too (a large page kept while the next one arrives).
        del response
        next_request = provider.follow_up(flow)
        if next_request is None:
            break
        # A follow-up that meets a refresh status is built again from the same history.
        following, request, flow.resends = True, next_request, 0
    return _answer(provider, flow)


def _refuse_misdirected_sign_in(provider: LoopProvider, flow: Flow, request: HttpRequest) -> None:
    """Raise before ``request`` is sent if it would carry a sign-in where it may not go.

    Judged where it is sent: the transport judges every request it sends while the
    client's credentials have handed out a sign-in. This asks the same judgement
    (:func:`~websearch_core.sign_in_sends.judged_refusal`) only of a step the transport
    will not judge: one another fetcher makes (``fetch_with``), or one sent through a
    transport built without the client's credentials (a test's, a caller's stand-in),
    trusting the ids that transport trusts (:attr:`~websearch_core.provider_types.
    ProviderContext.sign_in_gateways`) and naming its own arguments when it is a
    ``Transport``, whose base URLs are what it sends to.

    Raises:
        ProviderNotConfiguredError: The refusal, naming the provider, the endpoint's
            origin and the settings that would allow it, never the token.
    """
    context = flow.context
    transport = context.transport
    if request.fetch_with is None and getattr(transport, "judges_sign_ins", False):
        return
    settings = context.settings
    base_urls: Mapping[str, str] = getattr(transport, "base_urls", settings.base_urls)
    info = provider.info
    url = apply_base_url(request.url, base_urls.get(info.id))
    refused = judged_refusal(
        request,
        url,
        context.credentials,
        info.id,
        info.label,
        None,
        context.sign_in_gateways,
        base_urls,
        own_transport=isinstance(transport, Transport) and not transport.judges_sign_ins,
    )
    if refused is not None:
        raise ProviderNotConfiguredError(info.id, refused)


def _answer(provider: LoopProvider, flow: Flow) -> SearchResponse:
    """The last status classified through the flow's error map, then the parse."""
    if flow.exchanges:
        provider.check(flow.last.response, provider.error_map(flow))
    return provider.parse(flow)


async def _keep_notes(provider: LoopProvider, flow: Flow) -> None:
    """Hand the notes the hooks recorded to the client's store (none kept without one)."""
    notes, flow.notes = flow.notes, []
    keeper = flow.context.notes
    if keeper is not None:
        for note in notes:
            await keeper.keep(provider.info.id, note)


async def _after_failure(
    provider: LoopProvider, flow: Flow, request: HttpRequest, error: SearchProviderError
) -> HttpRequest | None:
    """The provider's next request after a transport failure, once its wait is over.

    ``None`` when the failure stands: no other way to try, or a wait that would outlive
    the attempt.
    """
    step = provider.after_failure(flow, request, error)
    if isinstance(step, DelayedRequest):
        return step.request if await _wait(step.delay) else None
    return step


def _wants_refresh(
    provider: LoopProvider, flow: Flow, response: HttpResponse | SseResponse
) -> bool:
    return (
        response.status in provider.oauth_refresh_statuses
        and flow.token is not None
        and provider.needs_refresh(response)
    )


async def _refresh(provider: LoopProvider, flow: Flow, status: int) -> bool:
    """Refresh the stored OAuth token once; ``False`` when no fresh token can be had.

    Then the response stands as it came: a 401 reads as one (the spec's text, since a
    server did refuse the token), and a provider with another way in may still take it in
    its follow-up. Why no fresh token could be had (the hook raised, or there is none) is
    logged, as the 401's text cannot say it.
    """
    try:
        flow.token = await flow.context.credentials.valid_oauth_token(
            provider.info.id,
            entry=flow.token_entry,
            force_refresh=True,
            min_lifetime=provider.oauth_margin(flow.token_entry),
            own_refresh=flow.token_refresh,
            refused=flow.token,
        )
    except SearchProviderError as error:
        logger.warning(
            "web search provider %s answered %s and no fresh OAuth token could be had: %s",
            provider.info.id,
            status,
            error.message,
        )
        return False
    return True


async def _wait(seconds: float) -> bool:
    """Wait ``seconds`` when that ends within the attempt's time; ``False`` (at once) if not."""
    if not seconds < remaining_budget(math.inf):  # also refuses NaN
        return False
    await asyncio.sleep(seconds)
    return True
