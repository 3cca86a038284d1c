"""OpenAI (``codex``): the ChatGPT Codex backend's hosted ``web_search``, streamed as SSE.

* **Endpoint:** ``POST https://chatgpt.com/backend-api/codex/responses``, a Responses API
  event stream (``Accept: text/event-stream``).
* **Auth:** a ChatGPT OAuth access token stored for provider ``"codex"``
  (``CredentialStore.set_oauth``; the login flow is not ours). It is sent as
  ``Authorization: Bearer``; the account id from the token's
  ``https://api.openai.com/auth`` claim (``chatgpt_account_id``) goes in
  ``chatgpt-account-id`` and its residency claim, when present, in
  ``x-openai-internal-codex-residency``. An expired token is refreshed through the
  ``WebSearch(oauth_refreshers=...)`` hook; a 401 forces one refresh and one retry. Also
  sent: ``OpenAI-Beta: responses=experimental``, ``originator`` and ``User-Agent``.
* **Body:** ``model``, ``stream: true``, ``store: false``, ``instructions`` (the system
  prompt), ``input: [{"type": "message", "role": "user", "content": [{"type":
  "input_text", "text": <query>}]}]``, ``tools: [{"type": "web_search",
  "search_context_size": "high"}]``, ``tool_choice: {"type": "web_search"}``,
  ``include: ["web_search_call.action.sources"]``, ``parallel_tool_calls: true``.
  ``recency``, ``max_tokens`` and ``temperature`` are not sent.
* **Model:** ``CODEX_SEARCH_MODEL`` pins one model; otherwise :data:`DEFAULT_MODELS` are
  tried in order, moving on only after a 400 saying the model is not supported for the
  account, or an answer given without searching.
* **Stream:** ``response.created`` / ``response.completed`` give the id, model and usage
  (input tokens exclude cached ones); ``response.output_item.done`` items give the answer
  (``message`` ``output_text`` parts joined by a blank line; else reasoning summaries; else
  the streamed deltas) and the sources: ``web_search_call`` ``action.sources`` /
  ``sources`` / ``results``, and every ``url_citation`` annotation, which is also a
  citation whose text is the answer around it (±100 characters, markdown links reduced to
  their text, at most 300 characters). When no ``url_citation`` came, markdown links and
  bare URLs in the answer are sources too. ``utm_source=openai`` is removed from every URL;
  sources are de-duplicated by URL and cut to ``num_search_results`` or ``limit``.
* **Refusals:** no ``web_search_call`` at all gives ``Codex returned a completion without
  running web search ...`` (502); an image placeholder (``see attached image``) with no
  sources gives ``Codex returned image-only response`` (502).
* **Errors:** ``Codex API error (<status>): <body>`` after the shared classifier (so a 401
  reads ``OpenAI authorization failed (401) ...``). ``error`` and ``response.failed``
  events give ``Codex error (<code>): <message>`` / ``Codex request failed (<code>):
  <message>``, typed by the shared classifier from the status their text implies
  (rate limit 429, unauthorized 401, forbidden 403, timeout 504, else 500).

Captures and differences from the reference:

* ``fixtures/openai/responses_web_search_*.json`` are public Responses API bodies (the same
  item shapes the Codex stream carries) and ``responses_web_search_tool_stream.sse`` a
  public Responses stream; :func:`parse_response_object` and :func:`parse_stream` read
  them. Their ``web_search_call`` items carry ``action.sources`` only as
  ``{"type": "api", "name": "oai-weather"}`` (no URL) or not at all, since the recorder did
  not ask for sources; ``open_page`` actions carry a ``url``, which is used as a source.
  ``chat_completions_search_preview.json`` is the Chat Completions API, which this provider
  never calls; it is refused as an unexpected shape.
* The reference also counts reasoning summaries as answer parts; here they are used only
  when no message text came. The spec's condition for scraping links from the answer (no
  ``url_citation``) is used rather than the reference's (no source at all).
* ``OPENAI_API_KEY`` against the public Responses API is not in the spec and not supported.

Docs: https://platform.openai.com/docs/guides/tools-web-search
"""

