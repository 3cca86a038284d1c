"""When an HTML engine's plain fetch is not enough, and how its URL is then fetched headless.

The request loop makes the plain fetch; the headless browser
(:class:`~websearch_core.browser.HeadlessBrowser`) is a fetcher that knows nothing of
providers. What lies between them is provider policy and lives here:

* the decision (reference §7.2): a transport failure, a non-2xx status, or a 2xx page the
  engine recognises as a block page escalates, unless escalation is off
  (:func:`~websearch_core.browser.browser_enabled`) or the request is not a GET (a browser
  can only load a URL); a plain timeout does not (the budget is spent);
* which browser a call uses: the process-wide one
  (:func:`~websearch_core.browser.set_default_browser`), else the client's
  (``context.browser``), else one started for this call and closed with it;
* the time: what is left of the provider's timeout since the plain fetch began, never more
  than the attempt's budget (:func:`~websearch_core.deadline.remaining_budget`); the
  browser stops its load a little before that to close the page
  (:func:`~websearch_core.browser.teardown_reserve`), so the attempt's hard stop never cuts
  the close short and the engine's own timeout text is the one given;
* the wording (:mod:`._engine_failures`): the browser's own errors become the engine's
  ``<Label> ... failed: <detail>`` (503), ``... timed out.`` (504), or
  :class:`~websearch_core.browser.BrowserUnavailableError` naming what to install.

The module is private (leading underscore), so the registry's contract test does not read
it as a provider.
"""

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final
from urllib.parse import urlencode

from ..browser import (
    BROWSER_ENV,
    INSTALL_HINT,
    BrowsedPage,
    BrowserFetchError,
    BrowserNotAvailableError,
    BrowserTimeoutError,
    BrowserUnavailableError,
    HeadlessBrowser,
    HeadlessOptions,
    browser_enabled,
    browser_unavailable_reason,
    get_default_browser,
)
from ..deadline import remaining_budget
from ..env_values import env_value
from ..errors import (
    UNREACHED_ERRORS,
    BrowserLoadError,
    HostNotReachedError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    ResponseTooLargeError,
    SearchProviderError,
)
from ..transport import HttpRequest, HttpResponse, too_large_message
from ._engine_failures import FailureTexts, reworded, without_label
from .base import ProviderContext, ProviderInfo

__all__ = [
    "TIMED_OUT_STATUS",
    "Escalation",
    "FailureTexts",
    "NeedsBrowser",
    "escalate_after_failure",
    "escalate_after_response",
    "fetch_in_browser",
]

logger = logging.getLogger("websearch_core.providers.escalation")

