"""An HTML engine parses the body's bytes when its text is exactly their decoding.

``html.decoded_page`` gives a body's text (what ``HttpResponse.text()`` gives) and, when
nothing was replaced and there is no byte-order mark, the body itself, which
``parse_document`` then reads instead of the text (lxml parses UTF-8 bytes in about half
the time of a ``str`` holding a character beyond U+FFFF). The tree must be the very one
the text gives for every body that decodes as it is, on every real capture and on seeded
random pages built from what could tell them apart (invalid and overlong bytes, byte-order
marks, NUL and other controls, an XML encoding declaration, a ``<meta charset>`` naming
another encoding, characters of one to four UTF-8 bytes); and every engine's read of a
response must give what its parser gives for the response's text.

``html.utf8_source`` finds the same bytes without keeping the text (it decodes a piece at a
time), so the engines that need the text only for a page without results (Bing, Yahoo,
Startpage, Google, Ecosia, Mojeek), or only to look for an ASCII word (DuckDuckGo), and
Startpage's homepage step, read a large body without ever holding its whole text: a page
with one emoji is a ``str`` of four bytes a character. Google's, Ecosia's and Mojeek's block
checks read the body too (``providers._page_markers``), and tell every capture as its text.
"""

import random
import re
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import lxml.etree
import pytest

from tests.conftest import SHARED_FIXTURES, read_capture
from websearch_core.errors import SearchProviderError
from websearch_core.html import (
    _TEXT_PIECE,  # where text_matches cuts the text
    decoded_page,
    parse_body,
    parse_document,
    parse_source,
    text_matches,
    text_of,
    utf8_source,
)
from websearch_core.models import SearchParams, SearchSource
from websearch_core.providers import (
    bing,
    duckduckgo,
    ecosia,
    get_provider,
    google,
    mojeek,
    startpage,
    yahoo,
)
from websearch_core.providers._html_engine import HtmlEngineProvider
from websearch_core.transport import HttpResponse

SEED = 20261202
_T = TypeVar("_T")
_PIECES = [
    b"<p>",
    b"</p>",
    b"<div class=r>",
    b"</div>",
    b"<b>",
    b"</b>",
    b"<!-- c -->",
    b"text ",
    b"  \n\t",
    b"&amp;lt;",
    b"&#x1F600;",
    b"&#0;",
    "caf\u00e9 ".encode(),
    "\u65e5\u672c ".encode(),
    "\U0001f600".encode(),
    "\ufffd".encode(),
    "\ufeff".encode(),
    b"\x00",
    b"\x01\x1f",
    b"\xe9",  # Latin-1, invalid as UTF-8
    b"\xc0\xaf",  # overlong
    b"\xed\xa0\x80",  # an encoded surrogate
    b"\xf0\x9f\x98",  # a truncated four-byte sequence
    b'<meta charset="windows-1252">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">',
]
_HEADS = [b"", b"\xef\xbb\xbf", b'<?xml version="1.0" encoding="iso-8859-1"?>', b"<!DOCTYPE html>"]


def _tree(root: lxml.etree._Element) -> bytes:
    return lxml.etree.tostring(root, encoding="utf-8")


def _random_bodies() -> Iterator[bytes]:
    rng = random.Random(SEED)
    for _ in range(600):
        pieces = [rng.choice(_PIECES) for _ in range(rng.randrange(0, 14))]
        yield rng.choice(_HEADS) + b"".join(pieces)


def _html_capture_paths() -> list[Path]:
    if not SHARED_FIXTURES.is_dir():
        pytest.skip("captures not available")
    return sorted(SHARED_FIXTURES.rglob("*.htm*"))


def test_the_text_is_always_what_the_response_gives() -> None:
    for body in _random_bodies():
        text, _ = decoded_page(body)
        assert text == HttpResponse(status=200, body=body).text()


