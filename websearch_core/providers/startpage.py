"""Startpage: Google's index through Startpage's HTML search, with its homepage form token.

* **Flow:** ``GET https://www.startpage.com/`` (navigation headers, no referer), then read
  the first ``form`` whose action is ``/sp/search`` and that carries a hidden ``sc`` token,
  and ``POST https://www.startpage.com/sp/search`` with its hidden inputs (every
  ``input[type=hidden]`` with a name, the value defaulting to empty, in document order),
  then ``query=<query>`` and, when ``recency`` is set, ``with_date=d|w|m|y``; hidden
  ``query``/``with_date`` inputs are replaced by ours. The POST carries
  ``Content-Type: application/x-www-form-urlencoded``, ``Origin`` and
  ``Referer: https://www.startpage.com/`` (so ``Sec-Fetch-Site: same-origin``).
* **Fallback:** when the homepage step fails in any way (transport error or timeout,
  non-2xx, a CAPTCHA, no ``sc`` token) the search is the tokenless
  ``GET https://www.startpage.com/sp/search?query=<query>[&with_date=…]`` with the same
  referer. A failure of the search request itself is not retried.
* **Time:** one budget (the per-provider timeout) covers both requests; the homepage may
  use at most half of it, so a hanging homepage still leaves time for the fallback. A
  timeout of the search request reports the whole budget.
* **Count:** no count is sent (Startpage serves about ten results per page); the parsed
  list is cut to ``N = num_search_results or limit``, default 10, at most 20.
* **Results:** one per ``div`` whose class has the exact token ``result`` (the
  ``a-bg-result`` ad/honeypot block does not match). The link is ``a.result-link``; its
  href is resolved against the homepage and must be ``http(s)`` and not on
  ``startpage.com`` (anonymous-view proxy links never count). The title is the text of the
  ``h2``/``h3`` inside the link, else the link's text; the snippet is ``p.description``.
  A leading Google-style date (``14 Oct 2023 ...``) moves from the snippet to
  ``published_date`` (and ``age_seconds``). URLs are de-duplicated exactly.
* **Errors:** a final URL under ``/sp/captcha`` (or any ``/captcha/`` or ``/errors/``
  path) is a :class:`~websearch_core.errors.ChallengeError` (429), checked before the
  status. A page without results is a challenge when a link, form, frame or script points
  at ``/sp/captcha`` or at the ``component---src-pages-captcha`` bundle, or, unless it is a
  "no results" page, mentions either anywhere. Other non-2xx statuses go through the
  shared classifier, else ``Startpage HTML error (<status>)``. A page with no results, no
  "no results" marker and no challenge is a
  :class:`~websearch_core.errors.ResponseParseError`.

Capture vs reference and assumptions:

* The real results capture (``startpage/serp_javascript_tutorial_http_2026.html``) holds
  several ``form[action="/sp/search"]`` (search box, category tabs, pager), all with the
  same ``sc``; the first one with a token is used, as the reference's ``querySelector``
  would. Its snippets open with dates such as ``14 Oct 2023 ...``, which the reference
  leaves in the snippet.
* No real Startpage CAPTCHA page or "no results" page is known (fixtures/SOURCES.md: the
  block is normally a redirect to ``/sp/captcha``). The "no results" markers are an
  assumption: an element whose class starts with ``no-results``/``noresults``, or the
  text "did not match any documents" / "No results found for".

Docs: https://support.startpage.com/
"""

import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from urllib.parse import urlsplit

from ..filters import QUERY_OPERATORS, FilterSupport
from ..html import (
    Element,
    css,
    has_class,
    navigation_headers,
    parse_document,
    resolve_href,
    resolve_link,
    select_first,
    text_of,
)
from ..models import SearchParams, SearchSource
from ..transport import HttpRequest, HttpResponse
from ._html_engine import HtmlEngine, HtmlEngineProvider
from ._scraper import ResultPage, scraped_source
from .base import ProviderInfo

__all__ = [
    "CHALLENGE_MESSAGE",
    "INFO",
    "PAGE",
    "STARTPAGE_HOME_URL",
    "STARTPAGE_SEARCH_URL",
    "UNRECOGNISED_MESSAGE",
    "StartpageProvider",
    "build_fallback_request",
    "build_form",
    "build_home_request",
    "build_post_request",
    "hidden_search_fields",
    "is_challenge_page",
    "is_challenge_url",
    "parse_page",
    "result_url",
    "search_request",
]

logger = logging.getLogger("websearch_core.providers.startpage")

STARTPAGE_HOME_URL = "https://www.startpage.com/"
STARTPAGE_ORIGIN = "https://www.startpage.com"
STARTPAGE_SEARCH_URL = "https://www.startpage.com/sp/search"
DEFAULT_RESULTS = 10
MAX_RESULTS = 20
HOME_BUDGET_SHARE = 0.5
"""The largest part of the time budget the homepage step may use."""

