"""xAI Responses objects (and streamed events) as an answer, sources and citations: pure.

See ``xai.py`` for the wire. Sources are the ``url_citation`` annotations of the output text,
with a snippet cut from the answer around each citation, capped at the collapsed count
(default 10, at most 30).
"""

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import ResponseParseError, SearchProviderError
from ..js_trim import trim
from ..models import SearchCitation, SearchParams, SearchResponse, SearchSource, SearchUsage
from ..stream_apis import OPENAI_RESPONSES, refuse_foreign_stream
from ._common import collapse_whitespace, first_items, is_http_url
from ._field_errors import field_error
from ._json_api import list_or_empty, text_or_none
from ._xai_request import DEFAULT_RESULTS, response_cap

__all__ = ["parse_response_object", "response_from_events"]

PROVIDER_ID: Final = "xai"
SNIPPET_CONTEXT: Final = 100
SNIPPET_LIMIT: Final = 300
_WINDOW_LIMIT: Final = 8 * SNIPPET_LIMIT
NO_RESULTS: Final = "xAI web_search returned no answer or sources"
_LINK_WORDS = re.compile(r"\[([^\[\]]*)\]\(")
"""A Markdown link up to its URL: ``[words](``; the URL runs to the first ``)``."""
_URL_END = re.compile(r"[\s)]")


def _context(text: str, start: Any, end: Any) -> str | None:
    if not text or not isinstance(start, int) or not isinstance(end, int):
        return None
    if not 0 <= start <= end:
        return None
    # The snippet keeps SNIPPET_LIMIT characters: a citation spanning a whole long answer
    # is read from a window of a few times that.
    end = min(end, start + _WINDOW_LIMIT)
    window = text[max(0, start - SNIPPET_CONTEXT) : min(len(text), end + SNIPPET_CONTEXT)]
    snippet = collapse_whitespace(_link_words(window))
    if len(snippet) > SNIPPET_LIMIT:
        snippet = snippet[: SNIPPET_LIMIT - 3] + "..."
    return snippet or None


def _link_words(text: str) -> str:
    """``text`` with each Markdown link ``[words](url)`` written as its words alone.

    A link's URL is the run of non-blanks up to its first ``)``. Where that run ends at a
    blank or the end instead, every later link opened before that end ends there too: the
    end found is kept for them, where the one pattern used before read the run again from
    each, quadratic on ``[a](`` repeated (17 ms for one citation's window, stop 56).

    Example:
        >>> _link_words("See [xAI](https://x.ai/) and [a](b c).")
        'See xAI and [a](b c).'
    """
    kept: list[str] = []
    done = at = 0
    url_end = -1
    while (words := _LINK_WORDS.search(text, at)) is not None:
        if url_end < words.end():
            found = _URL_END.search(text, words.end())
            url_end = found.start() if found else len(text)
        if text.startswith(")", url_end):
            kept += (text[done : words.start()], words[1])
            done = at = url_end + 1
        else:
            at = words.start() + 1
    return "".join(kept) + text[done:]


@dataclass
class _Found:
    """Sources in the reference's order, de-duplicated by trimmed URL."""

    sources: dict[str, SearchSource] = field(default_factory=dict)

    def add(self, url: Any, title: Any = None, snippet: str | None = None) -> None:
        clean = text_or_none(url)
        if clean is None or not is_http_url(clean) or clean in self.sources:
            return
        name = (collapse_whitespace(title) if isinstance(title, str) else "") or clean
        self.sources[clean] = SearchSource(title=name, url=clean, snippet=snippet)

    def annotations(self, notes: Any, text: str = "") -> None:
        for note in first_items(notes) if isinstance(notes, list) else ():
            if not isinstance(note, Mapping) or note.get("type") != "url_citation":
                continue
            snippet = (
                text_or_none(note.get("cited_text"))
                or text_or_none(note.get("text"))
                or _context(text, note.get("start_index"), note.get("end_index"))
            )
            self.add(note.get("url"), note.get("title"), snippet)

    def search_call(self, item: Mapping[str, Any]) -> None:
        action = item.get("action")
        holders = [action, item] if isinstance(action, Mapping) else [item]
        for holder in holders:
            for key in ("sources", "results"):
                for entry in list_or_empty(holder.get(key)):
                    if isinstance(entry, Mapping):
                        self.add(entry.get("url"), entry.get("title"))


def _objects(output: Any) -> list[Mapping[str, Any]]:
    """The objects among an ``output`` list's first items (a bounded read)."""
    return [item for item in first_items(output) if isinstance(item, Mapping)]


