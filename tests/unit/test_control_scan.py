"""The quick control scan must answer as the control patterns do, for any text.

``holds_control`` tells printable text by ``str.isprintable``, ASCII text by its bytes
and other text by the pattern; ``clean_response``'s check uses it for the one-line and the
multi-line texts and looks for link credentials and secrets in one joined string. Each is
checked against the rule it stands for: the patterns' own search, and the check as it was
written before (each kind over its own joined text), on many generated texts and responses.

These are guards: they pass on the code before the quick scan too (where it did not exist
they were run against the check it replaced); each fails on a deliberately wrong scan (an
ASCII table missing DEL or allowing a line break in a title, a multi-line flag ignored,
the credentials searched in the one-line texts only).
"""

import random
import re

import pytest

from websearch_core import control_chars
from websearch_core.control_chars import (
    CONTROL_IN_LINE,
    CONTROL_IN_TEXT,
    holds_control,
    utf8_holds_control,
)
from websearch_core.models import SearchCitation, SearchResponse, SearchSource
from websearch_core.redaction import Redactor
from websearch_core.sanitize import _ANY_USERINFO, _needs_cleaning, _texts

KEY = "BSA-0123456789abcdefXYZ"

_ALPHABET = [
    *"abc XYZ 09.-/:@",
    *(chr(code) for code in range(0x20)),  # every C0 control, tab and line breaks among them
    "\x7f",  # DEL
    "\x85",  # C1 (next line)
    "\x9b",  # C1 (8-bit CSI)
    "\xa0",  # no-break space: unprintable, allowed
    "\u200d",  # zero-width joiner: unprintable, allowed
    "\u202e",  # bidi override
    "\u2066",  # bidi isolate
    "\ud800",  # lone surrogate
    "\u2019",  # right single quote: printable, not ASCII
    "\U0001f389",  # emoji: printable, outside the BMP
]
_CLEAN = [*"abc XYZ 09.-/:@", "\u2019", "\U0001f389", "\xa0"]


def _pattern_says(text: str, multiline: bool) -> bool:
    return (CONTROL_IN_TEXT if multiline else CONTROL_IN_LINE).search(text) is not None


@pytest.mark.parametrize("multiline", [False, True])
def test_every_ascii_character_is_judged_as_the_pattern_judges_it(multiline: bool) -> None:
    """Each ASCII character alone, inside text, after a line break and after a long run."""
    for code in range(0x80):
        char = chr(code)
        for text in (char, f"a{char}b", f"two\nlines {char}", f"{'x' * 200}{char}"):
            assert holds_control(text, multiline=multiline) is _pattern_says(text, multiline), (
                hex(code),
                text,
            )


@pytest.mark.parametrize("multiline", [False, True])
def test_generated_text_is_judged_as_the_pattern_judges_it(multiline: bool) -> None:
    rng = random.Random(41)
    seen = {"printable": 0, "ascii": 0, "other": 0, "found": 0}
    for _ in range(4000):
        pool = _ALPHABET if rng.random() < 0.5 else [*_CLEAN, "\n", "\t", "\r"]
        text = "".join(rng.choice(pool) for _ in range(rng.randrange(0, 40)))
        if rng.random() < 0.3:
            text = text.encode("ascii", "ignore").decode()  # exercise the ASCII branch
        expected = _pattern_says(text, multiline)
        assert holds_control(text, multiline=multiline) is expected, repr(text)
        kind = "printable" if text.isprintable() else "ascii" if text.isascii() else "other"
        seen[kind] += 1
        seen["found"] += expected
    assert min(seen.values()) > 200, seen  # every branch, and both answers, exercised


def _utf8_says(text: str, multiline: bool) -> bool:
    return utf8_holds_control(text.encode("utf-8", "surrogatepass"), multiline=multiline)


@pytest.mark.parametrize("multiline", [False, True])
def test_the_utf8_scan_judges_every_character_of_the_bmp_as_the_pattern(multiline: bool) -> None:
    """Guard (written with the UTF-8 scan): every code point below U+10000, lone
    surrogates included, alone and between other text, and a few beyond."""
    for code in [*range(0x10000), 0x10000, 0x1F389, 0x10FFFF]:
        char = chr(code)
        for text in (char, f"a\u2019{char}b"):
            assert _utf8_says(text, multiline) is _pattern_says(text, multiline), hex(code)


@pytest.mark.parametrize("multiline", [False, True])
def test_the_utf8_scan_judges_generated_text_as_the_pattern(multiline: bool) -> None:
    """Guard: the UTF-8 scan on the generated texts the quick scan is checked on."""
    rng = random.Random(43)
    found = 0
    for _ in range(4000):
        pool = _ALPHABET if rng.random() < 0.5 else [*_CLEAN, "\n", "\t", "\r"]
        text = "".join(rng.choice(pool) for _ in range(rng.randrange(0, 40)))
        expected = _pattern_says(text, multiline)
        assert _utf8_says(text, multiline) is expected, repr(text)
        found += expected
    assert 500 < found < 3900  # both answers, many times


