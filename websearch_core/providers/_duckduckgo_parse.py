"""How DuckDuckGo's HTML (and lite) results pages read (pure).

* **Results:** blocks are ``<div>`` elements whose class has the word ``result`` (so
  ``result`` and ``web-result``, not ``results_links`` or ``result__body``); the title is
  the first ``a.result__a``, the snippet ``.result__snippet``, the date the first ``<span>``
  of ``.result__extras__url`` whose text starts with ``YYYY-MM-DD``. Redirect hrefs
  (``//duckduckgo.com/l/?uddg=<encoded>&rut=...``) are unwrapped; anything that is not
  ``http(s)`` is dropped, and so are ads (``result--ad`` blocks, ``duckduckgo.com/y.js``
  links). Past the last page DDG shows a "No more results." block dressed as a result
  (``result--no-result``, or a ``no-results`` note inside the block), sometimes with a link
  to the same search on another engine: the block is never a source, and neither is a
  link to another engine's results page (``google.com``/``bing.com``/``search.yahoo.com``
  ``/search``).
* **Errors:** non-2xx goes through the shared classifier, else
  ``DuckDuckGo HTML error (<status>)``. A 2xx body carrying the anomaly challenge
  (``anomaly-modal`` / ``anomaly.js``) or DDG's bare homepage instead of results is a
  :class:`~websearch_core.errors.ChallengeError` (429), never an empty result. A page with
  no results, no "no results" marker and no challenge is a
  :class:`~websearch_core.errors.ResponseParseError`. A genuine "No results." page
  (``result--no-result``) gives zero sources, which the chain reports as a 204.

Quirks and deliberate choices:

* The reference parses with regular expressions and needs ``class`` before ``href`` in the
  title link; here the page is parsed with lxml and read in one pass over its elements in
  document order, so attribute order and quoting do not matter. A block runs from its
  ``<div>`` to the next block (or nav-link) ``<div>``, as the markup reads, and its parts
  are the first title link, snippet and URL line in that range.
* Text is decoded once by the parser; the reference decodes ``&amp;`` before ``&lt;``,
  which turns a literal ``&amp;lt;`` into ``<``. Here it stays ``&lt;``. The reference
  also turns every tag into a space, which splits highlighted words (``<b>Eino</b>-ext``
  reads ``Eino -ext``); here inline elements join their neighbours and only the others
  separate words (:func:`websearch_core.html.layout_text`).
* The challenge markers are looked for where the challenge page puts them (a ``class``,
  ``id`` or ``data-testid`` holding ``anomaly-modal``, an ``action``/``src`` pointing at
  ``anomaly.js``), not anywhere in the body: a results page for the query ``anomaly.js``
  echoes the query in its title and search box and must not read as a block. Class and
  URL values are compared case-sensitively, as HTML compares them.
* ``lite.duckduckgo.com`` markup (``a.result-link``, ``td.result-snippet``,
  ``span.timestamp``) is parsed too, in case the HTML frontend ever hands it out; we never
  request it. Its next-page form is posted back to the HTML endpoint.

The module is private; :mod:`websearch_core.providers.duckduckgo` re-exports its public names.
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import SplitResult, urlsplit

import lxml.etree

from ..errors import ChallengeError, ResponseParseError
from ..html import Element, HtmlForm, iter_forms, layout_text, parse_document, raw_text
from ..models import SearchSource
from ._scraper import collect_unique, decode_uri_component, scraped_source

__all__ = [
    "CHALLENGE_MESSAGE",
    "HOMEPAGE_MESSAGE",
    "PROVIDER_ID",
    "UNRECOGNISED_MESSAGE",
    "ParsedPage",
    "parse_page",
    "unwrap_url",
]

PROVIDER_ID = "duckduckgo"

CHALLENGE_MESSAGE = (
    "DuckDuckGo blocked the request with a bot-detection challenge. DuckDuckGo throttles "
    "automated HTML searches from datacenter/shared-egress IPs; configure a credentialed "
    "provider such as Brave, Tavily, Exa, or Kagi for reliable web search."
)
"""The spec's text for the anomaly challenge."""

