"""A shared headless Chromium (Playwright) that fetches pages: it knows nothing of providers.

The HTML engines first fetch plainly through the core's request loop; when an engine says
so, its provider asks this browser for the same URL (the escalation decision, the wording
of failures and the time budget belong to the provider layer,
:mod:`websearch_core.providers._escalation`). Page fetching of
:mod:`websearch_core.content` uses the same browser.

* :class:`HeadlessBrowser`: one Chromium, started lazily on first use by a single shared
  launch task (concurrent callers await the same launch, and one caller's cancellation does
  not abort it), shared by every call, closed by :meth:`HeadlessBrowser.aclose`. Each call
  gets a fresh browser context and page, so cookies never leak from one call to the next.
* :meth:`HeadlessBrowser.fetch`: ``(status, html, final_url)`` of a URL, loaded by plain
  :class:`HeadlessOptions` (home page first to seed cookies, an optional hook such as a
  captcha solver, an optional wait for a ready selector, retries), all within one timeout.
  It raises its own errors (:class:`BrowserNotAvailableError`, :class:`BrowserFetchError`,
  :class:`BrowserTimeoutError`); callers map them to their own.
* The ``browser`` extra: Playwright is imported only when a browser is actually started, so
  the core never needs it. It drives the system Chromium (Debian's ``chromium`` package,
  ``/usr/bin/chromium``); Playwright's own browser downloads are never used.

Configuration (environment, read per call):

* ``WEBSEARCH_CHROMIUM_PATH``: the Chromium executable. Unset: ``/usr/bin/chromium``, else
  the first of ``chromium``, ``chromium-browser``, ``google-chrome`` on ``PATH``.
* ``WEBSEARCH_BROWSER``: ``off`` (or ``0``/``false``/``no``) never escalates; the plain
  fetch's page is final, as with the reference's injected ``fetch`` in tests
  (:func:`browser_enabled`).
* Should :class:`~websearch_core.settings.Settings` grow ``browser: bool`` and
  ``chromium_path: str | None`` fields (same environment names), they are honoured too.

A process-wide browser can be set with :func:`set_default_browser` (tests, or applications
that manage one browser themselves); callers prefer it to their own.

Without Playwright or Chromium, a fetch fails with :class:`BrowserNotAvailableError`, whose
message names what to install; a provider reports it as :class:`BrowserUnavailableError`.

No private attribute of Playwright is read. One behaviour rests on Chromium rather than on
Playwright's documented API: a context proxy's bypass list of ``<-loopback>`` (Chromium's
rule that takes loopback out of the implicit bypass) makes loopback and link-local pages go
through that proxy too, so the page fetcher's address-checking proxy sees them (checked on
Playwright 1.65.2 with Chromium 156; ``tests/content/test_fetch_browser.py`` fails if a
release reaches 127.0.0.2 past it).
"""

import asyncio
import contextlib
import importlib.util
import logging
import os
import shutil
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import unquote, urlsplit

from .connection_causes import navigation_at_loopback, navigation_cause, navigation_unreached
from .env_values import env_value
from .errors import ProviderNotConfiguredError, WebSearchError

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

__all__ = [
    "BROWSER_ENV",
    "CHROMIUM_ARGS",
    "CHROMIUM_PATH_ENV",
    "DEFAULT_CHROMIUM_PATH",
    "INSTALL_HINT",
    "PLAYWRIGHT_MISSING",
    "TEARDOWN_RESERVE_SECONDS",
    "AfterNavigation",
    "BrowsedPage",
    "BrowserFetchError",
    "BrowserNotAvailableError",
    "BrowserTimeoutError",
    "BrowserUnavailableError",
    "HeadlessBrowser",
    "HeadlessOptions",
    "browser_enabled",
    "browser_unavailable_reason",
    "chromium_path",
    "get_default_browser",
    "load_deadline",
    "set_default_browser",
    "teardown_reserve",
]

logger = logging.getLogger("websearch_core.browser")

