"""The HTML engines' shortcuts must give exactly what their general paths give.

``html.layout_text`` reads an element whose children are childless inline elements (one
level of highlighting) from those children's text and tails, instead of testing every
descendant and serialising the subtree; ``html.plain_http_parts`` reads the host and path
of a plain ``http(s)`` URL with one match instead of ``urlsplit`` and ``host_of``;
``_scraper.decode_uri_component`` decodes an ASCII value without ``unquote``'s
run-splitting regex; ``_scraper.scraped_source`` assembles a ``SearchSource`` from values
of exactly the declared types without validating them. Each is compared here with its
general path over seeded random inputs built from what matters (every inline and block
tag, comments, entities, whitespace, escapes, URL delimiters) and over every real
capture.
"""

import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from urllib.parse import unquote, urlsplit

import pytest

from tests.conftest import SHARED_FIXTURES
from websearch_core.html import (
    Element,
    _collect_layout_text,
    host_of,
    layout_text,
    parse_document,
    plain_http_parts,
)
from websearch_core.models import SearchSource
from websearch_core.providers._common import age_seconds_from_date, collapse_whitespace
from websearch_core.providers._scraper import _source_defaults, decode_uri_component, scraped_source

SEED = 20261202
_TAGS = ["b", "em", "a", "span", "i", "wbr", "sup", "div", "p", "br", "td", "img", "x-y"]
_TEXTS = ["a", " ", "  ", "\n", "\xa0", "&nbsp;", "&amp;lt;", "Eino", "-ext", "概述", "\t", ""]


def _general_layout(element: Element) -> str:
    """``layout_text`` through its general walk alone, never a shortcut."""
    parts: list[str] = []
    _collect_layout_text(element, parts)
    return collapse_whitespace("".join(parts))


def _fragment(rng: random.Random, depth: int) -> str:
    pieces: list[str] = []
    for _ in range(rng.randint(0, 4)):
        roll = rng.random()
        if roll < 0.4:
            pieces.append(rng.choice(_TEXTS))
        elif roll < 0.5:
            pieces.append(f"<!--{rng.choice(_TEXTS)}-->")
        elif roll < 0.53:
            pieces.append("<?pi x?>")
        elif depth < 3:
            tag = rng.choice(_TAGS)
            pieces.append(f"<{tag}>{_fragment(rng, depth + 1)}</{tag}>")
    return "".join(pieces)


def _html_captures() -> Iterator[str]:
    if not SHARED_FIXTURES.is_dir():
        pytest.skip("captures not available")
    for path in sorted(SHARED_FIXTURES.rglob("*.htm*")):
        yield path.read_text("utf-8", errors="replace")


def _elements(root: Element) -> Iterator[Element]:
    return (element for element in root.iter() if isinstance(element.tag, str))


def _is_flat_highlighting(element: Element) -> bool:
    return len(element) > 0 and all(
        child.tag in {"b", "em", "a", "span", "i", "wbr", "sup"} and not len(child)
        for child in element
    )


def test_layout_text_agrees_with_its_general_walk_on_random_fragments() -> None:
    rng = random.Random(SEED)
    flat = 0
    for _ in range(8000):
        root = parse_document(f"<div>{_fragment(rng, 0)}</div>{_fragment(rng, 0)}")
        for element in _elements(root):
            assert layout_text(element) == _general_layout(element)
            flat += _is_flat_highlighting(element)
    assert flat > 2000  # the shortcut's shape is well covered


def test_layout_text_agrees_with_its_general_walk_on_every_capture_element() -> None:
    checked = 0
    for page in _html_captures():
        for element in _elements(parse_document(page)):
            assert layout_text(element) == _general_layout(element)
            checked += 1
    assert checked > 9000


_URL_PIECES = ["http://", "https://", "HTTP://", "Https://", "//", "/", "?", "#", "@", ":"]
_URL_PIECES += ["[", "]", "%", "%2F", "a", "B", "é", "\t", "\n", "\r", " ", "\x00", "\x1f"]
_URL_PIECES += ["\x7f", "example.org", "Duck.COM", "www.", "y.js", ";", "=", "&", "..", "80", "::1"]


