"""Perplexity: a grounded answer with its sources, by API key, session cookies or OAuth.

* **Auth methods**, tried in this order; when one fails (anything but cancellation) the
  next is tried, and the last error is raised when all fail:

  1. ``cookies``: ``PERPLEXITY_COOKIES`` (a browser ``Cookie`` header) on the ask endpoint;
  2. ``oauth``: the Perplexity OAuth token in the credential store, sent as the
     ``__Secure-next-auth.session-token`` cookie on the ask endpoint; a token within five
     minutes of expiry is refreshed first (through ``WebSearch(oauth_refreshers=...)``),
     and a 401 or 403 refreshes it once more and retries once;
  3. ``api_key``: ``PERPLEXITY_API_KEY`` / ``PPLX_API_KEY`` (or code, config, store) on the
     chat-completions API;
  4. ``openrouter``: ``OPENROUTER_API_KEY`` on OpenRouter's chat-completions API with the
     model ``perplexity/<model>``;
  5. ``anonymous``: the ask endpoint without credentials, only when no other method exists.

  The auto chain uses Perplexity only with cookies, an OAuth token or a Perplexity key
  (OpenRouter alone does not admit it); an explicit selection always may.
* **API-key mode:** ``POST https://api.perplexity.ai/chat/completions`` (OpenRouter:
  ``https://openrouter.ai/api/v1/chat/completions``) with ``Authorization: Bearer <key>``
  and ``Accept: text/event-stream``. Body: ``model: "sonar-pro"``, a ``system`` message
  (:data:`~websearch_core.prompts.SEARCH_SYSTEM_PROMPT`) and a ``user`` message (the query),
  ``stream: true`` with ``stream_options.include_usage``, ``max_tokens`` (default 8192),
  ``temperature`` (default 0.2), ``search_mode: "web"``, ``num_search_results`` (default 20),
  ``web_search_options: {search_type: "pro", search_context_size: "high"}``,
  ``enable_search_classifier: true``, ``reasoning_effort: "medium"``,
  ``language_preference: "en"``, ``return_related_questions: true``, and when asked
  ``search_domain_filter`` (included domains, excluded ones prefixed with ``-``),
  ``search_after_date_filter`` / ``search_before_date_filter`` (``M/D/YYYY``),
  ``search_language_filter`` (the language's ISO 639-1 code) and ``search_recency_filter``
  (``recency``, only without explicit dates). The stream's text deltas are the answer; the
  last ``id``, ``model``, ``citations``, ``search_results`` and ``related_questions`` win;
  usage comes from the last chunk. A server that answers with one JSON completion instead
  of a stream is read the same way. ``auth_mode`` is ``"api_key"``.
* **Ask mode** (cookies, OAuth, anonymous): ``POST
  https://www.perplexity.ai/rest/sse/perplexity_ask`` with the web client's headers and a
  ``{query_str, params}`` body (no system prompt; ``max_tokens``, ``temperature`` and
  ``num_search_results`` are not sent). The SSE events are JSON snapshots merged into one
  (see :func:`~websearch_core.providers._perplexity_parse.merge_ask_events`); a transport
  failure before any response is retried exactly once. ``auth_mode`` is ``"oauth"`` (also
  for cookies) or ``"anonymous"``.
* **Limits:** ``num_search_results`` sets the API's search breadth (API-key mode only);
  ``limit`` cuts the returned sources in both modes.
* **Results:** sources are one per ``citations`` URL, enriched from the ``search_results``
  entry with the same URL (title, snippet, ``date``), and the same URLs are the citations;
  without citations the ``search_results`` are the sources; through OpenRouter the
  ``url_citation`` annotations are (snippet = the annotation's ``content``).
* **Errors:** ``Perplexity API error (<status>): <body>`` and ``Perplexity ask API error
  (<status>): <body>`` after the shared classifier; an error inside the stream is
  ``Perplexity API error (<status>): <details>`` (default 500, ``Perplexity API stream
  failed``); an ask event with ``error_code`` is ``Perplexity ask stream error: <message>``
  (400); an ask reply with no body is ``Perplexity ask API returned no response body``
  (:class:`~websearch_core.errors.ProviderUnavailableError`) and one that is not an event
  stream ``Perplexity ask API returned no event stream``
  (:class:`~websearch_core.errors.ResponseParseError`).

Captures (``fixtures/perplexity/``, real ``sonar`` responses from 2026): the completion and
the recorded stream (one JSON chunk per line, ``data:`` stripped by the recorder) carry
top-level ``citations`` but **no** ``search_results``, so their sources are titled by URL.
The stream's last object is ``chat.completion.done`` (not ``chunk``); its usage repeats.
The usage capture adds ``usage.cost`` and ``search_context_size``, which are not used.
``fixtures/openrouter/chat_completions_web_search_url_citation.json`` is an OpenRouter
completion with ``message.annotations[].url_citation``, read by the OpenRouter fallback.

Differences from the reference:

* The models are fixed (``sonar-pro``; ``experimental`` on the ask endpoint): the reference
  reads ``PI_PERPLEXITY_API_MODEL`` and ``PI_PERPLEXITY_MODEL`` and can switch to the
  Responses API with ``PI_PERPLEXITY_RESPONSES``; none of those variables are read here.
* The reference skips an OAuth token whose JWT ``exp`` is within five minutes. Here the
  stored expiry is used, and such a token is refreshed through the hook instead; without a
  hook that method fails and the next one is tried (so an expired token alone does not
  fall back to anonymous search).
* The ask endpoint's ``timezone`` is ``TZ`` when it names an IANA zone, else ``UTC``.
* A stream that breaks mid-event counts as a transport failure on the ask endpoint and is
  sent once more, like a connection that failed before any response.

Docs: https://docs.perplexity.ai/api-reference/chat-completions-post
"""

