"""The crowded-element guard: it counts what lxml counts, and no real page trips it."""

import lxml.etree
import pytest

from tests.conftest import SHARED_FIXTURES, read_capture
from tests.content._pages import load_pages
from tests.content._server import PageServer, serve
from websearch_core import WebSearch
from websearch_core.content import FetchFailedError
from websearch_core.content.markup_guard import (
    MAX_ATTRIBUTES,
    CrowdedMarkupError,
    check_markup,
    crowded_element,
)

_PARSER = lxml.etree.HTMLParser(collect_ids=False)


def _attributes(count: int, shape: str) -> str:
    """``count`` distinct attributes, written the way ``shape`` says."""
    if shape == "spaced":
        return " ".join(f'a{i}="v"' for i in range(count))
    if shape == "quoted-gt":  # '>' inside every value: a scan that stops at '>' sees nothing
        return " ".join(f'a{i}=">"' for i in range(count))
    if shape == "quoted-lt":
        return " ".join(f"a{i}='<'" for i in range(count))
    if shape == "unspaced":  # a quoted value directly followed by the next name
        return "".join(f'a{i}="1"' for i in range(count))
    if shape == "slashed":  # '/' separates attributes as a space does
        return "/".join(f"a{i}" for i in range(count))
    if shape == "bare":
        return " ".join(f"a{i}" for i in range(count))
    if shape == "unquoted":
        return "\n".join(f"a{i}=x{i}" for i in range(count))
    raise AssertionError(shape)


SHAPES = ["spaced", "quoted-gt", "quoted-lt", "unspaced", "slashed", "bare", "unquoted"]


def _lxml_count(html: str) -> int:
    root = lxml.etree.fromstring(html, parser=_PARSER)
    return max(len(element.attrib) for element in root.iter() if isinstance(element.tag, str))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("count", [MAX_ATTRIBUTES - 1, MAX_ATTRIBUTES, MAX_ATTRIBUTES + 40])
def test_the_guard_counts_attributes_as_lxml_does(shape: str, count: int) -> None:
    page = f"<html><body><p>before</p><DIV {_attributes(count, shape)}>x</DIV></body></html>"
    counted = _lxml_count(page)
    assert counted == count  # the shapes are what they say to lxml itself
    assert (crowded_element(page) is not None) == (counted >= MAX_ATTRIBUTES)


@pytest.mark.parametrize("element", ["script", "style", "SCRIPT"])
def test_code_that_reads_like_attributes_is_not_counted(element: str) -> None:
    code = " ".join(f'i<n ? a{i}="x" : b{i}' for i in range(MAX_ATTRIBUTES * 2))
    page = f"<html><head><{element} type='text/x'>{code}</{element}></head><body>ok</body></html>"
    assert crowded_element(page) is None
    # ... yet a crowded element after it is found, and so is a crowded script tag itself.
    crowded = f"<p {_attributes(MAX_ATTRIBUTES, 'bare')}>"
    assert crowded_element(page.replace("<body>", f"<body>{crowded}")) == "<p"
    crowded_script = f"<{element} {_attributes(MAX_ATTRIBUTES, 'spaced')}></{element}>"
    assert crowded_element(crowded_script) == f"<{element}"


def test_an_unclosed_script_holds_the_rest_of_the_page() -> None:
    page = f"<script>if (a<b) {{<p {_attributes(MAX_ATTRIBUTES, 'bare')}>"
    assert crowded_element(page) is None  # lxml reads it all as script text too
    assert _lxml_count(f"<html><body>{page}</body></html>") == 0


def test_a_script_end_tag_older_parsers_accept_ends_the_skipped_text() -> None:
    # libxml2 before 2.14 ends script text at "</script" whatever follows; the guard never
    # skips further than any of them, so nothing lxml reads as markup goes unscanned.
    crowded = f"<div {_attributes(MAX_ATTRIBUTES, 'bare')}>"
    assert crowded_element(f"<script>x = 1;</scriptx>{crowded}") == "<div"
    assert crowded_element(f"<style>p {{}}</STYLE >{crowded}") == "<div"


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("<a", None),  # one tag named "a<a<a...", as HTML5 reads it
        ("<a<", None),
        ("</a", None),
        ("<script><a", None),
        ("<!--<a", None),
        # One tag whose attributes alternate two names: counted, though lxml would read
        # the copies fast (the guard counts attributes, not distinct ones).
        ("<a x='", "<a"),
    ],
)
def test_markup_made_of_one_fragment_repeated_is_read_in_one_pass(
    unit: str, expected: str | None
) -> None:
    # A scan that restarted at every "<" would read "<a<a<a..." once per "<": hours for a
    # few megabytes. The guard walks the page once.
    page = unit * 100_000
    assert crowded_element(page) == expected
    if expected is None:  # and lxml agrees that no element there is crowded
        assert _lxml_count(f"<html><body>{page}</body></html>") < MAX_ATTRIBUTES


def test_no_annotated_page_trips_the_guard() -> None:
    pages = load_pages()
    assert len(pages) > 50
    for page in pages:
        assert crowded_element(page.html) is None, page.key


def test_no_captured_results_page_trips_the_guard() -> None:
    captures = sorted(
        path.relative_to(SHARED_FIXTURES) for path in SHARED_FIXTURES.glob("*/*.html")
    )
    assert len(captures) > 15 or not captures  # none: read_capture skips (fails in CI)
    for relative in captures or ["duckduckgo/html_results_eino_2025.html"]:
        html = read_capture(str(relative)).decode("utf-8", "replace")
        assert crowded_element(html) is None, relative


def test_the_error_names_the_element_and_is_a_value_error() -> None:
    with pytest.raises(CrowdedMarkupError) as caught:
        check_markup(f"<section {_attributes(MAX_ATTRIBUTES, 'quoted-gt')}>")
    assert isinstance(caught.value, ValueError)
    assert caught.value.tag == "<section"
    assert str(caught.value) == (
        f"the page has an element (<section) with {MAX_ATTRIBUTES} or more attributes, "
        "which would take minutes to parse; it was not read"
    )


async def test_a_fetched_page_with_a_crowded_element_fails_clearly() -> None:
    # 20,000 attributes cost lxml about half a second (ten times as many, minutes): refused
    # before any parser, with the reason.
    page = f"<html><body><div {_attributes(20_000, 'quoted-gt')}>x</div></body></html>"
    async for server in serve():
        assert isinstance(server, PageServer)
        server.page("/crowded", page.encode(), "text/html; charset=utf-8")
        async with WebSearch(state_backend="memory") as ws:
            with pytest.raises(FetchFailedError) as caught:
                await ws.fetch(
                    server.url("/crowded"), allow_private_addresses=True, use_browser=False
                )
    assert caught.value.reason.startswith("the page has an element (<div) with 256 or more")
