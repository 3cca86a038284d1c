"""Perplexity's steps: which auth method is in flight, its request, its answer, a fresh token.

Kept apart from :mod:`websearch_core.providers.perplexity` so the provider module holds
only the facts and the loop's hooks. :func:`fresh_token` is the one place that awaits (the
credential store's refresh hook); the rest reads and writes one search's ``flow.state``:
the ``methods``, the ``step`` in flight (its index and ``request``), the ask request
already sent twice (``resent``), the OAuth token or its failure (``oauth`` /
``oauth_error``) and the parsed answer (``outcome``).
"""

import time
from typing import Final

from ..credentials import OAuthToken
from ..errors import SearchProviderError
from ..models import SearchResponse
from ..provider_types import Exchange, Flow, ProviderContext
from ..transport import HttpRequest, SseResponse
from ._perplexity_ask import AskResult, parse_ask_answer
from ._perplexity_parse import parse_api_answer
from ._perplexity_request import ASK_KINDS, ASK_MODEL, AuthMethod, MethodKind, method_request

__all__ = [
    "OAUTH_MIN_LIFETIME",
    "asks",
    "failed",
    "fresh_token",
    "outcome",
    "read_answer",
    "step_from",
]

OAUTH_MIN_LIFETIME: Final = 300.0
"""A stored token that expires sooner than this is refreshed before use."""


async def fresh_token(context: ProviderContext, provider_id: str) -> OAuthToken:
    """The stored token, refreshed first when it expires within :data:`OAUTH_MIN_LIFETIME`."""
    token = await context.credentials.valid_oauth_token(provider_id)
    expires = token.expires_at
    if expires is not None and expires - time.time() < OAUTH_MIN_LIFETIME:
        token = await context.credentials.valid_oauth_token(provider_id, force_refresh=True)
    return token


def read_answer(
    kind: MethodKind, exchange: Exchange, *, limit: int | None
) -> SearchResponse | SearchProviderError:
    """The 2xx answer of a ``kind`` step as a response, or why it cannot be read.

    The failure is returned, not raised: the provider then tries its next method and
    raises it only when none is left.
    """
    response = exchange.response
    assert isinstance(response, SseResponse)  # every Perplexity request streams
    try:
        if kind in ASK_KINDS:
            auth = "anonymous" if kind == "anonymous" else "oauth"
            request_id = exchange.request.headers["X-Request-ID"]
            asked = AskResult(auth_mode=auth, requested_model=ASK_MODEL, request_id=request_id)
            return parse_ask_answer(response, asked, limit=limit)
        model = str(exchange.request.json["model"])
        return parse_api_answer(response, requested_model=model, limit=limit)
    except SearchProviderError as error:
        return error


def asks(flow: Flow) -> bool:
    """Whether the step in flight uses the ask endpoint (cookies, OAuth, anonymous)."""
    return flow.state["methods"][flow.state["step"]].kind in ASK_KINDS


def step_from(flow: Flow, start: int) -> HttpRequest | None:
    """The request of the first usable method from ``start``; ``None`` when none is left.

    Raises:
        SearchProviderError: The OAuth token's own failure, when that method was the
            last one left (no status says it, so the loop could not).
    """
    methods: list[AuthMethod] = flow.state["methods"]
    skipped: SearchProviderError | None = None
    for index in range(start, len(methods)):
        if methods[index].kind == "oauth" and "oauth_error" in flow.state:
            skipped = flow.state["oauth_error"]
            continue
        request = _build(flow, methods[index])
        if index != flow.state["step"]:
            flow.state["resent"] = None  # each method may resend once
        flow.state.update(step=index, request=request)
        return request
    if skipped is not None:
        raise skipped
    return None


def _build(flow: Flow, method: AuthMethod) -> HttpRequest:
    """``method``'s request; only the OAuth step leaves a token the loop may refresh."""
    secret = method.secret
    if method.kind == "oauth":
        # The token prepare() resolved, or the one the loop refreshed after a 401/403.
        token: OAuthToken = flow.token or flow.state["oauth"]
        flow.token, secret = token, token.access_token
    else:
        flow.token = None
    zone = (flow.context.credentials.env("TZ") or "").lstrip(":")
    return method_request(
        method,
        flow.params,
        secret=secret,
        system_prompt=flow.context.system_prompt,
        timezone=zone if "/" in zone else "UTC",  # an IANA zone, not "UTC+1"
    )


def failed(flow: Flow) -> bool:
    """Whether the step in flight failed: an error status or an unreadable answer."""
    if not 200 <= flow.last.response.status < 300:
        return True
    return isinstance(outcome(flow), SearchProviderError)


def outcome(flow: Flow) -> SearchResponse | SearchProviderError:
    """The last 2xx answer parsed, once (kept in ``flow.state`` for the provider's parse)."""
    exchange = flow.last
    cached = flow.state.get("outcome")
    if cached is None or cached[0] is not exchange:
        kind = flow.state["methods"][flow.state["step"]].kind
        cached = (exchange, read_answer(kind, exchange, limit=flow.params.limit))
        flow.state["outcome"] = cached
    answer: SearchResponse | SearchProviderError = cached[1]
    return answer
