"""Serper: Google search results (organic, answer box, knowledge graph) as JSON.

* **Endpoint:** ``POST https://google.serper.dev/search`` with a JSON body ``q``, ``num``
  and, when asked, ``tbs`` (``recency`` as ``qdr:d|w|m|y``), ``gl`` (``country``, lower
  case) and ``hl`` (``language``, lower case, as Google's ``hl`` codes are written:
  ``pt-br``).
* **Auth:** header ``X-API-KEY: <key>``; the key comes from ``SERPER_API_KEY`` (or code, the
  config file, the credential store).
* **Limits:** ``num`` is ``num_search_results`` or ``limit``, default 10, clamped to 1..100.
* **Answer:** the answer box first: its ``title`` on one line, then its ``answer`` (else
  ``snippet``, else the ``snippetHighlighted`` lines). Without one, the knowledge graph's
  ``description``, followed by one ``Name: value`` line per ``attributes`` entry.
* **Sources:** ``organic[]`` in Google's order (``title``, ``link``, ``snippet``, ``date``;
  ``position`` and ``sitelinks`` are not used), then the answer box's ``link`` and the
  knowledge graph's ``descriptionLink`` (else ``website``) so the answer can be cited. Each
  URL appears once: a URL whose host (without ``www.``), path (without a trailing slash)
  and query match an earlier one is dropped, whatever its scheme or fragment. Mobile
  Wikipedia hosts (``en.m.wikipedia.org``) are rewritten to the desktop ones. ``date``
  becomes ``published_date`` (``Mar 9, 2023`` parses; ``3 days ago`` does not).
* **Related questions:** ``peopleAlsoAsk[].question``, then ``relatedSearches[].query``.
* **Request id:** the ``x-request-id`` response header.
* **Errors:** ``Serper API error (<status>): <body>`` after the shared classifier, so a 401
  or 403 reads ``Serper authorization failed (...)``.

The behaviour reference only sketches Serper (Appendix C: a later upstream variant). The
real capture (``fixtures/serper/search_amazon_knowledge_graph_2023.json``) has a
``knowledgeGraph`` with ``attributes``, ``descriptionSource`` and ``descriptionLink``,
``organic[]`` results with ``sitelinks`` and ``imageUrl`` but no ``date``, and
``relatedSearches``; it has no ``answerBox`` and no ``peopleAlsoAsk``. Where the appendix
lists the answer box and knowledge graph sources *before* the organic ones, they come after
them here: the organic ranking is kept intact and, as in the capture, the knowledge graph
link is usually an organic result already.

Docs: https://serper.dev/playground
"""

from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from ..errors import ResponseParseError
from ..models import Recency, SearchParams, SearchResponse, SearchSource
from ..transport import HttpRequest, HttpResponse
from ._common import age_seconds_from_date, collapse_whitespace, is_http_url
from .base import ProtocolProvider, ProviderContext, ProviderInfo, clamp_count

__all__ = [
    "INFO",
    "SERPER_ENDPOINT",
    "SerperProvider",
    "dedupe_key",
    "parse_answer",
    "parse_related",
    "parse_sources",
    "request_body",
]

SERPER_ENDPOINT: Final = "https://google.serper.dev/search"
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 100
UNEXPECTED_SHAPE: Final = "Serper API returned an unexpected response shape"

_RECENCY: Final[Mapping[Recency, str]] = {
    "day": "qdr:d",
    "week": "qdr:w",
    "month": "qdr:m",
    "year": "qdr:y",
}
_MOBILE_WIKIPEDIA: Final = ".m.wikipedia.org"

INFO = ProviderInfo(
    id="serper",
    label="Serper",
    kind="api",
    description="Requires SERPER_API_KEY",
    docs_url="https://serper.dev/playground",
    env_vars=("SERPER_API_KEY",),
    honours=frozenset({"query", "recency", "limit", "num_search_results", "country", "language"}),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="google",
)


def request_body(params: SearchParams) -> dict[str, Any]:
    """The JSON body Serper receives for ``params`` (pure).

    Example:
        >>> request_body(SearchParams(query="x", recency="day", country="DE", language="de"))
        {'q': 'x', 'num': 10, 'tbs': 'qdr:d', 'gl': 'de', 'hl': 'de'}
    """
    body: dict[str, Any] = {
        "q": params.query,
        "num": clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS),
    }
    if params.recency is not None:
        body["tbs"] = _RECENCY[params.recency]
    if params.country is not None:
        body["gl"] = params.country.lower()
    if params.language is not None:
        body["hl"] = params.language.lower()
    return body


def _text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    return value.strip() or None


