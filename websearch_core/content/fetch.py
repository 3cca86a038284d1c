"""Fetching pages safely: one URL or many, within one deadline, cached, escalating to Chromium.

:class:`PageFetcher` owns an aiohttp session of its own whose connector resolves names
through :class:`~websearch_core.content.resolver.SafeResolver` (the search session is shared
with providers and has no such rule). Per URL:

1. :func:`~websearch_core.content.safety.check_url`, then the page cache (success only),
   which is waited for a share of the deadline only
   (:func:`~websearch_core.deadline.store_share`), as a search's is.
2. A GET with browser navigation headers; redirects are followed by hand, at most
   ``max_redirects``, each target checked again before it is requested. A page with
   little text whose ``<meta http-equiv="refresh">`` moves on within 5 s is a redirect
   too (:mod:`.refresh`).
3. The media type is checked before the body is read (HTML, XHTML, plain text, Markdown,
   JSON, XML and its feeds, CSV, PDF; a missing type is sniffed), and the body is read up
   to ``max_bytes`` after decompression (gzip and deflate by aiohttp, brotli with the
   ``brotli`` package; a body a misconfigured server gzipped twice is un-gzipped once
   more, under the same cap).
4. HTML is decoded (declared or sniffed charset) and extracted in a worker thread; PDF and
   text are read as documents, and data files (JSON, XML, CSV) are returned as they are.
5. A page that shows almost no text but runs scripts, or a 403/429/503 answer, is loaded in
   headless Chromium (when enabled and installed), where every request the page makes passes
   the same address rules: checked by name as the page makes it, and at the address connected
   to by :class:`~websearch_core.content.egress.EgressProxy`, the browser context's proxy.
   The richer of the two results is kept.
"""

import asyncio
import contextlib
import hashlib
import logging
import re
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Literal, Self
from urllib.parse import urljoin, urlsplit, urlunsplit

import aiohttp

from ..connection_causes import (
    connection_cause,
    navigation_cause,
    navigation_unreached,
    protocol_fault,
    proxy_refusal,
    undecodable_encoding,
    unreached_cause,
)
from ..deadline import Deadline, StoreWaitsWithin, format_seconds, store_share
from ..env_proxies import EnvironmentProxies
from ..kept_failures import detach
from ..redaction import Redactor, proxy_secrets, redactor_for
from .decode import byte_order_mark, decode_html
from .documents import data_content, pdf_content, text_content
from .egress import EgressProxy
from .errors import (
    FetchError,
    FetchFailedError,
    FetchRefusedError,
    FetchTimeoutError,
    safe_url,
)
from .extract import extract_content
from .fetch_call import checked_concurrency, page_urls, too_late
from .lookup import checked_addresses
from .models import STORED_ROW, PageContent
from .refresh import refresh_target
from .resolver import SafeResolver
from .safety import Networks, check_url, parse_networks, request_host

if TYPE_CHECKING:
    from playwright.async_api import Route, WebSocketRoute

    from ..browser import HeadlessBrowser
    from ..state.base import StateStore

__all__ = [
    "DEFAULT_CONCURRENCY",
    "DEFAULT_MAX_PAGE_BYTES",
    "MAX_REDIRECTS",
    "FetchOptions",
    "PageFetcher",
    "page_cache_key",
    "page_urls",
]

_log = logging.getLogger(__name__)

DEFAULT_MAX_PAGE_BYTES = 10 * 1024 * 1024
"""Largest body read (after decompression): big enough for long PDFs, small enough for RAM."""
MAX_REDIRECTS = 5
DEFAULT_CONCURRENCY = 4
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_ESCALATE_STATUSES = frozenset({403, 429, 503})
_FEW_WORDS = 40
"""Below this many words a page that runs scripts is rendered in the browser."""
_POLICY_VIOLATION = 1008
"""The WebSocket close code for a connection refused by policy (RFC 6455)."""
_UNREACHABLE = 1014
"""The WebSocket close code for a server that could not be reached (a bad gateway)."""
_SETTLE_SECONDS = 3.0
"""Longest wait for a rendered page's network to go quiet after DOMContentLoaded."""
_WORD = re.compile(r"\w+")
_REFRESH = re.compile(rb"http-equiv\s*=\s*+[\"']?+\s*+refresh", re.IGNORECASE)
"""A meta refresh may be in the bytes: only then is a near-empty page parsed for one.

The blanks around the optional quote are taken whole (``refresh`` starts with neither):
trying each split of them read a run of blanks once per blank, and this reads the whole
body of a near-empty page, on the event loop (64 KiB of blanks: seconds, stop 56)."""
_KEY_VERSION = "page-v1"
_TEXT_FIELDS = ("url", "title", "text", "markdown", "published_date", "author", "site_name")
"""The :class:`PageContent` fields that carry what the page (or its server) wrote."""
_SHOWN_CHARS = 100
"""Longest redirect target quoted in a refusal."""
_GZIP_MAGIC = b"\x1f\x8b"
_DOUBLE_GZIP_BROKEN = (
    "the response could not be decoded: it is gzip-compressed twice and the inner layer is broken"
)