def _lossless(body: bytes) -> bytes | None:
    """``body`` when its text is exactly its decoding and it has no byte-order mark."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return None if body.startswith(b"\xef\xbb\xbf") else body


def test_bytes_are_handed_on_only_when_the_text_is_exactly_their_decoding() -> None:
    handed_on = kept_back = 0
    for body in _random_bodies():
        text, source = decoded_page(body)
        if source is None:
            kept_back += 1
        else:
            handed_on += 1
            assert source is body and _lossless(body) is body and source.decode("utf-8") == text
    assert handed_on > 100 and kept_back > 100  # both ways were taken


def test_the_bytes_give_the_tree_the_text_gives_on_random_pages() -> None:
    compared = 0
    for body in _random_bodies():
        source = _lossless(body)
        if source is not None:
            text = body.decode("utf-8")
            assert _tree(parse_document(text, source=source)) == _tree(parse_document(text))
            compared += 1
    assert compared > 100


def test_the_bytes_give_the_tree_the_text_gives_on_every_capture() -> None:
    paths = _html_capture_paths()
    for path in paths:
        body = path.read_bytes()
        assert _lossless(body) is body, path.name  # every capture is UTF-8 without a mark
        text = body.decode("utf-8")
        assert _tree(parse_document(text, source=body)) == _tree(parse_document(text)), path.name
    assert len(paths) > 15


def _without_age(sources: list[SearchSource]) -> list[dict[str, object]]:
    """The sources as data; ``age_seconds`` is measured from each parse's own clock."""
    return [source.model_dump(exclude={"age_seconds"}) for source in sources]


def _ddg_sources(page: str, *, source: bytes | None = None) -> list[SearchSource]:
    return duckduckgo.parse_page(page, source=source).sources


_ENGINES: list[tuple[str, Callable[..., list[SearchSource]]]] = [
    ("duckduckgo/html_results_eino_2025.html", _ddg_sources),
    ("duckduckgo/lite_results_zeta_2026.html", _ddg_sources),
    ("bing/serp_javascript_tutorial_http_2026.html", bing.parse_page),
    ("yahoo/serp_javascript_tutorial_2026.html", yahoo.parse_page),
    ("startpage/serp_javascript_tutorial_http_2026.html", startpage.parse_page),
    ("google/serp_ai_tools_pt-BR_rendered_2025-03.html", google.parse_page),
    ("ecosia/serp_javascript_tutorial_2026.html", ecosia.parse_page),
    ("mojeek/serp_javascript_tutorial_2026.html", mojeek.parse_page),
]


@pytest.mark.parametrize(("capture", "parse_page"), _ENGINES)
def test_each_parser_reads_the_same_sources_from_the_bytes(
    capture: str, parse_page: Callable[..., list[SearchSource]]
) -> None:
    body = read_capture(capture)
    text = body.decode("utf-8")
    from_text = parse_page(text)
    assert from_text, "the capture has results"
    assert _without_age(parse_page(text, source=body)) == _without_age(from_text)


@pytest.mark.parametrize(("capture", "parse_page"), _ENGINES)
def test_each_engine_reads_a_response_as_its_parser_reads_the_text(
    capture: str, parse_page: Callable[..., list[SearchSource]]
) -> None:
    provider = get_provider(capture.split("/")[0])
    assert isinstance(provider, HtmlEngineProvider)
    response = HttpResponse(status=200, body=read_capture(capture), url="https://engine.example/")
    read = provider.engine.read(response).sources
    assert _without_age(read) == _without_age(parse_page(response.text()))


def test_an_undecodable_body_is_read_from_its_text_as_before() -> None:
    body = b"<div class=r><p>caf\xe9 \xf0\x9f\x98</p></div>"
    text, source = decoded_page(body)
    assert source is None and "\ufffd" in text
    assert _tree(parse_document(text, source=source)) == _tree(parse_document(text))


def _handed_on(body: bytes) -> bytes | None:
    """What ``utf8_source`` must give: ``decoded_page``'s bytes, unless the text is blank."""
    text, source = decoded_page(body)
    return None if not text or text.isspace() else source


