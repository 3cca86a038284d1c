"""Reading a Serper search body: answer, sources and related questions, as pure functions.

Split out of :mod:`websearch_core.providers.serper`, which keeps the request and the
provider; the rules (answer box before knowledge graph, organic order kept, each URL
once, mobile Wikipedia made desktop) are described in that module's docstring.
"""

from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from ..errors import ResponseParseError
from ..js_trim import trim
from ..models import SearchSource
from ..sanitize import cut_line
from ._common import (
    age_seconds_from_date,
    collapse_whitespace,
    first_entries,
    first_items,
    is_http_url,
)
from ._field_errors import field_error
from ._json_api import text_or_none

__all__ = ["UNEXPECTED_SHAPE", "dedupe_key", "parse_answer", "parse_related", "parse_sources"]

PROVIDER_ID: Final = "serper"
UNEXPECTED_SHAPE: Final = "Serper API returned an unexpected response shape"

_MOBILE_WIKIPEDIA: Final = ".m.wikipedia.org"


def _mapping(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise field_error(PROVIDER_ID, UNEXPECTED_SHAPE, data, key, "a list")
    return first_items(value)


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


def _answer_boxtext_or_none(box: Mapping[str, Any]) -> str | None:
    text = text_or_none(box.get("answer")) or text_or_none(box.get("snippet"))
    if text is None:
        highlighted = box.get("snippetHighlighted")
        if isinstance(highlighted, list):
            lines = [line for line in map(text_or_none, first_items(highlighted)) if line]
            text = "\n".join(lines) or None
    return text


def parse_answer(data: Mapping[str, Any], mask: Callable[[str], str] | None = None) -> str | None:
    """The answer box (title line, then its text), else the knowledge graph description.

    The title line is cut as a source's title is (``LINE_LIMIT``,
    :mod:`websearch_core.sanitize`): inside the answer, the core's cut never reaches it.
    A title that is cut is ``mask``ed first (the call's mask): a key across the cut would
    leave its head, which the answer's own mask misses.

    Example:
        >>> print(parse_answer({"answerBox": {"title": "Height", "answer": "330 m"}}))
        Height
        330 m
    """
    box = _mapping(data, "answerBox")
    text = _answer_boxtext_or_none(box)
    if text is not None:
        title = text_or_none(box.get("title"))
        if not title or title == text:
            return text
        return f"{cut_line(title, mask)}\n{text}"
    graph = _mapping(data, "knowledgeGraph")
    description = text_or_none(graph.get("description"))
    if description is None:
        return None
    attributes = graph.get("attributes")
    lines = [description]
    if isinstance(attributes, Mapping):
        for name, value in first_entries(attributes):
            shown = text_or_none(value)
            if isinstance(name, str) and trim(name) and shown:
                lines.append(f"{trim(name)}: {shown}")
    return "\n".join(lines)


def _source(
    url: Any, title: Any, snippet: Any, published: Any, now: datetime | None
) -> SearchSource | None:
    link = text_or_none(url)
    if link is None or not is_http_url(link):
        return None
    link = _desktop_url(link)
    name = text_or_none(title)
    date_text = text_or_none(published)
    return SearchSource(
        title=collapse_whitespace(name) if name else link,
        url=link,
        snippet=text_or_none(snippet),
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
        yield _source(box.get("link"), box.get("title"), _answer_boxtext_or_none(box), None, now)
    graph = _mapping(data, "knowledgeGraph")
    if graph:
        link = text_or_none(graph.get("descriptionLink")) or text_or_none(graph.get("website"))
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
        raise ResponseParseError(PROVIDER_ID, UNEXPECTED_SHAPE, 502)
    return _unique(_candidates(data, now))


def parse_related(data: Mapping[str, Any]) -> tuple[str, ...]:
    """``peopleAlsoAsk`` questions then ``relatedSearches`` queries, blanks and repeats dropped.

    Raises:
        ResponseParseError: Either field is present but not a list.
    """
    found: list[str] = []
    for key, field in (("peopleAlsoAsk", "question"), ("relatedSearches", "query")):
        for item in _list(data, key):
            text = text_or_none(item.get(field)) if isinstance(item, Mapping) else None
            if text and text not in found:
                found.append(text)
    return tuple(found)