Kind = Literal["html", "text", "data", "pdf"]
_KINDS: dict[str, Kind] = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/plain": "text",
    "text/markdown": "text",
    "text/x-markdown": "text",
    "application/json": "data",
    "text/json": "data",
    "application/xml": "data",
    "text/xml": "data",
    "text/csv": "data",
    "text/tab-separated-values": "data",
    "application/pdf": "pdf",
    "application/x-pdf": "pdf",  # the name PDF had before its registration, still sent
}
_SNIFFED = frozenset({"application/octet-stream", "binary/octet-stream"})
"""Types that say only "bytes": a server's default for a file of no known type (a PDF
uploaded to object storage without one), read when the body begins as a PDF does and
refused as before otherwise (once read: only the body says which it is)."""
_PDF_HEAD = "%PDF-"
_DATA_SUFFIXES = ("+json", "+xml")
"""``application/`` types in a textual syntax (RFC 6839): ``rss+xml``, ``atom+xml``,
``ld+json``, ``geo+json``... Binary types (images, archives, media) stay refused."""
_XHTML_ROOT = re.compile(
    r"\A\s*(?:<\?xml\s[^>]*>\s*)?(?:(?>(?><!--.*?-->)|<!DOCTYPE[^>]*>)\s*)*+<html[\s>]",
    re.IGNORECASE | re.DOTALL,
)
"""An XML document whose root is ``<html>``: an XHTML page served as ``application/xml``.

Each comment is matched atomically and the run of them possessively: a lazy ``.*?`` that
may give back lets one comment swallow the next, and 30 empty comments took seconds."""


@dataclass(frozen=True, kw_only=True)
class FetchOptions:
    """How pages are fetched; the defaults are the safe ones.

    Attributes:
        allow_private_addresses: Also fetch loopback, private and link-local addresses
            (for intranets and tests only); cloud metadata services stay refused.
        allowed_networks: Networks fetched although not public (``"10.1.2.0/24"``): a
            narrower opening than ``allow_private_addresses``. The only way to open a
            cloud metadata service: an entry naming its address (``"169.254.169.254"``).
        max_bytes: Body size cap after decompression.
        max_redirects: Redirect hops followed before refusing.
        use_browser: Escalate script-only pages and 403/429/503 answers to Chromium.
        use_cache: Read and write the page cache.
        cache_ttl_seconds: How long a fetched page is served from the cache.
        state_wait_seconds: How long the page's cache lookup and write each wait for the
            state store (``None``: a share of the deadline, see
            :func:`~websearch_core.deadline.store_share`).
        proxy: An HTTP(S) proxy for the requests, over the environment's
            (``HTTP(S)_PROXY``). Note: through a proxy the proxy resolves names, so host
            names are checked by a local lookup before the request instead of at
            connection time. Not in the ``repr``: it may carry a password.
    """

    allow_private_addresses: bool = False
    allowed_networks: tuple[str, ...] = ()
    max_bytes: int = DEFAULT_MAX_PAGE_BYTES
    max_redirects: int = MAX_REDIRECTS
    use_browser: bool = True
    use_cache: bool = True
    cache_ttl_seconds: float = 900.0
    state_wait_seconds: float | None = None
    proxy: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        parse_networks(self.allowed_networks)  # fail early, naming the bad entry
        if self.max_bytes < 1:
            raise ValueError(f"max_bytes must be at least 1, got {self.max_bytes}")
        if not 0 <= self.max_redirects <= 20:
            raise ValueError(f"max_redirects must be 0..20, got {self.max_redirects}")
        if self.cache_ttl_seconds <= 0:
            raise ValueError("cache_ttl_seconds must be positive")


def page_cache_key(url: str, scope: str = "public") -> str:
    """The page cache key of ``url`` under an address policy ``scope``.

    The fragment is ignored (the server never sees it). The scope keeps a page fetched with
    private addresses allowed from being served to a call whose policy would refuse it: the
    cache is read before any connection, so it must not bypass the address rules.

    Example:
        >>> page_cache_key("https://a.example/x#top") == page_cache_key("https://a.example/x")
        True
        >>> page_cache_key("https://a.example/") == page_cache_key("https://a.example/", "private")
        False
    """
    parts = urlsplit(url.strip())
    scheme, netloc = parts.scheme.lower(), parts.netloc.lower()
    normalised = urlunsplit((scheme, netloc, parts.path, parts.query, ""))
    return hashlib.sha256(f"{_KEY_VERSION}\n{scope}\n{normalised}".encode()).hexdigest()


@dataclass(frozen=True)
class _Body:
    status: int
    url: str
    content_type: str
    data: bytes


