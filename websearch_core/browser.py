"""Plain fetch with escalation to a shared headless Chromium (Playwright), for the scrapers.

Google, Ecosia and Mojeek first make a plain HTTP request with a desktop browser's
navigation headers. Only when that fails (a transport failure, a non-2xx status, or a 2xx
body the engine recognises as a challenge) is the same URL loaded in headless Chromium,
which runs the page's JavaScript, keeps cookies and can solve proof-of-work walls.

* :class:`HeadlessBrowser`: one Chromium, started lazily on first use by a single shared
  launch task (concurrent callers await the same launch, and one caller's cancellation does
  not abort it), shared by every call, closed by :meth:`HeadlessBrowser.aclose`. Each call
  gets a fresh browser context and page, so cookies never leak from one call to the next.
* :func:`browser_fetch`: the escalation decision and the headless flow (home page first to
  seed cookies, navigation, an optional hook such as a captcha solver, an optional wait for
  a result selector, retries), every step bounded by one deadline, the provider's timeout.
  The provider's base-URL override applies to the browser's navigations too.
* The ``browser`` extra: Playwright is imported only when a browser is actually started, so
  the core never needs it. It drives the system Chromium (Debian's ``chromium`` package,
  ``/usr/bin/chromium``); Playwright's own browser downloads are never used.

Configuration (environment, read per call):

* ``WEBSEARCH_CHROMIUM_PATH``: the Chromium executable. Unset: ``/usr/bin/chromium``, else
  the first of ``chromium``, ``chromium-browser``, ``google-chrome`` on ``PATH``.
* ``WEBSEARCH_BROWSER``: ``off`` (or ``0``/``false``/``no``) never escalates; the plain
  fetch's page is final, as with the reference's injected ``fetch`` in tests.
* Should :class:`~websearch_core.settings.Settings` grow ``browser: bool`` and
  ``chromium_path: str | None`` fields (same environment names), they are honoured too.

Which browser a call uses, first match wins:

1. the process-wide override set with :func:`set_default_browser` (tests, or applications
   that manage one browser themselves);
2. ``context.browser`` when the :class:`~websearch_core.providers.base.ProviderContext`
   carries one (the client's own browser, created lazily and closed with the client);
3. otherwise a browser started for this one call and closed when the call ends, so nothing
   is left running.

Without Playwright or Chromium, an escalation fails with a
:class:`BrowserUnavailableError` whose message names what to install; searches that the
plain fetch answers are unaffected.
"""

import asyncio
import contextlib
import logging
import os
import shutil
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlencode, urlsplit

from .errors import (
    ProviderNotConfiguredError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    ResponseTooLargeError,
    SearchProviderError,
    WebSearchError,
)
from .transport import HttpRequest, HttpResponse

if TYPE_CHECKING:
    from playwright.async_api import (
        Browser,
        BrowserContext,
        Page,
        Playwright,
        ProxySettings,
        Response,
        Route,
    )

    from .providers.base import ProviderContext

__all__ = [
    "BROWSER_ENV",
    "CHROMIUM_ARGS",
    "CHROMIUM_PATH_ENV",
    "DEFAULT_CHROMIUM_PATH",
    "INSTALL_HINT",
    "AfterNavigation",
    "BrowserNotAvailableError",
    "BrowserUnavailableError",
    "FailureTexts",
    "HeadlessBrowser",
    "HeadlessOptions",
    "browser_enabled",
    "browser_fetch",
    "chromium_path",
    "get_default_browser",
    "set_default_browser",
]

logger = logging.getLogger("websearch_core.browser")

CHROMIUM_PATH_ENV = "WEBSEARCH_CHROMIUM_PATH"
BROWSER_ENV = "WEBSEARCH_BROWSER"
DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium"
_PATH_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_OFF_VALUES = frozenset({"0", "off", "false", "no", "never", "disabled"})

CHROMIUM_ARGS: tuple[str, ...] = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--disable-blink-features=AutomationControlled",
)
"""Launch flags. Without the background-networking flags Chromium calls Google's update and
sync hosts on its own; ``AutomationControlled`` keeps ``navigator.webdriver`` false."""

