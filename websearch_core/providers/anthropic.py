r"""Anthropic: Claude answers from live results of its server-side ``web_search`` tool.

* **Endpoint:** ``POST <base>/v1/messages`` (the Messages API), non-streaming JSON. ``<base>``
  is ``ANTHROPIC_SEARCH_BASE_URL``, else ``ANTHROPIC_BASE_URL``, else
  ``https://api.anthropic.com``; trailing slashes and a trailing ``/v1`` are removed. The
  search-only variable never changes anything but this provider.
* **Body:** ``model`` (``ANTHROPIC_SEARCH_MODEL``, default ``claude-haiku-4-5``),
  ``max_tokens`` (``max_tokens``, default 4096), ``messages: [{"role": "user", "content":
  <query>}]``, ``system: [{"type": "text", "text": <system prompt>}]``, ``tools:
  [{"type": "web_search_20250305", "name": "web_search"}]`` with ``allowed_domains``
  (``include_domains``) or else ``blocked_domains`` (``exclude_domains``; the API refuses
  both at once), and ``temperature`` when given, unless the model refuses it (Opus 4.7 and
  later, Sonnet 5 and later, Fable / Mythos 5).
* **Auth:** ``ANTHROPIC_SEARCH_API_KEY`` first, then ``ANTHROPIC_API_KEY`` (or a key given in
  code, the config file or the credential store), then an OAuth token stored for provider
  ``"anthropic"``. An API key goes in ``x-api-key`` on Anthropic's own host and as
  ``Authorization: Bearer`` on any other host (gateways). An OAuth token (a stored one, or a
  key containing ``sk-ant-oat``) is always a bearer token with the ``oauth-2025-04-20``
  beta; a stored token that gets a 401 is refreshed once through the
  ``WebSearch(oauth_refreshers=...)`` hook and the request retried once. Headers also carry
  ``anthropic-version: 2023-06-01`` and ``anthropic-beta: web-search-2025-03-05``.
* **pause_turn:** when the server pauses a long turn (``stop_reason: "pause_turn"``, after
  many searches) the request is sent again with the paused content as the assistant turn,
  so the model continues where it stopped; at most :data:`MAX_CONTINUATIONS` times. The
  turns are read as one assistant message.
* **Results:** ``text`` blocks make the answer: consecutive blocks are concatenated as they
  are (the API splits one paragraph around each citation) and runs of text separated by tool
  blocks are joined by a blank line. ``web_search_tool_result`` blocks give the sources
  (title, URL, ``page_age`` as the published date; no snippet), de-duplicated by URL and cut
  to ``num_search_results`` or ``limit`` when given. Each text block's
  ``web_search_result_location`` citations become citations (URL, title, ``cited_text``;
  exact repeats dropped). ``server_tool_use`` inputs give the search queries; ``usage``
  gives the tokens and ``server_tool_use.web_search_requests``; ``model``; the request id
  is the ``request-id`` header, else the message ``id``.
* **Age:** ``page_age`` is either relative (``6 days ago``, ``29 minutes ago``: months are
  30 days, years 365) or a date (``August 12, 2025``), parsed leniently; anything else
  gives no age.
* **Errors:** ``Anthropic API error (<status>): <body>`` after the shared classifier; a 404
  keeps status 404 so the chain prints the spec's ``Anthropic web search returned 404
  (model or endpoint not found).``. No credentials: ``No Anthropic credentials found. Set
  ANTHROPIC_SEARCH_API_KEY or ANTHROPIC_API_KEY, or configure Anthropic OAuth.``.
* **Streaming:** the provider does not stream, but :func:`message_from_stream` folds a
  Messages SSE stream into the same message, so a stream and a JSON body parse alike.

Differences from the reference and quirks of the captures:

* The reference joins text blocks with a blank line; the captures
  (``fixtures/anthropic/messages_web_search_tool_call*.json``) show the API cutting one
  sentence into blocks around each citation (``"...\n- "``, ``"Temperature: 66°F"``,
  ``"\n- "``), so a blank line between them would break the list. The captures win.
* The reference sends ``?beta=true``, ``x-app: cli`` and, for OAuth, a Claude Code client
  identity; none of these are sent here. Recency is ignored, as in the reference.
* The pause_turn capture (``messages_web_search_pause_turn_call1.json``) ends with a
  ``server_tool_use`` that has no result yet; its continuation supplies it.
* Captured ``web_search_tool_result`` items carry ``encrypted_content`` (unused) and
  ``page_age: null`` for many results.

Docs: https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
"""

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Literal
from urllib.parse import urlsplit