def _mapping(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ResponseParseError(INFO.id, UNEXPECTED_SHAPE, 502)
    return value


def _desktop_url(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if not host.endswith(_MOBILE_WIKIPEDIA):
        return url
    language = host[: -len(_MOBILE_WIKIPEDIA)]
    netloc = parts.netloc.lower().replace(host, f"{language}.wikipedia.org", 1)
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def dedupe_key(url: str) -> str:
    """The key two URLs share when they name the same page.

    Host lower-cased without ``www.``, port, path without a trailing slash and query kept;
    scheme and fragment ignored.

    Example:
        >>> dedupe_key("http://www.amazon.com/") == dedupe_key("https://amazon.com#top")
        True
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").removeprefix("www.")
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:  # a malformed port: keep it as written
        port = parts.netloc.rpartition(":")[2]
    query = f"?{parts.query}" if parts.query else ""
    return f"{host}{port}{parts.path.rstrip('/')}{query}"


def _answer_box_text(box: Mapping[str, Any]) -> str | None:
    text = _text(box.get("answer")) or _text(box.get("snippet"))
    if text is None:
        highlighted = box.get("snippetHighlighted")
        if isinstance(highlighted, list):
            lines = [line for line in map(_text, highlighted) if line]
            text = "\n".join(lines) or None
    return text


def parse_answer(data: Mapping[str, Any]) -> str | None:
    """The answer box (title line, then its text), else the knowledge graph description.

    Example:
        >>> print(parse_answer({"answerBox": {"title": "Height", "answer": "330 m"}}))
        Height
        330 m
    """
    box = _mapping(data, "answerBox")
    text = _answer_box_text(box)
    if text is not None:
        title = _text(box.get("title"))
        return f"{title}\n{text}" if title and title != text else text
    graph = _mapping(data, "knowledgeGraph")
    description = _text(graph.get("description"))
    if description is None:
        return None
    attributes = graph.get("attributes")
    lines = [description]
    if isinstance(attributes, Mapping):
        for name, value in attributes.items():
            shown = _text(value)
            if isinstance(name, str) and name.strip() and shown:
                lines.append(f"{name.strip()}: {shown}")
    return "\n".join(lines)


def _source(
    url: Any, title: Any, snippet: Any, published: Any, now: datetime | None
) -> SearchSource | None:
    link = _text(url)
    if link is None or not is_http_url(link):
        return None
    link = _desktop_url(link)
    name = _text(title)
    date_text = _text(published)
    return SearchSource(
        title=collapse_whitespace(name) if name else link,
        url=link,
        snippet=_text(snippet),
        published_date=date_text,
        age_seconds=age_seconds_from_date(date_text, now=now),
    )


def _candidates(data: Mapping[str, Any], now: datetime | None) -> Iterator[SearchSource | None]:
    for item in _list(data, "organic"):
        if isinstance(item, Mapping):
            yield _source(
                item.get("link"), item.get("title"), item.get("snippet"), item.get("date"), now
            )
    box = _mapping(data, "answerBox")
    if box:
        yield _source(box.get("link"), box.get("title"), _answer_box_text(box), None, now)
    graph = _mapping(data, "knowledgeGraph")
    if graph:
        link = _text(graph.get("descriptionLink")) or _text(graph.get("website"))
        yield _source(link, graph.get("title"), graph.get("description"), None, now)


def _unique(sources: Iterable[SearchSource | None]) -> tuple[SearchSource, ...]:
    seen: set[str] = set()
    kept: list[SearchSource] = []
    for source in sources:
        if source is None:
            continue
        key = dedupe_key(source.url)
        if key in seen:
            continue
        seen.add(key)
        kept.append(source)
    return tuple(kept)


def parse_sources(data: Any, *, now: datetime | None = None) -> tuple[SearchSource, ...]:
    """Organic results, then the answer box and knowledge graph links, each URL once.

    Args:
        data: The decoded JSON body.
        now: Reference time for ``age_seconds`` (default: now).

    Raises:
        ResponseParseError: The body is not a Serper search response.
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(INFO.id, UNEXPECTED_SHAPE, 502)
    return _unique(_candidates(data, now))


def parse_related(data: Mapping[str, Any]) -> tuple[str, ...]:
    """``peopleAlsoAsk`` questions then ``relatedSearches`` queries, blanks and repeats dropped.

    Raises:
        ResponseParseError: Either field is present but not a list.
    """
    found: list[str] = []
    for key, field in (("peopleAlsoAsk", "question"), ("relatedSearches", "query")):
        for item in _list(data, key):
            text = _text(item.get(field)) if isinstance(item, Mapping) else None
            if text and text not in found:
                found.append(text)
    return tuple(found)


class SerperProvider(ProtocolProvider):
    """The Serper provider (see the module docstring for the wire details)."""

    info = INFO

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The POST request for ``params``."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="POST",
            url=SERPER_ENDPOINT,
            headers={"Content-Type": "application/json", "X-API-KEY": key},
            json=request_body(params),
        )

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """Answer, sources and related questions of a 2xx body, with the request id."""
        data = response.json(self.info.id, self.info.label)
        sources = parse_sources(data)  # checks that data is a mapping
        return SearchResponse(
            provider=self.info.id,
            answer=parse_answer(data),
            sources=sources,
            related_questions=parse_related(data),
            request_id=response.header("x-request-id"),
            auth_mode="api_key",
        )