def _reference_needs_cleaning(response: SearchResponse, redactor: Redactor | None) -> bool:
    """The check as written before the quick scan: each kind over its own joined text."""
    lines, blocks, urls, too_long = _texts(response)
    if too_long:  # a line to cut (never here: the generated texts are short)
        return True
    line_text, block_text = " ".join(lines), " ".join(blocks)
    if CONTROL_IN_LINE.search(line_text) or CONTROL_IN_TEXT.search(block_text):
        return True
    if _ANY_USERINFO.search(f"{line_text} {block_text}"):
        return True
    return redactor is not None and redactor.may_hold(f"{line_text} {block_text} {' '.join(urls)}")


_DIRT = [
    "bell\x07",
    "del\x7f",
    "esc\x1b[2J",
    "line\nbreak",  # a control in a title, allowed in a snippet
    "cr\r",
    "\u202eturned",
    "c1\x85",
    "see https://user:pw@example.org/x",
    f"echoed {KEY}",
    KEY.lower()[:10],
    "no-break\xa0space",  # unprintable but clean
    "lone \ud800 surrogate",
    "isolate \u2069 and 8-bit CSI \x9b",
    "tab\tand \u2019quote\u2019",
    "@handle and https://example.org/",  # an '@' and a link, no credentials
]


def _text(rng: random.Random) -> str:
    base = "".join(rng.choice(_CLEAN) for _ in range(rng.randrange(0, 30)))
    if rng.random() < 0.08:
        dirt = rng.choice(_DIRT)
        cut = rng.randrange(len(base) + 1)
        base = f"{base[:cut]}{dirt}{base[cut:]}"
    return base


def _url(rng: random.Random, n: int) -> str:
    roll = rng.random()
    if roll < 0.05:
        return f"https://example.org/{n}?key={KEY}"
    if roll < 0.1:
        return f"https://user:pw@example.org/{n}"  # credentials in a URL: the URL check's
    if roll < 0.15:
        return f"https://example.org/@{n}"
    return f"https://example.org/{n}"


def _random_response(rng: random.Random) -> SearchResponse:
    sources = tuple(
        SearchSource(
            title=_text(rng) or "t",
            url=_url(rng, n),
            snippet=_text(rng) or None,
            author=_text(rng) or None,
        )
        for n in range(rng.randrange(0, 12))
    )
    citations = tuple(
        SearchCitation(url=_url(rng, n), title=_text(rng), cited_text=_text(rng) or None)
        for n in range(rng.randrange(0, 3))
    )
    return SearchResponse(
        provider="p",
        sources=sources,
        citations=citations,
        answer=_text(rng) or None,
        related_questions=tuple(_text(rng) for _ in range(rng.randrange(0, 3))),
    )


def test_the_check_answers_as_before_on_generated_responses() -> None:
    rng = random.Random(20261205)
    answers = {True: 0, False: 0}
    for _ in range(3000):
        response = _random_response(rng)
        redactor = rng.choice([Redactor([KEY]), None])
        expected = _reference_needs_cleaning(response, redactor)
        assert _needs_cleaning(response, redactor) is expected, response
        answers[expected] += 1
    assert min(answers.values()) > 500, answers


class _Searches:
    """A stand-in for one of the UTF-8 patterns: searches as it does, and counts its scans."""

    def __init__(self, pattern: "re.Pattern[bytes]") -> None:
        self.pattern = pattern
        self.scans = 0

    def search(self, encoded: bytes) -> "re.Match[bytes] | None":
        self.scans += 1
        return self.pattern.search(encoded)


@pytest.mark.parametrize(
    ("text", "searched"),
    [
        ("it\u2019s a \u2014 dash", {"_BIDI_UTF8"}),  # curly quote and dash: \xe2 alone
        ("caf\xe9 \xa0", {"_C1_UTF8"}),  # \xc3 and \xc2, no \xe2 or \xed
        ("\ud55c\uad6d\uc5b4", {"_SURROGATE_UTF8"}),  # Hangul: \xed lead bytes, no control
        ("\u00e9t\u00e9", set()),  # \xc3 only: no pattern can match
    ],
)
def test_a_utf8_pattern_is_searched_only_when_its_lead_byte_is_there(
    monkeypatch: pytest.MonkeyPatch, text: str, searched: set[str]
) -> None:
    """Each pattern starts with one lead byte; text without that byte cannot match it, so
    it is not scanned for it (``in`` finds the byte by ``memchr``, several times faster)."""
    stand_ins = {}
    for name in ("_C1_UTF8", "_BIDI_UTF8", "_SURROGATE_UTF8"):
        stand_ins[name] = _Searches(getattr(control_chars, name))
        monkeypatch.setattr(control_chars, name, stand_ins[name])
    for multiline in (False, True):
        assert utf8_holds_control(text.encode("utf-8", "surrogatepass"), multiline=multiline) is (
            _pattern_says(text, multiline)
        )
    assert {name for name, stand_in in stand_ins.items() if stand_in.scans} == searched


def test_a_lead_byte_with_its_control_after_it_is_still_found() -> None:
    """Guard: text holding each lead byte both in a clean character and in a control."""
    for clean, control in (("\xa0", "\x85"), ("\u2019", "\u202e"), ("\ud55c", "\udfff")):
        for text in (f"{clean}{control}", f"{control}{clean}", f"a{clean}b{control}c"):
            encoded = text.encode("utf-8", "surrogatepass")
            assert utf8_holds_control(encoded) is True, repr(text)
            assert utf8_holds_control(encoded, multiline=True) is True, repr(text)
        assert utf8_holds_control(clean.encode("utf-8", "surrogatepass")) is False