def _straddling_bodies() -> Iterator[bytes]:
    """Bodies whose telling bytes sit at the 64 KiB boundary of ``utf8_source``'s pieces."""
    piece = 1 << 16
    for tail in ("\U0001f600".encode(), "\u00e9".encode(), b"\xf0\x9f\x98", b"\xe9", b"\xef"):
        for shift in range(-3, 4):
            yield b"<p>" + b"a" * (piece - 3 + shift) + tail + b"</p>"
    yield b" " * piece + "\u00a0".encode() * 5  # blank across pieces (no-break spaces)
    yield b" " * piece + "\u00a0".encode() + b"<p>x"  # text only in the second piece


def test_utf8_source_hands_on_what_decoded_page_does_unless_the_text_is_blank() -> None:
    handed_on = 0
    for body in [*_random_bodies(), *_straddling_bodies(), b"", b" \x1c\n", b"\xef\xbb\xbf<p>"]:
        expected = _handed_on(body)
        assert utf8_source(body) is expected, body[:40]
        handed_on += expected is not None
    assert handed_on > 100


def test_parse_source_and_parse_body_give_the_tree_the_text_gives() -> None:
    for body in [*_random_bodies(), *_straddling_bodies()]:
        text = HttpResponse(status=200, body=body).text()
        tree = _tree(parse_document(text))
        assert _tree(parse_body(body)) == tree
        source = utf8_source(body)
        if source is not None:
            assert _tree(parse_source(source)) == tree


def _padded(capture: str, size: int = 2_000_000) -> bytes:
    """A capture with one emoji and ASCII filler in a comment: its text is UCS-4, ~4x size."""
    body = read_capture(capture)
    filler = b"<!-- " + "\U0001f600".encode() + b"x" * (size - len(body)) + b" -->"
    at = body.rindex(b"</body>")
    return body[:at] + filler + body[at:]


def _peak(read: Callable[[], _T]) -> tuple[_T, int]:
    """``read()``'s value, then the most Python memory a second read held at once.

    The first read (untraced) makes the lazy imports and fills the caches, so that the peak
    is the read's own; its value is the caller's to check. Each caller used to check a read
    of its own first: a third parse of a 2 MB page, 3-4 s of a Startpage case at load 8.
    """
    value = read()
    tracemalloc.start()
    try:
        read()
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(("capture", "parse_page"), [*_ENGINES[2:], _ENGINES[0]])
def test_a_large_page_with_results_is_read_without_its_whole_text(
    capture: str, parse_page: Callable[..., list[SearchSource]]
) -> None:
    provider = get_provider(capture.split("/")[0])
    assert isinstance(provider, HtmlEngineProvider)
    body = _padded(capture)
    response = HttpResponse(status=200, body=body, url="https://engine.example/")
    outcome, peak = _peak(lambda: provider.engine.read(response))
    read = outcome.sources
    assert read and _without_age(read) == _without_age(parse_page(response.text()))
    assert peak < len(body), peak  # the text alone would be four times the body


def test_startpage_reads_a_large_homepage_without_its_whole_text() -> None:
    body = _padded("startpage/serp_javascript_tutorial_http_2026.html")
    home = HttpResponse(status=200, body=body, url=startpage.STARTPAGE_HOME_URL)
    params = SearchParams(query="javascript tutorial")
    request, peak = _peak(lambda: startpage.search_request(params, home))
    hidden = startpage.hidden_search_fields(home.text())
    assert hidden is not None
    assert request == startpage.build_post_request(startpage.build_form(params, hidden))
    assert peak < len(body), peak


_BLOCK_CHECKS: list[tuple[str, Callable[[str | bytes, int], object]]] = [
    ("google", lambda page, status: google.block_reason(page, status, google.GOOGLE_HOME_URL)),
    ("ecosia", ecosia.is_blocked),
    ("mojeek", lambda page, status: mojeek.is_robot_page(page)),
]