HOMEPAGE_MESSAGE = (
    "DuckDuckGo blocked the request: it served its homepage instead of results. DuckDuckGo "
    "throttles automated HTML searches from datacenter/shared-egress IPs; configure a "
    "credentialed provider such as Brave, Tavily, Exa, or Kagi for reliable web search."
)
"""A soft block: a 200 with the bare search box and no results."""

UNRECOGNISED_MESSAGE = "DuckDuckGo returned an unrecognised page"


# Markup, read from the lxml document. Class tests use the word rule below on the class
# attribute's value: ``\bresult\b`` matches ``result`` and ``web-result`` but not
# ``results_links`` or ``result__body``.
_CHALLENGE = lxml.etree.XPath(
    "descendant::*[contains(@class, 'anomaly-modal') or contains(@data-testid, 'anomaly-modal')"
    " or contains(@id, 'anomaly-modal') or contains(@action, 'anomaly.js')"
    " or contains(@src, 'anomaly.js')]"
)
_CHALLENGE_HINT = "anomaly"
"""Every challenge marker holds this word, so a page without it skips the element search."""
_RESULT_CLASS = re.compile(r"\bresult\b")
_NAV_LINK_CLASS = re.compile(r"\bnav-link\b")
_AD_CLASS = re.compile(r"\bresult--ad\b")
_NO_RESULT_CLASS = re.compile(r"\bresult--no-result\b|\bno-results\b", re.IGNORECASE)
_TITLE_CLASS = re.compile(r"\bresult__a\b")
_SNIPPET_CLASS = re.compile(r"\bresult__snippet\b")
_EXTRAS_URL_CLASS = re.compile(r"\bresult__extras__url\b")
_LITE_LINK_CLASS = re.compile(r"\bresult-link\b")
_LITE_SNIPPET_CLASS = re.compile(r"\bresult-snippet\b")
_LITE_DATE_CLASS = re.compile(r"\btimestamp\b")
_HOMEPAGE_CLASS = re.compile(r"\bbody--home\b", re.IGNORECASE)
_HOMEPAGE_ID = "search_form_homepage"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}|$)")
_UDDG = re.compile(r"[?&]uddg=([^&]+)")
_ENGINE_SEARCH_HOSTS = frozenset({"google.com", "bing.com", "search.yahoo.com"})
"""Other engines whose ``/search`` page DDG links to when it has nothing (``www.`` dropped)."""


class ParsedPage(NamedTuple):
    """One result page: its sources in page order and the form that fetches the next."""

    sources: list[SearchSource]
    next_form: HtmlForm | None


def unwrap_url(href: str) -> str | None:
    """The destination of a result link, or ``None`` when it must be dropped.

    ``&amp;`` is undone first; a ``uddg`` redirect parameter is percent-decoded (strictly,
    like JavaScript's ``decodeURIComponent``: a malformed escape drops the result); a
    protocol-relative URL gets ``https:``; only absolute ``http(s)`` URLs survive, and DDG
    ad redirects (``duckduckgo.com/y.js``) do not.

    Example:
        >>> unwrap_url("//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1&amp;rut=f")
        'https://example.org/a?b=1'
    """
    found = _destination(href)
    return None if found is None else found[0]


def _destination(href: str) -> tuple[str, SplitResult] | None:
    """:func:`unwrap_url` with the URL's parts, split once for every later test."""
    href = href.strip().replace("&amp;", "&")
    match = _UDDG.search(href)
    if match is not None:
        decoded = decode_uri_component(match.group(1))
        if decoded is None:
            return None
        url = decoded.strip()
    elif href.startswith("//"):
        url = f"https:{href}"
    else:
        url = href
    if url.startswith("//"):
        url = f"https:{url}"
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None  # what is_http_url tests, on the parts already split
    if _is_ad_redirect(parts):
        return None
    return url, parts


def _is_ad_redirect(parts: SplitResult) -> bool:
    host = (parts.hostname or "").lower()
    return (host == "duckduckgo.com" or host.endswith(".duckduckgo.com")) and (
        parts.path in ("/y.js", "/y")
    )


