"""The glue between :class:`~websearch_core.WebSearch` and the page fetcher.

Kept here so the client holds only thin ``fetch`` / ``fetch_many`` methods: which options
a call gets from the settings, the environment and its own arguments, and which store and
browser it uses.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..browser import get_default_browser
from ..settings_limits import MAX_DEADLINE_SECONDS
from .errors import FetchError
from .fetch import DEFAULT_CONCURRENCY, DEFAULT_MAX_PAGE_BYTES, FetchOptions, PageFetcher
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

DEFAULT_FETCH_SECONDS = 30.0
"""A fetch call's deadline when neither the call nor the settings give one."""
MAX_FETCH_SECONDS = MAX_DEADLINE_SECONDS
"""The longest deadline a fetch call takes: a whole search's longest."""


def checked_fetch_seconds(seconds: float, name: str = "timeout_seconds") -> float:
    """``seconds`` as a fetch's deadline, or a ``ValueError`` saying what is wrong with it.

    A search refuses a deadline that is not finite or is over 900 s; a fetch took ``inf``
    and ``1e9`` (``websearch fetch --timeout inf``) and would then wait on a silent server
    for ever. One rule for the library call and the command.

    Args:
        seconds: The deadline asked for.
        name: What the message calls it (empty where the caller names it, as argparse
            does an option).

    Raises:
        ValueError: ``seconds`` is not a number more than 0 and at most 900.

    Example:
        >>> checked_fetch_seconds(2)
        2.0
    """
    if not 0 < seconds <= MAX_FETCH_SECONDS:  # False for NaN too
        subject = f"{name} " if name else ""
        raise ValueError(
            f"{subject}must be more than 0 and at most {MAX_FETCH_SECONDS:g}, got {seconds:g}"
        )
    return float(seconds)


def call_seconds(settings: "Settings", timeout_seconds: float | None) -> float:
    """The call's deadline: the argument, else the sooner of the settings' deadline and timeout.

    A configured ``timeout_seconds`` (a tool's ``timeout_seconds=2``) bounds a fetch as it
    bounds each provider's request: the 55 s call deadline alone let a page that never
    answers hold an agent for 55 s.

    Raises:
        ValueError: ``timeout_seconds`` is not a positive number of at most 900 seconds.
    """
    if timeout_seconds is not None:
        return checked_fetch_seconds(timeout_seconds)
    limits = [
        float(limit)
        for limit in (getattr(settings, "deadline_seconds", None), settings.timeout_seconds)
        if limit
    ]
    return min(limits) if limits else DEFAULT_FETCH_SECONDS


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
    concurrency: int = DEFAULT_CONCURRENCY,
    proxies: "EnvironmentProxies | None" = None,
    secrets: Callable[[], Iterable[str]] | None = None,
) -> list[PageContent | FetchError]:
    """Fetch ``urls`` with one fetcher (one connection pool) for the call.

    A process-wide browser set with :func:`~websearch_core.browser.set_default_browser`
    is preferred over the client's own, as for searches. ``proxies`` and ``secrets`` are
    the client's (see :class:`PageFetcher`): its environment proxy chooser, which hands
    the proxy's credentials to its credentials, and every secret it knows.
    """
    shared = get_default_browser()
    if shared is not None and shared.is_usable_here():
        browser = shared
    async with PageFetcher(
        options, store=store, browser=browser, proxies=proxies, secrets=secrets
    ) as fetcher:
        return await fetcher.fetch_many(urls, timeout_seconds=seconds, concurrency=concurrency)
