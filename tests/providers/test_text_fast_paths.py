"""The parsers' shortcuts for already-clean text must give exactly what the general path gives.

``collapse_whitespace`` returns printable text with single inner spaces as it is, and
Brave's URL check accepts a plain lower-case URL with one match instead of splitting and
re-joining it (a plain URL without a path gets its ``/``), Brave's text check returns
already-plain text without ``normalise_text``'s three calls, Brave reads an ISO 8601
``page_age`` once for both the date and the age, and ``age_seconds_from_date`` reads ISO
8601 before building dateutil's default, and ``html.resolve_link`` splits an absolute
link once instead of calling ``urljoin`` (``html.host_of`` reads a plain netloc as the
host). Each is compared here with its general path: over every code point, over every
string and URL in the real captures, and over seeded random strings built from the
characters that matter (every kind of whitespace, controls, URL delimiters, non-ASCII).
"""

import json
import math
import random
import re
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from urllib.parse import SplitResult, urljoin, urlsplit

import pytest

from tests.conftest import SHARED_FIXTURES
from websearch_core.html import host_of, resolve_link
from websearch_core.js_trim import trim
from websearch_core.providers._bing_parse import BING_BASE_URL
from websearch_core.providers._brave_parse import (
    _PLAIN_HOST,
    _PLAIN_URL,
    _normalise_url,
    _published,
    _published_text,
    _split_and_join,
    _text,
)
from websearch_core.providers._common import (
    age_seconds_from_date,
    collapse_whitespace,
    normalise_text,
    parse_date,
)
from websearch_core.providers._mojeek_parse import MOJEEK_HOME_URL
from websearch_core.providers._yahoo_parse import YAHOO_BASE_URL

SEED = 20261202
WHITESPACE = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
AWKWARD = [*WHITESPACE, "\x00", "\x1b", "\x7f", "\u200b", "\ufeff", "é", "😀", "<", ">", "&"]


def _general_collapse(text: str) -> str:
    """Runs of whitespace as one space, and the ends trimmed as JavaScript's ``trim()`` does.

    After the collapse the ends hold no whitespace but byte-order marks (``str.split`` keeps
    them, ``trim()`` strips them), with the spaces they stood beside: both go, so a title
    of only BOMs collapses to nothing and falls back to the URL as the spec's reference
    does, and a BOM before a title's first letter is trimmed as ``trim()`` trims it.
    """
    return " ".join(text.split()).strip(" \ufeff")


def _capture_strings() -> Iterator[str]:
    """Every JSON string value and every line of every HTML/text capture."""
    if not SHARED_FIXTURES.is_dir():
        pytest.skip("captures not available")
    for path in sorted(SHARED_FIXTURES.rglob("*")):
        if not path.is_file():
            continue
        text = path.read_text("utf-8", errors="replace")
        if path.suffix == ".json":
            yield from _json_strings(json.loads(text))
        else:
            yield text
            yield from text.splitlines()
            yield from re.split(r"<[^>]*>", text)


def _json_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item)


def _random_texts(count: int) -> Iterator[str]:
    rng = random.Random(SEED)
    alphabet = ["a", "Z", "0", " ", " ", ".", *AWKWARD]
    for _ in range(count):
        yield "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))


def test_collapse_agrees_for_every_code_point_alone_and_between_words() -> None:
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        for text in (char, f"a{char}b", f" {char}", f"{char} ", f"a {char} b"):
            assert collapse_whitespace(text) == _general_collapse(text), repr(text)


def test_collapse_and_normalise_agree_on_every_capture_string() -> None:
    seen = 0
    for text in _capture_strings():
        assert collapse_whitespace(text) == _general_collapse(text)
        seen += 1
    assert seen > 10_000


def test_collapse_agrees_on_random_strings() -> None:
    for text in _random_texts(50_000):
        assert collapse_whitespace(text) == _general_collapse(text), repr(text)


def test_normalise_text_still_collapses_after_decoding() -> None:
    # An entity can decode to whitespace the fast path must then see.
    assert normalise_text("a&nbsp;&nbsp;b&#10;c <b> d</b>") == "a b c d"
    assert normalise_text("clean text, one space") == "clean text, one space"