def _is_engine_search(parts: SplitResult) -> bool:
    """Whether a URL is another engine's results page (a pseudo-result, never organic)."""
    host = (parts.hostname or "").lower().removeprefix("www.")
    return host in _ENGINE_SEARCH_HOSTS and parts.path.rstrip("/") == "/search"


def _class(element: Element) -> str:
    return element.get("class") or ""


# What an element is, as bits of one number (an element may be several things at once).
_BLOCK, _SKIPPED, _NAV_LINK, _TITLE, _SNIPPET, _EXTRAS_URL, _NO_RESULT_NOTE = (
    1 << n for n in range(7)
)
_LITE_LINK, _LITE_SNIPPET, _LITE_DATE = (1 << n for n in range(7, 10))
_SCANNED_TAGS = ("div", "a", "span", "td")


@lru_cache(maxsize=1024)
def _kind(tag: str, classes: str) -> int:
    """What an element with this tag and class attribute is, as the ``_BLOCK``... bits.

    A page repeats a handful of class attributes once per result, so the class tests run
    once per distinct attribute rather than once per element.
    """
    kind = _div_kind(classes) if tag == "div" else 0
    if tag == "a":
        kind |= _TITLE if _TITLE_CLASS.search(classes) else 0
        kind |= _LITE_LINK if _LITE_LINK_CLASS.search(classes) else 0
    if tag == "span" and _LITE_DATE_CLASS.search(classes):
        kind |= _LITE_DATE
    kind |= _SNIPPET if _SNIPPET_CLASS.search(classes) else 0
    kind |= _LITE_SNIPPET if _LITE_SNIPPET_CLASS.search(classes) else 0
    return kind


def _div_kind(classes: str) -> int:
    kind = 0
    if _RESULT_CLASS.search(classes):
        kind |= _BLOCK
        if _AD_CLASS.search(classes) or _NO_RESULT_CLASS.search(classes):
            kind |= _SKIPPED
    elif _NAV_LINK_CLASS.search(classes):
        kind |= _NAV_LINK
    if _EXTRAS_URL_CLASS.search(classes):
        kind |= _EXTRAS_URL
    elif _NO_RESULT_CLASS.search(classes):
        kind |= _NO_RESULT_NOTE
    return kind


@dataclass(slots=True)
class _Block:
    """One result block, from its ``<div>`` to the next block (or nav-link ``<div>``)."""

    div: Element
    skip: bool
    """An ad, or DDG's "no results" note dressed as a result."""
    title: Element | None = None
    snippet: Element | None = None
    extras: Element | None = None
    date: str | None = None
    """The first ``<span>`` text in the URL line (``extras``) that starts with a date."""
    no_results: bool = False


@dataclass(slots=True)
class _LiteRow:
    """One lite result: its link, then the first snippet cell and date up to the next link."""

    link: Element
    snippet: Element | None = None
    stamp: Element | None = None


def _scan(root: Element) -> tuple[list[_Block], list[_LiteRow]]:
    """The page's result blocks and lite rows, in one pass over its elements in order.

    A block runs from its ``<div>`` to the next block (or nav-link) ``<div>``, as the
    markup reads; its parts are the first title link, snippet and URL line in that range.
    """
    blocks: list[_Block] = []
    rows: list[_LiteRow] = []
    block: _Block | None = None
    for element in root.iter(*_SCANNED_TAGS):
        classes = element.get("class")
        kind = _kind(element.tag, classes) if classes else 0
        if not kind and (block is None or block.extras is None or element.tag != "span"):
            continue
        if kind & _BLOCK:
            block = _Block(element, bool(kind & _SKIPPED))
            blocks.append(block)
        elif kind & _NAV_LINK:
            block = None
        if block is not None:
            _add_to_block(block, element, kind)
            if block.extras is not None and block.date is None and element.tag == "span":
                block.date = _span_date(element, block.extras)
        if kind & _LITE_LINK:
            rows.append(_LiteRow(element))
        elif rows:
            _add_to_row(rows[-1], element, kind)
    return blocks, rows


