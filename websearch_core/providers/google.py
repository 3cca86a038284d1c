"""Google: the web results page, fetched plainly first and in headless Chromium when blocked.

* **Service:** Google Search's HTML results page (the "Web" tab, ``udm=14``), no key needed.
  Google answers most scripted requests with a JavaScript-required shell or an
  "unusual traffic" reCAPTCHA wall, so this engine escalates to a real browser
  (:mod:`websearch_core.browser`) and still often ends in a challenge error.
* **Endpoint:** ``GET https://www.google.com/search?q=<query>&num=<N>&hl=<hl>&gl=<gl>&udm=14
  &pws=0[&tbs=qdr:d|w|m|y | tbs=cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY]`` with a desktop
  Chrome navigation profile and ``Referer: https://www.google.com/``.
* **Browser fallback:** a transport failure, a non-2xx status or a block page (below) loads
  the same URL in headless Chromium: the home page ``https://www.google.com/`` first to seed
  cookies, then the results page, waiting up to 10 s for ``a h3`` (not after an error
  status: Google's block pages never turn into results by themselves).
* **Auth and env vars:** none. ``WEBSEARCH_GOOGLE_BASE_URL`` redirects both the plain fetch
  and the browser; ``WEBSEARCH_CHROMIUM_PATH`` and ``WEBSEARCH_BROWSER`` configure the
  browser.
* **Limits:** ``N = num_search_results or limit``, default 10, at most 20 (sent as ``num``).
* **Block pages** (checked before anything else, never parsed as "no results"):
  ``traffic`` is a 403/429 status, a final URL under ``/sorry/``, or (on a page with no
  ``<h3>``) ``unusual traffic``/``g-recaptcha`` markup: ``Google blocked the browser search
  with an automated-traffic challenge. Try another web search provider or retry later.``
  (429). ``javascript`` is a page linking ``/httpservice/retry/enablejs`` with no ``<h3>``:
  ``Google returned its JavaScript challenge instead of rendered search results.`` (429).
  The order is traffic, then other non-2xx (the shared classifier, else
  ``Google HTML error (<status>)``), then javascript. Fetch and browser failures are
  ``Google browser search failed: <detail>`` (503) or ``Google browser search timed out.``
  (504).
* **Parsing:** each ``<h3>`` inside a link is a result; ``/url?q=`` (or ``url=``) redirects on
  google.com are unwrapped; links to google.com itself and ads (``#tads``, ``#bottomads``,
  ``[data-text-ad]``) are dropped. The snippet is the first non-empty of
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
* The reference fixes ``hl=en&gl=us``; here ``language`` and ``country`` set them (that
  default otherwise), ``include_domains``/``exclude_domains`` become ``site:`` operators and
  ``date_after``/``date_before`` a custom date range (``tbs=cdr:1,...``, in place of ``qdr``).
* Only ``google.com``/``www.google.com`` links are dropped, so results on Google's product
  hosts (``cloud.google.com`` in the capture) are kept. Text-fragment directives
  (``#:~:text=...``) that Google appends to featured links are removed from URLs.
* The plain fetch uses the fixed desktop-Chrome profile of :mod:`websearch_core.html`
  rather than a randomised one.

Docs: https://developers.google.com/search/docs/monitor-debug/search-operators/all-search-site
"""

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Literal
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import lxml.etree

from ..browser import HeadlessOptions
from ..errors import ChallengeError, ResponseParseError
from ..filters import QUERY_OPERATORS, FilterSupport
from ..html import Element, class_tokens, navigation_headers, parse_document, resolve_link, text_of
from ..models import SearchParams, SearchSource
from ..transport import HttpRequest, HttpResponse
from ._common import is_http_url
from ._escalation import Escalation, FailureTexts
from ._html_engine import HtmlEngine, HtmlEngineProvider, single_page
from ._scraper import check_html_status, collect_unique, scraped_source
from .base import ProviderInfo, clamp_count

__all__ = [
    "GOOGLE_HOME_URL",
    "GOOGLE_SEARCH_URL",
    "INFO",
    "JAVASCRIPT_MESSAGE",
    "TRAFFIC_MESSAGE",
    "UNRECOGNISED_MESSAGE",
    "BlockReason",
    "GoogleProvider",
    "block_reason",
    "build_request",
    "check_page",
    "parse_page",
    "query_text",
    "search_params",
    "unwrap_url",
]