from ..errors import AuthorizationError, ProviderNotConfiguredError, ResponseParseError
from ..models import SearchCitation, SearchParams, SearchResponse, SearchSource, SearchUsage
from ..sse import SseEvent
from ..transport import HttpRequest, HttpResponse, raise_for_api_status, raise_for_status
from ._common import age_seconds_from_date, collapse_whitespace, is_http_url
from .base import ProviderContext, ProviderInfo, SearchProvider

__all__ = [
    "ANTHROPIC_BASE_URL",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "INFO",
    "MAX_CONTINUATIONS",
    "MISSING_CREDENTIALS_MESSAGE",
    "AnthropicAuth",
    "AnthropicProvider",
    "base_url",
    "message_from_stream",
    "messages_url",
    "page_age_seconds",
    "parse_messages",
    "request_body",
    "request_headers",
    "temperature_allowed",
]

ANTHROPIC_BASE_URL: Final = "https://api.anthropic.com"
ANTHROPIC_HOST: Final = "api.anthropic.com"
BASE_URL_ENV_VARS: Final = ("ANTHROPIC_SEARCH_BASE_URL", "ANTHROPIC_BASE_URL")
MODEL_ENV_VAR: Final = "ANTHROPIC_SEARCH_MODEL"
DEFAULT_MODEL: Final = "claude-haiku-4-5"
DEFAULT_MAX_TOKENS: Final = 4096
API_VERSION: Final = "2023-06-01"
WEB_SEARCH_BETA: Final = "web-search-2025-03-05"
OAUTH_BETA: Final = "oauth-2025-04-20"
OAUTH_KEY_MARKER: Final = "sk-ant-oat"
TOOL_TYPE: Final = "web_search_20250305"
MAX_CONTINUATIONS: Final = 3
"""How many times a paused turn is resumed before the answer so far is returned."""

MISSING_CREDENTIALS_MESSAGE: Final = (
    "No Anthropic credentials found. Set ANTHROPIC_SEARCH_API_KEY or ANTHROPIC_API_KEY, "
    "or configure Anthropic OAuth."
)
UNEXPECTED_SHAPE: Final = "Anthropic API returned an unexpected response shape"

INFO = ProviderInfo(
    id="anthropic",
    label="Anthropic",
    kind="answer",
    description="Claude's native web_search tool (uses Anthropic OAuth or ANTHROPIC_API_KEY)",
    docs_url="https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool",
    env_vars=("ANTHROPIC_SEARCH_API_KEY", "ANTHROPIC_API_KEY"),
    honours=frozenset(
        {
            "query",
            "limit",
            "num_search_results",
            "max_tokens",
            "temperature",
            "include_domains",
            "exclude_domains",
        }
    ),
    default_results=None,
    max_results=None,
    index="anthropic",
)

_RELATIVE_AGE = re.compile(
    r"^(\d+)\s*(s|sec|second|m|min|minute|h|hour|d|day|w|week|mo|month|y|year)s?\s*(?:ago)?$",
    re.IGNORECASE,
)
_UNIT_SECONDS: Final = {
    "s": 1,
    "sec": 1,
    "second": 1,
    "m": 60,
    "min": 60,
    "minute": 60,
    "h": 3600,
    "hour": 3600,
    "d": 86_400,
    "day": 86_400,
    "w": 7 * 86_400,
    "week": 7 * 86_400,
    "mo": 30 * 86_400,
    "month": 30 * 86_400,
    "y": 365 * 86_400,
    "year": 365 * 86_400,
}
_OPUS = re.compile(r"opus-(\d+)-(\d+)")
_SONNET = re.compile(r"sonnet-(\d+)")
_NO_TEMPERATURE_FAMILIES = re.compile(r"(?:fable|mythos)-(\d+)")
_STREAM_ERROR_STATUS: Final = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "billing_error": 402,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
}