def _add_to_block(block: _Block, element: Element, kind: int) -> None:
    if block.title is None and kind & _TITLE:
        block.title = element
    if block.snippet is None and kind & _SNIPPET:
        block.snippet = element
    if block.extras is None and kind & _EXTRAS_URL:
        block.extras = element
    if kind & _NO_RESULT_NOTE and _is_inside(element, block.div):
        block.no_results = True


def _add_to_row(row: _LiteRow, element: Element, kind: int) -> None:
    if row.snippet is None and kind & _LITE_SNIPPET:
        row.snippet = element
    if row.stamp is None and kind & _LITE_DATE:
        row.stamp = element


def _is_inside(element: Element, ancestor: Element) -> bool:
    return any(parent is ancestor for parent in element.iterancestors())


def _span_date(span: Element, extras: Element) -> str | None:
    """The span's text when the span is in the URL line and its text starts with a date."""
    # The readable text starts with the first non-blank character of the raw text, so a
    # span that does not start with a digit (the icon, the URL) is skipped unread.
    if not raw_text(span).lstrip()[:1].isdigit() or not _is_inside(span, extras):
        return None
    text = layout_text(span)
    return text if _DATE.match(text) else None


def _source(title: Element, snippet: Element | None, date: str | None) -> SearchSource | None:
    found = _destination(title.get("href") or "")
    if found is None or _is_engine_search(found[1]):
        return None
    url = found[0]
    text = layout_text(snippet) if snippet is not None else ""
    return scraped_source(title=layout_text(title), url=url, snippet=text, date=date)


def _parse_html_block(block: _Block) -> SearchSource | None:
    if block.skip or block.no_results or block.title is None:
        return None
    return _source(block.title, block.snippet, block.date)


def _parse_lite_row(row: _LiteRow) -> SearchSource | None:
    date = layout_text(row.stamp) if row.stamp is not None else None
    return _source(row.link, row.snippet, date if date and _DATE.match(date) else None)


def _next_form(root: Element) -> HtmlForm | None:
    return next((form for form in iter_forms(root) if {"s", "vqd"} <= form.field_names()), None)


def _is_challenge(page: str, root: Element) -> bool:
    return _CHALLENGE_HINT in page and bool(_CHALLENGE(root))


def _has_marker(root: Element, homepage: bool) -> bool:
    """Whether an element carries the "no results" (or, ``homepage``, the homepage) marker."""
    for element in root.iter(tag=lxml.etree.Element):
        classes = _class(element)
        if homepage:
            if _HOMEPAGE_CLASS.search(classes) or element.get("id") == _HOMEPAGE_ID:
                return True
        elif _NO_RESULT_CLASS.search(classes):
            return True
    return False


def parse_page(page: str) -> ParsedPage:
    """Parse one DuckDuckGo HTML (or lite) response body.

    Args:
        page: The decoded body of a 2xx response.

    Returns:
        The page's sources (ads, DDG's "no results" note, links to other engines' searches
        and non-``http(s)`` links dropped, URLs de-duplicated within the page) and the
        next-page form, if the page has one.

    Raises:
        ChallengeError: The anomaly challenge, or the bare homepage instead of results.
        ResponseParseError: Neither results, nor a "no results" marker, nor a challenge.
    """
    root = parse_document(page)
    if _is_challenge(page, root):
        raise ChallengeError(PROVIDER_ID, CHALLENGE_MESSAGE)
    blocks, rows = _scan(root)
    if blocks:
        return ParsedPage(collect_unique(blocks, _parse_html_block), _next_form(root))
    if rows:
        return ParsedPage(collect_unique(rows, _parse_lite_row), _next_form(root))
    if _has_marker(root, homepage=False):
        return ParsedPage([], None)
    if _has_marker(root, homepage=True):
        raise ChallengeError(PROVIDER_ID, HOMEPAGE_MESSAGE)
    raise ResponseParseError(PROVIDER_ID, UNRECOGNISED_MESSAGE, 502)