GOOGLE_SEARCH_URL = "https://www.google.com/search"
GOOGLE_HOME_URL = "https://www.google.com/"
DEFAULT_RESULTS = 10
MAX_RESULTS = 20
READY_SELECTOR = "a h3"

TRAFFIC_MESSAGE = (
    "Google blocked the browser search with an automated-traffic challenge. Try another web "
    "search provider or retry later."
)
JAVASCRIPT_MESSAGE = "Google returned its JavaScript challenge instead of rendered search results."
UNRECOGNISED_MESSAGE = "Google returned an unrecognised page"
FAILURE = FailureTexts(
    failed="Google browser search failed: {}", timed_out="Google browser search timed out."
)

INFO = ProviderInfo(
    id="google",
    label="Google",
    kind="scraper",
    description=(
        "No key needed: Google's results page, escalating to headless Chromium when the plain "
        "fetch is blocked; often answers scripted traffic with a challenge"
    ),
    docs_url=(
        "https://developers.google.com/search/docs/monitor-debug/search-operators/all-search-site"
    ),
    honours=frozenset(
        {
            "query",
            "recency",
            "limit",
            "num_search_results",
            "language",
            "country",
            "date_after",
            "date_before",
            "include_domains",
            "exclude_domains",
        }
    ),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="google",
    filters=FilterSupport(
        native=frozenset({"date_after", "date_before", "recency", "language", "country"}),
        query=QUERY_OPERATORS,
    ),
)

BlockReason = Literal["traffic", "javascript"]

_RECENCY: Mapping[str, str] = MappingProxyType(
    {"day": "qdr:d", "week": "qdr:w", "month": "qdr:m", "year": "qdr:y"}
)
_GOOGLE_HOSTS = frozenset({"google.com", "www.google.com"})
_CONTAINER_CLASSES = frozenset({"tF2Cxc", "MjjYud", "Gx5Zad"})
_AD_IDS = frozenset({"tads", "bottomads"})
_SERP_ELEMENT = lxml.etree.XPath("//*[@id='search' or @id='rso']")
_READ_MORE = "Read more"
_TRAFFIC_TEXT = ("unusual traffic", "g-recaptcha")
_NO_RESULTS_TEXT = "did not match any documents"


def query_text(params: SearchParams) -> str:
    """The query with ``site:`` operators for the domain filters (unchanged without them).

    Example:
        >>> query_text(SearchParams(query="asyncio", include_domains=("python.org", "docs.rs")))
        'asyncio (site:python.org OR site:docs.rs)'
    """
    parts = [params.query]
    sites = [f"site:{domain}" for domain in params.include_domains]
    if len(sites) == 1:
        parts.append(sites[0])
    elif sites:
        parts.append(f"({' OR '.join(sites)})")
    parts.extend(f"-site:{domain}" for domain in params.exclude_domains)
    return " ".join(parts)


def _locale(params: SearchParams) -> tuple[str, str]:
    language = params.language or "en"
    region = next(
        (part for part in language.split("-")[1:] if len(part) == 2 and part.isalpha()), None
    )
    country = (params.country or region or "us").lower()
    return language, country


def _date_range(params: SearchParams) -> str | None:
    if params.date_after is None and params.date_before is None:
        return None
    parts = ["cdr:1"]
    if params.date_after is not None:
        day = params.date_after
        parts.append(f"cd_min:{day.month}/{day.day}/{day.year}")
    if params.date_before is not None:
        day = params.date_before
        parts.append(f"cd_max:{day.month}/{day.day}/{day.year}")
    return ",".join(parts)


def search_params(params: SearchParams) -> list[tuple[str, str]]:
    """The query-string fields, in the reference's order.

    Example:
        >>> search_params(SearchParams(query="rust", recency="week", limit=5))
        [('q', 'rust'), ('num', '5'), ('hl', 'en'), ('gl', 'us'), ('udm', '14'), ('pws', '0'), \
('tbs', 'qdr:w')]
    """
    count = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
    language, country = _locale(params)
    fields = [
        ("q", query_text(params)),
        ("num", str(count)),
        ("hl", language),
        ("gl", country),
        ("udm", "14"),
        ("pws", "0"),
    ]
    tbs = _date_range(params) or (_RECENCY[params.recency] if params.recency else None)
    if tbs:
        fields.append(("tbs", tbs))
    return fields