INSTALL_HINT = (
    'Install it with: pip install "websearch-tools[browser]" and apt-get install chromium '
    f"(or set {CHROMIUM_PATH_ENV} to a Chromium executable)."
)
"""What to do when the browser is missing, quoted in every such error."""

PAGE_CLOSE_SECONDS = 5.0
"""A page's teardown has its own deadline, as in the reference."""
LAUNCH_TIMEOUT_SECONDS = 30.0
_BLOCKED_RESOURCES = frozenset({"image", "media", "font"})
_CONTENT_RETRIES = 3
_CAPTURE_RESERVE_SECONDS = 1.0


class BrowserNotAvailableError(WebSearchError):
    """Headless Chromium cannot be started here (Playwright or Chromium missing or broken).

    Args:
        reason: What is missing, e.g. ``no Chromium executable at /usr/bin/chromium``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(f"headless Chromium is not available: {reason}. {INSTALL_HINT}")
        self.reason = reason


class BrowserUnavailableError(ProviderNotConfiguredError):
    """A provider needed the headless browser and it could not be started (status 503).

    The message names what to install; the plain fetch's failure is kept in it too.
    """

    def __init__(self, provider: str, message: str, status: int | None = 503) -> None:
        super().__init__(provider, message, status)


def chromium_path() -> str:
    """The Chromium executable to launch: the environment's choice, else a system one."""
    configured = os.environ.get(CHROMIUM_PATH_ENV, "").strip()
    if configured:
        return configured
    if os.path.exists(DEFAULT_CHROMIUM_PATH):
        return DEFAULT_CHROMIUM_PATH
    for name in _PATH_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return DEFAULT_CHROMIUM_PATH


def browser_enabled(settings: object | None = None) -> bool:
    """Whether escalation to the headless browser is allowed.

    ``WEBSEARCH_BROWSER=off`` turns it off; so does a ``browser`` setting that is ``False``
    when the settings object has one.
    """
    if getattr(settings, "browser", True) is False:
        return False
    return os.environ.get(BROWSER_ENV, "").strip().lower() not in _OFF_VALUES


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0].strip() if text else type(error).__name__


def _user_agent(version: str) -> str:
    """A desktop Chrome user agent for this Chromium's version (no ``HeadlessChrome``)."""
    major = version.split(".", 1)[0] or "149"
    if sys.platform == "darwin":
        platform = "Macintosh; Intel Mac OS X 10_15_7"
    elif sys.platform.startswith("win"):
        platform = "Windows NT 10.0; Win64; x64"
    else:
        platform = "X11; Linux x86_64"
    return (
        f"Mozilla/5.0 ({platform}) AppleWebKit/537.36 (KHTML, like Gecko) "
        f"Chrome/{major}.0.0.0 Safari/537.36"
    )


@dataclass(slots=True)
class _Running:
    playwright: "Playwright"
    browser: "Browser"
    user_agent: str


