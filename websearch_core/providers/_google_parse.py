"""How a Google results page reads (pure): results, block pages, unrecognised pages.

* **Parsing:** each ``<h3>`` inside a link is a result; ``/url?q=`` (or ``url=``) redirects on
  google.com are unwrapped; links to google.com itself, ads (``#tads``, ``#bottomads``,
  ``[data-text-ad]``) and the pages quoted in "People also ask" answers
  (``.related-question-pair``, ``[data-initq]``) are dropped. The snippet is the first non-empty of
  ``[data-sncf='1'] .VwiC3b``, ``.VwiC3b``, ``.IsZvec``, ``.BNeawe.s3v9rd``,
  ``[data-sncf='1']`` inside the result container (``.tF2Cxc``, ``.MjjYud``, ``.Gx5Zad``, else
  the h3's grandparent), without a trailing ``Read more``. URLs are de-duplicated. A results
  page (``#search``/``#rso``, or "did not match any documents") with no result is a genuine
  empty answer; any other page is a :class:`~websearch_core.errors.ResponseParseError`.

Differences from the reference (§8.21) and deliberate choices:

* The capture (a rendered pt-BR page, 2025-03) shows the date before the snippet in
  ``span.LEwnzc``; its text becomes ``published_date`` (``há 7 dias`` stays a date text with
  no age, ``Mar 3, 2025`` gets an age). The snippet keeps it, as the reference does.
* The reference matches ``unusual traffic|g-recaptcha`` anywhere in the page; a results page
  for the query "unusual traffic" echoes it, so here the text markers only count on a page
  with no ``<h3>`` (the status and ``/sorry/`` rules are unchanged).
* Only ``google.com``/``www.google.com`` links are dropped, so results on Google's product
  hosts (``cloud.google.com`` in the capture) are kept. Text-fragment directives
  (``#:~:text=...``) that Google appends to featured links are removed from URLs.
* The reference reads every ``a > h3``, so the pages quoted in the capture's expanded
  "People also ask" answers (marked up like results) came out as results 6 and 7; here
  they are skipped, as ads are.

The module is private; :mod:`websearch_core.providers.google` re-exports its public names.
"""

from collections.abc import Callable, Iterator
from itertools import islice
from typing import Literal
from urllib.parse import parse_qs, urlsplit, urlunsplit

import lxml.etree

from ..errors import ResponseParseError
from ..html import Element, class_tokens, parse_page_text, resolve_link, text_of
from ..js_trim import trim
from ..models import SearchSource
from ._common import is_http_url
from ._page_markers import Markers, found
from ._scraper import collect_unique, scraped_source

__all__ = [
    "GOOGLE_HOME_URL",
    "MAX_RESULTS",
    "PROVIDER_ID",
    "UNRECOGNISED_MESSAGE",
    "BlockReason",
    "block_reason",
    "parse_page",
    "unwrap_url",
]

PROVIDER_ID = "google"


GOOGLE_HOME_URL = "https://www.google.com/"


MAX_RESULTS = 20


UNRECOGNISED_MESSAGE = "Google returned an unrecognised page"


BlockReason = Literal["traffic", "javascript"]


_GOOGLE_HOSTS = frozenset({"google.com", "www.google.com"})


_CONTAINER_CLASSES = frozenset({"tF2Cxc", "MjjYud", "Gx5Zad"})


_AD_IDS = frozenset({"tads", "bottomads"})


_QUESTION_BLOCK_CLASSES = frozenset({"related-question-pair"})
"""Classes of a "People also ask" entry: its expanded answer quotes a page under an
``a > h3`` in a result's markup (``div.tF2Cxc > div.yuRUbf``), so without this test the
quoted page reads as an organic result (two of them did in the pt-BR capture)."""


_QUESTION_BLOCK_ATTRIBUTES = ("data-initq",)
"""Attributes of the "People also ask" box around its entries (``data-initq`` holds the
query the questions were drawn for)."""


_SERP_ELEMENT = lxml.etree.XPath("//*[@id='search' or @id='rso']")


_READ_MORE = "Read more"


_RESULT_MARKUP = Markers(lowered=("<h3",))