@dataclass(frozen=True, slots=True)
class AnthropicAuth:
    """The credential for one search and how it is sent."""

    token: str = field(repr=False)
    kind: Literal["api_key", "oauth"]
    stored_oauth: bool = False
    """Came from the credential store, so a 401 may be answered by refreshing it."""


def base_url(environ: Mapping[str, str]) -> str:
    """The API origin: the search-only override, the general one, or Anthropic's.

    Example:
        >>> base_url({"ANTHROPIC_BASE_URL": "https://gw.example/anthropic/v1/"})
        'https://gw.example/anthropic'
    """
    for name in BASE_URL_ENV_VARS:
        value = (environ.get(name) or "").strip()
        if value:
            value = value.rstrip("/")
            return value.removesuffix("/v1").rstrip("/") or ANTHROPIC_BASE_URL
    return ANTHROPIC_BASE_URL


def messages_url(base: str) -> str:
    """``<base>/v1/messages``."""
    return f"{base}/v1/messages"


def temperature_allowed(model: str) -> bool:
    """False for the models that reject ``temperature`` (Opus 4.7+, Sonnet 5+, Fable/Mythos 5+).

    Example:
        >>> temperature_allowed("claude-haiku-4-5"), temperature_allowed("claude-opus-4-7")
        (True, False)
    """
    lowered = model.lower()
    opus = _OPUS.search(lowered)
    if opus and (int(opus.group(1)), int(opus.group(2))) >= (4, 7):
        return False
    sonnet = _SONNET.search(lowered)
    if sonnet and int(sonnet.group(1)) >= 5:
        return False
    family = _NO_TEMPERATURE_FAMILIES.search(lowered)
    return not (family and int(family.group(1)) >= 5)


def _tool(params: SearchParams) -> dict[str, Any]:
    tool: dict[str, Any] = {"type": TOOL_TYPE, "name": "web_search"}
    if params.include_domains:
        tool["allowed_domains"] = list(params.include_domains)
    elif params.exclude_domains:
        tool["blocked_domains"] = list(params.exclude_domains)
    return tool


def request_body(
    params: SearchParams,
    *,
    model: str = DEFAULT_MODEL,
    system_prompt: str = "",
    assistant_content: Sequence[Any] = (),
) -> dict[str, Any]:
    """The Messages API body for ``params`` (pure).

    Args:
        params: The search.
        model: The Claude model.
        system_prompt: Sent as one ``system`` text block when not blank.
        assistant_content: The content of a paused turn, sent back so the model continues.

    Example:
        >>> request_body(SearchParams(query="x"))["tools"]
        [{'type': 'web_search_20250305', 'name': 'web_search'}]
    """
    messages: list[dict[str, Any]] = [{"role": "user", "content": params.query}]
    if assistant_content:
        messages.append({"role": "assistant", "content": list(assistant_content)})
    body: dict[str, Any] = {
        "model": model,
        "max_tokens": params.max_tokens or DEFAULT_MAX_TOKENS,
        "messages": messages,
        "tools": [_tool(params)],
    }
    if system_prompt.strip():
        body["system"] = [{"type": "text", "text": system_prompt}]
    if params.temperature is not None and temperature_allowed(model):
        body["temperature"] = params.temperature
    return body


def request_headers(auth: AnthropicAuth, base: str) -> dict[str, str]:
    """Headers for ``auth`` against ``base``: ``x-api-key`` on Anthropic's host, else Bearer."""
    headers = {
        "Accept": "application/json",
        "Content-Type": "application/json",
        "anthropic-version": API_VERSION,
        "anthropic-beta": WEB_SEARCH_BETA,
    }
    if auth.kind == "oauth":
        headers["Authorization"] = f"Bearer {auth.token}"
        headers["anthropic-beta"] = f"{OAUTH_BETA},{WEB_SEARCH_BETA}"
    elif urlsplit(base).hostname == ANTHROPIC_HOST:
        headers["x-api-key"] = auth.token
    else:
        headers["Authorization"] = f"Bearer {auth.token}"
    return headers


def page_age_seconds(text: str | None, *, now: datetime | None = None) -> int | None:
    """Age in seconds of a ``page_age``: relative (``6 days ago``) or a written date.

    Example:
        >>> page_age_seconds("2 weeks ago"), page_age_seconds("soon")
        (1209600, None)
    """
    if not text or not text.strip():
        return None
    match = _RELATIVE_AGE.match(text.strip())
    if match:
        return int(match.group(1)) * _UNIT_SECONDS[match.group(2).lower()]
    return age_seconds_from_date(text, now=now)