def _near_plain_url(rng: random.Random) -> str:
    """``http(s)://host/`` and printable ASCII: mostly the shortcut's form, sometimes not."""
    host = "".join(rng.choice("abcXYZ019.-_~%@:[]") for _ in range(rng.randint(0, 8)))
    rest = "".join(chr(rng.randint(0x20, 0x7E)) for _ in range(rng.randint(0, 10)))
    return f"{rng.choice(['http', 'https', 'Https'])}://{host}/{rest}"


def _url_pieces(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return _near_plain_url(rng)
    schemes = ["http", "https", "HTTP", "hTtps", "ftp", "", "http:", "https:/"]
    hosts = ["example.org", "Example.ORG", "a", "", "x.com:8080", "x.com:", ":80", "u@x.com"]
    hosts += ["[::1]", "[::1", "x.com]", "bücher.de", "%41.com", "x.com:8a", "x_y.com"]
    tails = ["", "/", "/a/b", "//a", "?", "?q=1", "#", "#f", "/p?", "/p#", "/p?#", "/p?q#f"]
    tails += ["/a b", "/a\tb", "/\x00", "/é", "/a@b", "/[x]", "/%20", "/?a?b", "/#a#b"]
    parts = [rng.choice(schemes), rng.choice(["://", ":", ":///", "//"]), rng.choice(hosts)]
    parts += [rng.choice(tails) for _ in range(rng.randint(0, 3))]
    text = "".join(parts)
    if rng.random() < 0.2:  # a stray awkward character anywhere
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice(AWKWARD) + text[at:]
    return text


def test_plain_url_shortcut_agrees_with_split_and_join_on_random_urls() -> None:
    rng = random.Random(SEED)
    shortcut = 0
    for _ in range(50_000):
        url = _url_pieces(rng)
        shortcut += bool(_PLAIN_URL.fullmatch(trim(url)))  # the field rule: a BOM goes too
        assert _normalise_url(url) == _split_and_join(trim(url)), repr(url)
    assert shortcut > 1_000  # the comparison covered the shortcut, not only the general path


def test_plain_host_shortcut_agrees_with_split_and_join() -> None:
    """A plain URL without a path, from the random URLs and around the length limit."""
    rng = random.Random(SEED + 1)
    urls = [_url_pieces(rng) for _ in range(20_000)]
    for _ in range(20_000):  # hosts of every character the shortcut takes, and a few others
        chars = "abyz09.-_~!$&'()*+,;=%AZ@[]:é "
        host = "".join(rng.choice(chars) for _ in range(rng.randint(0, 8)))
        urls.append(f"{rng.choice(['http', 'https', 'HTTP'])}://{host}")
    urls += ["https://laracasts.com", "http://x.com:80", "http://x.com:", "https://%41.com"]
    urls += [f"https://{'a' * n}" for n in range(2036, 2042)]  # 2047, 2048 and 2049 with "/"
    hosts = 0
    for url in urls:
        assert _normalise_url(url) == _split_and_join(url.strip()), repr(url)
        hosts += bool(_PLAIN_HOST.fullmatch(url.strip()))
    assert hosts > 3_000  # the shortcut was taken, not only the general path
    assert _normalise_url("https://" + "a" * 2039) == "https://" + "a" * 2039 + "/"
    assert _normalise_url("https://" + "a" * 2040) is None


def test_plain_url_shortcut_agrees_on_every_capture_url() -> None:
    urls = {text for text in _capture_strings() if text.strip().lower().startswith("http")}
    urls |= set(re.findall(r"https?://[^\s\"'<>]+", "\n".join(_capture_strings())))
    assert len(urls) > 500
    for url in urls:
        assert _normalise_url(url) == _split_and_join(url.strip()), repr(url)


def test_plain_url_shortcut_keeps_the_length_limit() -> None:
    url = "https://example.org/" + "a" * 2100
    assert _PLAIN_URL.fullmatch(url)
    assert _normalise_url(url) is None
    assert _normalise_url(url[:2048]) == url[:2048]


LINK_BASES = [
    MOJEEK_HOME_URL,
    BING_BASE_URL,
    YAHOO_BASE_URL,
    "http://x.example/a/b?c#d",
    "HTTPS://Www.Example.ORG/search;p?q",
    "ftp://files.example/dir/",
    "",
]
"""Bases the engines resolve against, and a few that take the other branches of urljoin."""


def _general_resolve(href: str, base: str) -> tuple[str, SplitResult] | None:
    """``resolve_link`` spelled out with ``urljoin`` for every link."""
    cleaned = re.sub(r"[\t\n\r]", "", href.strip())
    if not cleaned or re.match(r"(?:[A-Za-z][A-Za-z0-9+.-]*:)?//(?:[/?#]|$)", cleaned):
        return None
    try:
        url = urljoin(base, cleaned)
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not host:
        return None
    return url, parts


def _link(rng: random.Random) -> str:
    """A link as a page may write it: absolute, protocol-relative, relative, or broken."""
    if rng.random() < 0.7:
        link = _url_pieces(rng)
    else:
        link = rng.choice(["/rel", "rel/x", "?q=1", "#f", "//Host.example/p", "../x", ";p", "."])
    if rng.random() < 0.2:  # path parameters, which urljoin splits off
        link += rng.choice([";", ";p", "/a;b", ";?q", ";#f"])
    return link


def test_link_resolution_agrees_with_urljoin_on_random_links() -> None:
    rng = random.Random(SEED)
    kept = 0
    for _ in range(40_000):
        href, base = _link(rng), rng.choice(LINK_BASES)
        ours = resolve_link(href, base)
        assert ours == _general_resolve(href, base), (href, base)
        kept += ours is not None
    assert kept > 10_000  # both the kept and the refused links were compared


def test_host_shortcut_agrees_with_hostname() -> None:
    rng = random.Random(SEED)
    alphabet = [*"aZ09.-_@:[]%", "Σ", "İ", "\u212a", "é", "\uff21"]
    compared = 0
    for _ in range(40_000):
        netloc = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        try:
            parts = urlsplit(f"https://{netloc}/p")
            host = parts.hostname
        except ValueError:  # brackets or a netloc urlsplit refuses: never reaches host_of
            continue
        assert host_of(parts) == (host.lower() if host else None), repr(netloc)
        compared += 1
    assert compared > 20_000


def test_link_resolution_agrees_on_every_capture_link() -> None:
    hrefs = set(re.findall(r"""href=["']([^"']*)["']""", "\n".join(_capture_strings())))
    assert len(hrefs) > 500
    for href in hrefs:
        for base in LINK_BASES:
            assert resolve_link(href, base) == _general_resolve(href, base), (href, base)


NOW = datetime(2026, 12, 1, 12, 30, tzinfo=UTC)


def _general_age(text: str, now: datetime = NOW) -> int | None:
    """``age_seconds_from_date`` spelled out through ``parse_date`` alone."""
    stripped = text.strip()
    if not stripped:
        return None
    when = parse_date(stripped, default=datetime(now.year, 1, 1))
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    try:
        return math.floor((now - when).total_seconds())
    except ValueError:
        return None


def _iso_like(rng: random.Random) -> str:
    """ISO 8601 shapes, valid or not: year 0, month 13, ten fraction digits, odd zones."""
    text = f"{rng.randint(0, 9999):04d}-{rng.randint(0, 13):02d}-{rng.randint(0, 32):02d}"
    if rng.random() < 0.7:
        text += rng.choice("T T") + f"{rng.randint(0, 25):02d}:{rng.randint(0, 61):02d}"
        if rng.random() < 0.7:
            text += f":{rng.randint(0, 61):02d}"
            if rng.random() < 0.5:
                text += "." + "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 11)))
        text += rng.choice(["", "Z", "+02:00", "-0530", "+24:00", "+1", " UTC"])
    return text


def _outcome(read: Callable[[str], int | None], text: str) -> object:
    try:
        return read(text)
    except ValueError as exc:  # "+24:00" reads as a zone no arithmetic accepts
        return f"ValueError: {exc}"


def test_age_reads_iso_dates_as_the_general_path_does() -> None:
    rng = random.Random(SEED)
    texts = [_iso_like(rng) for _ in range(20_000)]
    texts += ["", " ", "2024", "Mar 3, 2025", "3 days ago", " 2024-01-01 ", "0999-01-01"]
    for text in texts:
        ours = _outcome(lambda t: age_seconds_from_date(t, now=NOW), text)
        assert ours == _outcome(_general_age, text), repr(text)


@pytest.mark.parametrize(
    "now",
    [
        datetime(2026, 12, 1, 12, 30, 59, 999_999, tzinfo=UTC),
        datetime(2026, 12, 1, 12, 30, 0, 1, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
        datetime(1, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 999_999, tzinfo=timezone(timedelta(hours=14))),
    ],
)
def test_age_of_a_date_without_zone_is_exact_from_any_reference(now: datetime) -> None:
    """A date without a zone is UTC, measured to the microsecond from ``now`` in any zone."""
    rng = random.Random(SEED + now.year)
    texts = [_iso_like(rng) for _ in range(3_000)]
    texts += ["0001-01-01", "9999-12-31T23:59:59.999999", "1970-01-01", "2026-12-01T12:30:59"]
    for text in texts:
        ours = _outcome(lambda t: age_seconds_from_date(t, now=now), text)
        assert ours == _outcome(lambda t: _general_age(t, now), text), repr(text)


def test_age_still_refuses_a_reference_without_zone() -> None:
    with pytest.raises(TypeError):
        age_seconds_from_date("2024-01-01", now=datetime(2024, 1, 2))


def test_age_agrees_on_every_capture_date() -> None:
    dated = re.compile(r"\d{4}-\d{2}-\d{2}|\b(?:19|20)\d{2}\b")
    texts = [text for text in _capture_strings() if len(text) < 60 and dated.search(text)]
    assert len(texts) > 100
    for text in texts:
        assert age_seconds_from_date(text, now=NOW) == _general_age(text), repr(text)


def _text_pieces(rng: random.Random) -> str:
    """Text as Brave writes it, and what would need normalising: tags, entities, spaces."""
    pieces = ["Laravel", "PHP", " ", "  ", ".", "’", "<strong>", "</strong>", "<b", ">", "&"]
    pieces += ["&amp;", "&#x27;", "&nbsp;", "&#10;", "&lt;b&gt;", "\n", "\t", "\xa0", "\u3000"]
    pieces += ["\x00", "\u200b", "\u202e", "é", "😀"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))


def test_brave_text_check_agrees_with_normalise_text_for_every_code_point() -> None:
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        for text in (char, f"a{char}b", f" {char}", f"{char} "):
            assert _text(text) == normalise_text(text), repr(text)


def test_brave_text_check_agrees_with_normalise_text_on_captures_and_random_text() -> None:
    rng = random.Random(SEED)
    texts = [*_capture_strings(), *(_text_pieces(rng) for _ in range(50_000))]
    plain = 0
    for text in texts:
        assert _text(text) == normalise_text(text), repr(text)
        plain += _text(text) is text
    assert plain > 10_000  # the shortcut was taken, not only the general path
    assert _text(None) == _text(3) == ""


def _general_published(item: dict[str, Any]) -> tuple[str | None, int | None]:
    """Brave's date and age read the general way: normalised, then each read on its own."""
    published = _published_text(_text(item.get("page_age")), item)
    return published, age_seconds_from_date(published, now=NOW)


def test_brave_reads_page_age_once_as_the_two_general_readings_do() -> None:
    rng = random.Random(SEED)
    dates = [_iso_like(rng) for _ in range(20_000)]
    dates += ["2023-05-01T20:10:05", "0999-05-01", "2023-05-01T20:10:05.1234567891", "2024"]
    dates += ["2023-13-01", "2023-05-01T20:10:05+24:00", " 2023-05-01", "May 1, 2023", ""]
    ages = [None, "2 days ago", "May 1, 2023", "2023-05-01T20:10:05Z", 7]
    read_once = 0
    for page_age in [*dates, None, 20230501]:
        item: dict[str, Any] = {"page_age": page_age, "age": rng.choice(ages)}
        published, age = _published(item, NOW)
        assert (published, age) == _general_published(item), repr(item)
        read_once += published is page_age and age is not None
    assert read_once > 5_000