_TRAFFIC_TEXT = Markers(lowered=("unusual traffic", "g-recaptcha"))


_JAVASCRIPT_TEXT = Markers(lowered=("/httpservice/retry/enablejs",))


_NO_RESULTS_TEXT = Markers(exact=("did not match any documents",))


def block_reason(page: str | bytes, status: int, url: str = "") -> BlockReason | None:
    """Why a page is a block instead of results, or ``None`` (the reference's ``blockReason``).

    Args:
        page: The page's text, or the response body it came as (read without decoding
            it whole: see :func:`~websearch_core.providers._page_markers.found`).
        status: The response's status.
        url: The URL the response came from after redirects.

    Example:
        >>> block_reason("<html>...</html>", 200, "https://www.google.com/sorry/index?x=1")
        'traffic'
    """
    if status in (403, 429) or "/sorry/" in urlsplit(url).path:
        return "traffic"
    if not found(page, _RESULT_MARKUP):
        if found(page, _TRAFFIC_TEXT):
            return "traffic"
        if found(page, _JAVASCRIPT_TEXT):
            return "javascript"
    return None


def _without_text_fragment(url: str) -> str:
    parts = urlsplit(url)
    if not parts.fragment.startswith(":~:"):
        return url
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))


def unwrap_url(href: str, base: str = GOOGLE_HOME_URL) -> str | None:
    """The destination of a result link, or ``None`` when it is not a web result.

    ``/url?q=<target>`` (or ``url=``) on google.com is unwrapped; the target must be an
    ``http(s)`` URL not on ``google.com``/``www.google.com``.

    Example:
        >>> unwrap_url("/url?q=https://example.org/a&sa=U&ved=x")
        'https://example.org/a'
        >>> unwrap_url("/search?q=more") is None
        True
    """
    found = resolve_link(href, base)
    if found is None:
        return None
    resolved, parts = found
    host = (parts.hostname or "").lower()
    if host in _GOOGLE_HOSTS and parts.path == "/url":
        query = parse_qs(parts.query)
        target = (query.get("q") or query.get("url") or [""])[0].strip()
        if not is_http_url(target):
            return None
        resolved = target
        host = (urlsplit(target).hostname or "").lower()
    if host in _GOOGLE_HOSTS:
        return None
    return _without_text_fragment(resolved)


def _has_container_class(element: Element) -> bool:
    return bool(_CONTAINER_CLASSES.intersection((element.get("class") or "").split()))


def _container(h3: Element) -> Element | None:
    for ancestor in h3.iterancestors():
        if _has_container_class(ancestor):
            return ancestor
    parent = h3.getparent()
    return parent.getparent() if parent is not None else None


_NO_CLASSES: frozenset[str] = frozenset()
_MAX_CONTAINER_ELEMENTS = 1000
"""The most elements of a result's container read for its snippet and date. A container is
an ancestor of the heading, and nothing stops a page from putting thousands of headings in
one, each of which read all of it: one heading repeated 3,143 times in one container took
16 s (quadratic; a 7 MB page of 70,000 would take hours), now 0.3 s (0.6 s for the 7 MB
page, whose first ``MAX_RESULT_ITEMS`` headings are read). Google's containers hold 30-60
elements; the largest container of a heading in any engine's capture holds 590."""


def _is_sncf(element: Element) -> bool:
    return element.get("data-sncf") == "1"


def _under(element: Element, container: Element, test: Callable[[Element], bool]) -> bool:
    """Whether an ancestor of ``element``, up to ``container`` itself, passes ``test``."""
    if element is container:
        return False
    for ancestor in element.iterancestors():
        if test(ancestor):
            return True
        if ancestor is container:
            return False
    return False


def _classed(container: Element) -> list[tuple[Element, frozenset[str]]]:
    """The container's first elements in document order (itself first), with their classes."""
    elements = islice(container.iter(lxml.etree.Element), _MAX_CONTAINER_ELEMENTS)
    return [
        (element, class_tokens(classes) if (classes := element.get("class")) else _NO_CLASSES)
        for element in elements
    ]


