"""``json_loads`` decodes every body exactly as ``json.loads`` does, and fails where it fails.

The comparison is by ``repr``, so key order, ``1`` against ``1.0`` against ``True`` all
count. One difference is the point: ``NaN``, ``Infinity`` and ``-Infinity``, which
``json.loads`` reads and ``JSON.parse`` (the reference's reader) refuses, are refused.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import SHARED_FIXTURES, read_capture
from websearch_core.json_decode import TOO_DEEP, json_loads, response_json


def _json_captures() -> list[str]:
    if not SHARED_FIXTURES.is_dir():
        return ["brave/web_search_laravel_2024.json"]  # read_capture skips or fails (CI)
    return sorted(
        str(path.relative_to(SHARED_FIXTURES))
        for path in SHARED_FIXTURES.rglob("*.json")
        if path.is_file()
    )


@pytest.mark.parametrize("relative", _json_captures())
def test_every_real_json_capture_decodes_as_json_loads_does(relative: str) -> None:
    body = read_capture(relative)
    try:
        expected = repr(json.loads(body))
    except ValueError as error:
        with pytest.raises(type(error)):
            json_loads(body)
        return
    assert repr(json_loads(body)) == expected
    assert repr(json_loads(body.decode("utf-8"))) == expected
    assert repr(response_json(body)) == expected  # a valid body reads as it always did


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(st.characters(exclude_categories=()))  # lone surrogates too
)
_VALUES = st.recursive(
    _SCALARS,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)


def _refuse(word: str) -> object:
    raise ValueError(word)


def _json_parse_reading(data: bytes | str) -> str:
    """``repr`` of ``json.loads``' value, or ``"refused"`` where ``JSON.parse`` refuses."""
    try:
        return repr(json.loads(data, parse_constant=_refuse))
    except ValueError:
        return "refused"


def _reading(data: bytes | str) -> str:
    try:
        return repr(json_loads(data))
    except ValueError:
        return "refused"


@settings(max_examples=300, deadline=None)
@given(value=_VALUES, ensure_ascii=st.booleans())
def test_any_json_text_decodes_as_json_loads_does(value: object, ensure_ascii: bool) -> None:
    # ``json.dumps`` writes a float's NaN and infinities as the words JSON.parse refuses.
    text = json.dumps(value, ensure_ascii=ensure_ascii)
    assert _reading(text) == _json_parse_reading(text)
    if not ensure_ascii and any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return  # lone surrogates cannot be UTF-8 encoded; the escaped form is covered
    body = text.encode("utf-8")
    assert _reading(body) == _json_parse_reading(body)


@pytest.mark.parametrize(
    ("body", "place"),
    [
        (b"NaN", 0),
        (b"[1, Infinity]", 4),
        (b'{"a": "NaN \\" Infinity", "b": -Infinity}', 30),
        ('{"\u00e9": NaN}'.encode("utf-16"), 6),  # jiter refuses UTF-16: json.loads' path
        (b'["\\ud800", NaN]', 11),  # a lone surrogate escape: json.loads' path too
        ('["\ud800", NaN]', 6),  # text holding a lone surrogate (jiter: TypeError)
        (b"\xef\xbb\xbf[NaN]", 1),  # the mark dropped first
    ],
)
def test_the_words_json_parse_refuses_are_refused_where_they_stand(
    body: bytes | str, place: int
) -> None:
    # Failed before: json.loads and jiter read them as nan and infinities.
    with pytest.raises(json.JSONDecodeError) as refused:
        json_loads(body)
    assert refused.value.msg == "Expecting value"
    assert refused.value.pos == place
    with pytest.raises(json.JSONDecodeError):
        response_json(body if isinstance(body, bytes) else body.encode("utf-8", "surrogatepass"))


def test_guard_the_words_in_text_and_a_huge_number_still_read() -> None:
    # A guard (held before): inside a string they are text; 1e400 is JSON's infinity.
    assert json_loads(b'{"a": "NaN Infinity", "b": 1e400}') == {
        "a": "NaN Infinity",
        "b": float("inf"),
    }