CHALLENGE_MESSAGE = (
    "Startpage blocked the request with a CAPTCHA challenge. Startpage rate-limits automated "
    "searches from datacenter/shared-egress IPs; try another provider such as DuckDuckGo or "
    "Mojeek, or retry later."
)
"""The spec's text for Startpage's CAPTCHA."""

UNRECOGNISED_MESSAGE = "Startpage returned an unrecognised page"

INFO = ProviderInfo(
    id="startpage",
    label="Startpage",
    kind="scraper",
    description=(
        "No key needed: Startpage's HTML search (Google-backed), posted with its homepage "
        "form token; may answer shared or datacenter IPs with a CAPTCHA"
    ),
    docs_url="https://support.startpage.com/",
    honours=frozenset({"query", "recency", "limit", "num_search_results"}),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="google",
    filters=FilterSupport(native=frozenset({"recency"}), query=QUERY_OPERATORS),
)

_RECENCY: Mapping[str, str] = MappingProxyType({"day": "d", "week": "w", "month": "m", "year": "y"})
_OWN_FIELDS = frozenset({"query", "with_date"})
_CHALLENGE_URL = re.compile(r"/(?:errors|captcha)/|/sp/captcha", re.IGNORECASE)
_CHALLENGE_MARKER = re.compile(r"component---src-pages-captcha|/sp/captcha", re.IGNORECASE)
_NO_RESULTS_CLASS = re.compile(r"(?:^|\s)no-?results?", re.IGNORECASE)
_NO_RESULTS_TEXT = re.compile(r"did not match any documents|no results found for", re.IGNORECASE)
_BODY = css("body")
_LEADING_DATE = re.compile(
    r"^(?P<date>\d{1,2} [A-Z][a-z]{2,8}\.? \d{4}|[A-Z][a-z]{2,8}\.? \d{1,2}, \d{4}"
    r"|\d+ (?:minute|hour|day|week|month|year)s? ago) (?:\.\.\.|…|·|-) ?"
)


def build_home_request() -> HttpRequest:
    """The homepage GET that hands out the ``sc`` token (pure)."""
    return HttpRequest(method="GET", url=STARTPAGE_HOME_URL, headers=navigation_headers())


def hidden_search_fields(page: str) -> list[tuple[str, str]] | None:
    """The hidden inputs of the homepage's search form, or ``None`` without an ``sc`` token.

    The form is the first whose action resolves to ``/sp/search`` on Startpage and that has
    a hidden ``sc`` input with a value. Every hidden input with a name is kept, in document
    order; a missing value is the empty string.

    Example:
        >>> hidden_search_fields(
        ...     '<form action="/sp/search" method="post"><input name="query">'
        ...     '<input type="hidden" name="lui" value="english">'
        ...     '<input type="hidden" name="sc" value="Tok3n00"></form>'
        ... )
        [('lui', 'english'), ('sc', 'Tok3n00')]
    """
    document = parse_document(page)
    for form in document.iter("form"):
        if not _is_search_action(form.get("action") or ""):
            continue
        fields = [
            (str(element.get("name")), element.get("value") or "")
            for element in form.iter("input")
            if (element.get("type") or "").lower() == "hidden" and element.get("name")
        ]
        if any(name == "sc" and value for name, value in fields):
            return fields
    return None


def _is_search_action(action: str) -> bool:
    url = resolve_href(action, STARTPAGE_HOME_URL)
    if url is None:
        return False
    parts = urlsplit(url)
    return _is_startpage_host(parts.hostname) and parts.path.rstrip("/") == "/sp/search"


def _is_startpage_host(host: str | None) -> bool:
    host = (host or "").lower()
    return host == "startpage.com" or host.endswith(".startpage.com")