def _snippet_candidates(
    container: Element, elements: list[tuple[Element, frozenset[str]]]
) -> Iterator[Element]:
    """The snippet selectors' matches: each group in document order, groups in order.

    The groups: ``[data-sncf='1'] .VwiC3b``, ``.VwiC3b``, ``.IsZvec``, ``.BNeawe.s3v9rd``,
    ``[data-sncf='1']``.
    """
    yield from (e for e, names in elements if "VwiC3b" in names and _under(e, container, _is_sncf))
    yield from (e for e, names in elements if "VwiC3b" in names)
    yield from (e for e, names in elements if "IsZvec" in names)
    yield from (e for e, names in elements if {"BNeawe", "s3v9rd"} <= names)
    yield from (e for e, _ in elements if _is_sncf(e))


def _snippet(container: Element, elements: list[tuple[Element, frozenset[str]]]) -> str:
    for element in _snippet_candidates(container, elements):
        text = text_of(element)
        if text:
            return text.removesuffix(_READ_MORE).rstrip()
    return ""


def _date_spans(elements: list[tuple[Element, frozenset[str]]]) -> list[Element]:
    """``.LEwnzc span, .YrbPuc span``: spans inside a date box, in document order."""
    boxes = [e for e, names in elements if "LEwnzc" in names or "YrbPuc" in names]
    if not boxes:
        return []
    inside = {span for box in boxes for span in box.iter("span") if span is not box}
    return [e for e, _ in elements if e in inside]


def _published(elements: list[tuple[Element, frozenset[str]]]) -> str | None:
    """The first date-box span whose text has a digit in it."""
    for element in _date_spans(elements):
        text = trim(text_of(element).rstrip(" —-"))
        if text and any(character.isdigit() for character in text):
            return text
    return None


def _is_non_result_block(element: Element) -> bool:
    """Whether the element is an ad or a "People also ask" block, whose headings are no result."""
    if element.get("id") in _AD_IDS or element.get("data-text-ad") is not None:
        return True
    if any(element.get(name) is not None for name in _QUESTION_BLOCK_ATTRIBUTES):
        return True
    classes = element.get("class")
    return classes is not None and not _QUESTION_BLOCK_CLASSES.isdisjoint(classes.split())


def _in_non_result_block(h3: Element) -> bool:
    """Whether the heading sits in a block whose headings are no result.

    Those are ads (``#tads``, ``#bottomads``, ``[data-text-ad]``) and "People also ask"
    boxes (``.related-question-pair``, ``[data-initq]``).
    """
    return any(_is_non_result_block(ancestor) for ancestor in h3.iterancestors())


def _source(h3: Element) -> SearchSource | None:
    if _in_non_result_block(h3):
        return None
    anchor = next(h3.iterancestors("a"), None)
    if anchor is None:
        return None
    url = unwrap_url(anchor.get("href") or "")
    if url is None:
        return None
    container = _container(h3)
    if container is None:
        return scraped_source(title=text_of(h3), url=url)
    elements = _classed(container)
    published = _published(elements)
    snippet = _snippet(container, elements)
    return scraped_source(title=text_of(h3), url=url, snippet=snippet, date=published)


def _is_results_page(page: str | bytes, root: Element) -> bool:
    if _SERP_ELEMENT(root):
        return True
    return found(page, _NO_RESULTS_TEXT)


def parse_page(
    page: str | bytes, limit: int = MAX_RESULTS, *, source: bytes | None = None
) -> list[SearchSource]:
    """The organic results of a Google results page, de-duplicated, at most ``limit``.

    Args:
        page: The HTML (plain or rendered), or the body :func:`~websearch_core.html.utf8_source`
            handed on (read from its bytes, its text never built whole).
        limit: How many to keep.
        source: The body ``page`` came from, as :func:`~websearch_core.html.decoded_page` gives it.

    Raises:
        ResponseParseError: No result and nothing that looks like a results page.
    """
    root = parse_page_text(page, source=source)
    sources = collect_unique(root.iter("h3"), _source, limit)
    if not sources and not _is_results_page(page, root):
        raise ResponseParseError(PROVIDER_ID, UNRECOGNISED_MESSAGE, 502)
    return sources
