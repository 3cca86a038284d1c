r"""``Redactor.may_hold`` must answer ``True`` whenever the response mask would change the text.

The response mask is :meth:`Redactor.in_response`; the failure path's
(``Redactor.__call__``) also reads escapes an echoed request holds (``%3A``, a lone
``\u0041``), which no probe looks for: a provider's results never hold those.

``clean_response`` skips the mask when the probe says no, so a probe that misses one
echo leaks a key. ASCII secrets are probed in the UTF-8 bytes lower-cased as ASCII, with
the four non-ASCII characters a case-insensitive match takes for an ASCII letter
replaced first; these tests check that list against Python's own case-insensitive
matching over every code point, and the probe against the mask on seeded random echoes.
"""

import base64
import random
import re
import sys
from urllib.parse import quote, quote_plus

import pytest

from websearch_core.models import SearchResponse, SearchSource
from websearch_core.redaction import _ASCII_LOOKALIKES, _KELVIN, Redactor
from websearch_core.sanitize import clean_response

SEED = 20261202
KEY = "BSAik-0123456789sKiXYZ"
"""A token (prefix-matched) with every letter that has a non-ASCII look-alike: i, s, k."""
SHORT = "kiss-1234"
"""Not a token: only its whole shapes are masked, so no 8-character head can stand in."""


def _non_ascii_code_points() -> range:
    return range(0x80, sys.maxunicode + 1)


def test_the_look_alikes_are_every_character_a_case_insensitive_match_takes_for_ascii() -> None:
    any_ascii = re.compile(r"[\x00-\x7f]", re.IGNORECASE)
    found = {chr(code) for code in _non_ascii_code_points() if any_ascii.fullmatch(chr(code))}
    assert found == {lookalike for lookalike, _ in _ASCII_LOOKALIKES}


def test_no_other_character_matches_an_ascii_literal_as_the_mask_spells_it() -> None:
    """The mask is escaped literals; check each ASCII literal against every cased character."""
    literals = [re.compile(re.escape(chr(code)), re.IGNORECASE) for code in range(0x80)]
    lookalikes = dict(_ASCII_LOOKALIKES)
    for code in _non_ascii_code_points():
        char = chr(code)
        if char.lower() == char.upper() == char.casefold() == char and char not in lookalikes:
            continue  # no case mapping, and not one of the special pairs: equal only to itself
        matched = [chr(index) for index, literal in enumerate(literals) if literal.fullmatch(char)]
        if char in lookalikes:
            assert lookalikes[char] in matched and lookalikes[char].upper() in matched
        else:
            assert matched == [], repr(char)


def test_a_dotless_i_or_a_kelvin_sign_in_an_echo_is_found() -> None:
    redactor = Redactor([SHORT])
    for echo in ("kıss-1234", "kİss-1234", "\u212aiss-1234", "ki\u017fs-1234", "KISS-1234"):
        assert redactor(echo) == "***", echo
        assert redactor.may_hold(f"said {echo}."), echo


def test_a_dotless_i_echo_is_masked_in_a_clean_looking_response() -> None:
    response = SearchResponse(
        provider="brave",
        sources=(SearchSource(title="t", url="https://a.example/", snippet="key: kıss-1234"),),
    )
    cleaned = clean_response(response, cap=10, redactor=Redactor([SHORT]))
    assert cleaned.sources[0].snippet == "key: ***"


def _shapes(secret: str) -> list[str]:
    raw = secret.encode()
    encoded = [base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode()]
    # secret[3:]: a run from inside the key (its type prefix left out) is masked too.
    return [secret, quote(secret, safe=""), quote_plus(secret), *encoded, secret[:10], secret[3:]]


def _disguised(rng: random.Random, shape: str) -> str:
    """``shape`` with random case, look-alikes and non-ASCII or surrogate neighbours."""
    chars = []
    for char in shape:
        roll = rng.random()
        if roll < 0.3:
            char = char.swapcase()
        elif roll < 0.4:
            char = {"i": rng.choice("ıİ"), "s": "ſ", "k": "\u212a"}.get(char.lower(), char)
        chars.append(char)
    around = ["", " ", "é", "—", "\ud800", "ß", "ﬁ", "\u0307", "x", "😀"]
    return rng.choice(around) + "".join(chars) + rng.choice(around)