import time
import uuid
from dataclasses import dataclass
from datetime import date
from typing import Any, Final, Literal

from ..credentials import OAuthToken
from ..errors import (
    ProviderConnectionError,
    ProviderUnavailableError,
    ResponseParseError,
    SearchProviderError,
)
from ..html import CHROME_USER_AGENT
from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._perplexity_parse import (
    AskResult,
    events_json,
    parse_ask,
    parse_chat_chunks,
    parse_chat_completion,
)
from .base import (
    ErrorMap,
    Flow,
    ProtocolProvider,
    ProviderContext,
    ProviderInfo,
    raise_for_error_map,
)

__all__ = [
    "ASK_ENDPOINT",
    "CHAT_ENDPOINT",
    "INFO",
    "OPENROUTER_ENDPOINT",
    "AuthMethod",
    "PerplexityProvider",
    "api_body",
    "ask_body",
    "auth_methods",
]

CHAT_ENDPOINT: Final = "https://api.perplexity.ai/chat/completions"
OPENROUTER_ENDPOINT: Final = "https://openrouter.ai/api/v1/chat/completions"
ASK_ENDPOINT: Final = "https://www.perplexity.ai/rest/sse/perplexity_ask"
API_MODEL: Final = "sonar-pro"
ASK_MODEL: Final = "experimental"
ASK_VERSION: Final = "2.18"
DEFAULT_MAX_TOKENS: Final = 8192
DEFAULT_TEMPERATURE: Final = 0.2
DEFAULT_SEARCH_RESULTS: Final = 20
COOKIES_ENV: Final = "PERPLEXITY_COOKIES"
OPENROUTER_ENV: Final = ("OPENROUTER_API_KEY",)
OAUTH_MIN_LIFETIME: Final = 300.0
"""A stored token that expires sooner than this is refreshed before use."""
APP_USER_AGENT: Final = "Perplexity/641 CFNetwork/1568 Darwin/25.2.0"
SESSION_COOKIE: Final = "__Secure-next-auth.session-token"

INFO = ProviderInfo(
    id="perplexity",
    label="Perplexity",
    kind="answer",
    description="Uses auth when configured; explicit selection falls back to anonymous search",
    docs_url="https://docs.perplexity.ai/api-reference/chat-completions-post",
    env_vars=("PERPLEXITY_API_KEY", "PPLX_API_KEY"),
    honours=frozenset(
        {
            "query",
            "recency",
            "limit",
            "num_search_results",
            "max_tokens",
            "temperature",
            "date_after",
            "date_before",
            "include_domains",
            "exclude_domains",
            "language",
        }
    ),
    default_results=DEFAULT_SEARCH_RESULTS,
    max_results=None,
    index="perplexity",
)

MethodKind = Literal["cookies", "oauth", "api_key", "openrouter", "anonymous"]
ASK_KINDS: Final = frozenset({"cookies", "oauth", "anonymous"})
API_ERRORS: Final = ErrorMap(prefix="Perplexity API error")
ASK_ERRORS: Final = ErrorMap(prefix="Perplexity ask API error")


@dataclass(frozen=True, slots=True)
class AuthMethod:
    """One way to reach Perplexity; ``secret`` is the cookie header or key (if any)."""

    kind: MethodKind
    secret: str | None = None

    def __repr__(self) -> str:
        return f"AuthMethod(kind={self.kind!r})"


