r"""One JSON decoder for response bodies: pydantic-core's first, the standard library's as judge.

A provider's body is decoded on every search, and ``json.loads`` of a real 44 KiB Brave page
takes about twice as long as :func:`pydantic_core.from_json` (jiter, which pydantic already
ships): on the call path that difference is most of what decoding costs us.

The two agree on every JSON text both accept: same values, same types, the last of duplicate
keys, big integers, ``1e400`` as infinity. They differ only where
jiter is stricter: a UTF-8 byte-order mark, UTF-16 or UTF-32 bytes, lone surrogate escapes
(``"\\ud800"``) and text holding a lone surrogate character, which ``json.loads`` accepts.
So whatever jiter refuses is handed to ``json.loads``, which either decodes it as before or
raises the very ``JSONDecodeError`` (or ``UnicodeDecodeError``, or ``TypeError`` for a value
that is not text) with the message callers have always seen: a body decodes, or fails to,
exactly as it did with ``json.loads`` alone, and only valid bodies take the fast path. The
one exception: a body nested too deeply for ``json.loads`` (which recurses per level) used to
raise ``RecursionError``, past every caller's ``except ValueError``; it is now a ``ValueError``,
so the provider reports invalid JSON and the chain moves on.

Neither reads ``NaN``, ``Infinity`` or ``-Infinity``, which both accept by default and
JavaScript's ``JSON.parse`` (the reference's reader of every body) refuses: jiter is told
not to (``allow_inf_nan=False``) and ``json.loads``' ``parse_constant`` hook, which it
calls for those words only, refuses them, raising the ``JSONDecodeError`` it raises for
any value it cannot read (``Expecting value``, at the word). So such a body is invalid
JSON with the provider's own text, as there, not a search answered with ``nan`` in it.

A leading byte-order mark is dropped here, in bytes or in text alike, before either decoder
reads it. ``json.loads`` skipped one in bytes but refused one in text (``Unexpected UTF-8
BOM``), so the same JSON was read or not by how it reached us: a 4xx body's head, decoded to
text to be quoted, lost its message, and Z.AI's tool text (JSON inside a JSON string) was
taken for prose. RFC 8259 (section 8.1) lets a parser ignore the mark, and the reference's
``fetch`` drops it when it decodes a body; one more inside the text is still not JSON.

One mark, not two: WHATWG's UTF-8 decode drops one, and ``JSON.parse`` refuses a mark in
the text it is given. So a second mark is refused in bytes too (``json.loads`` would skip
it there, in its ``utf-8-sig`` decode, after ours took the first), and text already
decoded from a body with the mark dropped (an error's head: ``transport.error_head``) is
read by :func:`decoded_json`, which drops none: a head whose bytes held two marks is
quoted, not read as JSON, as the reference quotes it.

A response body is read by :func:`response_json`, which differs in one way only: bytes that are
not valid in the body's encoding (a Latin-1 or windows-1252 body labelled UTF-8) become
U+FFFD instead of failing the whole answer. The reference reads every body with the
browser's fetch (``response.json()`` and ``response.text()`` decode UTF-8 with replacement
characters, whatever the label), so it answers where a strict decoder gave the model
"invalid JSON" and lost the provider's answer. Files and tokens stay strict
(:func:`json_loads`): a sign-in file in the wrong encoding is refused, not half read.
"""

import json
import re
from typing import Any

from pydantic_core import from_json

__all__ = ["TOO_DEEP", "decoded_json", "json_loads", "response_json", "without_bom"]

TOO_DEEP = "JSON nested too deeply to decode"

_BOM_TEXT = "\ufeff"
_BOM_UTF8 = b"\xef\xbb\xbf"


def json_loads(data: bytes | str) -> Any:
    r"""``json.loads(data)``'s value, decoded by jiter when it can; ``NaN`` refused.

    Args:
        data: A response body, or text taken from one.

    Raises:
        ValueError: ``data`` is not JSON; the error ``json.loads`` raises for it
            (``json.JSONDecodeError`` or ``UnicodeDecodeError``), or :data:`TOO_DEEP` for
            nesting deeper than Python's recursion limit lets ``json.loads`` follow.

    Example:
        >>> json_loads(b'{"a": [1, 2.5, null], "a": "last"}')
        {'a': 'last'}
        >>> json_loads(b'"\\ud800"') == "\ud800"  # jiter refuses it, json.loads does not
        True
        >>> json_loads('\ufeff{"a": 1}'), json_loads(b'\xef\xbb\xbf[2]')
        ({'a': 1}, [2])
        >>> json_loads(b'\xef\xbb\xbf\xef\xbb\xbf[2]')  # one mark, not two
        Traceback (most recent call last):
        json.decoder.JSONDecodeError: Unexpected UTF-8 BOM: line 1 column 1 (char 0)
        >>> json_loads(b'[1, -Infinity]')  # JSON.parse refuses it; json.loads would not
        Traceback (most recent call last):
        json.decoder.JSONDecodeError: Expecting value: line 1 column 5 (char 4)
    """
    data = _without_bom(data)
    try:
        return from_json(data, allow_inf_nan=False)
    except (ValueError, TypeError):
        # TypeError: text holding a lone surrogate (a string taken out of a decoded body,
        # where a "\\ud800" escape put one), which jiter cannot encode to read. json.loads
        # reads it; and for a value of the wrong type it raises its own TypeError, as before.
        pass
    try:
        return json.loads(data, parse_constant=_refuse_constant)
    except _ConstantSeen:
        raise _constant_error(data) from None
    except RecursionError:
        # Python's decoder recurses once per level: a body nested some thousand levels deep
        # would escape every ``except ValueError`` and end the search instead of failing over.
        raise ValueError(TOO_DEEP) from None