@pytest.mark.parametrize("secret", [KEY, SHORT, "user:pass-word-1"])
def test_the_probe_finds_every_random_echo_the_mask_changes(secret: str) -> None:
    rng = random.Random(SEED)
    redactor = Redactor([secret])
    masked = 0
    for _ in range(5_000):
        text = _disguised(rng, rng.choice(_shapes(secret)))
        if rng.random() < 0.5:  # cut short: the mask takes a long enough head of a token
            text = text[: rng.randint(1, len(text))]
        if redactor.in_response(text) != text:  # the mask clean_response applies
            masked += 1
            assert redactor.may_hold(text), repr(text)
    assert masked > 1_000


def test_the_probe_stays_quiet_on_non_ascii_text_without_the_secret() -> None:
    redactor = Redactor([KEY])
    assert not redactor.may_hold("We’ve already laid the foundation — ıİſ\u212a ß \ud800 " * 20)


def test_a_non_ascii_secret_is_still_found_in_any_case() -> None:
    redactor = Redactor(["Pässwört-Geheim-42"])
    for echo in ("PÄSSWÖRT-GEHEIM-42", "pässwört-geheim-42", quote("Pässwört-Geheim-42")):
        assert redactor(f"[{echo}]") != f"[{echo}]"
        assert redactor.may_hold(f"[{echo}]")
    assert not redactor.may_hold("Pässe und Wörter")


def test_every_look_alike_is_seen_by_its_lead_byte_or_is_the_kelvin_sign() -> None:
    """The probe replaces look-alikes only when it sees byte c4 or c5, or the Kelvin sign."""
    for lookalike, _ in _ASCII_LOOKALIKES:
        lead = lookalike.encode("utf-8")[:1]
        assert lead in (b"\xc4", b"\xc5") or lookalike == _KELVIN, repr(lookalike)


@pytest.mark.parametrize("neighbour", ["ł", "Ą", "ő", "\u2122", "’", ""])
def test_an_echo_with_a_look_alike_is_found_beside_any_neighbour(neighbour: str) -> None:
    """Latin Extended-A letters share the look-alikes' lead bytes, the trade mark sign and
    curly quotes the Kelvin sign's: with or without them the echo is found, and text
    holding only them stays quiet."""
    redactor = Redactor([SHORT, KEY])
    for echo in ("kıss-1234", "\u212aiss-1234", "ki\u017fs-1234", "BSAİk-0123"):
        for before in ("", "Zażółć "):
            text = f"{before}{neighbour} said {echo}{neighbour}."
            assert redactor(text) != text, text
            assert redactor.may_hold(text), text
    assert not redactor.may_hold(f"Zażółć {neighbour} gęślą jaźń, \u212a and ı{neighbour}.")


def _json_escaped(secret: str, rng: random.Random) -> str:
    """``secret`` as an encoder that escapes every character writes it, hex in either case."""
    return "".join(
        f"\\u{ord(char):04{rng.choice('xX')}}" if rng.random() < 0.9 else char for char in secret
    )


@pytest.mark.parametrize("secret", [KEY, SHORT, "user:pass/word-1"])
def test_a_json_escaped_echo_is_found_and_text_without_one_stays_quiet(secret: str) -> None:
    """Guard (passes before and after the backslash gate): the JSON shapes, which the probe
    looks for only in text holding a backslash, are still found wherever the mask finds
    them, beside other backslashes or none; and a backslash alone is no alarm."""
    rng = random.Random(SEED)
    redactor = Redactor([secret])
    every = "".join(f"\\u{ord(char):04x}" for char in secret)
    for echo in (every, every.upper().replace("\\U", "\\u"), secret.replace("/", "\\/")):
        for around in ("", "C:\\path ", "é—’ "):
            text = f"{around}error: {echo}."
            assert redactor(text) != text, text
            assert redactor.may_hold(text), text
    found = 0
    before = ["", "a\\b ", "ß "]
    for _ in range(2_000):
        text = rng.choice(before) + _json_escaped(secret, rng)
        if redactor.in_response(text) != text:
            found += 1
            assert redactor.may_hold(text), repr(text)
    assert found > 100  # the mask takes whole shapes (a long head of a token): many
    assert not redactor.may_hold("C:\\Users\\me said \\u0041\\u0042 and \\/ — fine " * 20)