def build_request(params: SearchParams) -> HttpRequest:
    """The plain GET (the query string is in the URL so the browser loads the same URL)."""
    url = f"{GOOGLE_SEARCH_URL}?{urlencode(search_params(params))}"
    return HttpRequest(method="GET", url=url, headers=navigation_headers(referer=GOOGLE_HOME_URL))


def block_reason(page: str, status: int, url: str = "") -> BlockReason | None:
    """Why a page is a block instead of results, or ``None`` (the reference's ``blockReason``).

    Example:
        >>> block_reason("<html>...</html>", 200, "https://www.google.com/sorry/index?x=1")
        'traffic'
    """
    has_results = "<h3" in page.lower()
    if status in (403, 429) or "/sorry/" in urlsplit(url).path:
        return "traffic"
    if not has_results:
        lowered = page.lower()
        if any(marker in lowered for marker in _TRAFFIC_TEXT):
            return "traffic"
        if "/httpservice/retry/enablejs" in lowered:
            return "javascript"
    return None


def check_page(response: HttpResponse) -> None:
    """Raise for a block page or an error status, in the reference's order."""
    page = response.text()
    reason = block_reason(page, response.status, response.url)
    if reason == "traffic":
        raise ChallengeError(INFO.id, TRAFFIC_MESSAGE)
    check_html_status(INFO, response)
    if reason == "javascript":
        raise ChallengeError(INFO.id, JAVASCRIPT_MESSAGE)


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


# The snippet and date are found by walking the result container's elements (30-60 of
# them) with the class tests memoised: Google's class-based CSS selectors normalise every
# element's class attribute in XPath, ~20 us per selector per container.


_NO_CLASSES: frozenset[str] = frozenset()


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
    """The container's elements in document order (itself first), with their class names."""
    return [
        (element, class_tokens(classes) if (classes := element.get("class")) else _NO_CLASSES)
        for element in container.iter(lxml.etree.Element)
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
        text = text_of(element).rstrip(" —-").strip()
        if text and any(character.isdigit() for character in text):
            return text
    return None


def _in_ad(h3: Element) -> bool:
    """Whether the heading sits in an ad block (``#tads``, ``#bottomads``, ``[data-text-ad]``)."""
    return any(
        ancestor.get("id") in _AD_IDS or ancestor.get("data-text-ad") is not None
        for ancestor in h3.iterancestors()
    )


def _source(h3: Element) -> SearchSource | None:
    if _in_ad(h3):
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


def _is_results_page(page: str, root: Element) -> bool:
    if _SERP_ELEMENT(root):
        return True
    return _NO_RESULTS_TEXT in page


def parse_page(page: str, limit: int = MAX_RESULTS) -> list[SearchSource]:
    """The organic results of a Google results page, de-duplicated, at most ``limit``.

    Args:
        page: The HTML (plain or rendered).
        limit: How many to keep.

    Raises:
        ResponseParseError: No result and nothing that looks like a results page.
    """
    root = parse_document(page)
    sources = collect_unique(root.iter("h3"), _source, limit)
    if not sources and not _is_results_page(page, root):
        raise ResponseParseError(INFO.id, UNRECOGNISED_MESSAGE, 502)
    return sources


def _is_block_page(response: HttpResponse) -> bool:
    return block_reason(response.text(), response.status, response.url) is not None


class GoogleProvider(HtmlEngineProvider):
    """Google's results page: always available, escalates to headless Chromium."""

    info = INFO
    engine = HtmlEngine(
        request=build_request,
        check=check_page,
        read=single_page(parse_page),
        escalation=Escalation(
            is_block_page=_is_block_page,
            headless=HeadlessOptions(
                home_url=GOOGLE_HOME_URL,
                ready_selector=READY_SELECTOR,
                ready_timeout_seconds=10.0,
                ready_after_error_status=False,
            ),
            failure=FAILURE,
        ),
    )