class PageFetcher:
    """Fetches pages under :class:`FetchOptions`; use as an async context manager.

    Args:
        options: The policy.
        store: The state store for the page cache (``None``: no cache).
        browser: The headless browser for escalation (``None``: never escalate).
        proxies: The environment's proxy per request when ``options.proxy`` names none:
            the client passes its own, which hands the proxy's credentials to its
            credentials (so its searches mask them too); ``None``: the fetcher's own,
            whose credentials it keeps to itself. Either way ``~/.netrc`` is never read.
        secrets: More values to mask (the client's keys and settings' passwords), asked
            when an error or a page is masked; the configured and environment proxies'
            credentials are masked without them.

    Every error and page the fetcher hands out has those secrets masked (``***``): a
    proxy's refusal can quote the proxy's URL with its password (aiohttp words a
    refused tunnel so), and an echoing upstream the ``Proxy-Authorization`` it was sent.

    Example:
        >>> async def main() -> None:  # doctest: +SKIP
        ...     async with PageFetcher(FetchOptions()) as fetcher:
        ...         page = await fetcher.fetch("https://example.org/", timeout_seconds=20)
    """

    def __init__(
        self,
        options: FetchOptions,
        *,
        store: "StateStore | None" = None,
        browser: "HeadlessBrowser | None" = None,
        proxies: EnvironmentProxies | None = None,
        secrets: Callable[[], Iterable[str]] | None = None,
    ) -> None:
        self.options = options
        self._learnt: set[str] = set()
        """Credentials of the environment's proxies, when the fetcher chooses them itself."""
        self._proxies = proxies if proxies is not None else EnvironmentProxies(self._learnt.update)
        self._secrets = secrets
        self._allowed: Networks = parse_networks(options.allowed_networks)
        self._scope = _cache_scope(options.allow_private_addresses, self._allowed)
        self._store = store
        self._browser = browser
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> Self:
        resolver = SafeResolver(
            allow_private=self.options.allow_private_addresses, allowed=self._allowed
        )
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(resolver=resolver, limit=16),
            timeout=aiohttp.ClientTimeout(total=None),
            trust_env=False,
        )
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def fetch(self, url: str, *, timeout_seconds: float) -> PageContent:
        """Fetch one page and extract its content, all within ``timeout_seconds``.

        Raises:
            FetchRefusedError: The policy refused the URL, a redirect, the size or the type.
            FetchTimeoutError: The time ran out.
            FetchFailedError: An error status, a network failure, or an unreadable document.
        """
        return await self._fetch_within(url, timeout_seconds, timeout_seconds)

    async def _fetch_within(self, url: str, remaining: float, deadline: float) -> PageContent:
        """Fetch in the ``remaining`` part of a call whose whole deadline is ``deadline``.

        The cache lookup and the cache write each wait for the store a share of the
        deadline only, as a search's do: behind a SQLite file another process held locked,
        or a Redis that never answered, the lookup spent the whole deadline and the fetch
        failed without asking the page's server (5 s of a 5 s fetch measured).
        """
        self._check(url)
        ends = asyncio.get_running_loop().time() + remaining
        try:
            async with asyncio.timeout_at(ends):
                store_wait = store_share(Deadline(deadline), self.options.state_wait_seconds)
                return await self._fetch(url, ends, store_wait)
        except TimeoutError:  # ours, or the rendered load's, which stops a little sooner
            message = f"no content within the {format_seconds(deadline)} s deadline"
            raise FetchTimeoutError(url, message) from None
        except FetchError as error:
            failure = error
        # Raised here, outside the handler: the masked copy keeps no unmasked context.
        raise failure.masked(self._redactor())

    async def fetch_many(
        self,
        urls: Sequence[str],
        *,
        timeout_seconds: float,
        concurrency: int = DEFAULT_CONCURRENCY,
        remaining: float | None = None,
    ) -> list[PageContent | FetchError]:
        """Fetch several pages, at most ``concurrency`` at a time, all within one deadline.

        ``remaining`` is what is left of the ``timeout_seconds`` deadline when the call began
        earlier (a client's first fetch imported this module within it); ``None`` is all.

        Returns:
            One entry per URL, in order: its content, or the :class:`FetchError` that
            explains why there is none. A failure never hides the other pages.

        Raises:
            TypeError: ``urls`` is one string, not a list of them.
            ValueError: ``concurrency`` is below 1.
        """
        urls = page_urls(urls)
        gate = asyncio.Semaphore(checked_concurrency(concurrency))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout_seconds if remaining is None else remaining)

        async def one(url: str) -> PageContent | FetchError:
            async with gate:
                left = deadline - loop.time()
                try:
                    if left <= 0:
                        raise too_late(url, timeout_seconds)
                    return await self._fetch_within(url, left, timeout_seconds)
                except FetchError as error:
                    # Handed back (and raised again by ``fetch``) past this call: its text,
                    # not its frames, whose locals hold the proxy's URL, password and all.
                    detach(error)
                    return error

        return list(await asyncio.gather(*(one(url) for url in urls)))

    def _check(self, url: str) -> None:
        check_url(url, allow_private=self.options.allow_private_addresses, allowed=self._allowed)

    # --- one page -------------------------------------------------------------------------

    async def _fetch(self, url: str, ends: float, store_wait: float) -> PageContent:
        """The page at ``url``, all done by ``ends`` (loop time).

        Each of the store's cache calls waits ``store_wait`` at most (see
        :meth:`_fetch_within`).
        """
        key = page_cache_key(url, self._scope)
        cached = await self._cache_get(key, store_wait)
        if cached is not None:
            _log.info("page %s served from cache", safe_url(url))
            return self._masked_page(cached)
        try:
            body, page = await self._followed(url)
        except FetchFailedError as error:
            page = await self._rendered_instead(url, error, ends)
        else:
            if _looks_script_only(body, page):
                rendered = await self._rendered(url, ends, reason="script-only page")
                if rendered is None:
                    # Not rendered (use_browser=False, no Chromium): not cached, or a call
                    # that asks for the browser next would be served this empty page.
                    return page
                if _words(rendered) > _words(page):
                    page = rendered
        page = self._masked_page(page)  # before the cache stores it
        # What `websearch fetch -v` shows (it showed nothing for a page that was fetched).
        _log.info(
            "fetched %s (HTTP %s, %s, with %s)",
            safe_url(url),
            page.status,
            page.content_type,
            page.fetched_with,
        )
        await self._cache_set(key, page, store_wait)
        return page

    def _redactor(self) -> Redactor:
        """The mask of every secret known now (a proxy exported since may have added one)."""
        known = set(self._learnt)
        if self.options.proxy is not None:
            known.update(proxy_secrets(self.options.proxy))
        if self._secrets is not None:
            known.update(self._secrets())
        return redactor_for(tuple(sorted(known)))

    def _masked_page(self, page: PageContent) -> PageContent:
        """``page`` with every secret masked: an upstream may echo a proxy's credentials.

        A substring probe per field first (:meth:`Redactor.may_hold`), so a page without
        one, as nearly every page is, is neither copied nor searched with the pattern.
        """
        redactor = self._redactor()
        if not redactor:
            return page
        fields = {
            name: value
            for name in _TEXT_FIELDS
            if isinstance(value := getattr(page, name), str) and redactor.may_hold(value)
        }
        if not fields:
            return page
        return page.model_copy(update={name: redactor(value) for name, value in fields.items()})

    async def _rendered_instead(
        self, url: str, error: FetchFailedError, ends: float
    ) -> PageContent:
        """The page as the browser renders it after a blocking answer, else ``error``."""
        if error.status in _ESCALATE_STATUSES:
            page = await self._rendered(url, ends, reason=f"HTTP {error.status}")
            if page is not None:
                return page
        raise error

    async def _content(self, body: _Body) -> PageContent:
        kind = _kind(body)
        if kind is None:  # bytes that are not a PDF
            raise _unsupported(body.url, body.content_type.split(";", 1)[0].strip().lower())
        try:
            if kind == "pdf":
                page = await asyncio.to_thread(pdf_content, body.data, body.url)
            elif kind == "text":
                page = text_content(body.data, body.content_type, body.url)
            elif kind == "data":
                page = data_content(body.data, body.content_type, body.url)
            else:
                html = decode_html(body.data, body.content_type, url=body.url)
                page = await asyncio.to_thread(extract_content, html, body.url)
        except ValueError as error:
            raise FetchFailedError(body.url, str(error), body.status) from None
        return page.model_copy(update={"status": body.status, "fetched_with": "http"})

    async def _followed(self, url: str) -> tuple[_Body, PageContent]:
        """Download ``url`` and read it, following its redirects to the page they lead to.

        HTTP redirects and a near-empty page's prompt ``<meta http-equiv="refresh">`` are
        followed alike: at most ``max_redirects`` of them in all, each target checked.
        """
        current = url
        for _hop in range(self.options.max_redirects + 1):
            answer = await self._download(current)
            if isinstance(answer, str):  # an HTTP redirect's target
                current = answer
                continue
            page = await self._content(answer)
            refresh = await self._refresh(answer, page)
            if refresh is None:
                return answer, page
            current = self._redirect_target(answer.url, refresh)
        raise FetchRefusedError(
            url, f"more than {self.options.max_redirects} redirects", "redirects"
        )

    async def _download(self, url: str) -> _Body | str:
        """One GET of ``url``: its body, or where the redirect it answered leads."""
        # Imported here, not at the top: websearch_core.models imports this package (for
        # SearchSource.content), and html imports the provider package, which imports models.
        from ..html import navigation_headers

        session = self._session
        if session is None:
            raise RuntimeError("PageFetcher is used outside its async with block")
        proxy = self._proxy_for(url)
        if proxy is not None:
            await self._precheck_for_proxy(url)
        try:
            async with session.get(
                url, headers=navigation_headers(), allow_redirects=False, proxy=proxy
            ) as response:
                if response.status in _REDIRECTS:
                    return self._redirect_target(url, _location(url, response))
                return await self._read(url, response)
        except FetchRefusedError as refusal:
            if refusal.url != safe_url(url):  # raised by the resolver: name the URL
                raise FetchRefusedError(url, refusal.reason, refusal.kind) from None
            raise
        except (aiohttp.ClientError, OSError) as error:
            reason = _network_reason(error)
            unreached = unreached_cause(error)
        # Raised outside the handler: aiohttp's error (its text holds the proxy's URL, its
        # request the Proxy-Authorization header) is not kept as the context.
        raise FetchFailedError(url, reason, unreached=unreached)

    async def _refresh(self, body: _Body, page: PageContent) -> str | None:
        """Where a page with little text of its own refreshes to soon, if it does.

        Only such a page is a redirect written in HTML ("this page has moved"); a page
        worth reading that also reloads or moves on after a while is kept as it is.
        """
        if _kind(body) != "html" or _words(page) >= _FEW_WORDS:
            return None
        if _REFRESH.search(body.data) is None:  # the common case: no parse needed
            return None
        html = decode_html(body.data, body.content_type, url=body.url)
        return await asyncio.to_thread(refresh_target, html, body.url)

    def _redirect_target(self, current: str, location: str) -> str:
        """Where a redirect from ``current`` to ``location`` leads, checked like the first URL.

        Raises:
            FetchRefusedError: The policy refuses the target; the message names the target
                as the reason, not ``current``, which passed the same checks.
        """
        try:
            target = urljoin(current, location)
        except ValueError:  # Location: http://[::1 (an unclosed IPv6 literal)
            reason = f"its redirect to {location[:200]!r} is not a URL"
            raise FetchRefusedError(current, reason, "invalid_url") from None
        try:
            self._check(target)
        except FetchRefusedError as refusal:
            reason = f"its redirect to {_shown_target(target)} was refused: {refusal.reason}"
            raise FetchRefusedError(current, reason, refusal.kind) from None
        return target

    async def _read(self, current: str, response: aiohttp.ClientResponse) -> _Body:
        if response.status >= 400:
            raise FetchFailedError(
                current, f"the server answered HTTP {response.status}", response.status
            )
        content_type = response.headers.get("Content-Type", "")
        media = content_type.split(";", 1)[0].strip().lower()
        if media and _media_kind(media) is None and media not in _SNIFFED:
            raise _unsupported(current, media)
        cap = self.options.max_bytes
        if response.content_length is not None and response.content_length > cap:
            raise FetchRefusedError(
                current,
                f"the body is {response.content_length} bytes, over the {cap}-byte cap",
                "too_large",
            )
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.content.iter_chunked(65536):
            size += len(chunk)
            if size > cap:
                raise FetchRefusedError(current, f"the body passed the {cap}-byte cap", "too_large")
            chunks.append(chunk)
        data = b"".join(chunks)
        if _gzipped_again(response.headers.get("Content-Encoding", ""), data):
            data = _inner_gzip_layer(data, cap, current)
        return _Body(response.status, str(response.url), content_type, data)

    def _proxy_for(self, url: str) -> str | None:
        """The proxy ``url`` is fetched through: the configured one, else the environment's.

        Without ``WEBSEARCH_PROXY`` the standard ``HTTP_PROXY`` / ``HTTPS_PROXY`` (and
        ``NO_PROXY``) apply, chosen per request by the same
        :class:`~websearch_core.env_proxies.EnvironmentProxies` as searches' (behind a
        proxy-only network a search worked and every fetch failed to resolve its host),
        and its credentials become secrets before a request can carry them.
        """
        if self.options.proxy is not None:
            return self.options.proxy
        return self._proxies.for_url(url)

    async def _precheck_for_proxy(self, url: str) -> None:
        """Through a proxy the connector resolves only the proxy: check the name here.

        With private addresses allowed a name that does not resolve here is let through
        (an intranet name only the proxy knows), but one resolving to a cloud metadata
        address is refused, as without a proxy.

        The limit (README, "Page content"): the proxy connects to the address its own DNS
        gives, and neither its ``CONNECT`` reply nor its response says which address that
        was. A name let through here, or one the proxy's DNS answers otherwise, reaches
        whatever the proxy resolves it to; refusing names that do not resolve here would
        refuse the intranet names only the proxy knows, so only the proxy can close this.
        """
        allow_private = self.options.allow_private_addresses
        host = request_host(url)
        try:
            await checked_addresses(url, host, 0, self._allowed, allow_private=allow_private)
        except FetchFailedError:
            if not allow_private:
                raise

    # --- the browser ----------------------------------------------------------------------

    async def _rendered(self, url: str, ends: float, *, reason: str) -> PageContent | None:
        """The page as headless Chromium renders it, or ``None`` when that is not possible.

        The page is closed by ``ends`` (loop time), the fetch's end: see :meth:`_render`.
        """
        from ..browser import BrowserNotAvailableError, browser_enabled

        browser = self._browser
        if browser is None or not self.options.use_browser or not browser_enabled():
            return None
        if not browser.is_usable_here():
            return None
        _log.info("rendering %s in headless Chromium (%s)", safe_url(url), reason)
        try:
            html, final_url, status = await self._render(browser, url, ends)
        except BrowserNotAvailableError as error:
            _log.info("headless Chromium unavailable, keeping the plain fetch: %s", error.reason)
            return None
        except (FetchError, TimeoutError):  # the load's end is the fetch's: its text says so
            raise
        except Exception as error:  # Playwright's errors (imported lazily)
            if type(error).__name__ == "TimeoutError":
                raise FetchTimeoutError(url, "the headless browser ran out of time") from None
            line = _first_line(error)
            cause = navigation_cause(line)  # a network failure: in the words providers use
            detail = f": {cause}" if cause else f" ({line})"
            # Classed as the plain fetch classes aiohttp's failures (a name that does not
            # resolve, a connection refused), so `websearch fetch` adds the same hint.
            unreached = navigation_unreached(line)
            reason = f"the headless browser failed{detail}"
            raise FetchFailedError(url, reason, unreached=unreached) from error
        if status >= 400:
            return None
        try:
            page = await asyncio.to_thread(extract_content, html, final_url)
        except ValueError as error:  # the rendered page is no easier to read
            raise FetchFailedError(final_url, str(error), status) from None
        return page.model_copy(update={"status": status, "fetched_with": "browser"})

    async def _render(
        self, browser: "HeadlessBrowser", url: str, ends: float
    ) -> tuple[str, str, int]:
        """Render ``url`` in a fresh page: ``(html, final_url, status)``.

        The load stops at :func:`~websearch_core.browser.load_deadline` of ``ends``, a
        little before the fetch's end, and the page (and its egress proxy) is closed in the
        time kept: a load that ran to the end closed its page after it, so a rendered page
        that never loaded overran the fetch's timeout by the close (up to 0.19 s on a
        loaded machine), and a caller's own stop at that moment landed in the close.

        Raises:
            TimeoutError: The load did not finish in time.
        """
        from ..browser import load_deadline

        allow_private = self.options.allow_private_addresses
        allowed = self._allowed
        guard = _PageGuard(allow_private, allowed)

        async with contextlib.AsyncExitStack() as stack:
            proxy = self._context_proxy(browser, url)
            if proxy is None and self._egress_checked(browser):
                egress = EgressProxy(
                    allowed,
                    allow_private=allow_private,
                    on_refusal=guard.blocked.append,
                    on_unreached=guard.unreached.append,
                )
                proxy = (await stack.enter_async_context(egress)).url
            page = await stack.enter_async_context(browser.page(proxy=proxy))
            await stack.enter_async_context(asyncio.timeout_at(load_deadline(ends)))  # exits first
            await page.route("**/*", guard.request)
            # page.route() never sees a WebSocket: without this a page could open one to any
            # address (an internal admin socket) that its other requests may not reach.
            await page.route_web_socket("**/*", guard.socket)
            try:
                response = await page.goto(url, wait_until="domcontentloaded")
            except Exception:
                guard.raise_page_refusal(url)  # a refused page fails with why, not net::ERR_
                guard.raise_page_unreached(url)  # not "the proxy could not be reached"
                raise
            if response is None or response.status == 403:  # 403: the proxy's refusal
                guard.raise_page_refusal(url)
            with contextlib.suppress(Exception):  # a page that never goes quiet is fine
                await page.wait_for_load_state("networkidle", timeout=_SETTLE_SECONDS * 1000)
            final_url = page.url
            check_url(final_url, allow_private=allow_private, allowed=allowed)
            html = await page.content()
        if len(html.encode("utf-8")) > self.options.max_bytes:
            raise FetchRefusedError(
                url, f"the rendered page passed the {self.options.max_bytes}-byte cap", "too_large"
            )
        return html, final_url, response.status if response is not None else 200

    def _context_proxy(self, browser: "HeadlessBrowser", url: str) -> str | None:
        """The environment's proxy for ``url``, given to the page's browser context.

        Chromium reads ``HTTP(S)_PROXY`` once, when it starts: a proxy exported later was
        not used by the browser while the checking proxy stayed off for it, so the page
        went out directly. Given here, the proxy is the one the plain fetch took, by the
        same rules, credentials included (Playwright answers its 407 with them). ``None``
        for a proxy of the client's own (``WEBSEARCH_PROXY``, the browser's), which the
        browser was started with, and when the environment names none for ``url``.
        """
        if self.options.proxy is not None or browser.has_proxy:
            return None
        return self._proxies.for_url(url)

    def _egress_checked(self, browser: "HeadlessBrowser") -> bool:
        """Whether the page's traffic goes through an :class:`EgressProxy`.

        Also when private addresses are allowed: cloud metadata addresses are still
        refused, and a page's name may rebind to one. Not through a proxy the user set
        (``proxy``, the browser's own, or one the environment names, which Chromium reads
        too, ``ALL_PROXY`` and one ``NO_PROXY`` lets the page skip included): that proxy
        resolves the names, as for the plain fetch through it.
        """
        if self.options.proxy is not None:
            return False
        return not browser.has_proxy and not self._proxies.any_named()

    # --- the cache ------------------------------------------------------------------------

    async def _cache_get(self, key: str, store_wait: float) -> PageContent | None:
        """The cached page under ``key``, waiting ``store_wait`` seconds at most for the store."""
        if self._store is None or not self.options.use_cache:
            return None
        with StoreWaitsWithin(store_wait):  # leave the page's server its time
            entry = await self._store.cache_get(key, time.time())
        if entry is None:
            return None
        try:
            page = PageContent.model_validate_json(entry.value, context={STORED_ROW: True})
        except ValueError:
            return None  # an unreadable entry is ignored, and overwritten on success
        return page.model_copy(update={"cached": True})

    async def _cache_set(self, key: str, page: PageContent, store_wait: float) -> None:
        """Cache ``page``, waiting ``store_wait`` seconds at most: the page is ready.

        A write not answered in time still lands when the store answers.
        """
        if self._store is None or not self.options.use_cache:
            return
        with StoreWaitsWithin(store_wait):
            await self._store.cache_set(
                key,
                # A plain-text or PDF page's Markdown is its text: stored once.
                page.model_dump_json(exclude={"cached"}, context={STORED_ROW: True}).encode(
                    "utf-8"
                ),
                now=time.time(),
                ttl=self.options.cache_ttl_seconds,
                keep_stale_for=0.0,
            )