def auth_methods(context: ProviderContext, api_key: str | None) -> list[AuthMethod]:
    """The methods to try, in order; ``anonymous`` only when there is no other."""
    methods: list[AuthMethod] = []
    cookies = context.credentials.env(COOKIES_ENV)
    if cookies:
        methods.append(AuthMethod("cookies", cookies))
    if context.credentials.oauth_token(INFO.id) is not None:
        methods.append(AuthMethod("oauth"))
    if api_key:
        methods.append(AuthMethod("api_key", api_key))
    openrouter = context.credentials.api_key("openrouter", OPENROUTER_ENV)
    if openrouter:
        methods.append(AuthMethod("openrouter", openrouter))
    return methods or [AuthMethod("anonymous")]


def _us_date(day: date) -> str:
    return f"{day.month}/{day.day}/{day.year}"


def _filters(params: SearchParams) -> dict[str, Any]:
    """The optional search filters both modes send."""
    filters: dict[str, Any] = {}
    domains = [*params.include_domains, *(f"-{d}" for d in params.exclude_domains)]
    if domains:
        filters["search_domain_filter"] = domains
    if params.date_after is not None:
        filters["search_after_date_filter"] = _us_date(params.date_after)
    if params.date_before is not None:
        filters["search_before_date_filter"] = _us_date(params.date_before)
    if params.language:
        filters["search_language_filter"] = [params.language.split("-")[0].lower()]
    return filters


def _recency(params: SearchParams) -> str | None:
    if params.date_after is not None or params.date_before is not None:
        return None
    return params.recency


