"""What a fetch call asks for, checked before the page fetcher is imported.

A client's first fetch imports the fetcher and its parsers within the call's deadline
(:meth:`WebSearch.fetch_many <websearch_core.WebSearch.fetch_many>`): the deadline, the
URLs and the concurrency are known and checked first, from this light module, and a call
whose deadline passes during that import refuses its pages as the fetcher refuses a page
whose turn came after the deadline (:func:`too_late`), one text for both.
"""

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..settings_limits import MAX_DEADLINE_SECONDS
from .errors import FetchTimeoutError

if TYPE_CHECKING:
    from ..settings import Settings

__all__ = [
    "DEFAULT_FETCH_SECONDS",
    "MAX_FETCH_SECONDS",
    "call_seconds",
    "checked_concurrency",
    "checked_fetch_seconds",
    "page_urls",
    "too_late",
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


def page_urls(urls: Iterable[str]) -> list[str]:
    """The URLs of one ``fetch_many`` call, refusing a lone string.

    A string is a sequence of its characters: one URL passed as ``urls`` was fetched as
    dozens of one-letter URLs (``h``, ``t``, ``t``, ``p`` ...), each refused for having no
    scheme, and the caller got a list of errors naming none of the mistake.

    Raises:
        TypeError: ``urls`` is a ``str`` (or ``bytes``), not a list of them.

    Example:
        >>> page_urls(("https://a.example/",))
        ['https://a.example/']
    """
    if isinstance(urls, str | bytes):
        raise TypeError(
            "fetch_many takes a list of URLs, not one string: "
            "pass [url], or call fetch(url) for one page"
        )
    return list(urls)


def checked_concurrency(concurrency: int) -> int:
    """``concurrency`` as pages fetched at once, or a ``ValueError`` (below 1).

    Example:
        >>> checked_concurrency(4)
        4
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    return concurrency


def too_late(url: str, seconds: float) -> FetchTimeoutError:
    """The error of a page whose turn came after the call's ``seconds`` s deadline had passed.

    Example:
        >>> str(too_late("https://a.example/", 3.0)).endswith("deadline passed before its turn")
        True
    """
    return FetchTimeoutError(url, f"the {seconds:g} s deadline passed before its turn")