class _PageGuard:
    """The address rules for every request and WebSocket a page makes in the browser.

    Args:
        allow_private: Allow non-public addresses, cloud metadata services excepted (the
            scheme rule always applies).
        allowed: Networks allowed although not public.
    """

    def __init__(self, allow_private: bool, allowed: Networks) -> None:
        self._allow_private = allow_private
        self._allowed = allowed
        self.blocked: list[FetchRefusedError] = []
        """The requests refused so far, in order (the page's own first, if it was)."""
        self.unreached: list[FetchFailedError] = []
        """The requests the egress proxy found no host for (a name unresolved, a connection
        refused), in order."""

    async def _refusal(self, target: str) -> FetchError | None:
        """Why the page may not reach ``target`` (an http(s) URL), or ``None``.

        A :class:`FetchFailedError` when its host name does not resolve: an address that
        cannot be checked is not reached, and one dead host (an ad server gone) must not
        fail the whole render, as it did when the lookup's error left the route handler.
        With private addresses allowed the name is looked up too (it may resolve to a cloud
        metadata address), and one that does not resolve here is left to the connection.
        """
        allow_private = self._allow_private
        try:
            check_url(target, allow_private=allow_private, allowed=self._allowed)
            host = request_host(target)
            await checked_addresses(target, host, 0, self._allowed, allow_private=allow_private)
        except FetchRefusedError as refusal:
            return refusal
        except FetchError as failure:
            return None if allow_private else failure
        return None

    async def request(self, route: "Route") -> None:
        """Let a request through, or abort it (and keep why) when a rule refuses it."""
        target = route.request.url
        if urlsplit(target).scheme.lower() in {"data", "blob", "about"}:
            await route.fallback()
            return
        refusal = await self._refusal(target)
        if isinstance(refusal, FetchRefusedError):
            self.blocked.append(refusal)
            await route.abort("blockedbyclient")
        elif refusal is not None:
            await route.abort("namenotresolved")
        else:
            await route.fallback()

    def raise_page_refusal(self, url: str) -> None:
        """Raise the refusal of the page itself (its host and port), if there was one.

        The request guard names the page's URL; the egress proxy knows only the host and
        port of a tunnel, so a refusal is the page's when it is for the page's origin.

        Raises:
            FetchRefusedError: A request to the page's host and port was refused.
        """
        origin = _origin(url)
        for refusal in self.blocked:
            if _origin(refusal.url) == origin:
                raise refusal

    def raise_page_unreached(self, url: str) -> None:
        """Raise how the page itself reached no host through the egress proxy, if it did.

        The proxy answers a tunnel it cannot open with ``502``, which Chromium reports as
        ``net::ERR_TUNNEL_CONNECTION_FAILED``, "the proxy could not be reached": a proxy
        the user never set, and no unreached cause, where the plain fetch meeting the same
        name or port says ``dns`` or ``connect`` and ``websearch fetch`` adds its hint.

        Raises:
            FetchFailedError: The page's host and port reached no host, with the proxy's
                reason and its ``unreached`` cause.
        """
        origin = _origin(url)
        for failure in self.unreached:
            if _origin(failure.url) == origin:
                reason = f"the headless browser failed: {failure.reason}"
                raise FetchFailedError(url, reason, unreached=failure.unreached)

    async def socket(self, route: "WebSocketRoute") -> None:
        """Connect a WebSocket to its server, or close it at once when a rule refuses it."""
        refusal = await self._refusal(_as_http(route.url))
        if isinstance(refusal, FetchRefusedError):
            await route.close(code=_POLICY_VIOLATION, reason="refused by the fetcher")
        elif refusal is not None:
            await route.close(code=_UNREACHABLE, reason="the host name does not resolve")
        else:
            route.connect_to_server()


