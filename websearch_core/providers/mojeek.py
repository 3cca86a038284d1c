"""Mojeek: an independent index; plain fetch first, headless Chromium solves its ALTCHA wall.

* **Service:** Mojeek's HTML search, its own crawler and index (no Google or Bing behind
  it), no key needed. Scripted traffic gets an ALTCHA proof-of-work page or a 403 "sending
  automated queries" wall; the proof of work is solved in headless Chromium
  (:mod:`websearch_core.browser`).
* **Endpoint:** ``GET https://www.mojeek.de/search?q=<query>&t=<N>&arc=none&lang=en&lb=en
  &theme=dark[&since=day|month|year|YYYYMMDD]`` with the fixed desktop Chrome navigation profile
  and ``Referer: https://www.mojeek.de/?arc=none&lang=en&lb=en&theme=dark``.
* **Browser fallback:** a transport failure, a non-2xx status or a robot page (below) loads
  the URL in headless Chromium, the home (referer) URL first, in up to two attempts a second
  apart. After each navigation, unless ``ul.results-standard li`` is already there, the
  ALTCHA widget's checkbox (``altcha-widget input[type=checkbox]``) is clicked, which runs
  the proof of work in the page and submits it; then the next navigation and the results
  (up to 45 s each, within the call's timeout) are waited for.
* **Auth and env vars:** none. ``WEBSEARCH_MOJEEK_BASE_URL`` redirects both the plain fetch
  and the browser; ``WEBSEARCH_CHROMIUM_PATH`` and ``WEBSEARCH_BROWSER`` configure the
  browser.
* **Limits:** ``N = num_search_results or limit``, default 10, at most 20 (sent as ``t``).
* **Robot page** (checked before the status): ``altcha-widget`` or ``captcha-wrap`` markup,
  or "sending automated queries", on a page without ``results-standard``. This covers the
  ALTCHA page (HTTP 200) and the automated-queries page (HTTP 403): ``Mojeek blocked the
  request with its automated-queries wall. Mojeek rate-limits scripted searches from
  datacenter/shared-egress IPs; retry later or configure another provider such as Brave,
  Tavily, Exa, or Kagi.`` (429). Other non-2xx: the shared classifier, else
  ``Mojeek HTML error (<status>)``. Fetch and browser failures: ``Mojeek search failed:
  <detail>`` (503) or ``Mojeek search timed out.`` (504).
* **Parsing:** :mod:`._mojeek_parse` (result rows, Mojeek links dropped, the results column
  or "No pages found" as a genuine empty answer).

Differences from the reference (§8.22) and deliberate choices:

* The captured ALTCHA page (2026) has no ``altcha-widget`` element in its HTML: the widget is
  inserted by ``/js/page_specific/altcha.js``. The robot check matches it by its
  ``captcha-wrap`` container, and the browser hook waits (up to 10 s) for the widget's
  checkbox to appear before clicking it, instead of expecting it right after
  ``domcontentloaded``. A robot page with no ALTCHA on it (the 403 wall) is not waited on.
* A hook step that runs out of its own wait does not abort the load: the page is captured
  as it is, so a wall that stays up ends as the robot-page error above (after the second
  attempt) rather than as a browser timeout.
* ``recency=week`` is sent as ``since=<the date seven days before today, UTC, YYYYMMDD>``:
  Mojeek documents ``since`` as ``'day'|'month'|'year'|YYYYMMDD``
  (https://www.mojeek.com/support/api/search/request_parameters.html), so the reference's
  verbatim ``since=week`` asked for a timespan Mojeek does not take.
* ``Accept-Encoding`` is left to aiohttp (the reference's fixed profile sends
  ``br, zstd``, which would need decoders we may not have).

What is known of ``t`` (looked up 2026-12):

* Mojeek's API documentation
  (https://www.mojeek.com/support/api/search/request_parameters.html, the ``/search`` path
  with an ``api_key``) documents ``t`` as an integer: "Maximum number of results to return,
  i.e. results per page. Default = 10"; ``s`` is the 1-based first result.
* Nothing found documents ``t`` for the keyless HTML page this provider reads. SearXNG's
  Mojeek engine (``searx/engines/mojeek.py``, HTML) sends no ``t``: it pages with
  ``s = 10 * (page - 1)``, taking ten results a page.

So ``t`` is documented for the API and unverified on the HTML page.

Docs: https://www.mojeek.com/support/search/
"""

