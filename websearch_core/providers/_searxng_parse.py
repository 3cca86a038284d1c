"""Reading a SearXNG ``/search?format=json`` body: pure functions, no I/O.

Split out of :mod:`websearch_core.providers.searxng` so that module keeps the request, the
credentials and the status handling, and this one the body. What comes through, and why:

* **Results** keep the engines SearXNG merged them from (``engines``) as
  :attr:`~websearch_core.models.SearchSource.engines`, so a caller can tell a result three
  engines agree on from one engine's outlier. SearXNG lists a result's engines and the
  positions it held, but not which position came from which engine; each engine is
  recorded with the best of those positions (exact for the usual single-engine result).
  The result's ``category`` has no field on :class:`~websearch_core.models.SearchSource`
  and is not kept.
* **Answers** (``answers``: plain text, translations, weather) come first in ``answer``.
* **Infoboxes** (a Wikipedia or Wikidata summary card) follow as answer paragraphs: the
  name, the summary and up to eight ``label: value`` facts, because that is text a model
  can quote; the infobox's own page becomes a citation, so the answer stays attributable.
* **Corrections** (the spelling SearXNG believes was meant) lead ``related_questions``,
  before the ``suggestions``, as the queries most worth running next.
* **Unresponsive engines** with results left: the response is ``partial`` and its notes
  name the engines (:data:`UNANSWERED_NOTE`); the provider logs them
  (:func:`unanswered_line`) once it can mask the instance's secrets in an engine's reason.
  With nothing usable left, it is an error naming each engine.
"""

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..clauses import join_clauses
from ..errors import ProviderUnavailableError, ResponseParseError
from ..js_trim import trim
from ..models import SearchCitation, SearchResponse, SearchSource, SourceRank
from ._common import age_seconds_from_date, collapse_whitespace, first_items, is_http_url
from ._field_errors import field_error
from ._json_api import text_or_none
from .base import clamp_count

__all__ = [
    "DEFAULT_RESULTS",
    "MAX_RESULTS",
    "UNANSWERED_NOTE",
    "format_answer",
    "format_infobox",
    "parse_search_body",
    "unanswered_line",
    "unresponsive_engines",
]

PROVIDER_ID: Final = "searxng"
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 20
MAX_ANSWERS: Final = 3
MAX_TRANSLATIONS: Final = 3
MAX_INFOBOXES: Final = 2
MAX_INFOBOX_FACTS: Final = 8
UNANSWERED_NOTE: Final = "SearXNG engine did not answer: "
"""What each note of an engine that did not answer starts with, before ``engine: reason``."""


def _weather_text(current: Mapping[str, Any]) -> str | None:
    summary = text_or_none(current.get("summary"))
    if summary is not None:
        return summary
    location = current.get("location")
    temperature = current.get("temperature")
    condition = text_or_none(current.get("condition"))
    name = text_or_none(location.get("name")) if isinstance(location, Mapping) else None
    if name is None or not isinstance(temperature, Mapping) or condition is None:
        return None
    value = temperature.get("val")
    unit = temperature.get("unit") if isinstance(temperature.get("unit"), str) else ""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    return f"{name}: {value:g}{unit}: {condition}"


def format_answer(item: Any) -> str | None:
    """One entry of SearXNG's ``answers`` list as text, or ``None`` when it has none.

    Handles the legacy plain string, ``{"answer": ...}``, ``{"translations": [{"text"}]}``
    (up to three texts, one per line) and weather answers (``{"current": {"summary"}}``).

    Example:
        >>> print(format_answer({"translations": [{"text": "Hallo"}, {"text": "Servus"}]}))
        Hallo
        Servus
    """
    if isinstance(item, str):
        return text_or_none(item)
    if not isinstance(item, Mapping):
        return None
    answer = text_or_none(item.get("answer"))
    if answer is not None:
        return answer
    translations = item.get("translations")
    if isinstance(translations, list):
        texts = [
            text
            for entry in first_items(translations)
            if isinstance(entry, Mapping) and (text := text_or_none(entry.get("text"))) is not None
        ]
        if texts:
            return "\n".join(texts[:MAX_TRANSLATIONS])
    current = item.get("current")
    if isinstance(current, Mapping):
        return _weather_text(current)
    return None