def _cache_scope(allow_private: bool, allowed: Networks) -> str:
    """The address policy a cached page was fetched under (see :func:`page_cache_key`).

    The allowed networks are part of it with private addresses allowed too: a metadata
    page fetched with its address listed must not be served to a call without it.

    Example:
        >>> _cache_scope(False, ()), _cache_scope(True, ())
        ('public', 'private')
    """
    networks = ",".join(sorted(str(net) for net in allowed))
    if allow_private:
        return f"private,{networks}" if networks else "private"
    return networks or "public"


def _origin(url: str) -> tuple[str, int] | None:
    """The host and port of an http(s) URL (the default port filled in), else ``None``.

    Example:
        >>> _origin("https://Example.org/a"), _origin("http://10.0.0.1:8080/")
        (('example.org', 443), ('10.0.0.1', 8080))
    """
    try:
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return parts.hostname, port


def _as_http(url: str) -> str:
    """A WebSocket URL as the http(s) URL of its handshake, for the address rules.

    Example:
        >>> _as_http("wss://example.org/live"), _as_http("ws://10.0.0.1:8080/")
        ('https://example.org/live', 'http://10.0.0.1:8080/')
    """
    parts = urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower(), parts.scheme)
    return urlunsplit(parts._replace(scheme=scheme))