import asyncio
import logging
import re
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from ..browser import HeadlessOptions
from ..errors import ChallengeError
from ..filters import FilterSupport
from ..html import (
    navigation_headers,
)
from ..models import SearchParams
from ..transport import HttpRequest, HttpResponse
from ._engine_failures import engine_failure_texts
from ._escalation import Escalation
from ._html_engine import HtmlEngine, HtmlEngineProvider, single_page
from ._scraper import check_html_status
from .base import ProviderInfo, clamp_count

if TYPE_CHECKING:
    from playwright.async_api import Page
from ._mojeek_parse import (
    MAX_RESULTS,
    MOJEEK_HOME_URL,
    PROVIDER_ID,
    UNRECOGNISED_MESSAGE,
    is_robot_page,
    parse_page,
)

__all__ = [
    "INFO",
    "MOJEEK_HOME_URL",
    "MOJEEK_SEARCH_URL",
    "ROBOT_MESSAGE",
    "UNRECOGNISED_MESSAGE",
    "MojeekProvider",
    "build_request",
    "check_page",
    "is_robot_page",
    "parse_page",
    "search_params",
    "since",
    "solve_altcha",
]

logger = logging.getLogger("websearch_core.providers.mojeek")

MOJEEK_SEARCH_URL = "https://www.mojeek.de/search"
DEFAULT_RESULTS = 10
RESULTS_SELECTOR = "ul.results-standard li"
CHECKBOX_SELECTOR = "altcha-widget input[type=checkbox]"
WIDGET_WAIT_SECONDS = 10.0
SOLVE_WAIT_SECONDS = 45.0
CAPTURE_RESERVE_SECONDS = 1.0

ROBOT_MESSAGE = (
    "Mojeek blocked the request with its automated-queries wall. Mojeek rate-limits scripted "
    "searches from datacenter/shared-egress IPs; retry later or configure another provider "
    "such as Brave, Tavily, Exa, or Kagi."
)
FAILURE = engine_failure_texts("Mojeek")

INFO = ProviderInfo(
    id=PROVIDER_ID,
    label="Mojeek",
    kind="scraper",
    description=(
        "No key needed: Mojeek's independent index, escalating to headless Chromium to solve "
        "its ALTCHA proof-of-work wall"
    ),
    docs_url="https://www.mojeek.com/support/search/",
    honours=frozenset({"query", "recency", "limit", "num_search_results"}),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="mojeek",
    filters=FilterSupport(
        native=frozenset({"recency"}),
        query=frozenset({"include_domains", "exclude_domains", "phrase", "exclude_terms"}),
        # The reference's formatScraperQuery sends a wanted inurl: to Mojeek as a word.
        demoted=frozenset({"in_url"}),
        reads_or=False,  # not among its reference flags: an OR group goes flat
    ),
)

_ALTCHA = re.compile(r"altcha|captcha-wrap", re.IGNORECASE)
_SINCE_WORDS = frozenset({"day", "month", "year"})
"""The timespans Mojeek's ``since`` takes as words; any other is sent as a date."""
_RECENCY_DAYS = {"week": 7}


def since(recency: str, today: date) -> str:
    """Mojeek's ``since`` for a recency: its own word, or the first day of the week asked for.

    Example:
        >>> since("month", date(2026, 12, 3)), since("week", date(2026, 12, 3))
        ('month', '20261126')
    """
    if recency in _SINCE_WORDS:
        return recency
    return (today - timedelta(days=_RECENCY_DAYS[recency])).strftime("%Y%m%d")