CHROMIUM_PATH_ENV = "WEBSEARCH_CHROMIUM_PATH"
BROWSER_ENV = "WEBSEARCH_BROWSER"
DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium"
_PATH_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_OFF_VALUES = frozenset({"0", "off", "false", "no", "never", "disabled"})
_ON_VALUES = frozenset({"", "1", "on", "true", "yes", "auto", "always", "enabled"})
"""What ``WEBSEARCH_BROWSER`` takes for on (unset or empty included); anything else is
taken as on too, and named once (:func:`browser_setting_problem`)."""

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
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
)
"""Launch flags. Without the background-networking flags Chromium calls Google's update and
sync hosts on its own; ``AutomationControlled`` keeps ``navigator.webdriver`` false.
WebRTC's ICE traffic (STUN and TURN over UDP) is neither a request nor a WebSocket, so it
would pass both the page guard and the egress proxy of a page fetch: a page could send UDP
to any address it names. With UDP that does not go through a proxy switched off, WebRTC
has only the context's proxy (TCP, checked there) or nothing."""

INSTALL_HINT = (
    'Install it with: pip install "websearch-tools[browser]" and apt-get install chromium '
    f"(or set {CHROMIUM_PATH_ENV} to a Chromium executable)."
)
"""What to do when the browser is missing, quoted in every such error."""
PLAYWRIGHT_MISSING = "the Python package playwright is not installed"

PAGE_CLOSE_SECONDS = 5.0
"""A page's teardown has its own deadline, as in the reference."""
TEARDOWN_RESERVE_SECONDS = 0.5
"""The part of a :meth:`HeadlessBrowser.fetch` timeout kept for closing the page's context.

The load stops this long before the fetch's timeout, never more than a quarter of it
(:func:`teardown_reserve`). A provider gives the browser what is left of its attempt, and
the attempt's hard stop follows that moment by only 0.1 s; closing a context took 25 to
95 ms on a loaded machine, so a load that ran to the very end left its close to race the
hard stop: the search failed with the attempt's generic text, not the browser's. Five
times the slowest close seen, and a small part of a provider's usual 10 s or more.
"""
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
    configured = env_value(CHROMIUM_PATH_ENV)
    if configured is not None:
        return configured.strip()
    if os.path.exists(DEFAULT_CHROMIUM_PATH):
        return DEFAULT_CHROMIUM_PATH
    for name in _PATH_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return DEFAULT_CHROMIUM_PATH


def browser_unavailable_reason(executable_path: str | None = None) -> str | None:
    """Why headless Chromium cannot start here, or ``None`` when nothing is missing.

    The two checks a launch makes before it starts anything (Playwright importable, an
    executable Chromium), made without starting it: ``websearch providers`` says beside the
    engines that escalate that their fallback is missing, rather than leaving the first
    blocked page to tell. A browser that passes both can still fail to launch.

    Args:
        executable_path: The Chromium binary (default: :func:`chromium_path`).
    """
    try:
        found = importlib.util.find_spec("playwright.async_api") is not None
    except (ImportError, ValueError):  # a broken package, or one stubbed out in sys.modules
        found = False
    if not found:
        return PLAYWRIGHT_MISSING
    path = executable_path or chromium_path()
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        return f"no Chromium executable at {path}"
    return None


def browser_enabled(settings: object | None = None) -> bool:
    """Whether escalation to the headless browser is allowed.

    ``WEBSEARCH_BROWSER=off`` turns it off; so does a ``browser`` setting that is ``False``
    when the settings object has one.
    """
    if getattr(settings, "browser", True) is False:
        return False
    return (env_value(BROWSER_ENV) or "").strip().lower() not in _OFF_VALUES