def _unsupported(url: str, media: str) -> FetchRefusedError:
    """The refusal of a body of a type the fetcher does not read."""
    reason = f"unsupported content type {media} (HTML, text, JSON, XML, CSV and PDF only)"
    return FetchRefusedError(url, reason, "content_type")


def _kind(body: _Body) -> Kind | None:
    """How the body is read: by its media type, else by its first bytes.

    A PDF typed as bytes (``application/octet-stream``) or as text (a server that types
    every unknown file ``text/plain``) was refused, or printed as its raw bytes: a body
    that begins as a PDF does is read as one whatever its type says text or bytes.

    Returns:
        ``None`` for bytes (:data:`_SNIFFED`) that are not a PDF: refused.
    """
    media = body.content_type.split(";", 1)[0].strip().lower()
    kind = _media_kind(media)
    if kind == "data" and _XHTML_ROOT.match(_head_text(body.data[:1024])):
        return "html"
    if kind in ("text", None) and _head_text(body.data[:1024]).lstrip().startswith(_PDF_HEAD):
        return "pdf"
    if kind is not None:
        return kind
    if media in _SNIFFED:
        return None
    head = _head_text(body.data[:1024]).lstrip()
    if head.startswith("<"):
        return "html"
    return "text"


def _media_kind(media: str) -> Kind | None:
    """How a media type is read, or ``None`` for a type that is not fetched."""
    if media in _KINDS:
        return _KINDS[media]
    if media.startswith("application/") and media.endswith(_DATA_SUFFIXES):
        return "data"
    return None


