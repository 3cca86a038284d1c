"""Perplexity's steps: which auth method is in flight, its request, its answer, a fresh token.

Kept apart from :mod:`websearch_core.providers.perplexity` so the provider module holds
only the facts and the loop's hooks. :func:`fresh_token` is the one place that awaits (the
credential store's refresh hook); the rest reads and writes one search's ``flow.state``:
the ``methods``, the ``step`` in flight (its index and ``request``), the ask request
already sent twice (``resent``), the OAuth token or its failure (``oauth`` /
``oauth_error``) and the parsed answer (``outcome``).
"""

from ..credentials import OAuthToken
from ..errors import AuthorizationError, ProviderConnectionError, SearchProviderError
from ..models import SearchResponse
from ..provider_types import Exchange, Flow, ProviderContext
from ..transport import HttpRequest, SseResponse
from ._perplexity_ask import AskResult, parse_ask_answer
from ._perplexity_parse import parse_api_answer
from ._perplexity_request import (
    ASK_KINDS,
    ASK_MODEL,
    TIMEZONE_ENV,
    AuthMethod,
    MethodKind,
    auth_methods,
    method_request,
)

__all__ = [
    "after_broken",
    "answer",
    "asks",
    "begin",
    "failed",
    "fresh_token",
    "next_step",
    "outcome",
    "read_answer",
    "step_from",
]


async def fresh_token(context: ProviderContext, provider_id: str, margin: float) -> OAuthToken:
    """The stored token, refreshed first when it expires within ``margin`` seconds."""
    credentials = context.credentials
    return await credentials.valid_oauth_token(provider_id, min_lifetime=margin)


async def begin(
    flow: Flow,
    provider_id: str,
    api_key: str | None,
    *,
    margin: float,
    sign_ins_refused: str | None = None,
) -> None:
    """Choose the auth methods; resolve the OAuth token now (the hooks after this are sync).

    A token that cannot be made valid is kept as that method's failure, so the other
    methods still run and it is raised only when no later method answers.

    Args:
        flow: The search's flow, whose state this starts.
        provider_id: The provider's id (its stored token's entry).
        api_key: Its key, if any.
        margin: Its refresh margin (``SearchProvider.oauth_margin``: five minutes), by
            which the token is refreshed first and the stored one checked.
        sign_ins_refused: Why no sign-in may go where the requests go (a gateway not
            trusted with them, see :mod:`websearch_core.sign_in_destination`): the cookies
            and the OAuth token are then left out, never sent, as the providers table says.
    """
    methods = auth_methods(flow.context, api_key, sign_ins=sign_ins_refused is None)
    flow.state.update(methods=methods, step=-1, request=None, resent=None)
    if any(method.kind == "oauth" for method in methods):
        try:
            flow.state["oauth"] = await fresh_token(flow.context, provider_id, margin)
        except SearchProviderError as error:
            flow.state["oauth_error"] = error
            return
        # A stored token the check refuses is passed over as a bad key is (a refreshed
        # one was checked by the refresh): its problem is what this method failed with.
        stored = flow.context.credentials.oauth_secret(
            provider_id, "Perplexity OAuth token", margin
        )
        problem = None if stored is None else stored.problem()
        if problem is not None:
            flow.state["oauth_error"] = AuthorizationError(provider_id, problem)


def next_step(flow: Flow) -> HttpRequest | None:
    """``None`` once the step in flight answered or no method is left; else the next one.

    The loop also asks again after refreshing the OAuth token; the last exchange is then
    not the step in flight, and that step is built again with the new ``flow.token``.
    """
    step: int = flow.state["step"]
    if not flow.exchanges or flow.last.request is not flow.state["request"]:
        return step_from(flow, step)
    return step_from(flow, step + 1) if failed(flow) else None


def after_broken(
    flow: Flow, request: HttpRequest, error: SearchProviderError
) -> HttpRequest | None:
    """An ask request once more after a broken connection; else the next method."""
    broken = isinstance(error, ProviderConnectionError)
    if broken and asks(flow) and flow.state["resent"] is None:
        flow.state["resent"] = request
        return request
    return step_from(flow, flow.state["step"] + 1)


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
    zone = (flow.context.credentials.env(TIMEZONE_ENV) or "").lstrip(":")
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


def answer(flow: Flow) -> SearchResponse:
    """The last answer :func:`outcome` read.

    Raises:
        SearchProviderError: Why the last answer could not be read.
    """
    read = outcome(flow)
    if isinstance(read, SearchProviderError):
        raise read
    return read