class HeadlessBrowser:
    """One lazily started headless Chromium, shared by every call that needs it.

    Args:
        executable_path: The Chromium binary (default: :func:`chromium_path` at launch).
        args: Command-line flags for Chromium.
        launch_timeout: Seconds Chromium may take to start.
        proxy: An HTTP(S) proxy URL for the browser's traffic (credentials allowed).

    The browser belongs to the event loop that started it. :meth:`aclose` stops it; a later
    call starts a new one, so an instance can outlive several open/close cycles of a client.

    Example:
        >>> browser = HeadlessBrowser()  # nothing starts yet
        >>> async with browser.page() as page:  # doctest: +SKIP
        ...     await page.goto("http://127.0.0.1:8080/")
        >>> await browser.aclose()  # doctest: +SKIP
    """

    def __init__(
        self,
        executable_path: str | None = None,
        *,
        args: Sequence[str] = CHROMIUM_ARGS,
        launch_timeout: float = LAUNCH_TIMEOUT_SECONDS,
        proxy: str | None = None,
    ) -> None:
        self._executable_path = executable_path
        self._proxy = proxy
        self.args = tuple(args)
        self.launch_timeout = launch_timeout
        self._loop: asyncio.AbstractEventLoop | None = None
        self._launch: asyncio.Task[_Running] | None = None
        self._running: _Running | None = None

    def __repr__(self) -> str:
        state = "running" if self._running is not None else "idle"
        return f"HeadlessBrowser(executable_path={self.executable_path!r}, {state})"

    @property
    def executable_path(self) -> str:
        """The executable this instance launches."""
        return self._executable_path or chromium_path()

    @property
    def is_running(self) -> bool:
        """Whether a Chromium is currently up for this instance."""
        return self._running is not None and self._running.browser.is_connected()

    def is_usable_here(self) -> bool:
        """Whether this instance can serve the running event loop (idle, or started on it)."""
        return self._loop is None or self._loop is asyncio.get_running_loop()

    async def _ensure(self) -> _Running:
        loop = asyncio.get_running_loop()
        if self._loop is not None and self._loop is not loop:
            if not self._loop.is_closed():
                raise RuntimeError("this HeadlessBrowser was started on another event loop")
            self._forget()  # its loop is gone, and the browser with it
        running = self._running
        if running is not None:
            if running.browser.is_connected():
                return running
            logger.warning("headless Chromium disconnected; starting a new one")
            self._running = None
            self._launch = None
            with contextlib.suppress(Exception):
                await running.playwright.stop()
        task = self._launch
        if task is None:
            self._loop = loop
            task = loop.create_task(self._start(), name="websearch-chromium-launch")
            task.add_done_callback(_retrieve)
            self._launch = task
        try:
            running = await asyncio.shield(task)
        except BrowserNotAvailableError:
            if self._launch is task:
                self._launch = None  # the next call tries again (Chromium may appear)
            raise
        self._running = running
        return running

    def _forget(self) -> None:
        self._loop = None
        self._launch = None
        self._running = None

    async def _start(self) -> _Running:
        try:
            from playwright.async_api import async_playwright
        except ImportError:
            raise BrowserNotAvailableError(
                "the Python package playwright is not installed"
            ) from None
        path = self.executable_path
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise BrowserNotAvailableError(f"no Chromium executable at {path}")
        try:
            playwright = await async_playwright().start()
        except Exception as error:
            raise BrowserNotAvailableError(
                f"the Playwright driver did not start ({_first_line(error)})"
            ) from error
        try:
            browser = await playwright.chromium.launch(
                executable_path=path,
                args=list(self.args),
                proxy=_playwright_proxy(self._proxy) if self._proxy else None,
                headless=True,
                ignore_default_args=["--enable-automation"],
                timeout=self.launch_timeout * 1000,
                handle_sigint=False,
                handle_sigterm=False,
                handle_sighup=False,
            )
        except BaseException as error:
            with contextlib.suppress(Exception):
                await playwright.stop()
            if isinstance(error, Exception):
                raise BrowserNotAvailableError(
                    f"Chromium at {path} did not start ({_first_line(error)})"
                ) from error
            raise
        logger.info("started headless Chromium %s from %s", browser.version, path)
        return _Running(playwright, browser, _user_agent(browser.version))

    @contextlib.asynccontextmanager
    async def page(self) -> AsyncIterator["Page"]:
        """A new page in a fresh browser context (own cookies), closed on exit.

        The context is closed with its own deadline (:data:`PAGE_CLOSE_SECONDS`), also when
        the body was cancelled or timed out.

        Raises:
            BrowserNotAvailableError: Playwright or Chromium is missing or does not start.
        """
        running = await self._ensure()
        context = await running.browser.new_context(
            user_agent=running.user_agent,
            locale="en-US",
            viewport={"width": 1366, "height": 768},
        )
        try:
            await context.route("**/*", _route)
            page = await context.new_page()
            yield page
        finally:
            await _close_context(context)

    async def aclose(self) -> None:
        """Stop Chromium and the Playwright driver (idempotent; a later call starts anew)."""
        task, running, loop = self._launch, self._running, self._loop
        self._forget()
        if loop is None:
            return
        if loop is not asyncio.get_running_loop():
            logger.warning("HeadlessBrowser.aclose called from another event loop; not stopped")
            return
        if running is None and task is not None:
            if task.done():
                if not task.cancelled() and task.exception() is None:
                    running = task.result()
            else:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if running is None:
            return
        try:
            async with asyncio.timeout(PAGE_CLOSE_SECONDS):
                await running.browser.close()
        except Exception as error:
            logger.debug("closing Chromium failed: %s", _first_line(error))
        try:
            async with asyncio.timeout(PAGE_CLOSE_SECONDS):
                await running.playwright.stop()
        except Exception as error:
            logger.debug("stopping the Playwright driver failed: %s", _first_line(error))