import base64
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .. import __version__
from ..credentials import OAuthToken
from ..errors import (
    AuthorizationError,
    ProviderNotConfiguredError,
    ResponseParseError,
    SearchProviderError,
)
from ..models import SearchCitation, SearchParams, SearchResponse, SearchSource, SearchUsage
from ..sse import SseEvent
from ..transport import (
    HttpRequest,
    HttpResponse,
    SseResponse,
    raise_for_api_status,
    raise_for_status,
)
from ._common import collapse_whitespace, is_http_url
from .base import ProviderContext, ProviderInfo, SearchProvider

__all__ = [
    "CODEX_ENDPOINT",
    "DEFAULT_INSTRUCTIONS",
    "DEFAULT_MODELS",
    "INFO",
    "CodexProvider",
    "NoWebSearchError",
    "account_claims",
    "links_in_text",
    "parse_body",
    "parse_response_object",
    "parse_stream",
    "request_body",
    "request_headers",
    "strip_openai_utm",
]

CODEX_ENDPOINT: Final = "https://chatgpt.com/backend-api/codex/responses"
MODEL_ENV_VAR: Final = "CODEX_SEARCH_MODEL"
DEFAULT_MODELS: Final = ("gpt-5.5", "gpt-5.4", "gpt-5-codex", "gpt-5")
"""Tried in order until one is accepted for the account."""
DEFAULT_INSTRUCTIONS: Final = (
    "You are a helpful assistant with web search capabilities. Search the web to answer the "
    "user's question accurately and cite your sources."
)
AUTH_CLAIM: Final = "https://api.openai.com/auth"
SNIPPET_CONTEXT: Final = 100
SNIPPET_LIMIT: Final = 300

NO_WEB_SEARCH: Final = (
    "Codex returned a completion without running web search (no web_search_call event); "
    "refusing to treat a non-search answer as a search result"
)
IMAGE_ONLY: Final = "Codex returned image-only response"
EMPTY_BODY: Final = "Codex API returned an empty response"
UNEXPECTED_SHAPE: Final = "Codex API returned an unexpected response shape"
MISSING_TOKEN: Final = (
    'No Codex OAuth credentials found. Store a ChatGPT OAuth token for provider "codex" '
    "to enable Codex web search."
)

INFO = ProviderInfo(
    id="codex",
    label="OpenAI",
    kind="answer",
    description='OpenAI\'s native web_search (uses a ChatGPT OAuth token stored for "codex")',
    docs_url="https://platform.openai.com/docs/guides/tools-web-search",
    env_vars=(),
    honours=frozenset({"query", "limit", "num_search_results"}),
    default_results=None,
    max_results=None,
    index="openai",
)

_UNSUPPORTED_MODEL = re.compile(
    r"model is not supported|requested model is not supported|"
    r"not supported when using codex with a chatgpt account",
    re.IGNORECASE,
)
_STATUS_FROM_TEXT: Final = (
    (re.compile(r"rate[- ]?limit|too many requests|quota|\b429\b", re.IGNORECASE), 429),
    (re.compile(r"unauthori[sz]ed|\b401\b", re.IGNORECASE), 401),
    (re.compile(r"forbidden|\b403\b", re.IGNORECASE), 403),
    (re.compile(r"timeout|timed out", re.IGNORECASE), 504),
)
_IMAGE_PLACEHOLDERS: Final = frozenset(
    {
        "see attached image",
        "attached image",
        "see the attached image",
        "see image",
        "see image above",
        "image above",
        "see image below",
        "image below",
    }
)
_MARKDOWN_LINK_START = re.compile(r"\[([^\[\]]*)\]\(")
_BARE_URL = re.compile(r"https?://[^\s<>\"'`]+")
_TRAILING = ".,!?;:'\""
_PAIRS: Final = {")": "(", "]": "[", "}": "{"}


class NoWebSearchError(SearchProviderError):
    """The model answered without searching; the next model may search."""

    def __init__(self, provider: str = INFO.id, message: str = NO_WEB_SEARCH) -> None:
        super().__init__(provider, message, 502)