def build_form(params: SearchParams, hidden: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The POST body: the hidden inputs, then ``query`` and, with a recency, ``with_date``.

    Example:
        >>> build_form(SearchParams(query="rust", recency="year"), [("sc", "T0"), ("query", "")])
        [('sc', 'T0'), ('query', 'rust'), ('with_date', 'y')]
    """
    fields = [(name, value) for name, value in hidden if name not in _OWN_FIELDS]
    fields.append(("query", params.query))
    if params.recency is not None:
        fields.append(("with_date", _RECENCY[params.recency]))
    return fields


def build_post_request(form: Sequence[tuple[str, str]]) -> HttpRequest:
    """The form POST to ``/sp/search``, same-origin from the homepage (pure)."""
    headers = navigation_headers(
        referer=STARTPAGE_HOME_URL,
        extra={
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": STARTPAGE_ORIGIN,
        },
    )
    return HttpRequest(method="POST", url=STARTPAGE_SEARCH_URL, headers=headers, form=tuple(form))


def build_fallback_request(params: SearchParams) -> HttpRequest:
    """The tokenless ``GET /sp/search?query=…[&with_date=…]`` (pure)."""
    query = [("query", params.query)]
    if params.recency is not None:
        query.append(("with_date", _RECENCY[params.recency]))
    return HttpRequest(
        method="GET",
        url=STARTPAGE_SEARCH_URL,
        params=tuple(query),
        headers=navigation_headers(referer=STARTPAGE_HOME_URL),
    )


def is_challenge_url(url: str) -> bool:
    """Whether the final URL is a Startpage CAPTCHA or error page."""
    return bool(_CHALLENGE_URL.search(urlsplit(url).path)) if url else False


def is_challenge_page(document: Element, page: str) -> bool:
    """Whether a page without results is the CAPTCHA (see the module notes)."""
    for element in document.iter("a", "form", "iframe", "script", "link"):
        target = element.get("href") or element.get("action") or element.get("src") or ""
        if _CHALLENGE_MARKER.search(target):
            return True
    if _is_no_results_page(document):
        return False
    return bool(_CHALLENGE_MARKER.search(page))


def _is_no_results_page(document: Element) -> bool:
    for element in document.iter():
        if isinstance(element.tag, str) and _NO_RESULTS_CLASS.search(element.get("class") or ""):
            return True
    body = select_first(_BODY, document)
    return body is not None and bool(_NO_RESULTS_TEXT.search(text_of(body)))


def result_url(href: str) -> str | None:
    """The result link as an absolute ``http(s)`` URL off Startpage, or ``None``.

    Example:
        >>> result_url("https://www.w3schools.com/js/")
        'https://www.w3schools.com/js/'
        >>> result_url("https://us2-browse.startpage.com/av/proxy?ep=1") is None
        True
    """
    found = resolve_link(href, STARTPAGE_HOME_URL)
    if found is None or _is_startpage_host(found[1].hostname):
        return None
    url = found[0]
    return url


def _split_date(snippet: str) -> tuple[str, str | None]:
    match = _LEADING_DATE.match(snippet)
    if match is None:
        return snippet, None
    return snippet[match.end() :].strip(), match.group("date")


def _first_with_class(elements: Iterator[Element], name: str) -> Element | None:
    return next((element for element in elements if has_class(element, name)), None)


def _parse_block(block: Element) -> SearchSource | None:
    # Walks over the block's few links and paragraphs (``a.result-link[href]``,
    # ``p.description``) cost less than compiled selectors on each block.
    anchor = next(
        (a for a in block.iter("a") if a.get("href") is not None and has_class(a, "result-link")),
        None,
    )
    if anchor is None:
        return None
    url = result_url(anchor.get("href", ""))
    if url is None:
        return None
    heading = next(anchor.iter("h2", "h3"), None)
    title = text_of(heading) if heading is not None else ""
    description = _first_with_class(block.iter("p"), "description")
    snippet, date = _split_date(text_of(description) if description is not None else "")
    return scraped_source(title=title or text_of(anchor), url=url, snippet=snippet, date=date)


PAGE = ResultPage(
    info=INFO,
    block_selector="div.result",
    parse_block=_parse_block,
    is_challenge_url=is_challenge_url,
    is_challenge_page=is_challenge_page,
    is_no_results_page=_is_no_results_page,
    challenge_message=CHALLENGE_MESSAGE,
    unrecognised_message=UNRECOGNISED_MESSAGE,
)
"""Startpage's results page for the shared scraper flow; a CAPTCHA counts before the status."""


def parse_page(page: str, final_url: str = "") -> list[SearchSource]:
    """Parse one Startpage results page (pure), by the shared flow of :meth:`ResultPage.parse`.

    Ads and Startpage links are dropped; a "no results" page gives ``[]``, the CAPTCHA a
    ``ChallengeError``, anything else without results a ``ResponseParseError``.
    """
    return PAGE.parse(page, final_url)


def search_request(params: SearchParams, home: HttpResponse) -> HttpRequest:
    """The search after the homepage step: the form POST with its token, else the GET.

    A homepage that is not a 2xx page, is the CAPTCHA, or carries no ``sc`` token leads to
    the tokenless GET (no I/O; the reason is logged).
    """
    if not 200 <= home.status < 300 or is_challenge_url(home.url):
        logger.info("startpage homepage unusable (%d %s)", home.status, home.url)
        return build_fallback_request(params)
    hidden = hidden_search_fields(home.text())
    if hidden is None:
        logger.info("startpage homepage carried no sc token")
        return build_fallback_request(params)
    return build_post_request(build_form(params, hidden))


class StartpageProvider(HtmlEngineProvider):
    """Startpage: homepage token, then the form POST (or the tokenless GET)."""

    info = INFO
    engine = HtmlEngine(
        setup=lambda params: build_home_request(),
        setup_share=HOME_BUDGET_SHARE,
        after_setup=search_request,
        request=build_fallback_request,
        check=PAGE.check,
        read=PAGE.read,
    )
