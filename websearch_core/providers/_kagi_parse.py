"""Reading a Kagi search body, as pure functions: results, answers, errors in a body.

Split out of :mod:`websearch_core.providers.kagi`, which keeps the request and the
provider. Both body shapes are read (see that module's docstring for why):

* **v1 envelope** ``{"meta": {"trace", "id", "ms"}, "data": {...}}``: sources from
  ``data.search``, then ``data.video`` (``[Video] ``), ``data.news`` (``[News] ``) and
  ``data.infobox`` (``[Info] ``); related questions from ``data.adjacent_question`` then
  ``data.related_search``; the answer from ``data.direct_answer[0]``.
* **v0 captures** whose ``data`` is a list: ``t: 0`` items are results, ``t: 1`` items
  hold related searches in ``list``.

Titles and snippets are reduced to plain text (the v0 bodies carry ``<b>`` and entities).
"""

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from ..errors import ResponseParseError, SearchProviderError
from ..js_string import js_number, js_string, js_truthy
from ..js_trim import trim
from ..models import SearchResponse, SearchSource
from ..transport import HttpResponse, classify_http_error
from ._common import (
    HTTP_STATUS_TEXT,
    age_seconds_from_date,
    first_items,
    is_http_url,
    normalise_text,
)
from ._json_api import error_for_status, json_object, text_or_none

__all__ = [
    "DEFAULT_RESULTS",
    "body_error",
    "body_failure",
    "error_code",
    "error_detail",
    "http_status",
    "parse_body",
]

PROVIDER_ID: Final = "kagi"
DEFAULT_RESULTS: Final = 10
INVALID: Final = "Kagi API returned an invalid response"

_SECTIONS: Final = (
    ("search", ""),
    ("video", "[Video] "),
    ("news", "[News] "),
    ("infobox", "[Info] "),
)
_RELATED_SECTIONS: Final = ("adjacent_question", "related_search")


def _first_text(item: Mapping[str, Any], keys: Sequence[str]) -> str:
    for key in keys:
        value = item.get(key)
        if isinstance(value, str) and trim(value):
            return trim(value)
    return ""


def _source(item: Any, tag: str, now: datetime | None) -> SearchSource | None:
    if not isinstance(item, Mapping):
        return None
    url = _first_text(item, ("url", "href", "link"))
    if not is_http_url(url):
        return None
    title = normalise_text(_first_text(item, ("title", "name")))
    snippet = normalise_text(_first_text(item, ("snippet", "description", "summary")))
    published = _first_text(item, ("time", "published")) or None
    return SearchSource(
        title=f"{tag}{title or url}",
        url=url,
        snippet=snippet or None,
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
    )


def _related(item: Any) -> str | None:
    if not isinstance(item, Mapping):
        return None
    props = item.get("props")
    text = _first_text(props, ("question", "query")) if isinstance(props, Mapping) else ""
    return text or _first_text(item, ("title",)) or None


def _answer(data: Mapping[str, Any]) -> str | None:
    answers = data.get("direct_answer")
    first = answers[0] if isinstance(answers, list) and answers else None
    if not isinstance(first, Mapping):
        return None
    return _first_text(first, ("snippet", "title")) or None


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    return first_items(value) if isinstance(value, list) else []


def _parse_v1(
    data: Mapping[str, Any], now: datetime | None
) -> tuple[list[SearchSource], list[str], str | None]:
    sources = [
        source
        for section, tag in _SECTIONS
        for source in (_source(item, tag, now) for item in _list(data, section))
        if source is not None
    ]
    related = [
        question
        for section in _RELATED_SECTIONS
        for question in map(_related, _list(data, section))
        if question
    ]
    return sources, related, _answer(data)


def _parse_v0(items: list[Any], now: datetime | None) -> tuple[list[SearchSource], list[str]]:
    sources: list[SearchSource] = []
    related: list[str] = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        if item.get("t") == 0:
            source = _source(item, "", now)
            if source is not None:
                sources.append(source)
        elif item.get("t") == 1:
            related.extend(
                trim(text) for text in _list(item, "list") if isinstance(text, str) and trim(text)
            )
    return sources, related