@pytest.mark.parametrize(
    "body",
    [
        b'"\\ud800"',  # a lone surrogate escape
        b'["\\udc00\\ud800", 1]',
        b'\xef\xbb\xbf{"a": 1}',  # a UTF-8 byte-order mark
        '{"a": "\u00e9"}'.encode("utf-16"),
        '{"a": "\u00e9"}'.encode("utf-32"),
        '{"a": "\u00e9"}'.encode("utf-16-le"),
        '["a\ud800", "\udfff"]',  # text holding lone surrogates (jiter: TypeError)
        '{"k": "\ud83d"}',
    ],
)
def test_what_jiter_refuses_but_json_loads_accepts_still_decodes(body: bytes | str) -> None:
    assert repr(json_loads(body)) == repr(json.loads(body))


@pytest.mark.parametrize(
    "body",
    [b"", b"{", b'{"a": 1} trailing', b"[1,]", b"{a: 1}", b'"\xff"', b"01", b'"a\nb"', b"nul"],
)
def test_invalid_json_raises_json_loads_own_error(body: bytes) -> None:
    with pytest.raises(ValueError) as expected:
        json.loads(body)
    with pytest.raises(ValueError) as raised:
        json_loads(body)
    assert type(raised.value) is type(expected.value)
    assert str(raised.value) == str(expected.value)


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_nesting_past_the_recursion_limit_is_a_value_error_not_a_recursion_error(
    depth: int,
) -> None:
    with pytest.raises(ValueError, match=TOO_DEEP):
        json_loads(b"[" * depth + b"]" * depth)


def test_nesting_jiter_refuses_but_json_loads_follows_still_decodes() -> None:
    body = b"[" * 300 + b"1" + b"]" * 300
    assert repr(json_loads(body)) == repr(json.loads(body))


@pytest.mark.parametrize("value", [None, 12, ["[1]"]])
def test_a_value_that_is_not_text_raises_json_loads_own_type_error(value: object) -> None:
    with pytest.raises(TypeError) as expected:
        json.loads(value)  # type: ignore[arg-type]
    with pytest.raises(TypeError) as raised:
        json_loads(value)  # type: ignore[arg-type]
    assert str(raised.value) == str(expected.value)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            '{"t": "20\u00b0C", "c": "S\u00e3o Paulo"}'.encode("latin-1"),
            {"t": "20\ufffdC", "c": "S\ufffdo Paulo"},
        ),
        ('["\u2013 \u201cquoted\u201d"]'.encode("windows-1252"), ["\ufffd \ufffdquoted\ufffd"]),
        (b'\xef\xbb\xbf{"a": "caf\xe9"}', {"a": "caf\ufffd"}),  # the mark dropped, as UTF-8 has it
        (b'{"a": "\xe2\x82 cut"}', {"a": "\ufffd cut"}),  # one mark for a cut-off sequence
        (b'{"\xe9t\xe9": 1}', {"\ufffdt\ufffd": 1}),  # keys too
    ],
)
def test_a_response_in_a_single_byte_charset_reads_with_replacement_characters(
    body: bytes, expected: object
) -> None:
    # What a browser's fetch gives for the same bytes: UTF-8, U+FFFD where they are not.
    with pytest.raises(UnicodeDecodeError):
        json_loads(body)  # a file or token stays strict
    assert response_json(body) == expected


@pytest.mark.parametrize("body", [b"<html>caf\xe9</html>", b'{"a": "\xe9"', b"\xff"])
def test_a_response_not_json_once_decoded_is_refused_as_invalid_json(body: bytes) -> None:
    # Not a UnicodeDecodeError about a byte: the message says where the JSON breaks.
    with pytest.raises(json.JSONDecodeError):
        response_json(body)


@pytest.mark.parametrize(
    "body",
    [b'"\\ud800"', '{"a": "\u00e9"}'.encode("utf-16"), b"[" * 300 + b"1" + b"]" * 300],
)
def test_guard_a_valid_response_jiter_refuses_reads_as_json_loads_does(body: bytes) -> None:
    # A guard: these never fail strict decoding, so they read as before the lenient path.
    assert repr(response_json(body)) == repr(json.loads(body))