def api_body(params: SearchParams, system_prompt: str, model: str = API_MODEL) -> dict[str, Any]:
    """The chat-completions body for ``params`` (pure).

    Example:
        >>> api_body(SearchParams(query="x"), "sys")["num_search_results"]
        20
    """
    body: dict[str, Any] = {
        "model": model,
        "messages": [
            {"role": "system", "content": system_prompt},
            {"role": "user", "content": params.query},
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": params.max_tokens or DEFAULT_MAX_TOKENS,
        "temperature": DEFAULT_TEMPERATURE if params.temperature is None else params.temperature,
        "search_mode": "web",
        "num_search_results": params.num_search_results or DEFAULT_SEARCH_RESULTS,
        "web_search_options": {"search_type": "pro", "search_context_size": "high"},
        "enable_search_classifier": True,
        "reasoning_effort": "medium",
        "language_preference": "en",
        "return_related_questions": True,
        **_filters(params),
    }
    recency = _recency(params)
    if recency is not None:
        body["search_recency_filter"] = recency
    return body


def _host_timezone(context: ProviderContext) -> str:
    """The IANA zone in ``TZ`` (``Europe/Lisbon``), else ``UTC``."""
    zone = (context.credentials.env("TZ") or "").lstrip(":")
    return zone if "/" in zone else "UTC"


def ask_body(
    params: SearchParams, *, anonymous: bool, timezone: str = "UTC", model: str = ASK_MODEL
) -> dict[str, Any]:
    """The ask endpoint's ``{query_str, params}`` body (pure apart from the fresh uuids)."""
    fields: dict[str, Any] = {
        "query_str": params.query,
        "search_focus": "internet",
        "mode": "copilot",
        "model_preference": model,
        "sources": ["web"],
        "attachments": [],
        "frontend_uuid": str(uuid.uuid4()),
        "frontend_context_uuid": str(uuid.uuid4()),
        "version": ASK_VERSION,
        "language": "en-US",
        "timezone": timezone,
        "search_recency_filter": _recency(params),
        "is_incognito": True,
        "use_schematized_api": True,
        "skip_search_enabled": False,
        "always_search_override": True,
        "prompt_source": "user",
        "source": "default",
        "local_search_enabled": False,
        "should_ask_for_mcp_tool_confirmation": False,
        "supports_tool_approval_modal": False,
        "force_enable_browser_agent": False,
        "is_local_browser_available": False,
        "is_local_browser_allowed": False,
        **_filters(params),
    }
    if anonymous:
        fields["send_back_text_in_streaming_api"] = True
    return {"query_str": params.query, "params": fields}


def ask_headers(kind: MethodKind, secret: str | None, request_id: str) -> dict[str, str]:
    """The ask endpoint's headers for ``kind`` (``secret``: cookie header or OAuth token)."""
    headers = {
        "Content-Type": "application/json",
        "Accept": "text/event-stream",
        "Origin": "https://www.perplexity.ai",
        "Referer": "https://www.perplexity.ai/",
        "User-Agent": CHROME_USER_AGENT if kind == "anonymous" else APP_USER_AGENT,
        "X-Request-ID": request_id,
    }
    if kind == "oauth" and secret:
        headers["Cookie"] = f"{SESSION_COOKIE}={secret}"
    elif kind == "cookies" and secret:
        headers["Cookie"] = secret
    if kind != "anonymous":
        headers.update(
            {
                "X-App-ApiClient": "default",
                "X-App-ApiVersion": ASK_VERSION,
                "X-Perplexity-Request-Reason": "submit",
            }
        )
    return headers


class PerplexityProvider(ProtocolProvider):
    """The Perplexity provider (see the module docstring for the wire details).

    Each auth method is one step of the core's request loop: :meth:`prepare` lists the
    methods (and resolves the OAuth token), :meth:`follow_up` moves to the next method after
    a failed answer and :meth:`after_failure` after a transport failure. ``flow.state``
    keeps the methods, which request used which method (``built``), the last method given
    up after a transport failure (``failed``), the ask requests already sent twice
    (``resent``) and the parsed answer (``outcome``).
    """

    info = INFO
    errors = API_ERRORS
    oauth_refresh_statuses = frozenset({401, 403})

    def is_available(self, context: ProviderContext) -> bool:
        """Cookies, a stored OAuth token or a Perplexity key (OpenRouter alone is not enough)."""
        return bool(
            context.credentials.env(COOKIES_ENV)
            or context.credentials.oauth_token(self.info.id) is not None
            or self.api_key(context)
        )

    def is_explicitly_available(self, context: ProviderContext) -> bool:
        """Always: without credentials an explicit selection searches anonymously."""
        return True

    async def prepare(self, flow: Flow) -> None:
        """Choose the auth methods; resolve the OAuth token now, the only async step.

        A token that cannot be made valid is remembered as that method's failure, so the
        other methods still run and it is raised only if it is the last one.
        """
        methods = auth_methods(flow.context, self.api_key(flow.context))
        flow.state.update(methods=methods, built=[], failed=-1, resent=[])
        if any(method.kind == "oauth" for method in methods):
            try:
                flow.state["oauth"] = await _fresh_token(flow.context)
            except SearchProviderError as error:
                flow.state["oauth_error"] = error

    def first_request(self, flow: Flow) -> HttpRequest:
        """The request of the first usable method."""
        return self._from(flow, 0, None)

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """``None`` once a method answered; else the next method's request.

        Also asked again after the loop refreshed the OAuth token: the history is the same
        then, so the same (OAuth) step is built again with ``flow.token``.

        Raises:
            SearchProviderError: The last method failed too (its error, typed by its mode's
                error map, or the OAuth token's failure when that method was last).
        """
        index, error = -1, None
        if flow.exchanges:
            index = self._index(flow, flow.last.request)
            error = self._failure(flow, index)
            if error is None:
                return None
        return self._from(flow, max(index, flow.state["failed"]) + 1, error)

    def after_failure(
        self, flow: Flow, request: HttpRequest, error: SearchProviderError
    ) -> HttpRequest:
        """An ask request once more after a broken connection; else the next method.

        Raises:
            SearchProviderError: No method is left (``error``, or the OAuth token's failure).
        """
        index = self._index(flow, request)
        resent: list[HttpRequest] = flow.state["resent"]
        ask = flow.state["methods"][index].kind in ASK_KINDS
        if ask and isinstance(error, ProviderConnectionError) and request not in resent:
            resent.append(request)
            return request
        flow.state["failed"] = index
        return self._from(flow, index + 1, error)

    def parse(self, flow: Flow) -> SearchResponse:
        """The answer :meth:`follow_up` read from the last exchange."""
        outcome = self._outcome(flow)
        if isinstance(outcome, SearchProviderError):
            raise outcome
        return outcome

    # --- steps ---------------------------------------------------------------------------------

    def _from(self, flow: Flow, start: int, error: SearchProviderError | None) -> HttpRequest:
        """The request of the first usable method from ``start``; else raise the last error."""
        methods: list[AuthMethod] = flow.state["methods"]
        for index in range(start, len(methods)):
            if methods[index].kind == "oauth" and "oauth_error" in flow.state:
                error = flow.state["oauth_error"]
                continue
            request = self._build(flow, index)
            flow.state["built"].append((request, index))
            return request
        if error is None:
            raise AssertionError("a step was asked for past the last method")
        raise error

    def _build(self, flow: Flow, index: int) -> HttpRequest:
        method: AuthMethod = flow.state["methods"][index]
        context = flow.context
        if method.kind == "oauth":
            # The token prepare() resolved, or the one the loop refreshed after a 401/403.
            flow.token = flow.token or flow.state["oauth"]
            secret = flow.token.access_token if flow.token is not None else None
        else:
            flow.token = None  # only the OAuth step may make the loop refresh
            secret = method.secret
        if method.kind in ASK_KINDS:
            body = ask_body(
                flow.params, anonymous=method.kind == "anonymous", timezone=_host_timezone(context)
            )
            headers = ask_headers(method.kind, secret, str(uuid.uuid4()))
            return HttpRequest(
                method="POST", url=ASK_ENDPOINT, headers=headers, json=body, stream=True
            )
        openrouter = method.kind == "openrouter"
        model = f"perplexity/{API_MODEL}" if openrouter else API_MODEL
        return HttpRequest(
            method="POST",
            url=OPENROUTER_ENDPOINT if openrouter else CHAT_ENDPOINT,
            headers={
                "Authorization": f"Bearer {secret}",
                "Content-Type": "application/json",
                "Accept": "text/event-stream",
            },
            json=api_body(flow.params, context.system_prompt, model),
            stream=True,
        )

    @staticmethod
    def _index(flow: Flow, request: HttpRequest) -> int:
        """The method ``request`` was built for (requests are matched by identity)."""
        built: list[tuple[HttpRequest, int]] = flow.state["built"]
        return next(index for sent, index in built if sent is request)

    def _failure(self, flow: Flow, index: int) -> SearchProviderError | None:
        """What went wrong with the last exchange (method ``index``), or ``None``."""
        response = flow.last.response
        if 200 <= response.status < 300:
            outcome = self._outcome(flow)
            return outcome if isinstance(outcome, SearchProviderError) else None
        ask = flow.state["methods"][index].kind in ASK_KINDS
        try:
            raise_for_error_map(self.info, ASK_ERRORS if ask else API_ERRORS, response)
        except SearchProviderError as error:
            return error
        return None  # pragma: no cover  (a non-2xx always raises)

    def _outcome(self, flow: Flow) -> SearchResponse | SearchProviderError:
        """The last 2xx answer parsed (once; kept in ``flow.state``)."""
        exchange = flow.last
        cached = flow.state.get("outcome")
        outcome: SearchResponse | SearchProviderError
        if cached is not None and cached[0] is exchange:
            outcome = cached[1]
            return outcome
        kind = flow.state["methods"][self._index(flow, exchange.request)].kind
        try:
            outcome = _read_answer(kind, exchange.request, exchange.response, flow.params)
        except SearchProviderError as error:
            outcome = error
        flow.state["outcome"] = (exchange, outcome)
        return outcome


async def _fresh_token(context: ProviderContext) -> OAuthToken:
    """The stored token, refreshed first when it expires within :data:`OAUTH_MIN_LIFETIME`."""
    token = await context.credentials.valid_oauth_token(INFO.id)
    expires = token.expires_at
    if expires is not None and expires - time.time() < OAUTH_MIN_LIFETIME:
        token = await context.credentials.valid_oauth_token(INFO.id, force_refresh=True)
    return token


def _read_answer(
    kind: MethodKind,
    request: HttpRequest,
    response: HttpResponse | SseResponse,
    params: SearchParams,
) -> SearchResponse:
    """A 2xx answer of method ``kind`` to ``request`` as a response (pure)."""
    assert isinstance(response, SseResponse)  # every request streams
    if kind not in ASK_KINDS:
        model = str(request.json["model"])
        if response.events:
            chunks = events_json(response.events)
            return parse_chat_chunks(chunks, requested_model=model, limit=params.limit)
        data = response.as_http().json(INFO.id, "Perplexity")
        return parse_chat_completion(data, requested_model=model, limit=params.limit)
    if not response.body.strip():
        raise ProviderUnavailableError(INFO.id, "Perplexity ask API returned no response body", 500)
    if not response.events:
        raise ResponseParseError(INFO.id, "Perplexity ask API returned no event stream", 502)
    requested = AskResult(
        auth_mode="anonymous" if kind == "anonymous" else "oauth",
        requested_model=ASK_MODEL,
        request_id=request.headers["X-Request-ID"],
    )
    return parse_ask(events_json(response.events), requested, limit=params.limit)