def search_params(params: SearchParams, today: date | None = None) -> list[tuple[str, str]]:
    """The query-string fields, in the reference's order.

    Args:
        params: The search.
        today: The UTC date a ``week`` counts back from (default: now).

    Example:
        >>> search_params(SearchParams(query="rust", recency="month"))
        [('q', 'rust'), ('t', '10'), ('arc', 'none'), ('lang', 'en'), ('lb', 'en'), \
('theme', 'dark'), ('since', 'month')]
    """
    count = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
    fields = [
        ("q", params.query),
        ("t", str(count)),
        ("arc", "none"),
        ("lang", "en"),
        ("lb", "en"),
        ("theme", "dark"),
    ]
    if params.recency is not None:
        fields.append(("since", since(params.recency, today or datetime.now(UTC).date())))
    return fields


def build_request(params: SearchParams) -> HttpRequest:
    """The plain GET; the query string is in the URL so the browser loads the same URL."""
    url = f"{MOJEEK_SEARCH_URL}?{urlencode(search_params(params))}"
    return HttpRequest(method="GET", url=url, headers=navigation_headers(referer=MOJEEK_HOME_URL))


def check_page(response: HttpResponse) -> None:
    """Raise for a robot page, then for any other non-2xx status."""
    if is_robot_page(response.body):
        raise ChallengeError(INFO.id, ROBOT_MESSAGE)
    check_html_status(INFO, response)


def _remaining(deadline: float, cap: float) -> float:
    """Milliseconds to wait: ``cap`` seconds, ending early enough to capture the page."""
    left = deadline - asyncio.get_running_loop().time()
    left -= min(CAPTURE_RESERVE_SECONDS, left / 4)
    return max(1.0, min(cap, left) * 1000)


async def solve_altcha(page: "Page", deadline: float) -> None:
    """The browser hook: click the ALTCHA checkbox and wait for the results it unlocks.

    Nothing happens when results are already there or the page is no ALTCHA page. A wait
    that runs out is not an error; the caller captures the page as it is.

    Args:
        page: The Playwright page, just navigated.
        deadline: The call's deadline in event-loop time.
    """
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import TimeoutError as PlaywrightTimeoutError

    try:
        if await page.query_selector(RESULTS_SELECTOR) is not None:
            return
        content = await page.content()
        if not is_robot_page(content) or not _ALTCHA.search(content):
            return  # no wall, or a wall with nothing to solve (the 403 page)
    except PlaywrightError as error:  # the page navigated on its own meanwhile
        logger.info("mojeek: page changed before the ALTCHA check: %s", error.message)
        return
    checkbox = page.locator(CHECKBOX_SELECTOR).first
    try:
        await checkbox.wait_for(state="visible", timeout=_remaining(deadline, WIDGET_WAIT_SECONDS))
    except PlaywrightTimeoutError:
        logger.info("mojeek: no ALTCHA widget appeared")
        return
    try:
        async with page.expect_navigation(
            wait_until="domcontentloaded", timeout=_remaining(deadline, SOLVE_WAIT_SECONDS)
        ):
            await checkbox.click(timeout=_remaining(deadline, WIDGET_WAIT_SECONDS))
        await page.wait_for_selector(
            RESULTS_SELECTOR, timeout=_remaining(deadline, SOLVE_WAIT_SECONDS)
        )
    except PlaywrightTimeoutError:
        logger.info("mojeek: the ALTCHA wall did not let us through in time")


def _is_block_page(response: HttpResponse) -> bool:
    return is_robot_page(response.body)


class MojeekProvider(HtmlEngineProvider):
    """Mojeek's results page: always available, solves ALTCHA in headless Chromium."""

    info = INFO
    engine = HtmlEngine(
        request=build_request,
        check=check_page,
        read=single_page(parse_page),
        escalation=Escalation(
            is_block_page=_is_block_page,
            headless=HeadlessOptions(
                home_url=MOJEEK_HOME_URL,
                attempts=2,
                retry_delay_seconds=1.0,
                after_navigation=solve_altcha,
            ),
            failure=FAILURE,
        ),
    )
