r"""The forms of a key only an echoed request holds, and what stays shown on purpose.

``Redactor.__call__`` (the failure path: errors, their log lines) reads HTML entities,
``%XX`` and ``\uXXXX`` escapes, finds a key's base64 at any byte alignment inside longer
base64, and a key shown by its ends with 8 or more of its characters. A provider's own
hint (type prefix and last four), pieces under 12 characters and ordinary text stay.
Tests not named ``guard`` failed before the change that added these forms.
"""

import base64

import pytest

from tests.conftest import SHARED_FIXTURES
from websearch_core.echo_forms import base64_cores
from websearch_core.redaction import Redactor

KEY = "sk-SENTINEL-zai-7f3a9c2e5b41d8"
WORDY = "sim-key-perplexity"
"""A key whose inside is a word: its pieces must not turn ``perplexity`` into ``***``."""
FIXTURES = SHARED_FIXTURES


def _every(key: str, form: str) -> str:
    return "".join(form.format(ord(char)) for char in key)


@pytest.mark.parametrize(
    "echo",
    [
        _every(KEY, "&#{};"),
        _every(KEY, "&#x{:x};"),
        _every(KEY, "&#X{:X}"),  # no semicolon: browsers read it, so do upstreams' pages
        KEY.replace("-", "&amp;#45;"),  # escaped twice: an HTML page quoting escaped text
        KEY.replace("_", "&lowbar;").replace("-", "&#45;"),
        _every(KEY, "%{:02X}"),
        _every(KEY, "%{:02x}"),
        "".join(f"\\u{ord(c):04x}" if i % 3 == 0 else c for i, c in enumerate(KEY)),
        KEY.replace("-", "%2D"),
        KEY.replace("-", "%252D"),  # percent-encoded twice
    ],
)
def test_an_escaped_key_is_masked_where_it_was_written(echo: str) -> None:
    """The text around the escapes is kept as it was, escapes and all."""
    redactor = Redactor([KEY])
    assert redactor(f"a&amp;b 50%25 key {echo} refused") == "a&amp;b 50%25 key *** refused"


def test_a_cut_escaped_key_is_masked_as_a_cut_key_is() -> None:
    """An error text cut mid-key: the escaped head of 8+ characters is masked."""
    redactor = Redactor([KEY])
    assert redactor("key " + _every(KEY[:9], "&#{};")) == "key ***"


@pytest.mark.parametrize("before", ["", "u:", "us:", "use:", "user:", '{"api_key": "'])
@pytest.mark.parametrize("urlsafe", [False, True])
def test_the_key_s_base64_at_every_alignment_inside_longer_base64_is_masked(
    before: str, urlsafe: bool
) -> None:
    """``Basic`` of ``user:key`` for any user, and a body encoded whole. The cases ``""``
    and ``us:`` (the key at byte 0 of a group) are guards: the key's own base64 shape,
    masked before, is found there; the other alignments failed before."""
    encode = base64.urlsafe_b64encode if urlsafe else base64.b64encode
    echo = encode(f'{before}{KEY}", "q": "x"}}'.encode()).decode()
    masked = Redactor([KEY])(f"auth {echo} rejected")
    assert "***" in masked
    assert not any(core in masked for core in base64_cores(KEY))
    assert masked.startswith("auth ") and masked.endswith(" rejected")


@pytest.mark.parametrize(
    "shown",
    [
        f"{KEY[:6]}...{KEY[-6:]}",
        f"{KEY[:6]}\u2026{KEY[-6:]}",
        f"{KEY[:6]}{'*' * 18}{KEY[-6:]}",
        f"{KEY[:4]}...{KEY[-4:]}",  # eight in all: as many as a head alone shows
        f"{KEY[:1]}****{KEY[-7:]}",
        f"{KEY[:6].upper()}..{KEY[-5:].upper()}",
    ],
)
def test_a_key_shown_by_its_ends_with_eight_or_more_of_its_characters_is_masked(
    shown: str,
) -> None:
    assert Redactor([KEY])(f"key {shown}, revoked") == "key ***, revoked"


@pytest.mark.parametrize(
    "text",
    [
        f"key {KEY[:3]}...{KEY[-4:]} revoked",  # a provider's hint: type prefix, last four
        f"key ...{KEY[-6:]} revoked",
        f"key {KEY[:5]}***{KEY[-2:]} revoked",
        f"key {KEY[3:11]} revoked",  # a piece under 12 from the middle: SENTINEL
        f"key {KEY[-11:]} revoked",
        f"key ****{KEY[-10:]} revoked",  # a tail alone under 12: see ends_pattern
        "the best engine...perplexity maybe",  # a mark, then a word a key ends with
        "sim... perplexity (see docs)",
    ],
)
def test_guard_a_hint_pieces_under_twelve_and_words_stay(text: str) -> None:
    """A guard (passed before): what shows seven or fewer characters of a key's ends, a
    piece under 12 characters, and a word a key holds all stay as written."""
    assert Redactor([KEY, WORDY])(text) == text


def test_guard_ordinary_escapes_and_base64_stay() -> None:
    """A guard: entities, percent-escapes, JSON escapes and base64 that hold no key."""
    text = (
        "R&amp;D &#8212; caf&eacute; 100%25 %E2%9C%93 \\u00e9 \\/ "
        + base64.b64encode(b"user:not-the-key-at-all-0123456789").decode()
    )
    assert Redactor([KEY, WORDY])(text) == text


def test_responses_keep_the_response_mask() -> None:
    """``in_response`` (what a provider's results are cleaned with) masks the shapes the
    probes look for and leaves the forms only an echoed request holds to ``__call__``."""
    redactor = Redactor([KEY])
    escaped = f"key {_every(KEY, '&#{};')}"
    assert redactor.in_response(f"key {KEY}") == "key ***"
    assert redactor.in_response(escaped) == escaped and not redactor.may_hold(escaped)
    assert redactor(escaped) == "key ***"


def _capture_texts() -> list[tuple[str, str]]:
    found = sorted(path for path in FIXTURES.rglob("*") if path.is_file())
    return [
        (str(path.relative_to(FIXTURES)), path.read_bytes().decode("utf-8", "replace"))
        for path in found
    ]


def test_guard_no_real_capture_changes_under_the_failure_mask() -> None:
    """A guard: every capture (HTML pages full of entities and %XX, JSON with ``\\u``
    escapes, base64 images) read with the failure path's mask of realistic keys, the
    simulator's word-holding keys among them, is left as it is."""
    keys = [KEY, WORDY, "BSAq7Hx2Lm9Pv4Rt8Wk3Zy6Nc1Fd5Gj", "tvly-dev-9fK2mQ7xL4pR8sT1vW6yZ3bN"]
    keys += ["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", "sim-key-tavily"]
    redactor = Redactor(keys)
    texts = _capture_texts()
    assert len(texts) > 50, "the captures should be readable from the shared fixtures"
    changed = [name for name, text in texts if redactor(text) != text]
    assert changed == []