def _head_text(head: bytes) -> str:
    """The first bytes of an untyped body as text, to sniff what it is.

    Read past a byte-order mark in the codec it names (a page saved by an editor that
    writes one has the mark before its ``<``, and was taken for plain text), else byte
    for byte: the signatures sniffed for are ASCII.
    """
    marked = byte_order_mark(head)
    if marked is None:
        return head.decode("latin-1")
    codec, length = marked
    return head[length:].decode(codec, errors="replace")


def _location(current: str, response: aiohttp.ClientResponse) -> str:
    """The ``Location`` of a redirect answer.

    Raises:
        FetchFailedError: The redirect has none to follow; its body (a "moved" stub, or
            nothing) is not the page, so it is not returned as one.
    """
    location = response.headers.get("Location", "").strip()
    if not location:
        raise FetchFailedError(
            current,
            f"the server answered HTTP {response.status}, a redirect, without a Location "
            "header to follow",
            response.status,
        )
    return location


def _gzipped_again(content_encoding: str, data: bytes) -> bool:
    """Whether a body aiohttp un-gzipped is gzip once more (a server that compressed twice).

    Only after an outer gzip layer: a body that merely starts with the gzip magic bytes
    under another encoding is left as it is.
    """
    outer = content_encoding.rsplit(",", 1)[-1].strip().lower()
    return outer in {"gzip", "x-gzip"} and data.startswith(_GZIP_MAGIC)