class _ConstantSeen(Exception):
    """``json.loads`` met ``NaN``, ``Infinity`` or ``-Infinity``: no JSON to ``JSON.parse``."""


def _refuse_constant(word: str) -> Any:
    """``json.loads``' ``parse_constant`` hook, which refuses the word it is called for.

    ``json.loads`` calls it for those three words only, never for a body without them, so
    refusing here costs the success path nothing.
    """
    raise _ConstantSeen(word)


_CONSTANT_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')
"""A JSON string (skipped whole) or one of the words ``json.loads`` reads beyond JSON."""


def _constant_error(data: bytes | str) -> json.JSONDecodeError:
    """``json.loads``' own error for a value it cannot read, placed at the first word.

    The body decoded as far as that word (``json.loads`` called the hook there), so the
    first of the words outside a string is the one it met.
    """
    text = (
        data if isinstance(data, str) else data.decode(json.detect_encoding(data), "surrogatepass")
    )
    place = next((m.start(1) for m in _CONSTANT_OR_STRING.finditer(text) if m.group(1)), 0)
    return json.JSONDecodeError("Expecting value", text, place)


def _without_bom(data: bytes | str) -> bytes | str:
    """``data`` without one leading byte-order mark (UTF-8's bytes, or U+FEFF in text).

    Anything but bytes or text goes on untouched, for ``json.loads`` to refuse as before.

    Raises:
        json.JSONDecodeError: Bytes led by a second mark, which ``json.loads`` would skip
            as the first (text led by one is refused by both decoders already).
    """
    if isinstance(data, str):
        return without_bom(data)
    if isinstance(data, bytes):
        data = data.removeprefix(_BOM_UTF8)
        if data.startswith(_BOM_UTF8):
            raise _second_mark(_BOM_TEXT)
    return data


def _second_mark(text: str) -> json.JSONDecodeError:
    """The error ``json.loads`` raises for text led by a mark (``JSON.parse`` refuses it)."""
    return json.JSONDecodeError("Unexpected UTF-8 BOM", text, 0)


def decoded_json(text: str) -> Any:
    r"""The JSON value of text decoded from a body, whose one mark the decode has dropped.

    The reading of an error's head (:func:`~websearch_core.transport.error_head`), as the
    reference reads ``JSON.parse(await response.text())``: a mark still leading the text
    is the body's second, and refused, where :func:`json_loads` would take it for the
    first and read the JSON behind it. And of an event stream's ``data``, as the reference
    reads ``JSON.parse(event.data)``: WHATWG's stream decode drops one mark at the
    stream's start (:class:`~websearch_core.sse.SseParser` does), none in an event, so a
    mark leading an event's data is data, and that data is not JSON.

    Raises:
        ValueError: ``text`` is led by a mark, or is not JSON (as :func:`json_loads`).

    Example:
        >>> decoded_json('{"a": 1}')
        {'a': 1}
        >>> decoded_json('\ufeff{"a": 1}')
        Traceback (most recent call last):
        json.decoder.JSONDecodeError: Unexpected UTF-8 BOM: line 1 column 1 (char 0)
    """
    if text.startswith(_BOM_TEXT):
        raise _second_mark(text)
    return json_loads(text)


def without_bom(text: str) -> str:
    r"""``text`` without one leading byte-order mark (U+FEFF): the one rule for decoded text.

    A decoded body's head is read here and wherever else it is looked at (an error's quoted
    head, an HTML page told by its first ``<``, a refusal's phrase), so that a mark the
    server put first never hides what the text starts with; WHATWG's UTF-8 decode, which
    the reference's ``fetch`` uses, drops it alike. One mark only: a second is text.

    Example:
        >>> without_bom("\ufeff\ufeff<html>"), without_bom("<html>")
        ('\ufeff<html>', '<html>')
    """
    return text.removeprefix(_BOM_TEXT)


def response_json(body: bytes) -> Any:
    r"""A response body's JSON value, bytes undecodable in its encoding read as U+FFFD.

    Valid bodies take :func:`json_loads` (jiter's fast path) unchanged; only when strict
    decoding fails is the text decoded again with replacement characters, in the encoding
    ``json.loads`` detected (UTF-8, its byte-order mark dropped, or UTF-16/32), and parsed.
    Every provider reads its bodies here, so a mislabelled charset damages the few letters
    it holds, never the answer.

    Args:
        body: The bytes of a response body.

    Raises:
        ValueError: The text, once decoded, is not JSON (``json.JSONDecodeError``), or
            :data:`TOO_DEEP`.

    Example:
        >>> response_json('{"t": "20\u00b0C"}'.encode("latin-1")) == {"t": "20\ufffdC"}
        True
    """
    try:
        return json_loads(body)
    except UnicodeDecodeError:
        pass
    return json_loads(body.decode(json.detect_encoding(body), errors="replace"))