def _parts(item: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = item.get("content")
    return (
        [part for part in first_items(content) if isinstance(part, Mapping)]
        if isinstance(content, list)
        else []
    )


def _answer(data: Mapping[str, Any], items: list[Mapping[str, Any]]) -> str | None:
    top = text_or_none(data.get("output_text"))
    if top:
        return top
    texts = []
    for item in items:
        for part in _parts(item):
            value = part.get("output_text") if "output_text" in part else part.get("text")
            if text_or_none(value):
                texts.append(trim(str(value)))
    return "\n".join(texts) or None


def _usage(value: Any) -> SearchUsage | None:
    if not isinstance(value, Mapping):
        return None

    def number(*names: str) -> int | None:
        for name in names:
            found = value.get(name)
            if isinstance(found, int) and not isinstance(found, bool):
                return found
        return None

    usage = SearchUsage(
        input_tokens=number("input_tokens", "inputTokens"),
        output_tokens=number("output_tokens", "outputTokens"),
        total_tokens=number("total_tokens", "totalTokens"),
    )
    return usage if usage != SearchUsage() else None


UNEXPECTED_SHAPE: Final = "xAI Responses API returned an unexpected shape"


def parse_response_object(data: Any, params: SearchParams | None = None) -> SearchResponse:
    """A Responses API object as a response, sources capped locally (pure).

    Raises:
        ResponseParseError: ``data`` is not a Responses object.
        SearchProviderError: Neither an answer nor a source came back (502).
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(PROVIDER_ID, UNEXPECTED_SHAPE, 502)
    if not isinstance(data.get("output", []), list):
        raise field_error(PROVIDER_ID, UNEXPECTED_SHAPE, data, "output", "a list")
    items = [item for item in first_items(data.get("output", [])) if isinstance(item, Mapping)]
    found = _Found()
    found.annotations(data.get("annotations"))
    for item in items:
        found.annotations(item.get("annotations"))
        for part in _parts(item):
            text = part.get("text") if isinstance(part.get("text"), str) else ""
            found.annotations(part.get("annotations"), str(text))
    for item in items:
        if item.get("type") == "web_search_call":
            found.search_call(item)
    for url in list_or_empty(data.get("citations")):
        found.add(url)
    answer = _answer(data, items)
    cap = response_cap(params) if params is not None else DEFAULT_RESULTS
    sources = tuple(found.sources.values())[:cap]
    if not answer and not sources:
        raise SearchProviderError(PROVIDER_ID, NO_RESULTS, 502)
    citations = tuple(
        SearchCitation(url=s.url, title=s.title, cited_text=s.snippet) for s in sources
    )
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=answer,
        sources=sources,
        citations=citations,
        usage=_usage(data.get("usage")),
        model=text_or_none(data.get("model")),
        request_id=text_or_none(data.get("id")),
        auth_mode="api_key",
    )


def _stream_error(kind: str, event: Mapping[str, Any], snapshot: Any) -> SearchProviderError:
    """An ``error`` / ``response.failed`` event as the failure it reports."""
    error = event.get("error") or (snapshot.get("error") if isinstance(snapshot, Mapping) else None)
    detail = error.get("message") if isinstance(error, Mapping) else None
    return SearchProviderError(PROVIDER_ID, f"xAI stream error: {detail or kind}", 502)


def response_from_events(events: Iterable[object]) -> dict[str, Any]:
    """Fold Responses stream events (decoded ``data`` objects) into a response object (pure).

    ``response.completed`` carries the whole response; without it the object is rebuilt from
    ``response.created`` and the ``response.output_item.done`` items. A whole text is read
    before pieces of one: the completed snapshot's, else the done items' (a closing snapshot
    whose message has no text is read from them, annotations and all), and only then the
    streamed ``output_text`` deltas, joined. A closing message with broken ``content`` lost
    an answer the deltas had carried (stop 52, audit53); read from the deltas, it lost the
    sources too, and a delta dropped, doubled or swapped on the way changed its text.

    A snapshot with text wins over deltas that differ from it. In the real stream
    (``fixtures/xai``) the two are the same text, as are the done message item and
    ``response.output_text.done``, so a difference means one of them broke; the snapshot is
    one event, the deltas 259, so a lost, doubled or reordered event is far likelier among
    them, and the snapshot's annotations (the sources) belong to its own text. Codex's fold
    of the same Responses stream reads its whole items first and deltas last, alike.

    A ``response.created`` / ``response.in_progress`` after the closing event (a stream out
    of order) does not overwrite the closing snapshot. An event that is not a JSON object (a stray
    ``[DONE]``-like value, a number) carries nothing and is skipped, as is a ``response``
    member that is not an object.

    Another API's stream (Anthropic's Messages, Gemini's chunks, chat chunks) is refused
    (:func:`~..stream_apis.foreign_stream_error`): folded, it gave an empty response, which
    read as ``no answer or sources`` at best, saying nothing of what came.

    Raises:
        SearchProviderError: An ``error`` or ``response.failed`` event.
        ResponseParseError: The stream is another API's.
    """
    response: dict[str, Any] = {}
    items: list[Any] = []
    deltas: list[str] = []
    completed = False
    seen: list[tuple[object, str]] = []
    for event in events:
        seen.append((event, ""))
        if not isinstance(event, Mapping):
            continue
        kind = event.get("type")
        snapshot = event.get("response")
        if kind in ("error", "response.failed"):
            raise _stream_error(str(kind), event, snapshot)
        if kind in ("response.created", "response.in_progress") and isinstance(snapshot, Mapping):
            response.update(snapshot if not completed else {})
        elif kind in ("response.completed", "response.incomplete") and isinstance(
            snapshot, Mapping
        ):
            response.update(snapshot)
            completed = isinstance(snapshot.get("output"), list) and bool(snapshot["output"])
        elif kind == "response.output_item.done":
            items.append(event.get("item"))
        elif kind == "response.output_text.delta" and isinstance(event.get("delta"), str):
            deltas.append(event["delta"])
    # Another API's events, alone or mixed in, are named (one test an event: its type).
    refuse_foreign_stream(PROVIDER_ID, UNEXPECTED_SHAPE, OPENAI_RESPONSES, seen)
    done = [item for item in items if isinstance(item, Mapping)]
    if not completed or (
        _answer(response, _objects(response["output"])) is None and _answer({}, done)
    ):
        response["output"] = done
    output = _objects(response["output"])
    if deltas and _answer(response, output) is None:
        response["output_text"] = "".join(deltas)
    return response