def test_the_block_checks_tell_every_capture_from_its_body_as_from_its_text() -> None:
    told = 0
    for path in _html_capture_paths():
        body = path.read_bytes()
        text = body.decode("utf-8", errors="replace")
        for engine, check in _BLOCK_CHECKS:
            for status in (200, 403, 503):
                expected = check(text, status)
                assert check(body, status) == expected, (engine, path.name, status)
                told += status == 200 and expected not in (None, False)
    assert told >= 4  # the walls among the captures were told as walls


@pytest.mark.parametrize(
    "capture",
    [
        "google/serp_ai_tools_pt-BR_rendered_2025-03.html",
        "google/enablejs_js_required_shell_2026-09.html",
        "ecosia/serp_javascript_tutorial_2026.html",
        "mojeek/serp_javascript_tutorial_2026.html",
        "mojeek/403_forbidden_automated_queries_2026-09.html",
    ],
)
def test_a_large_page_is_checked_without_its_whole_text(capture: str) -> None:
    provider = get_provider(capture.split("/")[0])
    assert isinstance(provider, HtmlEngineProvider)
    body = _padded(capture)
    response = HttpResponse(status=200, body=body, url="https://engine.example/")
    as_captured = HttpResponse(status=200, body=read_capture(capture), url=response.url)
    checked, peak = _peak(lambda: _checked(provider, response))
    assert checked == _checked(provider, as_captured)
    assert peak < len(body), peak  # the text alone would be four times the body


def _checked(provider: HtmlEngineProvider, response: HttpResponse) -> str | None:
    """The message the engine's check raises for ``response``, or ``None``."""
    try:
        provider.engine.check(response)
    except SearchProviderError as error:
        return error.message
    return None


_CHALLENGE_PAGES: list[tuple[str, Callable[[lxml.etree._Element, str | bytes], bool]]] = [
    ("bing", bing.is_challenge_page),
    ("yahoo", yahoo.is_consent_page),
    ("startpage", startpage.is_challenge_page),
]


def test_the_challenge_checks_tell_every_capture_from_its_body_as_from_its_text() -> None:
    # Bing's, Yahoo's and Startpage's text markers are looked for in the body's bytes when a
    # page without results is read from its bytes: every capture reads as from its text.
    told = 0
    for path in _html_capture_paths():
        body = path.read_bytes()
        text = body.decode("utf-8", errors="replace")
        document = parse_document(text)
        for engine, check in _CHALLENGE_PAGES:
            expected = check(document, text)
            assert check(document, body) == expected, (engine, path.name)
            told += expected
    assert told >= 1  # Bing's Turnstile page, the one such wall among the captures


_RENAMED_BLOCKS = {
    "bing": (b'class="b_algo"', b'class="b_gone"'),
    "yahoo": (b" algo algo-sr", b" gone algo-sr"),
    "startpage": (b'<div class="result ', b'<div class="gone '),
}
"""Per engine, a result block's class and a name that makes the block no result."""


def _without_results(capture: str) -> bytes:
    """The capture with its result blocks renamed, so the page holds no result."""
    body = read_capture(capture)
    renamed = _RENAMED_BLOCKS.get(capture.split("/")[0])
    if renamed is None or renamed[0] not in body:
        return body  # a page without results as captured
    return body.replace(*renamed)


def _read(provider: HtmlEngineProvider, response: HttpResponse) -> object:
    """What the engine's read gives for ``response``: its sources, or the error's message."""
    try:
        return _without_age(provider.engine.read(response).sources)
    except SearchProviderError as error:
        return error.message