TIMED_OUT_STATUS: Final = 504
"""The reference's status of a browser engine's timeout (``Ecosia search timed out.``),
whichever stop ended it: the plain fetch's, the browser's, or the attempt's hard stop."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Escalation:
    """That an engine escalates to headless Chromium, and how, as data."""

    is_block_page: Callable[[HttpResponse], bool]
    """Whether a page (plain or rendered) is a block page the browser should (re)try."""
    headless: HeadlessOptions
    """How the browser loads the page (home page, ready selector, attempts, a hook)."""
    failure: FailureTexts


class NeedsBrowser(Exception):
    """Raised by an engine's hooks: the plain exchange ends, the same URL goes headless.

    Args:
        request: The plain request whose URL the browser loads.
        reason: Why (``HTTP 403``, ``a challenge page``, the transport failure's text).
        started: ``time.monotonic()`` when the plain fetch began; the browser gets the rest
            of the provider's timeout.
        plain_failure: The plain fetch's failure in transport as the engine's text says it,
            without the engine's name (``the connection failed (...): ...``); ``None`` when
            it got a page. A missing browser is said after it, as one sentence.
    """

    def __init__(
        self,
        request: HttpRequest,
        reason: str,
        started: float,
        *,
        plain_failure: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.request = request
        self.reason = reason
        self.started = started
        self.plain_failure = plain_failure


def escalate_after_failure(
    info: ProviderInfo,
    escalation: Escalation,
    context: ProviderContext,
    request: HttpRequest,
    error: SearchProviderError,
    started: float,
) -> None:
    """Decide after the plain fetch failed in transport; returns only for other errors.

    Raises:
        ProviderTimeoutError: The plain fetch timed out (``failure.timed_out``, 504).
        ProviderUnavailableError: It failed and the browser is not started
            (``failure.failed``, 503; the detail ends saying why it was not).
        NeedsBrowser: It failed and the browser may load the URL.
    """
    failure = escalation.failure
    if isinstance(error, ProviderTimeoutError):
        raise ProviderTimeoutError(info.id, failure.timed_out, TIMED_OUT_STATUS) from None
    if not isinstance(error, ProviderUnavailableError):
        return
    not_started = _why_not_started(info, context, request, error)
    if not_started is not None:
        said = without_label(error.message, info.label)
        detail = f"{said}{not_started}" if failure.names_browser else said
        raise reworded(error, failure, detail, 503) from None
    plain_failure = without_label(error.message, info.label)
    raise NeedsBrowser(request, error.message, started, plain_failure=plain_failure)


def _why_not_started(
    info: ProviderInfo, context: ProviderContext, request: HttpRequest, error: SearchProviderError
) -> str | None:
    """Why a failed plain fetch is not taken to the browser, as a clause, else ``None``.

    An engine whose fixed prefix names the browser (:attr:`FailureTexts.names_browser`)
    ends the detail with it: otherwise a newcomer offline, or with the browser switched off,
    reads that Chromium ran and failed. A host this machine cannot reach (a name that does
    not resolve, a refused connection, no route) comes first: the browser could not reach
    it either, so the switch is not what to change.
    """
    if isinstance(error, HostNotReachedError):  # unresolved, refused or without a route
        if _browser_missing(context) is not None:
            return ", and headless Chromium is not installed"
        return ", so headless Chromium was not tried"
    if not browser_enabled(context.settings):
        return _switched_off(info, context)
    if request.method.upper() != "GET":
        return ", and headless Chromium was not started: it loads only GET requests"
    return None


def _switched_off(info: ProviderInfo, context: ProviderContext) -> str:
    """The clause for a browser switched off: what turns it off, and what would let it run.

    Unsetting the switch is enough only where Chromium is installed; where it is not, the
    clause said to unset it all the same, which only led to the next failure. Then it says
    what is missing and what to install first (:data:`~websearch_core.browser.INSTALL_HINT`).
    """
    value = env_value(BROWSER_ENV)
    switch = f"{BROWSER_ENV}={value.strip()}" if value else "the settings"
    not_started = f", and headless Chromium was not started: {switch} turns it off"
    let = f"unset {BROWSER_ENV} to let {info.label} load the page in it"
    missing = _browser_missing(context)
    if missing is None:
        return f"{not_started} ({let})"
    install = INSTALL_HINT.removesuffix(".")
    return f"{not_started}, and it is not installed ({missing}). {install}, then {let}"


def _browser_missing(context: ProviderContext) -> str | None:
    """Why the browser this call would use cannot start here, else ``None``.

    The same choice as :func:`_browser_for` (the process-wide browser, the client's, else
    the settings' or the system's Chromium), checked without starting anything
    (:func:`~websearch_core.browser.browser_unavailable_reason`): a failure that never
    reached the browser must not say it "was not tried" where it is not installed.
    """
    for browser in (get_default_browser(), context.browser):
        if browser is not None and browser.is_usable_here():
            if browser.is_running:
                return None
            return browser_unavailable_reason(browser.executable_path)
    configured = getattr(context.settings, "chromium_path", None)
    return browser_unavailable_reason(str(configured) if configured else None)


def escalate_after_response(
    escalation: Escalation,
    context: ProviderContext,
    request: HttpRequest,
    response: HttpResponse,
    started: float,
) -> None:
    """Decide after the plain fetch got a response: raise :class:`NeedsBrowser` or return.

    An error status or a block page escalates; a good page, a non-GET request, or a
    disabled browser keeps the plain page for the engine's own checks.
    """
    ok = 200 <= response.status < 300
    if ok and not escalation.is_block_page(response):
        return
    if not browser_enabled(context.settings) or request.method.upper() != "GET":
        return
    raise NeedsBrowser(request, "a challenge page" if ok else f"HTTP {response.status}", started)


async def fetch_in_browser(
    info: ProviderInfo, escalation: Escalation, context: ProviderContext, needed: NeedsBrowser
) -> HttpResponse:
    """Load the plain request's URL headless and return the page as a response.

    Returns:
        The rendered DOM with the status of its last main-frame navigation and its final
        URL, for the engine's checks and parser.

    Raises:
        ProviderTimeoutError: No time left, or the load ran out of it (504).
        BrowserLoadError: The browser failed to load the page (503, not a server's).
        BrowserUnavailableError: Chromium or Playwright is missing; names what to install.
        ResponseTooLargeError: The rendered page passed the size cap.
    """
    failure = escalation.failure
    transport = context.transport
    elapsed = time.monotonic() - needed.started
    timeout = remaining_budget(transport.default_timeout_seconds - elapsed)
    if timeout <= 0:
        raise ProviderTimeoutError(info.id, failure.timed_out, TIMED_OUT_STATUS)
    request = needed.request
    url = _full_url(transport.resolve_url(info.id, request.url), request.params)
    headless = escalation.headless
    home_url = headless.home_url
    options = replace(
        headless,
        home_url=transport.resolve_url(info.id, home_url) if home_url else None,
        retry_while=lambda page: escalation.is_block_page(_as_response(page)),
    )
    logger.info("%s: escalating to headless Chromium (%s)", info.id, needed.reason)
    browser, owned = _browser_for(context)
    try:
        page = await browser.fetch(url, timeout=timeout, options=options)
    except BrowserNotAvailableError as error:
        detail = _without_browser(needed, error.reason)
        raise BrowserUnavailableError(info.id, failure.failed.format(detail)) from None
    except BrowserTimeoutError:
        raise ProviderTimeoutError(info.id, failure.timed_out, TIMED_OUT_STATUS) from None
    except BrowserFetchError as error:
        raise _load_failure(info.id, failure.failed.format(error.reason), error) from None
    finally:
        if owned:
            await browser.aclose()
    response = _as_response(page)
    cap = transport.max_response_bytes
    if len(response.body) > cap:
        message = too_large_message(info.label, f"rendered {info.response_name}", cap)
        raise ResponseTooLargeError(info.id, message, 500)
    return response


def _without_browser(needed: NeedsBrowser, missing: str) -> str:
    """The detail for a plain fetch that needed the browser where it cannot start.

    A page the engine refused is what the plain fetch got (``the plain fetch got HTTP 429
    and ...``); a failure in transport is said as the engine says it when the browser is
    not tried, the browser after it: it read ``the plain fetch got Google connection
    failed (...) and ...``, the engine named twice.
    """
    unavailable = f"headless Chromium is not available ({missing}). {INSTALL_HINT}"
    if needed.plain_failure is not None:
        return f"{needed.plain_failure}, and {unavailable}"
    return f"the plain fetch got {needed.reason} and {unavailable}"


def _load_failure(provider: str, message: str, error: BrowserFetchError) -> SearchProviderError:
    """The engine's error for a headless load that failed: classed as aiohttp's would be.

    Chromium refused, unresolved, without a route or a network, or its proxy not reached,
    reached no host, as the same failures of a plain fetch: the matching
    :class:`~websearch_core.errors.HostNotReachedError` (before, a
    :class:`~websearch_core.errors.BrowserLoadError`, which every search counted at once and
    never read as this machine offline). The plain fetch before it was sent, so the request
    still counts as used (``request_sent``). A refusal at a loopback address is marked so
    (``loopback``), as the transport marks its own, for the hint that nothing listens
    there. Anything else is a :class:`BrowserLoadError`.
    """
    if error.unreached is None:
        return BrowserLoadError(provider, message)
    if error.loopback:  # marked only for a "connect" failure, as the transport marks it
        return HostNotReachedError(provider, message, 503, request_sent=True, loopback=True)
    return UNREACHED_ERRORS[error.unreached](provider, message, 503, request_sent=True)


def _as_response(page: BrowsedPage) -> HttpResponse:
    return HttpResponse(status=page.status, body=page.html.encode("utf-8"), url=page.final_url)


def _full_url(url: str, params: Sequence[tuple[str, str]]) -> str:
    if not params:
        return url
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}{urlencode(list(params))}"


def _browser_for(context: ProviderContext) -> tuple[HeadlessBrowser, bool]:
    """The browser for this call and whether the call owns (and must close) it."""
    shared = get_default_browser()
    if shared is not None and shared.is_usable_here():
        return shared, False
    attached = context.browser
    if attached is not None and attached.is_usable_here():
        return attached, False
    configured = getattr(context.settings, "chromium_path", None)
    return HeadlessBrowser(str(configured) if configured else None), True