def _retrieve(task: "asyncio.Task[Any]") -> None:
    """Mark a launch failure as seen, so no one is warned about an unread exception."""
    if not task.cancelled():
        task.exception()


async def _route(route: "Route") -> None:
    """Skip what a results page does not need (images, media, fonts, the favicon)."""
    try:
        request = route.request
        if request.resource_type in _BLOCKED_RESOURCES or request.url.endswith("/favicon.ico"):
            await route.abort()
        else:
            await route.fallback()
    except Exception as error:  # the page may close while a request is in flight
        logger.debug("route handler: %s", _first_line(error))


async def _close_context(context: "BrowserContext") -> None:
    try:
        async with asyncio.timeout(PAGE_CLOSE_SECONDS):
            await context.close()
    except Exception as error:
        logger.debug("closing a browser context failed: %s", _first_line(error))


_default_browser: HeadlessBrowser | None = None


def set_default_browser(browser: HeadlessBrowser | None) -> None:
    """Make ``browser`` the one every escalation in this process uses (``None`` clears it).

    The caller owns it and closes it; searches never do.
    """
    global _default_browser
    _default_browser = browser


def get_default_browser() -> HeadlessBrowser | None:
    """The process-wide browser set with :func:`set_default_browser`, if any."""
    return _default_browser


# --- the fetch ----------------------------------------------------------------------------------

AfterNavigation = Callable[["Page", float], Awaitable[None]]
"""A hook run after each navigation: ``(page, deadline)``, the deadline in loop time."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HeadlessOptions:
    """How the headless browser loads a page (the reference's ``browseHtmlPage`` options)."""

    home_url: str | None = None
    """Visited first to seed cookies (the base-URL override applies)."""
    ready_selector: str | None = None
    """Waited for after navigation; a timeout is ignored."""
    ready_timeout_seconds: float = 10.0
    ready_after_error_status: bool = True
    """Also wait for ``ready_selector`` after a non-2xx navigation (a Cloudflare challenge
    answers 403 and then reloads into the page); ``False`` captures such a page at once."""
    attempts: int = 1
    """Loads in total; another is made while the page still needs the browser."""
    retry_delay_seconds: float = 1.0
    after_navigation: AfterNavigation | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FailureTexts:
    """A provider's wording for failures of the fetch itself.

    ``failed`` has one ``{}`` for the detail (``Google browser search failed: {}``);
    ``timed_out`` is used as is.
    """

    failed: str
    timed_out: str


def _needs_browser(response: HttpResponse, should_fallback: Callable[[HttpResponse], bool]) -> bool:
    return not 200 <= response.status < 300 or should_fallback(response)


def _why(response: HttpResponse) -> str:
    if not 200 <= response.status < 300:
        return f"HTTP {response.status}"
    return "a challenge page"


def _resolve_browser(context: "ProviderContext") -> tuple[HeadlessBrowser, bool]:
    """The browser for this call and whether the call owns (and must close) it."""
    override = get_default_browser()
    if override is not None and override.is_usable_here():
        return override, False
    attached = getattr(context, "browser", None)
    if isinstance(attached, HeadlessBrowser) and attached.is_usable_here():
        return attached, False
    configured = getattr(context.settings, "chromium_path", None)
    return HeadlessBrowser(str(configured) if configured else None), True


async def browser_fetch(
    context: "ProviderContext",
    *,
    provider: str,
    label: str,
    request: HttpRequest,
    should_fallback: Callable[[HttpResponse], bool],
    headless: HeadlessOptions,
    failure: FailureTexts,
) -> HttpResponse:
    """Fetch ``request`` plainly; load it in headless Chromium when that is not enough.

    The decision (reference §7.2): a transport failure, a non-2xx status, or a 2xx page for
    which ``should_fallback`` is true escalates to the browser, unless escalation is off
    (:func:`browser_enabled`), in which case the plain page is returned as it is and a
    transport failure is raised. The browser's page is returned whatever it shows; the
    provider's own checks decide whether it is a challenge.

    Args:
        context: The call's context (transport, base-URL overrides, maybe a browser).
        provider: The provider id (errors, base-URL override).
        label: The provider's label (transport messages).
        request: The plain request; only GET requests can be replayed by the browser.
        should_fallback: Whether a 2xx page is a challenge the browser should retry.
        headless: How the browser loads the page.
        failure: The provider's wording for fetch failures and timeouts.

    Returns:
        The plain page, or the browser's (the rendered DOM with the status and headers of
        its last main-frame navigation). The whole call shares the transport's timeout.

    Raises:
        ProviderTimeoutError: The budget ran out (``failure.timed_out``, status 504).
        ProviderUnavailableError: The fetch or the browser failed (``failure.failed``, 503).
        BrowserUnavailableError: The browser was needed but cannot start; names what to
            install.
        ResponseTooLargeError: The plain body or the rendered page passed the size cap.
    """
    loop = asyncio.get_running_loop()
    budget = context.transport.timeout_seconds
    deadline = loop.time() + budget
    response: HttpResponse | None = None
    try:
        response = await context.transport.send(provider, label, request, timeout_seconds=budget)
    except ProviderTimeoutError:
        raise ProviderTimeoutError(provider, failure.timed_out, 504) from None
    except ProviderUnavailableError as error:
        if not browser_enabled(context.settings):
            raise type(error)(provider, failure.failed.format(error.message), 503) from None
        reason = error.message
    else:
        if not browser_enabled(context.settings) or not _needs_browser(response, should_fallback):
            return response
        reason = _why(response)
    if request.method.upper() != "GET":
        if response is not None:
            return response
        raise ProviderUnavailableError(provider, failure.failed.format(reason), 503)
    logger.info("%s: escalating to headless Chromium (%s)", provider, reason)
    page = await _browse_with_deadline(
        context,
        provider=provider,
        url=_full_url(context.transport.resolve_url(provider, request.url), request.params),
        headless=headless,
        should_fallback=should_fallback,
        failure=failure,
        deadline=deadline,
        reason=reason,
    )
    cap = context.transport.max_response_bytes
    if len(page.body) > cap:
        raise ResponseTooLargeError(provider, f"{label} rendered page exceeded {cap} bytes", 500)
    return page


def _full_url(url: str, params: Sequence[tuple[str, str]]) -> str:
    if not params:
        return url
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}{urlencode(list(params))}"


