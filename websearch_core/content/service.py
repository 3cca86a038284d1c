"""The glue between :class:`~websearch_core.WebSearch` and the page fetcher.

Kept here so the client holds only thin ``fetch`` / ``fetch_many`` methods: which options
a call gets from the settings, the environment and its own arguments, and which store and
browser it uses.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..browser import get_default_browser
from .errors import FetchError
from .fetch import DEFAULT_CONCURRENCY, DEFAULT_MAX_PAGE_BYTES, FetchOptions, PageFetcher
from .fetch_call import (
    DEFAULT_FETCH_SECONDS,
    MAX_FETCH_SECONDS,
    call_seconds,
    checked_fetch_seconds,
)
from .models import PageContent
from .safety import network_entries, private_allowed

if TYPE_CHECKING:
    from ..browser import HeadlessBrowser
    from ..env_proxies import EnvironmentProxies
    from ..settings import Settings
    from ..state.base import StateStore

__all__ = [
    "DEFAULT_FETCH_SECONDS",
    "MAX_FETCH_SECONDS",
    "call_seconds",
    "checked_fetch_seconds",
    "fetch_pages",
    "options_for",
]


def options_for(
    settings: "Settings",
    *,
    allow_private_addresses: bool | None,
    allowed_networks: Sequence[str],
    max_bytes: int | None,
    use_cache: bool,
    use_browser: bool,
) -> FetchOptions:
    """The fetch policy of one call: its arguments over the environment over defaults."""
    proxy = settings.proxy.get_secret_value() if settings.proxy is not None else None
    return FetchOptions(
        allow_private_addresses=private_allowed(allow_private_addresses),
        allowed_networks=network_entries(allowed_networks),
        max_bytes=max_bytes if max_bytes is not None else DEFAULT_MAX_PAGE_BYTES,
        use_cache=use_cache and settings.cache,
        use_browser=use_browser,
        cache_ttl_seconds=settings.cache_ttl_seconds,
        state_wait_seconds=settings.state_wait_seconds,
        proxy=proxy,
    )


async def fetch_pages(
    urls: Sequence[str],
    *,
    options: FetchOptions,
    store: "StateStore | None",
    browser: "HeadlessBrowser | None",
    seconds: float,
    remaining: float | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    proxies: "EnvironmentProxies | None" = None,
    secrets: Callable[[], Iterable[str]] | None = None,
) -> list[PageContent | FetchError]:
    """Fetch ``urls`` with one fetcher (one connection pool) for the call.

    A process-wide browser set with :func:`~websearch_core.browser.set_default_browser`
    is preferred over the client's own, as for searches. ``proxies`` and ``secrets`` are
    the client's (see :class:`PageFetcher`): its environment proxy chooser, which hands
    the proxy's credentials to its credentials, and every secret it knows. ``remaining``
    is what the call has left of its ``seconds`` (its first fetch imported this module).
    """
    shared = get_default_browser()
    if shared is not None and shared.is_usable_here():
        browser = shared
    async with PageFetcher(
        options, store=store, browser=browser, proxies=proxies, secrets=secrets
    ) as fetcher:
        return await fetcher.fetch_many(
            urls, timeout_seconds=seconds, concurrency=concurrency, remaining=remaining
        )