def _general_parts(url: str) -> tuple[str | None, str] | None:
    """``(host_of(parts), parts.path)`` of an ``http(s)`` URL urlsplit accepts, else ``None``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https"):
        return None
    return host_of(parts), parts.path


def test_plain_http_parts_agrees_with_urlsplit_on_random_urls() -> None:
    rng = random.Random(SEED)
    plain = 0
    for _ in range(200_000):
        url = "".join(rng.choice(_URL_PIECES) for _ in range(rng.randint(1, 9)))
        if rng.random() < 0.6:
            url = rng.choice(["http://", "https://"]) + url
        found = plain_http_parts(url)
        if found is not None:
            assert found == _general_parts(url), repr(url)
            plain += 1
    assert plain > 8000  # the shortcut's form is well covered


def test_plain_http_parts_agrees_with_urlsplit_on_every_capture_link() -> None:
    plain = 0
    for page in _html_captures():
        for url in re.findall(r'(?:href|src|action)="([^"]*)"', page):
            found = plain_http_parts(url)
            if found is not None:
                assert found == _general_parts(url), repr(url)
                plain += 1
    assert plain > 1000


def test_plain_http_parts_leaves_what_urlsplit_reads_specially_to_it() -> None:
    for url in [
        "https://user@example.org/",
        "https://example.org:8080/",
        "https://[::1]/",
        "https://example.org]/",
        "https://ex%41mple.org/",
        "https://exa\tmple.org/",
        "https://example.org/a\nb",
        "HTTPS://example.org/",
        "https:///path",
        "https://bücher.de/",
        "ftp://example.org/",
        "//example.org/",
    ]:
        assert plain_http_parts(url) is None, url


def _escaped(rng: random.Random) -> str:
    pieces = ["a", "Z", "/", ":", "%", "%2F", "%3a", "%C3%A9", "%E2%82", "%FF", "%zz", "é"]
    pieces += ["%", "%2", "&", "=", "?", "%F0%9F%98%80", "%00", " ", "%25"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))


def _strict_unquote(value: str) -> str | None:
    """``decode_uri_component``'s general path: a ``%`` needs two hex digits, then unquote."""
    if re.search(r"%(?![0-9A-Fa-f]{2})", value):
        return None
    try:
        return unquote(value, errors="strict")
    except UnicodeDecodeError:
        return None


def test_decode_uri_component_agrees_with_strict_unquote() -> None:
    rng = random.Random(SEED)
    values = [_escaped(rng) for _ in range(40_000)]
    for page in _html_captures():
        values += re.findall(r'href="([^"]*)"', page)
    decoded = 0
    for value in values:
        assert decode_uri_component(value) == _strict_unquote(value), repr(value)
        decoded += decode_uri_component(value) not in (None, value)
    assert decoded > 5000


def _validated(title: str, url: str, snippet: str, date: str | None) -> SearchSource:
    """``scraped_source``'s conventions, then validation (dates here give no age)."""
    return SearchSource(
        title=title or url, url=url, snippet=snippet or None, published_date=date, age_seconds=None
    )


def _same_source(built: SearchSource, validated: SearchSource) -> None:
    assert built == validated
    assert built.model_fields_set == validated.model_fields_set
    assert built.model_dump_json() == validated.model_dump_json()
    assert repr(built) == repr(validated)
    assert hash(built) == hash(validated)
    assert built.__pydantic_extra__ == validated.__pydantic_extra__
    assert built.__pydantic_private__ == validated.__pydantic_private__


def test_scraped_source_builds_what_validation_builds() -> None:
    assert _source_defaults() is not None  # the model checks types only: the shortcut runs
    rng = random.Random(SEED)
    texts = ["", "a", "Eino: 概述", " x ", "https://example.org/"]
    for _ in range(2000):
        title, url, snippet = rng.choice(texts), rng.choice(texts), rng.choice(texts)
        date = rng.choice([None, "", "3 days ago", "not a date"])
        built = scraped_source(title=title, url=url, snippet=snippet, date=date)
        _same_source(built, _validated(title, url, snippet, date))


def test_scraped_source_ages_a_date_as_validation_would() -> None:
    before = age_seconds_from_date("2025-06-23T00:00:00.0000000")
    built = scraped_source(title="t", url="https://a.example/", date="2025-06-23T00:00:00.0000000")
    after = age_seconds_from_date("2025-06-23T00:00:00.0000000")
    assert before is not None and after is not None and built.age_seconds is not None
    assert before <= built.age_seconds <= after
    validated = SearchSource(
        title="t",
        url="https://a.example/",
        published_date="2025-06-23T00:00:00.0000000",
        age_seconds=built.age_seconds,
        snippet=None,
    )
    _same_source(built, validated)


def test_scraped_source_ages_from_the_instant_it_is_given() -> None:
    dates = [
        "2025-06-23T00:00:00.0000000",
        "2025-06-23T10:00:00+05:30",
        "2025-06-23",
        "Fri, 29 Mar 2024 12:00:00 GMT",
        "Mar 3, 2025",
        "March 2024",
        "3 days ago",
        "not a date",
    ]
    references = [
        datetime(2000, 1, 1, tzinfo=UTC),
        datetime(2026, 6, 1, 12, 0, 0, 999999, tzinfo=UTC),
        datetime(2026, 6, 1, 23, 30, tzinfo=timezone(timedelta(hours=-7))),
    ]
    for date in dates:
        for now in references:
            built = scraped_source(title="t", url="https://a.example/", date=date, now=now)
            assert built.age_seconds == age_seconds_from_date(date, now=now), (date, now)


def test_scraped_source_keeps_each_source_its_own_fields_set() -> None:
    first = scraped_source(title="a", url="https://a.example/")
    second = scraped_source(title="b", url="https://b.example/")
    assert first.model_fields_set is not second.model_fields_set


class _Text(str):
    """A ``str`` subclass, which validation turns into a plain ``str``."""


def test_scraped_source_validates_values_of_other_types() -> None:
    built = scraped_source(title=_Text("a"), url="https://a.example/", snippet=_Text("s"))
    assert type(built.title) is str and type(built.snippet) is str
    _same_source(built, _validated("a", "https://a.example/", "s", None))
    with pytest.raises(ValueError):
        scraped_source(title="a", url=None)  # type: ignore[arg-type]