def account_claims(token: str) -> dict[str, str]:
    """The ChatGPT account id and residency claims of an OAuth access token (a JWT).

    The token is only decoded, never verified: the server does that.

    Example:
        >>> account_claims("not-a-jwt")
        {}
    """
    parts = token.split(".")
    if len(parts) != 3:
        return {}
    try:
        payload = base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4))
        claims = json.loads(payload)
    except ValueError:
        return {}
    auth = claims.get(AUTH_CLAIM) if isinstance(claims, dict) else None
    if not isinstance(auth, dict):
        return {}
    found: dict[str, str] = {}
    account = auth.get("chatgpt_account_id")
    if isinstance(account, str) and account.strip():
        found["account_id"] = account.strip()
    for name in ("chatgpt_data_residency", "chatgpt_compute_residency"):
        value = auth.get(name)
        if isinstance(value, str) and value.strip():
            found["residency"] = value.strip()
            break
    return found


def request_headers(token: str) -> dict[str, str]:
    """The Codex backend headers for ``token`` (account id and residency from its claims)."""
    headers = {
        "Authorization": f"Bearer {token}",
        "OpenAI-Beta": "responses=experimental",
        "originator": "websearch-tools",
        "User-Agent": f"websearch-tools/{__version__}",
        "Accept": "text/event-stream",
        "Content-Type": "application/json",
    }
    claims = account_claims(token)
    if "account_id" in claims:
        headers["chatgpt-account-id"] = claims["account_id"]
    if "residency" in claims:
        headers["x-openai-internal-codex-residency"] = claims["residency"]
    return headers


def request_body(params: SearchParams, *, model: str, instructions: str = "") -> dict[str, Any]:
    """The streamed Responses request for ``params`` (pure).

    Example:
        >>> request_body(SearchParams(query="x"), model="gpt-5")["tool_choice"]
        {'type': 'web_search'}
    """
    return {
        "model": model,
        "stream": True,
        "store": False,
        "instructions": instructions.strip() or DEFAULT_INSTRUCTIONS,
        "input": [
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": params.query}],
            }
        ],
        "tools": [{"type": "web_search", "search_context_size": "high"}],
        "tool_choice": {"type": "web_search"},
        "include": ["web_search_call.action.sources"],
        "parallel_tool_calls": True,
    }


def strip_openai_utm(url: str) -> str:
    """``url`` without the ``utm_source=openai`` marker OpenAI adds to cited links.

    Example:
        >>> strip_openai_utm("https://a.example/p?x=1&utm_source=openai")
        'https://a.example/p?x=1'
    """
    parts = urlsplit(url)
    if "utm_source=openai" not in parts.query:
        return url
    pairs = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if (k, v) != ("utm_source", "openai")
    ]
    return urlunsplit(parts._replace(query=urlencode(pairs)))


def _trim_url(url: str) -> str:
    while url:
        last = url[-1]
        unbalanced = last in _PAIRS and url.count(_PAIRS[last]) < url.count(last)
        if last not in _TRAILING and not unbalanced:
            break
        url = url[:-1]
    return url