def _request_id(envelope: Mapping[str, Any]) -> str | None:
    """``meta.trace``, else ``meta.id``: text trimmed, a number as JavaScript writes it.

    The reference passes either on as it came (``meta.trace ?? meta.id``), so a number is
    its ``String``: ``1.5`` was passed over for the ``id`` and ``7.0`` is ``7``.
    """
    meta = envelope.get("meta")
    if not isinstance(meta, Mapping):
        return None
    for key in ("trace", "id"):
        value = meta.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return js_number(value)
        found = text_or_none(value)  # the field rule, as every other provider's id is read
        if found:
            return found
    return None


def parse_body(
    envelope: Any, limit: int = DEFAULT_RESULTS, *, now: datetime | None = None
) -> SearchResponse:
    """A decoded 2xx Kagi body (v1 envelope or v0 list) as a response (pure).

    Args:
        envelope: The decoded JSON.
        limit: How many sources to keep.
        now: Reference time for ``age_seconds`` (default: now).

    Raises:
        ResponseParseError: The body is not an object, or its ``data`` is neither an object
            (v1) nor a list (v0).
    """
    if not isinstance(envelope, Mapping):
        raise ResponseParseError(PROVIDER_ID, f"{INVALID}: expected an object envelope", 502)
    data = envelope.get("data")
    answer: str | None = None
    if isinstance(data, Mapping):
        sources, related, answer = _parse_v1(data, now)
    elif isinstance(data, list):
        sources, related = _parse_v0(first_items(data), now)
    else:
        raise ResponseParseError(PROVIDER_ID, f"{INVALID}: expected data to be an object", 502)
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=answer,
        sources=tuple(sources[:limit]),
        related_questions=tuple(related),
        request_id=_request_id(envelope),
        auth_mode="api_key",
    )


def _error_entry(value: Any) -> tuple[str | None, Any]:
    """``(message, code)`` of an ``error`` / ``errors`` value: a string or a list of objects.

    The message is the first any object entry gives, in order (its ``message`` or ``msg``,
    else its code in text or as a number), as the reference reads the list; the code is
    the first entry's, the one its label shows. Only the first entry was read, so
    ``[{"location": "query"}, {"msg": "Bad query"}]`` gave no message: a 400 quoted the
    raw body, and a 2xx one was refused as ``expected data to be an object``.
    """
    if isinstance(value, str):
        return text_or_none(value), None  # trimmed by the field rule, as every message
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, list) or not value:
        return None, None
    first = value[0]
    code = first.get("code") if isinstance(first, Mapping) else None
    for entry in value:
        if isinstance(entry, Mapping):
            message = _first_text(entry, ("message", "msg")) or _code_text(entry.get("code"))
            if message:
                return message, code
    return None, code


def _code_text(code: Any) -> str | None:
    """A code in text (trimmed) or a finite number as JavaScript writes it, else ``None``.

    ``429.0`` is ``429``; ``true``, ``null``, arrays and objects are no code text, as the
    reference reads a code as a message only when it is a string or a finite number.
    """
    if isinstance(code, str):
        return trim(code)
    if isinstance(code, int | float) and not isinstance(code, bool):
        text = js_number(code)
        return None if text.endswith(("Infinity", "NaN")) else text
    return None


def body_error(data: Any) -> tuple[str | None, Any]:
    """``(message, code)`` of the ``error`` / ``errors`` a decoded body carries, if any.

    Read as the reference reads a body (``extractKagiErrorMessage``): a body that holds an
    error (a non-empty ``error``, or ``errors`` when ``error`` is no list) is told by its
    top-level ``message`` or ``detail`` first, then by the entries' own words; ``errors``
    is not read beside an ``error`` list. Ours read the entries alone, so a 2xx body with
    ``"message": "Search failed"`` beside ``"error": [{"msg": "internal"}]`` read
    ``internal``, and an ``errors`` entry stood in for an ``error`` list without words.
    """
    if not isinstance(data, Mapping):
        return None, None
    keys = ("error",) if isinstance(data.get("error"), list) else ("error", "errors")
    for key in keys:
        value = data.get(key)
        message, code = _error_entry(value)
        held = isinstance(value, str | list) and len(value) > 0  # ``error.length > 0``
        told = _first_text(data, ("message", "detail")) if held or message else ""
        if told or message:
            return told or message, code
    return None, None