def browser_setting_problem(environ: Mapping[str, str]) -> str | None:
    """A sentence for a ``WEBSEARCH_BROWSER`` that is neither on nor off, else ``None``.

    ``WEBSEARCH_BROWSER=of`` (a typo for ``off``) kept the browser on in silence; the value
    is read per call, so it is said once, with the names of the other warnings.

    Example:
        >>> browser_setting_problem({"WEBSEARCH_BROWSER": "of"})
        "WEBSEARCH_BROWSER='of' is neither on nor off; taken as on (write off, 0, false or no)"
    """
    value = environ.get(BROWSER_ENV)
    if value is None or value.strip().lower() in _ON_VALUES | _OFF_VALUES:
        return None
    return (
        f"{BROWSER_ENV}={value.strip()!r} is neither on nor off; taken as on "
        "(write off, 0, false or no)"
    )


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
        self._late_contexts: set[asyncio.Task[None]] = set()
        """Contexts being closed after their caller stopped waiting (made late, or closing)."""

    def __repr__(self) -> str:
        state = "running" if self._running is not None else "idle"
        return f"HeadlessBrowser(executable_path={self.executable_path!r}, {state})"

    @property
    def executable_path(self) -> str:
        """The executable this instance launches."""
        return self._executable_path or chromium_path()

    @property
    def has_proxy(self) -> bool:
        """Whether this browser's traffic goes through a proxy it was given."""
        return bool(self._proxy)

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
        self._late_contexts = set()  # they belonged to the old loop's browser

    async def _start(self) -> _Running:
        path = self.executable_path
        missing = browser_unavailable_reason(path)  # the checks the providers table makes
        if missing is not None:
            raise BrowserNotAvailableError(missing)
        try:
            from playwright.async_api import async_playwright
        except ImportError:  # found, but it does not import
            raise BrowserNotAvailableError(PLAYWRIGHT_MISSING) from None
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
    async def page(self, *, proxy: str | None = None) -> AsyncIterator["Page"]:
        """A new page in a fresh browser context (own cookies), closed on exit.

        The context is closed with its own deadline (:data:`PAGE_CLOSE_SECONDS`), also when
        the body was cancelled or timed out, and also when the caller is cancelled while it
        closes (:meth:`_close`).

        Args:
            proxy: A proxy for this context's traffic only (``http://127.0.0.1:PORT``), in
                place of the browser's; loopback addresses go through it too (Playwright
                puts ``<-loopback>`` in Chromium's bypass list). The page fetcher gives its
                address-checking proxy here (:mod:`websearch_core.content.egress`), or the
                environment's proxy for the page. Credentials in it (``user:pw@``) go to
                Playwright in their own fields, answering the proxy's 407 challenge; they
                are never part of the address Chromium is given.

        Raises:
            BrowserNotAvailableError: Playwright or Chromium is missing or does not start.
        """
        running = await self._ensure()
        context = await self._new_context(running, proxy)
        try:
            await context.route("**/*", _route)
            page = await context.new_page()
            yield page
        finally:
            await self._close(context)

    async def _close(self, context: "BrowserContext") -> None:
        """Close ``context``; a caller cancelled meanwhile leaves the close to finish alone.

        Playwright's close is several round trips to its driver, and it marks the context
        as closing before the first: cancelled between them (an attempt's hard stop landing
        while a timed-out page was torn down), the context was never closed, and every later
        close returned at once, so it stayed open in the shared Chromium for the browser's
        life, one more per such timeout. The close runs shielded; a caller that is cancelled
        leaves at once, and the next context waits for the close as for a late one.
        """
        closing = asyncio.ensure_future(_close_context(context))
        try:
            await asyncio.shield(closing)
        except BaseException:
            self._keep_closing(closing)
            raise

    def _keep_closing(self, closing: "asyncio.Task[None]") -> None:
        """Hold a close nobody waits for until it ends; the next context waits for it."""
        self._late_contexts.add(closing)
        closing.add_done_callback(self._late_contexts.discard)

    async def _new_context(self, running: _Running, proxy: str | None) -> "BrowserContext":
        """A fresh context; one still being made when its caller gives up is closed.

        Playwright's driver makes the context whether or not anyone still waits for it, so
        a timeout that lands while it is made would leave it open for the browser's life
        (seen under load: a second context beside the next call's). Such contexts are
        closed as they arrive, and the next context waits for that first.
        """
        if self._late_contexts:
            await asyncio.wait(self._late_contexts, timeout=PAGE_CLOSE_SECONDS)
        making = asyncio.ensure_future(
            running.browser.new_context(
                user_agent=running.user_agent,
                locale="en-US",
                viewport={"width": 1366, "height": 768},
                # <-loopback> said here, not left to Playwright (an environment variable
                # turns its default off): loopback and link-local targets use the proxy too.
                proxy={**_playwright_proxy(proxy), "bypass": "<-loopback>"}
                if proxy is not None
                else None,
            )
        )
        try:
            return await asyncio.shield(making)
        except BaseException:
            self._keep_closing(asyncio.ensure_future(_close_when_made(making)))
            raise

    async def fetch(
        self, url: str, *, timeout: float, options: "HeadlessOptions | None" = None
    ) -> "BrowsedPage":
        """Load ``url`` in a fresh page and return ``(status, html, final_url)``.

        The whole fetch (home page, navigations, hooks, waits, capture, and closing the
        page) ends within ``timeout`` seconds: the load stops :func:`teardown_reserve`
        before it, so that a caller whose own time ends then is not cancelled in the
        page's teardown. The page is closed whatever happens; a close still running at the
        timeout finishes on its own.

        Raises:
            BrowserNotAvailableError: Playwright or Chromium is missing or does not start.
            BrowserTimeoutError: The load did not finish in ``timeout`` seconds.
            BrowserFetchError: The load failed (the first line of why is its ``reason``).
        """
        return await _fetch_page(self, url, options or HeadlessOptions(), timeout)

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


