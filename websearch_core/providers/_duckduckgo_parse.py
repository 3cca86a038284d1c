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
  document order (:mod:`._duckduckgo_scan`), so attribute order and quoting do not
  matter. A block runs from its ``<div>`` to the next block (or nav-link) ``<div>``, as
  the markup reads, and its parts are the first title link, snippet and URL line in that
  range.
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
from collections.abc import Iterator
from datetime import UTC, datetime
from urllib.parse import urlsplit

import lxml.etree

from ..errors import ChallengeError, ResponseParseError
from ..html import (
    Element,
    HtmlForm,
    form_fields,
    host_of,
    layout_text,
    parse_document,
    parse_source,
    plain_http_parts,
    read_form,
    utf8_source,
)
from ..models import SearchSource
from ._duckduckgo_scan import DATE, NO_RESULT_CLASS, Block, LiteRow, scan
from ._scraper import decode_uri_component, scraped_source

__all__ = [
    "CHALLENGE_MESSAGE",
    "HOMEPAGE_MESSAGE",
    "PROVIDER_ID",
    "UNRECOGNISED_MESSAGE",
    "ParsedPage",
    "parse_body",
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


# Markup, read from the lxml document; the result blocks are found by ._duckduckgo_scan.
_CHALLENGE = lxml.etree.XPath(
    "descendant::*[contains(@class, 'anomaly-modal') or contains(@data-testid, 'anomaly-modal')"
    " or contains(@id, 'anomaly-modal') or contains(@action, 'anomaly.js')"
    " or contains(@src, 'anomaly.js')]"
)
_CHALLENGE_HINT = "anomaly"
"""Every challenge marker holds this word, so a page without it skips the element search."""
_HOMEPAGE_CLASS = re.compile(r"\bbody--home\b", re.IGNORECASE)
_HOMEPAGE_ID = "search_form_homepage"
_UDDG = re.compile(r"[?&]uddg=([^&]+)")
_ENGINE_SEARCH_HOSTS = frozenset({"google.com", "bing.com", "search.yahoo.com"})
"""Other engines' hosts (``www.`` dropped) whose ``/search`` page DDG links to when it has
nothing."""
_NEXT_PAGE_FIELDS = frozenset({"s", "vqd"})
_HREF = b"href"
"""The attribute name as bytes: lxml encodes a ``str`` name on every read."""


class ParsedPage:
    """One result page: its sources in page order and the form that fetches the next.

    The next-page form is read from the page the first time :attr:`next_form` is asked
    for, not while the page is parsed: a search whose first page already holds every
    result it wants (the default count on a full page) never asks, and reading the page's
    forms was about a tenth of the parse (20-24 us of DuckDuckGo's HTML page). The parsed
    page is held until then, so a caller that keeps a :class:`ParsedPage` keeps its tree.
    Unpacks as ``sources, next_form`` as it did when it was a named tuple.
    """

    __slots__ = ("_form", "_root", "sources")
    _fields = ("sources", "next_form")
    """The field names, as the named tuple gave them (tools that dump a page read them)."""

    def __init__(self, sources: list[SearchSource], root: Element | None) -> None:
        """Keep ``sources`` and ``root``, the page the form is read from (``None``: no form)."""
        self.sources = sources
        self._root = root
        self._form: HtmlForm | None = None

    @property
    def next_form(self) -> HtmlForm | None:
        """The form that fetches the next page, if the page has one (read once)."""
        if self._root is not None:
            self._form, self._root = _next_form(self._root), None
        return self._form

    def __iter__(self) -> Iterator[list[SearchSource] | HtmlForm | None]:
        return iter((self.sources, self.next_form))

    def __repr__(self) -> str:
        return f"ParsedPage(sources={self.sources!r}, next_form={self.next_form!r})"


_Destination = tuple[str, str, str]
"""A result link's destination ``(url, host, path)``: the URL with the two parts every
later test reads, the host lower-cased as ``SplitResult.hostname`` gives it (its zone id
too), each read once."""
_Result = tuple[Element, Element | None, str | None]
"""One result as the page shows it: its title link, its snippet element, its date."""


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


def _destination(href: str) -> _Destination | None:
    """:func:`unwrap_url` with the URL's host and path, split once for every later test."""
    href = href.strip().replace("&amp;", "&")
    match = _UDDG.search(href) if "uddg=" in href else None
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
    plain = plain_http_parts(url)
    if plain is not None:  # nearly every link: no general split needed
        host, path = plain
    else:
        try:
            parts = urlsplit(url)
        except ValueError:
            return None
        found_host = host_of(parts) if parts.scheme.lower() in ("http", "https") else None
        if not found_host:
            return None  # what is_http_url tests, on the parts already split
        host, path = found_host, parts.path
    if path in ("/y.js", "/y") and (host == "duckduckgo.com" or host.endswith(".duckduckgo.com")):
        return None  # a DDG ad redirect
    return url, host, path


def _is_engine_search(host: str) -> bool:
    """Whether a ``/search`` URL's host is another engine's (a pseudo-result, never organic)."""
    return host.removeprefix("www.") in _ENGINE_SEARCH_HOSTS


def _collect(results: list[_Result]) -> list[SearchSource]:
    """The results' sources in page order, unusable links dropped, URLs de-duplicated.

    What :func:`~._scraper.collect_unique` gives with a per-result parser, in one loop: a
    link already kept is passed over before its texts are read. Every result's age is
    measured from one reading of the clock.
    """
    sources: list[SearchSource] = []
    seen: set[str] = set()
    now = datetime.now(UTC)
    for title, snippet, date in results:
        found = _destination(title.get(_HREF) or "")
        if found is None:
            continue
        url, host, path = found
        if url in seen or (path.rstrip("/") == "/search" and _is_engine_search(host)):
            continue
        seen.add(url)
        text = layout_text(snippet) if snippet is not None else ""
        sources.append(
            scraped_source(title=layout_text(title), url=url, snippet=text, date=date, now=now)
        )
    return sources


def _html_results(blocks: list[Block]) -> list[_Result]:
    """The title link, snippet and date of every block that is a result.

    Ads and DDG's "no results" note dressed as a result are not.
    """
    return [
        (block.title, block.snippet, block.date)
        for block in blocks
        if block.title is not None and not block.skip and not block.no_results
    ]


def _lite_results(rows: list[LiteRow]) -> list[_Result]:
    """The link, snippet and date of every lite row; a stamp that is no date is no date."""
    return [(row.link, row.snippet, _stamp_date(row.stamp)) for row in rows]


def _stamp_date(stamp: Element | None) -> str | None:
    date = layout_text(stamp) if stamp is not None else None
    return date if date and DATE.match(date) else None


def _next_form(root: Element) -> HtmlForm | None:
    """The first form that submits both ``s`` and ``vqd`` (DDG's next-page form).

    Each form's fields are read once; the :class:`HtmlForm` is built only for the form
    kept, so the page's other forms (the search box, the region and date filters) cost
    one read per input.
    """
    for form in root.iter("form"):
        fields = form_fields(form)
        if {name for name, _ in fields} >= _NEXT_PAGE_FIELDS:
            return read_form(form, fields)
    return None


_CHALLENGE_HINT_BYTES = _CHALLENGE_HINT.encode()
"""The hint in a body's UTF-8 bytes: found there exactly when it is in the body's text."""


def _is_challenge(page: str | bytes, root: Element) -> bool:
    # ``rfind`` rather than ``in``: the same answer, and on CPython 3.11 two to three times
    # faster for a short word in a page (about 3.5 against 10 us on a 25 KB results page),
    # a search every results page pays.
    if isinstance(page, bytes):
        return page.rfind(_CHALLENGE_HINT_BYTES) >= 0 and bool(_CHALLENGE(root))
    return page.rfind(_CHALLENGE_HINT) >= 0 and bool(_CHALLENGE(root))


def _has_marker(root: Element, homepage: bool) -> bool:
    """Whether an element carries the "no results" (or, ``homepage``, the homepage) marker."""
    for element in root.iter(tag=lxml.etree.Element):
        classes = element.get("class") or ""
        if homepage:
            if _HOMEPAGE_CLASS.search(classes) or element.get("id") == _HOMEPAGE_ID:
                return True
        elif NO_RESULT_CLASS.search(classes):
            return True
    return False


def parse_page(page: str, *, source: bytes | None = None) -> ParsedPage:
    """Parse one DuckDuckGo HTML (or lite) response body.

    Args:
        page: The decoded body of a 2xx response.
        source: The body ``page`` came from, as :func:`~websearch_core.html.decoded_page` gives it.

    Returns:
        The page's sources (ads, DDG's "no results" note, links to other engines' searches
        and non-``http(s)`` links dropped, URLs de-duplicated within the page) and the
        next-page form, if the page has one.

    Raises:
        ChallengeError: The anomaly challenge, or the bare homepage instead of results.
        ResponseParseError: Neither results, nor a "no results" marker, nor a challenge.
    """
    return _read_page(page, parse_document(page, source=source))


def parse_body(body: bytes) -> ParsedPage:
    """:func:`parse_page` of a response body's text, read from the bytes without the text.

    UTF-8 bytes hold an ASCII word exactly where their text does, so the challenge hint is
    looked for in the body itself (:func:`~websearch_core.html.utf8_source`); a body that is
    not plain UTF-8 is read from its text, as ``HttpResponse.text()`` gives it.
    """
    source = utf8_source(body)
    if source is None:
        return parse_page(body.decode("utf-8", errors="replace"))
    return _read_page(source, parse_source(source))


def _read_page(page: str | bytes, root: Element) -> ParsedPage:
    """:func:`parse_page` of a parsed page; ``page`` is its text or its UTF-8 bytes."""
    if _is_challenge(page, root):
        raise ChallengeError(PROVIDER_ID, CHALLENGE_MESSAGE)
    blocks, rows = scan(root)
    if blocks:
        return ParsedPage(_collect(_html_results(blocks)), root)
    if rows:
        return ParsedPage(_collect(_lite_results(rows)), root)
    if _has_marker(root, homepage=False):
        return ParsedPage([], None)
    if _has_marker(root, homepage=True):
        raise ChallengeError(PROVIDER_ID, HOMEPAGE_MESSAGE)
    raise ResponseParseError(PROVIDER_ID, UNRECOGNISED_MESSAGE, 502)