@pytest.mark.parametrize(
    ("capture", "expected"),
    [
        ("bing/serp_javascript_tutorial_http_2026.html", bing.UNRECOGNISED_MESSAGE),
        ("bing/challenge_one_last_step_turnstile_in_serp_2026.html", bing.CHALLENGE_MESSAGE),
        ("yahoo/serp_javascript_tutorial_2026.html", yahoo.UNRECOGNISED_MESSAGE),
        ("yahoo/zero_results_zrp_2026-09.html", []),
        ("startpage/serp_javascript_tutorial_http_2026.html", startpage.UNRECOGNISED_MESSAGE),
    ],
)
def test_a_large_page_without_results_is_read_without_its_whole_text(
    capture: str, expected: object
) -> None:
    provider = get_provider(capture.split("/")[0])
    assert isinstance(provider, HtmlEngineProvider)
    page = _without_results(capture)
    filler = b"<!-- " + "\U0001f600".encode() + b"x" * (2_000_000 - len(page)) + b" -->"
    at = page.rindex(b"</body>")
    body = page[:at] + filler + page[at:]
    response = HttpResponse(status=200, body=body, url="https://engine.example/")
    as_captured = HttpResponse(status=200, body=page, url=response.url)
    assert _read(provider, as_captured) == expected
    read, peak = _peak(lambda: _read(provider, response))
    assert read == expected
    assert peak < len(body), peak  # the text alone would be four times the body


def _windows(text: str) -> Iterator[str]:
    """Stretches of ``text`` to look for: at its ends and around 64 Ki characters in."""
    for at in (0, len(text) // 2, (1 << 16) - 12, (1 << 16) - 1, len(text) - 30):
        window = text[max(at, 0) : max(at, 0) + 30].strip()
        if window:
            yield window


def test_text_matches_answers_as_a_search_of_the_whole_text_does() -> None:
    extra = [b"<p>a<!-- c -->b<?pi x?>c<script>d</script>e<template>f</template>g</p>"]
    bodies = [*_random_bodies(), *extra, *(path.read_bytes() for path in _html_capture_paths())]
    found = 0
    for body in bodies:
        document = parse_body(body)
        for element in (document, *document.iter("body", "script")):
            text = text_of(element)
            for window in _windows(text):
                for pattern in (re.escape(window), re.escape(window) + "\\x00"):
                    compiled = re.compile(pattern, re.IGNORECASE)
                    expected = bool(compiled.search(text))
                    assert text_matches(element, compiled, len(window) + 1) is expected
                    found += expected
    assert found > 1000


def test_text_matches_finds_a_match_across_two_pieces() -> None:
    # The first text node fills a piece exactly; the phrase and a whitespace run span the cut.
    first = "y" * (_TEXT_PIECE - 10) + " did not \n"
    page = parse_document(f"<body><p>{first}</p><b>\t match any documents</b></body>")
    phrase = re.compile("did not match any documents")
    assert phrase.search(text_of(page))
    assert text_matches(page, phrase, len("did not match any documents"))
    assert not text_matches(page, phrase, 4)  # too short a carry: the cut shows


@pytest.mark.parametrize(
    ("words", "expected"),
    [("", startpage.UNRECOGNISED_MESSAGE), ("did not match any documents", [])],
)
def test_startpage_tells_a_large_page_without_results_without_its_whole_text(
    words: str, expected: object
) -> None:
    # Startpage's "no results" words are looked for in the visible text of the body: 2 MB
    # of paragraphs, each with an emoji, are 8 MB as one string.
    page = _without_results("startpage/serp_javascript_tutorial_http_2026.html")
    paragraph = "<p>\U0001f600 result x</p>\n"
    filler = paragraph * ((2_000_000 - len(page)) // len(paragraph.encode()))
    at = page.rindex(b"</body>")
    body = page[:at] + (filler + words).encode() + page[at:]
    response = HttpResponse(status=200, body=body, url="https://engine.example/")
    provider = get_provider("startpage")
    assert isinstance(provider, HtmlEngineProvider)
    read, peak = _peak(lambda: _read(provider, response))
    assert read == expected
    assert peak < len(body), peak  # the text alone would be four times the body