def _infobox_facts(attributes: Any) -> list[str]:
    if not isinstance(attributes, list):
        return []
    facts: list[str] = []
    for attribute in first_items(attributes):
        if not isinstance(attribute, Mapping):
            continue
        label = text_or_none(attribute.get("label"))
        value = text_or_none(attribute.get("value"))
        if label is not None and value is not None:
            facts.append(f"{collapse_whitespace(label)}: {collapse_whitespace(value)}")
    return facts[:MAX_INFOBOX_FACTS]


def _infobox_url(item: Mapping[str, Any]) -> str | None:
    """The infobox's own page: its ``id`` when that is a URL, else its first link."""
    candidates: list[Any] = [item.get("id")]
    urls = item.get("urls")
    if isinstance(urls, list):
        candidates.extend(
            entry.get("url") for entry in first_items(urls) if isinstance(entry, Mapping)
        )
    for candidate in candidates:
        url = text_or_none(candidate)
        if url is not None and is_http_url(url):
            return url
    return None


def format_infobox(item: Any) -> tuple[str, SearchCitation | None] | None:
    """One ``infoboxes`` entry as an answer paragraph and the citation of its page.

    Returns:
        ``(text, citation)``: the name, the summary and the facts one per line, with the
        infobox's page as a citation (``None`` without a URL); ``None`` for an infobox
        with no text at all.

    Example:
        >>> text, citation = format_infobox({
        ...     "infobox": "Espresso", "content": "Coffee brewed under pressure.",
        ...     "id": "https://en.wikipedia.org/wiki/Espresso",
        ...     "attributes": [{"label": "Origin", "value": "Italy"}],
        ... })
        >>> print(text)
        Espresso
        Coffee brewed under pressure.
        Origin: Italy
        >>> citation.url
        'https://en.wikipedia.org/wiki/Espresso'
    """
    if not isinstance(item, Mapping):
        return None
    name = text_or_none(item.get("infobox"))
    content = text_or_none(item.get("content"))
    lines = [
        collapse_whitespace(text) for text in (name, content) if text is not None
    ] + _infobox_facts(item.get("attributes"))
    if not lines:
        return None
    url = _infobox_url(item)
    citation = SearchCitation(url=url, title=collapse_whitespace(name or url)) if url else None
    return "\n".join(lines), citation


def _ranks(item: Mapping[str, Any], fallback: int) -> tuple[SourceRank, ...]:
    engines = item.get("engines")
    names = (
        [text for name in first_items(engines) if (text := text_or_none(name))]
        if isinstance(engines, list)
        else []
    )
    if not names and (single := text_or_none(item.get("engine"))) is not None:
        names = [single]
    positions = item.get("positions")
    numbers = [
        number
        for number in (first_items(positions) if isinstance(positions, list) else ())
        if isinstance(number, int) and not isinstance(number, bool) and number > 0
    ]
    rank = min(numbers) if numbers else fallback
    return tuple(SourceRank(engine=name, rank=rank) for name in dict.fromkeys(names))


def _source(item: Any, position: int) -> SearchSource | None:
    if not isinstance(item, Mapping):
        return None
    url = text_or_none(item.get("url"))
    if url is None:
        return None
    title = item.get("title")
    content = item.get("content")
    if content is None:
        content = item.get("snippet")
    published = item.get("publishedDate")
    if published is None:
        published = item.get("published_date")
    published_text = text_or_none(published)
    return SearchSource(
        title=(collapse_whitespace(title) if isinstance(title, str) else "") or url,
        url=url,
        snippet=text_or_none(content),
        published_date=published_text,
        age_seconds=age_seconds_from_date(published_text),
        engines=_ranks(item, position),
        category=text_or_none(item.get("category")),
    )