def _link_end(text: str, start: int) -> int:
    """Index of the ``)`` that closes a markdown link target opened just before ``start``."""
    depth = 1
    for index in range(start, len(text)):
        char = text[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        elif char.isspace():
            return -1
    return -1


def _markdown_links(text: str) -> list[tuple[str, str]]:
    links: list[tuple[str, str]] = []
    for match in _MARKDOWN_LINK_START.finditer(text):
        end = _link_end(text, match.end())
        if end > 0:
            links.append((match.group(1).strip(), text[match.end() : end].strip()))
    return links


def links_in_text(text: str) -> list[tuple[str, str]]:
    """``(title, url)`` for every markdown link, then every bare ``http(s)`` URL, in order.

    Example:
        >>> links_in_text("See [docs](https://a.example/x_(y)) and https://b.example/z.")
        [('docs', 'https://a.example/x_(y)'), ('', 'https://b.example/z')]
    """
    found = [(title, url) for title, url in _markdown_links(text) if is_http_url(url)]
    seen = {url for _, url in found}
    for match in _BARE_URL.finditer(text):
        url = _trim_url(match.group(0))
        if url not in seen and is_http_url(url):
            seen.add(url)
            found.append(("", url))
    return found


def _reduce_links(text: str) -> str:
    for title, url in _markdown_links(text):
        text = text.replace(f"[{title}]({url})", title)
    return text


def _context(text: str, start: Any, end: Any) -> str | None:
    if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start <= end:
        return None
    window = text[max(0, start - SNIPPET_CONTEXT) : min(len(text), end + SNIPPET_CONTEXT)]
    snippet = collapse_whitespace(_reduce_links(window))
    if len(snippet) > SNIPPET_LIMIT:
        snippet = snippet[: SNIPPET_LIMIT - 3] + "..."
    return snippet or None


def _is_image_placeholder(answer: str) -> bool:
    cleaned = re.sub(r"[\[\]()\"'`*_#>~]", "", answer).strip().rstrip(".!?:;,").strip()
    return cleaned.lower() in _IMAGE_PLACEHOLDERS


def _text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    return value.strip() or None


@dataclass
class _Sources:
    """Sources by URL (first position wins; a real title replaces a URL-only one)."""

    by_url: dict[str, SearchSource] = field(default_factory=dict)

    def add(self, url: Any, title: Any = None, snippet: str | None = None) -> str | None:
        clean = _text(url)
        if clean is None or not is_http_url(clean):
            return None
        clean = strip_openai_utm(clean)
        name = collapse_whitespace(title) if isinstance(title, str) and title.strip() else clean
        known = self.by_url.get(clean)
        if known is None:
            self.by_url[clean] = SearchSource(title=name, url=clean, snippet=snippet)
            return clean
        update: dict[str, Any] = {}
        if known.title == clean and name != clean:
            update["title"] = name
        if known.snippet is None and snippet:
            update["snippet"] = snippet
        if update:
            self.by_url[clean] = known.model_copy(update=update)
        return clean


@dataclass
class _Reading:
    """What the output items of one response say."""

    sources: _Sources = field(default_factory=_Sources)
    citations: list[SearchCitation] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    searched: bool = False

    def item(self, item: Any) -> None:
        if not isinstance(item, Mapping):
            return
        kind = item.get("type")
        if kind == "web_search_call":
            self.searched = True
            self.search_call(item)
        elif kind == "message":
            for part in item.get("content") or ():
                if isinstance(part, Mapping) and part.get("type") == "output_text":
                    self.output_text(part)
        elif kind == "reasoning":
            for summary in item.get("summary") or ():
                if isinstance(summary, Mapping) and _text(summary.get("text")):
                    self.summaries.append(str(summary["text"]).strip())

    def search_call(self, item: Mapping[str, Any]) -> None:
        action = item.get("action")
        action = action if isinstance(action, Mapping) else {}
        for key in ("sources", "results"):
            for holder in (action, item):
                for entry in holder.get(key) or ():
                    if isinstance(entry, Mapping):
                        url = entry.get("url") or entry.get("source_website_url")
                        self.sources.add(url, entry.get("title") or entry.get("caption"))
        if action.get("type") == "open_page":
            self.sources.add(action.get("url"))

    def output_text(self, part: Mapping[str, Any]) -> None:
        raw = part.get("text")
        text = raw if isinstance(raw, str) else ""
        if text.strip():
            self.parts.append(text.strip())
        for note in part.get("annotations") or ():
            if not isinstance(note, Mapping) or note.get("type") != "url_citation":
                continue
            snippet = _context(text, note.get("start_index"), note.get("end_index"))
            url = self.sources.add(note.get("url"), note.get("title"), snippet)
            if url is not None:
                title = _text(note.get("title")) or ""
                self.citations.append(SearchCitation(url=url, title=title, cited_text=snippet))


def _usage(value: Any) -> SearchUsage | None:
    if not isinstance(value, Mapping):
        return None

    def number(name: str) -> int | None:
        found = value.get(name)
        return found if isinstance(found, int) and not isinstance(found, bool) else None

    details = value.get("input_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, Mapping) else None
    input_tokens = number("input_tokens")
    if input_tokens is not None and isinstance(cached, int):
        input_tokens = max(0, input_tokens - cached)
    usage = SearchUsage(
        input_tokens=input_tokens,
        output_tokens=number("output_tokens"),
        total_tokens=number("total_tokens"),
    )
    return usage if usage != SearchUsage() else None


def _summarise(
    items: Iterable[Any],
    *,
    response: Mapping[str, Any],
    params: SearchParams | None,
    deltas: str = "",
    searched: bool = False,
) -> SearchResponse:
    reading = _Reading(searched=searched)
    for item in items:
        reading.item(item)
    if not reading.searched:
        raise NoWebSearchError()
    answer = "\n\n".join(reading.parts) or "\n\n".join(reading.summaries) or deltas.strip()
    if answer and _is_image_placeholder(answer):
        answer = ""
    if not reading.citations and answer:
        for title, url in links_in_text(answer):
            reading.sources.add(url, title or None)
    sources = tuple(reading.sources.by_url.values())
    if not answer and not sources:
        raise SearchProviderError(INFO.id, IMAGE_ONLY, 502)
    count = params.result_count if params is not None else None
    return SearchResponse(
        provider=INFO.id,
        answer=answer or None,
        sources=sources[:count] if count else sources,
        citations=tuple(reading.citations),
        usage=_usage(response.get("usage")),
        model=_text(response.get("model")),
        request_id=_text(response.get("id")),
        auth_mode="oauth",
    )


def parse_response_object(data: Any, params: SearchParams | None = None) -> SearchResponse:
    """A complete Responses API object (``{"object": "response", "output": [...]}``), pure.

    Raises:
        ResponseParseError: ``data`` is not a Responses object (a Chat Completions body, say).
        NoWebSearchError: The model answered without a ``web_search_call``.
        SearchProviderError: Only an image placeholder came back (502).
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("output"), list):
        raise ResponseParseError(INFO.id, UNEXPECTED_SHAPE, 502)
    return _summarise(data["output"], response=data, params=params)


def _raise_event_error(kind: str, payload: Mapping[str, Any]) -> None:
    holders: list[Mapping[str, Any]] = [payload]
    if isinstance(payload.get("error"), Mapping):
        holders.append(payload["error"])
    response = payload.get("response")
    if isinstance(response, Mapping) and isinstance(response.get("error"), Mapping):
        holders.append(response["error"])
    code = next((h.get("code") for h in holders if h.get("code")), None)
    detail = next((h.get("message") for h in holders if _text(h.get("message"))), None)
    if kind == "error":
        message = f"Codex error ({code}): {detail or 'Unknown error'}"
    elif code:
        message = f"Codex request failed ({code}): {detail or 'Request failed'}"
    else:
        message = f"Codex request failed: {detail or 'Request failed'}"
    status = next((s for pattern, s in _STATUS_FROM_TEXT if pattern.search(message)), 500)
    raise_for_status(INFO.id, HttpResponse(status=status, body=message.encode()), message)
    raise SearchProviderError(INFO.id, message, status)  # pragma: no cover  (always raised)


@dataclass
class _StreamState:
    response: dict[str, Any] = field(default_factory=dict)
    items: list[Any] = field(default_factory=list)
    deltas: list[str] = field(default_factory=list)
    searched: bool = False

    def feed(self, kind: str, payload: Mapping[str, Any]) -> None:
        if kind.startswith("response.web_search_call"):
            self.searched = True
        if kind in ("error", "response.failed"):
            _raise_event_error(kind, payload)
        if kind in (
            "response.created",
            "response.completed",
            "response.done",
            "response.incomplete",
        ):
            response = payload.get("response")
            if isinstance(response, Mapping):
                self.response.update({k: v for k, v in response.items() if v is not None})
        elif kind == "response.output_text.delta" and isinstance(payload.get("delta"), str):
            self.deltas.append(payload["delta"])
        elif kind == "response.output_item.done":
            self.items.append(payload.get("item"))


def parse_stream(events: Iterable[SseEvent], params: SearchParams | None = None) -> SearchResponse:
    """Fold a Responses event stream (Codex or the public API) into a response (pure).

    Raises:
        ResponseParseError: An event's data is not a JSON object.
        SearchProviderError: An ``error`` / ``response.failed`` event (typed by the shared
            classifier), no web search, or an image-only answer.
    """
    state = _StreamState()
    for event in events:
        if event.data.strip() == "[DONE]":
            continue
        try:
            payload = json.loads(event.data)
        except ValueError:
            raise ResponseParseError(INFO.id, "Codex stream carried invalid JSON", 502) from None
        if not isinstance(payload, Mapping):
            raise ResponseParseError(INFO.id, "Codex stream carried invalid JSON", 502)
        state.feed(str(payload.get("type") or event.event), payload)
    items: Sequence[Any] = state.items
    if not items and isinstance(state.response.get("output"), list):
        items = state.response["output"]
    return _summarise(
        items,
        response=state.response,
        params=params,
        deltas="".join(state.deltas),
        searched=state.searched,
    )


def parse_body(response: SseResponse, params: SearchParams | None = None) -> SearchResponse:
    """A 2xx answer: its events, or a plain JSON Responses object when it sent no stream."""
    if response.events:
        return parse_stream(response.events, params)
    if not response.body.strip():
        raise ResponseParseError(INFO.id, EMPTY_BODY, 502)
    return parse_response_object(response.as_http().json(INFO.id, "Codex"), params)


class CodexProvider(SearchProvider):
    """The ``codex`` provider, labelled OpenAI (see the module docstring)."""

    info = INFO

    def is_available(self, context: ProviderContext) -> bool:
        """A ChatGPT OAuth token is stored for ``codex`` (expiry is checked when searching)."""
        return context.credentials.oauth_token(self.info.id) is not None

    def models(self, context: ProviderContext) -> tuple[str, ...]:
        """``CODEX_SEARCH_MODEL`` alone, or :data:`DEFAULT_MODELS`."""
        pinned = context.credentials.env(MODEL_ENV_VAR)
        return (pinned,) if pinned else DEFAULT_MODELS

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        """Stream one search, moving to the next model when one is refused or does not search."""
        if context.credentials.oauth_token(self.info.id) is None:
            raise ProviderNotConfiguredError(self.info.id, MISSING_TOKEN)
        token = await context.credentials.valid_oauth_token(self.info.id)
        models = self.models(context)
        for index, model in enumerate(models):
            body = request_body(params, model=model, instructions=context.system_prompt)
            last = index == len(models) - 1
            try:
                response, token = await self._exchange(body, token, context)
                return parse_body(response, params)
            except NoWebSearchError:
                if last:
                    raise
            except SearchProviderError as error:
                if last or error.status != 400 or not _UNSUPPORTED_MODEL.search(error.message):
                    raise
        raise AssertionError("unreachable")  # pragma: no cover  (the last model re-raises)

    async def _exchange(
        self, body: dict[str, Any], token: OAuthToken, context: ProviderContext
    ) -> tuple[SseResponse, OAuthToken]:
        response = await self._send(body, token, context)
        if response.status == 401:
            try:
                token = await context.credentials.valid_oauth_token(
                    self.info.id, force_refresh=True
                )
            except AuthorizationError:
                self.check_response(response)
                raise
            response = await self._send(body, token, context)
        self.check_response(response)
        return response, token

    async def _send(
        self, body: dict[str, Any], token: OAuthToken, context: ProviderContext
    ) -> SseResponse:
        request = HttpRequest(
            method="POST",
            url=CODEX_ENDPOINT,
            headers=request_headers(token.access_token),
            json=body,
        )
        return await context.transport.send_sse(self.info.id, self.info.label, request)

    def check_response(self, response: SseResponse) -> None:
        """Raise ``Codex API error (<status>): <body>`` typed by the shared classifier."""
        raise_for_api_status(self.info.id, response.as_http(), "Codex API error")