def _text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    return value.strip() or None


def _tool_name(name: Any) -> str:
    """``web_search`` from ``web_search`` or a prefixed ``mcp__x__web_search``."""
    if not isinstance(name, str):
        return ""
    return re.split(r"__|\.|/", name)[-1]


@dataclass
class _Collected:
    groups: list[list[str]] = field(default_factory=lambda: [[]])
    sources: dict[str, SearchSource] = field(default_factory=dict)
    citations: dict[tuple[str, str, str | None], SearchCitation] = field(default_factory=dict)
    queries: list[str] = field(default_factory=list)

    def text(self, block: Mapping[str, Any]) -> None:
        value = block.get("text")
        if isinstance(value, str):
            self.groups[-1].append(value)
        for citation in block.get("citations") or ():
            self.citation(citation)

    def citation(self, item: Any) -> None:
        if not isinstance(item, Mapping) or item.get("type") != "web_search_result_location":
            return
        url = _text(item.get("url"))
        if url is None or not is_http_url(url):
            return
        title = collapse_whitespace(item["title"]) if isinstance(item.get("title"), str) else ""
        cited = _text(item.get("cited_text"))
        key = (url, title, cited)
        self.citations.setdefault(key, SearchCitation(url=url, title=title, cited_text=cited))

    def results(self, block: Mapping[str, Any], now: datetime | None) -> None:
        content = block.get("content")
        if not isinstance(content, list):  # an error object: the search failed, no results
            return
        for item in content:
            if not isinstance(item, Mapping) or item.get("type") != "web_search_result":
                continue
            url = _text(item.get("url"))
            if url is None or not is_http_url(url) or url in self.sources:
                continue
            title = _text(item.get("title"))
            age = _text(item.get("page_age"))
            self.sources[url] = SearchSource(
                title=collapse_whitespace(title) if title else url,
                url=url,
                published_date=age,
                age_seconds=page_age_seconds(age, now=now),
            )

    def tool_use(self, block: Mapping[str, Any]) -> None:
        self.groups.append([])
        if _tool_name(block.get("name")) != "web_search":
            return
        tool_input = block.get("input")
        query = _text(tool_input.get("query")) if isinstance(tool_input, Mapping) else None
        if query:
            self.queries.append(query)

    def answer(self) -> str | None:
        runs = ("".join(group).strip() for group in self.groups)
        return "\n\n".join(run for run in runs if run) or None


def _collect(content: Iterable[Any], now: datetime | None) -> _Collected:
    collected = _Collected()
    for block in content:
        if not isinstance(block, Mapping):
            continue
        kind = block.get("type")
        if kind == "text":
            collected.text(block)
        elif kind == "web_search_tool_result":
            collected.groups.append([])
            collected.results(block, now)
        elif kind in ("server_tool_use", "tool_use"):
            collected.tool_use(block)
    return collected


def _usage(messages: Sequence[Mapping[str, Any]]) -> SearchUsage | None:
    totals: dict[str, int] = {}
    for message in messages:
        usage = message.get("usage")
        if not isinstance(usage, Mapping):
            continue
        server = usage.get("server_tool_use")
        values = {
            "input_tokens": usage.get("input_tokens"),
            "output_tokens": usage.get("output_tokens"),
            "search_requests": server.get("web_search_requests")
            if isinstance(server, Mapping)
            else None,
        }
        for name, value in values.items():
            if isinstance(value, int) and not isinstance(value, bool):
                totals[name] = totals.get(name, 0) + value
    return SearchUsage(**totals) if totals else None


def _content(message: Any) -> list[Any]:
    if not isinstance(message, Mapping) or not isinstance(message.get("content"), list):
        raise ResponseParseError(INFO.id, UNEXPECTED_SHAPE, 502)
    content: list[Any] = message["content"]
    return content


