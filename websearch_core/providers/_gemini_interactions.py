"""The Gemini Interactions API (``steps[]``), read for its capture only (pure).

The provider calls ``streamGenerateContent``, not this API; the reader exists so the
capture ``fixtures/gemini/interactions_api_google_search.json`` is understood rather than
ignored, and so a switch to the newer API starts from a tested parser.

Unlike generateContent's grounding chunk (``web.domain``, Vertex AI), this API's
``url_citation`` names no domain: Google's types give it ``url``, ``title``,
``start_index`` and ``end_index`` alone, and so does the capture. Its URLs are the same
grounding redirects, titled by the site in lower case (``sap.com``), which the filters read
as the host (:func:`~websearch_core.filters.redirects.named_host`).
"""

from collections.abc import Mapping
from typing import Any

from ..errors import ResponseParseError
from ..js_trim import trim
from ..models import SearchCitation, SearchResponse, SearchSource, SearchUsage
from ._common import first_items, is_http_url
from ._gemini_parse import PROVIDER_ID

__all__ = ["parse_interaction"]


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str | None:
    """``value`` trimmed, ``None`` when no string or blank to JavaScript's ``trim()`` (a BOM)."""
    return (trim(value) or None) if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _interaction_text(
    content: Mapping[str, Any], sources: dict[str, SearchSource], citations: list[SearchCitation]
) -> str:
    text = content.get("text")
    if not isinstance(text, str):
        return ""
    encoded = text.encode("utf-8", "surrogatepass")  # a lone surrogate keeps its 3 bytes
    annotations = content.get("annotations")
    for annotation in first_items(annotations) if isinstance(annotations, list) else []:
        note = _mapping(annotation)
        url = _text(note.get("url"))
        if note.get("type") != "url_citation" or url is None or not is_http_url(url):
            continue
        title = _text(note.get("title")) or ""
        sources.setdefault(url, SearchSource(title=title or url, url=url))
        start, end = _int(note.get("start_index")), _int(note.get("end_index"))
        cited = None
        if start is not None and end is not None and 0 <= start < end <= len(encoded):
            cited = encoded[start:end].decode("utf-8", errors="replace")
            cited = trim(cited) or None
        citations.append(SearchCitation(url=url, title=title, cited_text=cited))
    return text


def parse_interaction(data: Any) -> SearchResponse:
    """Read an Interactions API result (``steps[]``) that used ``google_search``.

    ``model_output`` text parts are the answer, their ``url_citation`` annotations the
    sources (de-duplicated) and citations (the annotated span as cited text, offsets read
    as UTF-8 bytes), ``google_search_call`` queries the search queries, and ``usage`` the
    token counts.

    Raises:
        ResponseParseError: ``data`` has no ``steps`` list.
    """
    steps = _mapping(data).get("steps")
    if not isinstance(steps, list):
        raise ResponseParseError(PROVIDER_ID, "Gemini Interactions API body has no steps", 502)
    answer: list[str] = []
    sources: dict[str, SearchSource] = {}
    citations: list[SearchCitation] = []
    queries: list[str] = []
    for step in (_mapping(item) for item in steps):
        if step.get("type") == "model_output":
            contents = step.get("content")
            for content in contents if isinstance(contents, list) else []:
                answer.append(_interaction_text(_mapping(content), sources, citations))
        if step.get("type") == "google_search_call":
            found = _mapping(step.get("arguments")).get("queries")
            if isinstance(found, list):
                queries.extend(query for query in found if isinstance(query, str))
    usage = _mapping(_mapping(data).get("usage"))
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=trim("".join(answer)) or None,
        sources=tuple(sources.values()),
        citations=tuple(citations),
        search_queries=tuple(dict.fromkeys(queries)),
        usage=SearchUsage(
            input_tokens=_int(usage.get("total_input_tokens")),
            output_tokens=_int(usage.get("total_output_tokens")),
            total_tokens=_int(usage.get("total_tokens")),
        )
        if usage
        else None,
        model=_text(_mapping(data).get("model")),
        request_id=_text(_mapping(data).get("id")),
    )
