"""The one request loop every provider runs through.

A provider describes its protocol as data and pure hooks (:mod:`websearch_core.providers.base`);
this loop is the only code that sends a provider's requests. For each call it:

1. lets the provider resolve what it needs first (:meth:`prepare`, e.g. a valid OAuth token);
2. sends the first request (:meth:`first_request`) through the transport, which applies the
   attempt's time budget, the size cap and the redirect policy;
3. refreshes a stored OAuth token once when the provider's refresh statuses come back, and
   sends the same step again;
4. retries by the provider's :class:`RetryPolicy` (statuses, back-off, server hints), never
   waiting past the attempt's remaining time;
5. asks :meth:`follow_up` for the next request after every response (paging, a second
   endpoint, a continuation, an MCP session's next call) until it says done, and
   :meth:`after_failure` whether a transport failure leaves another way to try;
6. classifies the last response's status through the provider's :class:`ErrorMap` and
   hands the whole exchange to :meth:`parse`.

Sanitising, result caps and redaction of the parsed response happen one step up, in
:func:`websearch_core.orchestration.attempt.run_attempt`, for every provider alike.
"""

import asyncio
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from .deadline import remaining_budget
from .errors import SearchProviderError
from .transport import HttpRequest, HttpResponse, SseResponse

if TYPE_CHECKING:
    from .models import SearchParams, SearchResponse
    from .providers.base import Flow, ProtocolProvider, ProviderContext

__all__ = ["run_protocol", "send_step"]


async def send_step(
    provider: "ProtocolProvider", request: HttpRequest, context: "ProviderContext"
) -> HttpResponse | SseResponse:
    """Send one request of ``provider``'s protocol (streamed when the request says so)."""
    if request.fetch_with is not None:  # a step another fetcher makes (headless Chromium)
        return await request.fetch_with(context)
    info = provider.info
    options: dict[str, int] = {}
    if provider.max_response_bytes is not None:
        cap = min(provider.max_response_bytes, context.transport.max_response_bytes)
        options["max_response_bytes"] = cap
    if request.stream:
        return await context.transport.send_sse(info.id, info.label, request, **options)
    return await context.transport.send(info.id, info.label, request, **options)


async def run_protocol(
    provider: "ProtocolProvider", params: "SearchParams", context: "ProviderContext"
) -> "SearchResponse":
    """Run ``provider``'s protocol for one search and return what it parsed.

    Raises:
        SearchProviderError: A transport failure, an error status (typed by the provider's
            error map), or a body the provider could not parse.
    """
    from .providers.base import Exchange, Flow

    flow = Flow(params=params, context=context)
    await provider.prepare(flow)
    produce: Callable[[Flow], HttpRequest | None] = provider.first_request
    request = produce(flow)
    refreshed = False
    retries = 0
    while request is not None:
        try:
            response = await send_step(provider, request, context)
        except SearchProviderError as error:
            # A transport failure (timeout, reset, cap): the provider may try another way.
            request = provider.after_failure(flow, request, error)
            if request is None:
                if flow.done:  # the provider keeps what earlier steps brought
                    break
                raise
            produce, retries = provider.follow_up, 0
            continue
        if not refreshed and _wants_refresh(provider, flow, response):
            refreshed = True
            if await _refresh(provider, flow):
                request = produce(flow)
                continue
        wait = _retry_wait(provider, response, retries)
        if wait is not None:
            retries += 1
            await asyncio.sleep(wait)
            continue
        flow.exchanges.append(Exchange(request=request, response=response))
        next_request = provider.follow_up(flow)
        if next_request is None:
            break
        # A follow-up that meets a refresh status is built again from the same history.
        produce = provider.follow_up
        request, retries = next_request, 0
    if flow.exchanges:
        provider.check(flow.last.response)
    return provider.parse(flow)


def _wants_refresh(
    provider: "ProtocolProvider", flow: "Flow", response: HttpResponse | SseResponse
) -> bool:
    return (
        response.status in provider.oauth_refresh_statuses
        and flow.token is not None
        and provider.needs_refresh(response)
    )


async def _refresh(provider: "ProtocolProvider", flow: "Flow") -> bool:
    """Refresh the stored OAuth token once; ``False`` when no fresh token can be had.

    Then the response stands as it came: a 401 reads as one, and a provider with another
    way in may still take it in its follow-up.
    """
    try:
        flow.token = await flow.context.credentials.valid_oauth_token(
            provider.info.id, force_refresh=True
        )
    except SearchProviderError:
        return False
    return True


def _retry_wait(
    provider: "ProtocolProvider", response: HttpResponse | SseResponse, retries: int
) -> float | None:
    """Seconds to wait before sending the same request again, or ``None`` to go on."""
    policy = provider.retry
    if policy is None or retries >= policy.max_retries:
        return None
    if response.status not in policy.statuses and not (
        policy.server_errors and response.status >= 500
    ):
        return None
    hinted = provider.retry_delay(response)
    wait = hinted if hinted is not None else policy.base_delay * 2**retries
    if wait > policy.max_delay or wait >= remaining_budget(math.inf):
        return None  # the wait would outlive the provider's time: the chain moves on
    return wait