def _inner_gzip_layer(data: bytes, cap: int, url: str) -> bytes:
    """Decompress the second gzip layer, every member of it, up to ``cap`` bytes.

    Raises:
        FetchRefusedError: The inner layer holds more than ``cap`` bytes (a bomb gzipped
            twice passes the first cap, which counts the outer layer's output).
        FetchFailedError: The inner layer is broken or cut short.
    """
    inner = bytearray()
    rest = data
    while rest:
        inflater = zlib.decompressobj(wbits=zlib.MAX_WBITS | 16)  # 16: the gzip wrapper
        try:
            inner += inflater.decompress(rest, cap + 1 - len(inner))
        except zlib.error:
            raise FetchFailedError(url, _DOUBLE_GZIP_BROKEN) from None
        if len(inner) > cap:
            raise FetchRefusedError(url, f"the body passed the {cap}-byte cap", "too_large")
        if not inflater.eof:  # cut short
            raise FetchFailedError(url, _DOUBLE_GZIP_BROKEN)
        rest = inflater.unused_data
    return bytes(inner)


def _shown_target(url: str) -> str:
    """A redirect's target as a message names it: without credentials, query or fragment.

    The server wrote it, not the caller, and its query may carry a token (a signed link,
    an OAuth code); a ``data:`` URL may be a whole page, so it is cut short.
    """
    parts = urlsplit(url)
    shown = safe_url(urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")))
    return shown if len(shown) <= _SHOWN_CHARS else f"{shown[: _SHOWN_CHARS - 1]}…"


def _looks_script_only(body: _Body, page: PageContent) -> bool:
    return _kind(body) == "html" and _words(page) < _FEW_WORDS and b"<script" in body.data.lower()


def _words(page: PageContent) -> int:
    return len(_WORD.findall(page.text))


def _network_reason(error: BaseException) -> str:
    """A failed download in words, as the provider transport words the same failures."""
    encoding = undecodable_encoding(error)
    if encoding is not None:
        return f"the response could not be decoded: its Content-Encoding {encoding} is broken"
    if isinstance(error, aiohttp.ClientPayloadError):
        return "the body could not be read or decompressed"
    refused = proxy_refusal(error)  # a ClientResponseError whose text has the proxy's URL
    if refused is not None:
        return refused
    if isinstance(error, aiohttp.ClientConnectionError):
        return connection_cause(error)
    if isinstance(error, aiohttp.ClientResponseError):  # aiohttp's parser refused the reply
        return f"the server sent an invalid HTTP response: {protocol_fault(error)}"
    return f"the request failed ({_first_line(error)})"


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
