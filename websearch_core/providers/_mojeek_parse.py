"""How a Mojeek results page reads (pure): result rows and the robot walls.

* **Parsing:** each ``ul.results-standard > li`` (clustered ``li.clu-result`` rows
  included): the link is ``h2 a.title``, else ``a.title``, resolved against the home URL;
  it must be ``http(s)`` and not on ``mojeek.com``, ``mojeek.co.uk``, ``mojeek.fr`` or
  ``mojeek.de`` (or their subdomains); the title is the link text, the snippet ``p.s``. URLs
  are de-duplicated. A results page with no result (the ``serp-results`` column, or "No pages
  found") is a genuine empty answer; any other page is a
  :class:`~websearch_core.errors.ResponseParseError`.

The module is private; :mod:`websearch_core.providers.mojeek` re-exports its public names.
"""

import re

from ..errors import ResponseParseError
from ..html import (
    Element,
    css,
    has_class,
    host_of,
    parse_page_text,
    resolve_link,
    select,
    text_of,
)
from ..models import SearchSource
from ._page_markers import Markers, found
from ._scraper import collect_unique, scraped_source

__all__ = [
    "MAX_RESULTS",
    "MOJEEK_HOME_URL",
    "PROVIDER_ID",
    "UNRECOGNISED_MESSAGE",
    "is_robot_page",
    "parse_page",
]

PROVIDER_ID = "mojeek"


MOJEEK_HOME_URL = "https://www.mojeek.de/?arc=none&lang=en&lb=en&theme=dark"


MAX_RESULTS = 20


UNRECOGNISED_MESSAGE = "Mojeek returned an unrecognised page"


_MOJEEK_DOMAINS = ("mojeek.com", "mojeek.co.uk", "mojeek.fr", "mojeek.de")


_RESULTS_LIST = Markers(exact=("results-standard",))
"""The results list's class: a page holding it is no wall, and is a results page."""


_ROBOT_MARKERS = Markers(
    exact=("altcha-widget", "captcha-wrap"),
    patterns=(re.compile(r"sending automated queries", re.IGNORECASE),),
    span=25,
)
"""The ALTCHA wall and the "automated queries" wall (a 25-character sentence)."""


_SERP_MARKERS = Markers(exact=("results-standard", "serp-results", "No pages found"))


_ROWS = css("ul.results-standard > li")


def is_robot_page(page: str | bytes) -> bool:
    """Whether the page is the ALTCHA wall or the "automated queries" wall.

    Args:
        page: The page's text, or the response body it came as (read without decoding
            it whole: see :func:`~websearch_core.providers._page_markers.found`).

    Example:
        >>> is_robot_page('<div class="captcha-wrap"></div>'), is_robot_page("<p>hi</p>")
        (True, False)
    """
    if found(page, _RESULTS_LIST):
        return False
    return found(page, _ROBOT_MARKERS)


_MOJEEK_SUBDOMAINS = tuple(f".{domain}" for domain in _MOJEEK_DOMAINS)


def _is_mojeek(host: str | None) -> bool:
    host = (host or "").lower()
    return host in _MOJEEK_DOMAINS or host.endswith(_MOJEEK_SUBDOMAINS)


def _row_parts(row: Element) -> tuple[Element | None, Element | None]:
    """The row's link (``h2 a.title``, else ``a.title``) and snippet (``p.s``).

    One walk over the row's few links and paragraphs costs less than three compiled
    selectors; the order of preference is the same. The walk ends once the heading link
    and the snippet are both found: nothing later can change the answer.
    """
    title = heading_title = snippet = None
    for element in row.iter("a", "p"):
        if element.tag == "p":
            if snippet is None and has_class(element, "s"):
                snippet = element
        elif has_class(element, "title"):
            title = element if title is None else title
            if heading_title is None and _under_heading(element, row):
                heading_title = element
        if heading_title is not None and snippet is not None:
            break
    return (heading_title if heading_title is not None else title), snippet


def _under_heading(element: Element, row: Element) -> bool:
    ancestor = element.getparent()
    while ancestor is not None:
        if ancestor.tag == "h2":
            return True
        if ancestor is row:
            return False
        ancestor = ancestor.getparent()
    return False


def _source(row: Element) -> SearchSource | None:
    anchor, paragraph = _row_parts(row)
    if anchor is None:
        return None
    found = resolve_link(anchor.get("href") or "", MOJEEK_HOME_URL)
    if found is None or _is_mojeek(host_of(found[1])):
        return None
    url = found[0]
    snippet = text_of(paragraph) if paragraph is not None else ""
    return scraped_source(title=text_of(anchor), url=url, snippet=snippet)


def parse_page(
    page: str | bytes, limit: int = MAX_RESULTS, *, source: bytes | None = None
) -> list[SearchSource]:
    """The results of a Mojeek results page, de-duplicated, at most ``limit``.

    Args:
        page: The decoded body, or the body :func:`~websearch_core.html.utf8_source` handed
            on (read from its bytes, its text never built whole).
        limit: How many to keep.
        source: The body ``page`` came from, as :func:`~websearch_core.html.decoded_page` gives it.

    Raises:
        ResponseParseError: No result and nothing that looks like a results page.
    """
    root = parse_page_text(page, source=source)
    sources = collect_unique(select(_ROWS, root), _source, limit)
    if not sources and not _is_results_page(page):
        raise ResponseParseError(PROVIDER_ID, UNRECOGNISED_MESSAGE, 502)
    return sources


def _is_results_page(page: str | bytes) -> bool:
    """Whether a page without results is still Mojeek's results page (a genuine "none").

    Asked only when no result was read: the markers are searched in the raw text, which
    costs a pass over the page that a page with results does not need.
    """
    return found(page, _SERP_MARKERS)