def error_code(body: str) -> str | None:
    """The ``code`` of an error body's first ``error`` entry, as text; ``None`` without one.

    Kagi numbers its errors (https://help.kagi.com/kagi/api/intro/response-format.html):
    ``0`` internal, ``1`` malformed request, ``2`` unauthorized, ``100`` no billing
    information, ``101`` insufficient credit, ``200`` summarize failed.

    Example:
        >>> error_code('{"data": null, "error": [{"code": 101, "msg": "Insufficient credit"}]}')
        '101'
    """
    _, code = body_error(json_object(body.strip()))
    return _code_text(code) or None


def error_detail(status: int, body: str) -> str:
    """The ``<detail>`` of ``Kagi API error (<status>): <detail>`` ("" for an empty body).

    Args:
        status: The HTTP status (unused: Kagi's detail lives in the body alone).
        body: The head of the error body.

    Example:
        >>> error_detail(401, '{"data": null, "error": [{"code": 1, "msg": "Bad key"}]}')
        'Bad key'
    """
    text = body.strip()
    data = json_object(text)
    if data is None:
        return text
    direct = _first_text(data, ("message", "detail"))
    if direct:
        return direct
    message, _ = body_error(data)
    return message or text


def http_status(code: Any) -> int | None:
    r"""``code`` as an HTTP error status (400..599), or ``None`` when it is not one.

    A code in text is read by the field rule (:func:`~websearch_core.js_trim.trim`), as
    the code standing in for a message is: ``str.strip`` kept a byte-order mark, so
    ``"\ufeff429"`` was no status and a rate limit read as a plain failure.

    Example:
        >>> http_status(" 429\n"), http_status("\ufeff429\ufeff"), http_status("4 29")
        (429, 429, None)
    """
    if isinstance(code, bool):
        return None
    if isinstance(code, int):
        number = code
    elif isinstance(code, float) and code.is_integer():
        number = int(code)  # JSON's 429.0 is the number 429 to the reference's reader
    elif isinstance(code, str) and HTTP_STATUS_TEXT.fullmatch(trimmed := trim(code)):
        number = int(trimmed)
    else:
        return None
    return number if 400 <= number < 600 else None


def _code_label(code: Any) -> str | None:
    """``code`` as the error label shows it, ``None`` where the status stands in.

    The reference's label is ``first.code || status`` in a template literal, so a code is
    shown by JavaScript's rules (:mod:`~websearch_core.js_string`): ``true`` as ``true``,
    ``429.0`` as ``429`` (``JSON.parse`` keeps no point), ``1.5`` as ``1.5``, an array
    joined by commas, an object as ``[object Object]``; what JavaScript finds falsy gives
    the status: no code, ``null``, ``false``, ``""``, ``0`` (Kagi's "internal" code, which
    read ``Kagi API error (0): ...``). Text is trimmed by the field rule first (outputs60:
    a mark inside the parentheses is shown as nothing), so a blank code gives the status.
    """
    if isinstance(code, str):
        return text_or_none(code)
    return js_string(code) if js_truthy(code) else None


def body_failure(response: HttpResponse, message: str, code: Any) -> SearchProviderError:
    r"""The error a 2xx body's ``error`` / ``errors`` stands for (no status says it).

    Its text is ``Kagi API error (<code or status>): <message>``; a code that is an HTTP
    error status types it as that status would, else the shared classifier reads the text.
    A code in text is shown as :func:`http_status` reads it, trimmed by the field rule: the
    label showed it as sent (``Kagi API error (\ufeff429): ...``, an invisible mark inside
    the parentheses); a blank one gives the status, as a missing one and a ``0`` do.
    """
    label = _code_label(code)
    text = f"Kagi API error ({label if label is not None else response.status}): {message}"
    status = http_status(code)
    if status is not None:
        return error_for_status(PROVIDER_ID, status, response, text)
    classified = classify_http_error(PROVIDER_ID, response.status, message)
    return classified or SearchProviderError(PROVIDER_ID, text, response.status)