async def _browse_with_deadline(
    context: "ProviderContext",
    *,
    provider: str,
    url: str,
    headless: HeadlessOptions,
    should_fallback: Callable[[HttpResponse], bool],
    failure: FailureTexts,
    deadline: float,
    reason: str,
) -> HttpResponse:
    loop = asyncio.get_running_loop()
    remaining = deadline - loop.time()
    if remaining <= 0:
        raise ProviderTimeoutError(provider, failure.timed_out, 504)
    browser, owned = _resolve_browser(context)
    try:
        async with asyncio.timeout(remaining):
            return await _browse(
                browser,
                url=url,
                home_url=(
                    context.transport.resolve_url(provider, headless.home_url)
                    if headless.home_url
                    else None
                ),
                headless=headless,
                should_fallback=should_fallback,
                deadline=deadline,
            )
    except BrowserNotAvailableError as error:
        raise BrowserUnavailableError(
            provider,
            failure.failed.format(
                f"the plain fetch got {reason} and headless Chromium is not available "
                f"({error.reason}). {INSTALL_HINT}"
            ),
        ) from None
    except TimeoutError:
        raise ProviderTimeoutError(provider, failure.timed_out, 504) from None
    except SearchProviderError:
        raise
    except Exception as error:  # Playwright's errors; it is imported lazily
        if _is_playwright_timeout(error) and loop.time() >= deadline - 0.05:
            raise ProviderTimeoutError(provider, failure.timed_out, 504) from None
        raise ProviderUnavailableError(
            provider, failure.failed.format(_first_line(error)), 503
        ) from error
    finally:
        if owned:
            await browser.aclose()


def _is_playwright_timeout(error: BaseException) -> bool:
    kind = type(error)
    return kind.__name__ == "TimeoutError" and kind.__module__.startswith("playwright")