async def _close_when_made(making: "asyncio.Future[BrowserContext]") -> None:
    """Close the context ``making`` gives, once it does (nothing if it fails)."""
    try:
        context = await making
    except Exception as error:
        logger.debug("a context nobody waited for was not made: %s", _first_line(error))
        return
    await _close_context(context)


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


class BrowsedPage(NamedTuple):
    """What a headless load gave: the page's status, its rendered DOM, where it ended.

    ``status`` is the last main-frame navigation's (200 when none was seen).
    """

    status: int
    html: str
    final_url: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HeadlessOptions:
    """How :meth:`HeadlessBrowser.fetch` loads a page (the reference's ``browseHtmlPage``).

    Plain options only: the browser knows nothing of the caller, so whoever needs a page
    says here how it becomes ready.
    """

    home_url: str | None = None
    """Visited first to seed cookies; a failure to load it is not fatal."""
    ready_selector: str | None = None
    """Waited for after navigation; a timeout is ignored."""
    ready_timeout_seconds: float = 10.0
    ready_after_error_status: bool = True
    """Also wait for ``ready_selector`` after a non-2xx navigation (a Cloudflare challenge
    answers 403 and then reloads into the page); ``False`` captures such a page at once."""
    attempts: int = 1
    """Loads in total; another is made while :attr:`retry_while` says the page is not there."""
    retry_delay_seconds: float = 1.0
    retry_while: Callable[[BrowsedPage], bool] | None = None
    """Whether a captured page still needs another load (a wall that is still up)."""
    after_navigation: AfterNavigation | None = None