def unanswered_line(notes: Sequence[str]) -> str | None:
    """The log line naming the engines the ``notes`` of a response say did not answer.

    Built from the notes rather than the body so that the provider logs it where the
    instance's secrets are known: an engine's reason is upstream text, which may quote
    them. ``None`` when every engine answered.

    Example:
        >>> unanswered_line([UNANSWERED_NOTE + "duckduckgo: CAPTCHA", UNANSWERED_NOTE + "qwant"])
        'SearXNG answered without these engines: duckduckgo: CAPTCHA; qwant'
    """
    failures = [
        note.removeprefix(UNANSWERED_NOTE) for note in notes if note.startswith(UNANSWERED_NOTE)
    ]
    if not failures:
        return None
    return f"SearXNG answered without these engines: {join_clauses(failures)}"


def unresponsive_engines(value: Any) -> list[str]:
    """SearXNG's ``unresponsive_engines`` as ``engine: reason`` texts.

    An engine reported without a reason is named alone.

    Example:
        >>> unresponsive_engines([["duckduckgo", "CAPTCHA"], ["qwant", None]])
        ['duckduckgo: CAPTCHA', 'qwant']
    """
    if not isinstance(value, list):
        return []
    failures: list[str] = []
    for entry in first_items(value):
        if isinstance(entry, Sequence) and not isinstance(entry, str) and entry:
            engine = str(entry[0])
            reason = str(entry[1]) if len(entry) > 1 and entry[1] is not None else ""
            failures.append(f"{engine}: {reason}" if reason else engine)
        elif isinstance(entry, str) and trim(entry):
            failures.append(trim(entry))
    return failures


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [text for item in first_items(value) if (text := text_or_none(item)) is not None]


def parse_search_body(data: Any, count: int | None) -> SearchResponse:
    """Turn a decoded ``/search?format=json`` body into a response (pure).

    Args:
        data: The decoded JSON body.
        count: The requested result count (``num_search_results`` before ``limit``).

    Returns:
        Sources (at most ``count`` clamped to 1..20, default 10) with their engines; up to
        three answers then up to two infoboxes joined by blank lines as ``answer``; the
        infoboxes' pages as citations; corrections then suggestions as related questions;
        ``partial`` when some engines did not answer.

    Raises:
        ResponseParseError: The body is not a JSON object or ``results`` is not a list.
        ProviderUnavailableError: No result and no answer came back and SearXNG reported
            failing upstream engines (status 503).
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(PROVIDER_ID, "SearXNG API returned an unexpected body", 502)
    results = data.get("results", [])
    if not isinstance(results, list):
        raise field_error(
            PROVIDER_ID, "SearXNG API returned non-list results", data, "results", "a list"
        )
    limit = clamp_count(count, DEFAULT_RESULTS, MAX_RESULTS)
    sources = [
        source
        for position, item in enumerate(first_items(results), start=1)
        if (source := _source(item, position)) is not None
    ][:limit]
    raw_answers = data.get("answers")
    answers = (
        [text for item in first_items(raw_answers) if (text := format_answer(item)) is not None]
        if isinstance(raw_answers, list)
        else []
    )[:MAX_ANSWERS]
    raw_infoboxes = data.get("infoboxes")
    infoboxes = (
        [box for item in first_items(raw_infoboxes) if (box := format_infobox(item)) is not None]
        if isinstance(raw_infoboxes, list)
        else []
    )[:MAX_INFOBOXES]
    paragraphs = answers + [text for text, _ in infoboxes]
    failures = unresponsive_engines(data.get("unresponsive_engines"))
    if failures and not sources and not paragraphs:
        raise ProviderUnavailableError(
            PROVIDER_ID,
            "SearXNG returned no usable results; upstream engines failed: "
            + join_clauses(failures),
            503,
        )
    related = dict.fromkeys(_strings(data.get("corrections")) + _strings(data.get("suggestions")))
    citations = dict.fromkeys(citation for _, citation in infoboxes if citation is not None)
    return SearchResponse(
        provider=PROVIDER_ID,
        answer="\n\n".join(paragraphs) or None,
        sources=tuple(sources),
        citations=tuple(citations),
        related_questions=tuple(related),
        partial=bool(failures),
        notes=tuple(f"{UNANSWERED_NOTE}{failure}" for failure in failures),
    )