def _ms(deadline: float, cap: float | None = None) -> float:
    remaining = deadline - asyncio.get_running_loop().time()
    if cap is not None:
        remaining = min(remaining, cap)
    return max(1.0, remaining * 1000)


class _NavigationLog:
    """The main frame's navigation responses, so a hook's navigations are seen too."""

    def __init__(self, page: "Page") -> None:
        self._page = page
        self.responses: list[Response] = []
        page.on("response", self._record)

    def _record(self, response: "Response") -> None:
        try:
            if response.frame is self._page.main_frame and response.request.is_navigation_request():
                self.responses.append(response)
        except Exception as error:  # a frame detached mid-navigation
            logger.debug("navigation tracking: %s", _first_line(error))

    def last(self, fallback: "Response | None") -> "Response | None":
        return self.responses[-1] if self.responses else fallback


async def _visit_home(page: "Page", home_url: str, deadline: float) -> None:
    """Seed cookies from the home page; anything but running out of time is not fatal."""
    try:
        await page.goto(home_url, wait_until="domcontentloaded", timeout=_ms(deadline))
    except Exception as error:
        if _is_playwright_timeout(error):
            raise
        logger.info("home page %s did not load: %s", home_url, _first_line(error))


async def _wait_ready(
    page: "Page", headless: HeadlessOptions, deadline: float, status: int | None
) -> None:
    """Wait for the ready selector, leaving part of the budget to capture the page."""
    if not headless.ready_selector:
        return
    if status is not None and not 200 <= status < 300 and not headless.ready_after_error_status:
        return
    remaining = deadline - asyncio.get_running_loop().time()
    reserve = min(_CAPTURE_RESERVE_SECONDS, remaining / 4)
    wait = min(headless.ready_timeout_seconds, remaining - reserve)
    if wait <= 0:
        return
    try:
        await page.wait_for_selector(headless.ready_selector, timeout=wait * 1000)
    except Exception as error:
        if not _is_playwright_timeout(error):
            raise


async def _browse(
    browser: HeadlessBrowser,
    *,
    url: str,
    home_url: str | None,
    headless: HeadlessOptions,
    should_fallback: Callable[[HttpResponse], bool],
    deadline: float,
) -> HttpResponse:
    """The reference's headless flow (§7.3), inside the caller's deadline."""
    async with browser.page() as page:
        log = _NavigationLog(page)
        if home_url:
            await _visit_home(page, home_url, deadline)
        loaded: HttpResponse | None = None
        for attempt in range(max(1, headless.attempts)):
            if attempt:
                remaining = deadline - asyncio.get_running_loop().time()
                await asyncio.sleep(max(0.0, min(headless.retry_delay_seconds, remaining)))
            log.responses.clear()
            navigation = await page.goto(url, wait_until="domcontentloaded", timeout=_ms(deadline))
            if headless.after_navigation is not None:
                await headless.after_navigation(page, deadline)
            last = log.last(navigation)
            await _wait_ready(page, headless, deadline, last.status if last else None)
            loaded = await _capture(page, log.last(navigation))
            if not should_fallback(loaded):
                break
        assert loaded is not None
        return loaded


async def _capture(page: "Page", response: "Response | None") -> HttpResponse:
    """The rendered DOM with the status and headers of the last main-frame navigation."""
    html = ""
    for attempt in range(_CONTENT_RETRIES):
        try:
            html = await page.content()
            break
        except Exception as error:  # "the page is navigating": wait for it, then read again
            if _is_playwright_timeout(error) or attempt == _CONTENT_RETRIES - 1:
                raise
            await page.wait_for_load_state("domcontentloaded")
    status = response.status if response is not None else 200
    headers: dict[str, str] = {}
    if response is not None:
        with contextlib.suppress(Exception):
            headers = await response.all_headers()
    return HttpResponse(status=status, body=html.encode("utf-8"), headers=headers, url=page.url)


def _playwright_proxy(url: str) -> "ProxySettings":
    """Playwright's proxy settings: credentials go in their own fields, not the URL."""
    parts = urlsplit(url)
    server = f"{parts.scheme}://{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    settings: ProxySettings = {"server": server}
    if parts.username:
        settings["username"] = unquote(parts.username)
    if parts.password:
        settings["password"] = unquote(parts.password)
    return settings