class BrowserFetchError(WebSearchError):
    """The headless load itself failed (a navigation error, a crashed page).

    Args:
        reason: The first line of what went wrong.
        unreached: How the load reached no host (``dns``, ``connect``, ``proxy``), read
            from Chromium's ``net::`` code
            (:func:`~websearch_core.connection_causes.navigation_unreached`); ``None`` for
            any other failure.
        loopback: The load was refused (or had no route) at a loopback address, where
            nothing listens (:func:`~websearch_core.connection_causes.navigation_at_loopback`).
    """

    def __init__(
        self, reason: str, unreached: str | None = None, *, loopback: bool = False
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.unreached = unreached
        self.loopback = loopback


class BrowserTimeoutError(BrowserFetchError):
    """The headless load did not finish within the time it was given."""


async def _fetch_page(
    browser: HeadlessBrowser, url: str, options: HeadlessOptions, timeout: float
) -> BrowsedPage:
    """:meth:`HeadlessBrowser.fetch`, with Playwright's errors read as the browser's own."""
    loop = asyncio.get_running_loop()
    if timeout <= 0:
        raise BrowserTimeoutError("no time left to load the page")
    ends = loop.time() + timeout
    deadline = load_deadline(ends)  # the load's; the rest closes the page
    try:
        async with asyncio.timeout_at(ends):  # a close still running then goes on alone
            return await _browse(browser, url=url, options=options, deadline=deadline)
    except TimeoutError:
        raise BrowserTimeoutError(f"the page did not load within {timeout:.1f}s") from None
    except WebSearchError:
        raise
    except Exception as error:  # Playwright's errors; it is imported lazily
        if _is_playwright_timeout(error) and loop.time() >= deadline - 0.05:
            raise BrowserTimeoutError(_first_line(error)) from None
        reason = _first_line(error)
        cause = navigation_cause(reason) or reason
        unreached = navigation_unreached(reason)
        loopback = navigation_at_loopback(reason)
        raise BrowserFetchError(cause, unreached, loopback=loopback) from error


def teardown_reserve(timeout: float) -> float:
    """Seconds of a fetch's ``timeout`` kept for closing its page after the load stops.

    :data:`TEARDOWN_RESERVE_SECONDS`, but never more than a quarter of ``timeout``.

    Example:
        >>> teardown_reserve(10.0), teardown_reserve(1.0)
        (0.5, 0.25)
    """
    return min(TEARDOWN_RESERVE_SECONDS, timeout / 4)


def load_deadline(ends: float) -> float:
    """The loop time a page's load stops at, so that its page is closed by ``ends``.

    ``ends`` less the :func:`teardown_reserve` of the time left until it. Every caller of
    :meth:`HeadlessBrowser.page` whose time is bounded takes its load's end from here (this
    module's :meth:`~HeadlessBrowser.fetch`, the page-content fetcher's rendering): a load
    that ran to ``ends`` closed its page after it, so the call overran its timeout by the
    close, and a caller's own stop at ``ends`` landed in the close.

    Args:
        ends: The loop time (:meth:`asyncio.AbstractEventLoop.time`) the whole call ends at.
    """
    left = ends - asyncio.get_running_loop().time()
    return ends - teardown_reserve(max(left, 0.0))


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
    page: "Page", options: HeadlessOptions, deadline: float, status: int | None
) -> None:
    """Wait for the ready selector, leaving part of the budget to capture the page."""
    if not options.ready_selector:
        return
    if status is not None and not 200 <= status < 300 and not options.ready_after_error_status:
        return
    remaining = deadline - asyncio.get_running_loop().time()
    reserve = min(_CAPTURE_RESERVE_SECONDS, remaining / 4)
    wait = min(options.ready_timeout_seconds, remaining - reserve)
    if wait <= 0:
        return
    try:
        await page.wait_for_selector(options.ready_selector, timeout=wait * 1000)
    except Exception as error:
        if not _is_playwright_timeout(error):
            raise


async def _browse(
    browser: HeadlessBrowser, *, url: str, options: HeadlessOptions, deadline: float
) -> BrowsedPage:
    """The reference's headless flow (§7.3), inside the caller's deadline.

    The load stops at ``deadline`` (loop time); the page is closed after that.
    """
    async with browser.page() as page, asyncio.timeout_at(deadline):
        log = _NavigationLog(page)
        if options.home_url:
            await _visit_home(page, options.home_url, deadline)
        loaded: BrowsedPage | None = None
        for attempt in range(max(1, options.attempts)):
            if attempt:
                remaining = deadline - asyncio.get_running_loop().time()
                await asyncio.sleep(max(0.0, min(options.retry_delay_seconds, remaining)))
            log.responses.clear()
            navigation = await page.goto(url, wait_until="domcontentloaded", timeout=_ms(deadline))
            if options.after_navigation is not None:
                await options.after_navigation(page, deadline)
            last = log.last(navigation)
            await _wait_ready(page, options, deadline, last.status if last else None)
            loaded = await _capture(page, log.last(navigation))
            if options.retry_while is None or not options.retry_while(loaded):
                break
        assert loaded is not None
        return loaded


async def _capture(page: "Page", response: "Response | None") -> BrowsedPage:
    """The rendered DOM with the status of the last main-frame navigation."""
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
    return BrowsedPage(status=status, html=html, final_url=page.url)


def _playwright_proxy(url: str) -> "ProxySettings":
    """Playwright's proxy settings: credentials go in their own fields, not the URL.

    Example:
        >>> _playwright_proxy("http://u:p%40ss@[::1]:3128")
        {'server': 'http://[::1]:3128', 'username': 'u', 'password': 'p@ss'}
    """
    parts = urlsplit(url)
    host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else parts.hostname
    server = f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")
    settings: ProxySettings = {"server": server}
    if parts.username:
        settings["username"] = unquote(parts.username)
    if parts.password:
        settings["password"] = unquote(parts.password)
    return settings