def parse_messages(
    messages: Sequence[Any],
    params: SearchParams | None = None,
    *,
    request_id: str | None = None,
    now: datetime | None = None,
) -> SearchResponse:
    """One assistant turn, possibly spread over paused messages, as a response (pure).

    Args:
        messages: Decoded Messages API responses, in order (one, or a paused turn and its
            continuations).
        params: The search; ``num_search_results`` or ``limit`` cuts the sources.
        request_id: The ``request-id`` header, preferred over the message id.
        now: Reference time for dated ``page_age`` values.

    Raises:
        ResponseParseError: A message is not a Messages API response.
    """
    content = [block for message in messages for block in _content(message)]
    collected = _collect(content, now)
    last: Mapping[str, Any] = messages[-1]
    sources = tuple(collected.sources.values())
    count = params.result_count if params is not None else None
    if count:
        sources = sources[:count]
    model = _text(last.get("model"))
    return SearchResponse(
        provider=INFO.id,
        answer=collected.answer(),
        sources=sources,
        citations=tuple(collected.citations.values()),
        search_queries=tuple(collected.queries),
        usage=_usage(messages),
        model=model,
        request_id=request_id or _text(last.get("id")),
    )


def _decode(data: str) -> dict[str, Any]:
    try:
        value = json.loads(data)
    except ValueError:
        raise ResponseParseError(INFO.id, "Anthropic stream carried invalid JSON", 502) from None
    if not isinstance(value, dict):
        raise ResponseParseError(INFO.id, "Anthropic stream carried invalid JSON", 502)
    return value


def _stream_error(payload: Mapping[str, Any]) -> None:
    error = payload.get("error")
    error = error if isinstance(error, Mapping) else {}
    kind = str(error.get("type") or "api_error")
    detail = str(error.get("message") or kind)
    status = _STREAM_ERROR_STATUS.get(kind, 500)
    response = HttpResponse(status=status, body=json.dumps(payload).encode())
    raise_for_status(INFO.id, response, f"Anthropic API error ({status}): {kind}: {detail}")


def _apply_delta(block: dict[str, Any], delta: Mapping[str, Any], partial: list[str]) -> None:
    kind = delta.get("type")
    if kind == "text_delta":
        block["text"] = block.get("text", "") + str(delta.get("text", ""))
    elif kind == "citations_delta":
        block.setdefault("citations", []).append(delta.get("citation"))
    elif kind == "input_json_delta":
        partial.append(str(delta.get("partial_json", "")))
    elif kind == "thinking_delta":
        block["thinking"] = block.get("thinking", "") + str(delta.get("thinking", ""))
    elif kind == "signature_delta":
        block["signature"] = str(delta.get("signature", ""))


def _finish_input(block: dict[str, Any], partial: list[str]) -> None:
    if not partial:
        return
    text = "".join(partial).strip()
    try:
        block["input"] = json.loads(text) if text else {}
    except ValueError:
        raise ResponseParseError(
            INFO.id, "Anthropic stream carried invalid tool input", 502
        ) from None


class _StreamFold:
    """The state of one Messages stream being folded into a message."""

    def __init__(self) -> None:
        self.message: dict[str, Any] | None = None
        self.blocks: dict[int, dict[str, Any]] = {}
        self.partial: dict[int, list[str]] = {}

    def feed(self, payload: Mapping[str, Any], kind: str) -> None:
        index = payload.get("index")
        position = index if isinstance(index, int) else len(self.blocks)
        if kind == "error":
            _stream_error(payload)
        elif kind == "message_start" and isinstance(payload.get("message"), Mapping):
            self.message = dict(payload["message"])
        elif kind == "content_block_start" and isinstance(payload.get("content_block"), Mapping):
            self.blocks[position] = dict(payload["content_block"])
            self.partial[position] = []
        elif kind == "content_block_delta" and isinstance(payload.get("delta"), Mapping):
            block = self.blocks.setdefault(position, {})
            _apply_delta(block, payload["delta"], self.partial.setdefault(position, []))
        elif kind == "content_block_stop":
            _finish_input(self.blocks.setdefault(position, {}), self.partial.pop(position, []))
        elif kind == "message_delta":
            self.message_delta(payload)

    def message_delta(self, payload: Mapping[str, Any]) -> None:
        if self.message is None:
            return
        delta = payload.get("delta")
        if isinstance(delta, Mapping):
            self.message.update({k: v for k, v in delta.items() if v is not None})
        usage = payload.get("usage")
        if isinstance(usage, Mapping):
            self.message["usage"] = {**(self.message.get("usage") or {}), **usage}


def message_from_stream(events: Iterable[SseEvent]) -> dict[str, Any]:
    """Fold a Messages API event stream into the message a JSON call returns (pure).

    Handles ``message_start``, ``content_block_start`` / ``_delta`` (text, citations, tool
    input JSON, thinking, signature) / ``_stop``, ``message_delta`` and ``ping``.

    Raises:
        SearchProviderError: An ``error`` event, classified by its error type.
        ResponseParseError: An event is not JSON, or the stream has no ``message_start``.
    """
    fold = _StreamFold()
    for event in events:
        payload = _decode(event.data)
        fold.feed(payload, str(payload.get("type") or event.event))
    if fold.message is None:
        raise ResponseParseError(INFO.id, "Anthropic stream had no message_start event", 502)
    fold.message["content"] = [fold.blocks[index] for index in sorted(fold.blocks)]
    return fold.message


class AnthropicProvider(SearchProvider):
    """The Anthropic provider (see the module docstring for the wire details)."""

    info = INFO

    def is_available(self, context: ProviderContext) -> bool:
        """A key, or a stored OAuth token, for ``anthropic``."""
        if self.api_key(context) is not None:
            return True
        return context.credentials.oauth_token(self.info.id) is not None

    async def resolve_auth(self, context: ProviderContext) -> AnthropicAuth:
        """The key (``x-api-key`` or Bearer) or the stored OAuth token, refreshed if expired.

        Raises:
            ProviderNotConfiguredError: Nothing is configured (the reference's message).
        """
        key = self.api_key(context)
        if key is not None:
            kind: Literal["api_key", "oauth"] = "oauth" if OAUTH_KEY_MARKER in key else "api_key"
            return AnthropicAuth(token=key, kind=kind)
        if context.credentials.oauth_token(self.info.id) is None:
            raise ProviderNotConfiguredError(self.info.id, MISSING_CREDENTIALS_MESSAGE)
        token = await context.credentials.valid_oauth_token(self.info.id)
        return AnthropicAuth(token=token.access_token, kind="oauth", stored_oauth=True)

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        """Ask Claude with the web search tool, resuming a paused turn a few times."""
        auth = await self.resolve_auth(context)
        environ = {name: context.credentials.env(name) or "" for name in BASE_URL_ENV_VARS}
        base = base_url(environ)
        model = context.credentials.env(MODEL_ENV_VAR) or DEFAULT_MODEL
        messages: list[Mapping[str, Any]] = []
        request_id: str | None = None
        for _ in range(MAX_CONTINUATIONS + 1):
            content = [block for message in messages for block in _content(message)]
            body = request_body(
                params, model=model, system_prompt=context.system_prompt, assistant_content=content
            )
            response, auth = await self._exchange(body, base, auth, context)
            data = response.json(self.info.id, self.info.label)
            _content(data)
            messages.append(data)
            request_id = response.header("request-id") or request_id
            if data.get("stop_reason") != "pause_turn":
                break
        return parse_messages(messages, params, request_id=request_id).model_copy(
            update={"auth_mode": auth.kind}
        )

    async def _exchange(
        self, body: dict[str, Any], base: str, auth: AnthropicAuth, context: ProviderContext
    ) -> tuple[HttpResponse, AnthropicAuth]:
        """Send once; a stored OAuth token that gets a 401 is refreshed and sent once more."""
        request = HttpRequest(
            method="POST", url=messages_url(base), headers=request_headers(auth, base), json=body
        )
        response = await context.transport.send(self.info.id, self.info.label, request)
        if response.status == 401 and auth.stored_oauth:
            try:
                fresh = await context.credentials.valid_oauth_token(
                    self.info.id, force_refresh=True
                )
            except AuthorizationError:
                self.check_response(response)
                raise
            auth = AnthropicAuth(token=fresh.access_token, kind="oauth", stored_oauth=True)
            request = HttpRequest(
                method="POST",
                url=messages_url(base),
                headers=request_headers(auth, base),
                json=body,
            )
            response = await context.transport.send(self.info.id, self.info.label, request)
        self.check_response(response)
        return response, auth

    def check_response(self, response: HttpResponse) -> None:
        """Raise ``Anthropic API error (<status>): <body>`` typed by the shared classifier."""
        raise_for_api_status(self.info.id, response, "Anthropic API error")
