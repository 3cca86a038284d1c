"""Whether a search's failures say this machine is offline rather than its providers failing.

Two or more providers all failing the same way before anything reached them is this
machine's network, not the providers: every host name unresolved (no connection, no DNS),
every connection refused or without a route (a firewall, a captive portal), or every one
refused by the proxy this machine is set to use. The chain adds the hint for that cause to
its error, and the ledger counts none of those failures towards a circuit breaker, so the
first search once the network is back asks the providers again. One host alone may be a
mistyped base URL or a provider that is down, the user's or the provider's failure to see,
so it takes two; and a provider that answered (or failed another way) shows the network
works, so the failures beside it count.

A reset connection or a timeout reached (or may have reached) some host, and a working
network gives those for one provider's outage too: they never make the machine offline.
"""

from collections.abc import Iterable

from ..errors import HostNotReachedError, ProviderNotConfiguredError
from .ledger import ProviderSkippedError

__all__ = ["OFFLINE_MIN_PROVIDERS", "is_unreached", "machine_offline", "offline_cause"]

OFFLINE_MIN_PROVIDERS = 2
"""Providers that must all fail alike, unreached, before the machine is the one to blame."""

_UNSENT = (ProviderSkippedError, ProviderNotConfiguredError)
"""Failures that sent nothing (a cooldown, a budget, a missing key): they tell nothing."""


def is_unreached(error: BaseException) -> bool:
    """``error`` reached no host (unresolved, refused, no route): whose failure it is waits."""
    return isinstance(error, HostNotReachedError)


def asked(errors: Iterable[BaseException]) -> list[BaseException]:
    """The failures of providers that were asked: skips and missing setups sent nothing."""
    return [error for error in errors if not isinstance(error, _UNSENT)]


def offline_cause(errors: Iterable[BaseException]) -> str | None:
    """How this machine failed to reach two or more providers alike, else ``None``.

    Args:
        errors: Every failure of one search (or one fan-out); skips and providers that
            could not run sent nothing, so they neither count nor spoil it. The Public
            Web aggregate whose engines all failed so counts as the engines it asked.

    Returns:
        The common :attr:`~websearch_core.errors.HostNotReachedError.cause` (``dns``,
        ``connect`` or ``proxy``) when every provider asked failed with it; ``None`` when
        fewer than two were, or any failed another way (it reached its host: the network
        works).
    """
    causes: set[str] = set()
    hosts = 0
    for error in asked(errors):
        if not isinstance(error, HostNotReachedError):
            return None
        causes.add(error.cause)
        hosts += error.hosts  # an aggregate's failure counts each engine it asked
    if len(causes) != 1 or hosts < OFFLINE_MIN_PROVIDERS:
        return None
    return causes.pop()


def machine_offline(errors: Iterable[BaseException]) -> bool:
    """Two or more providers were asked, and every one failed alike before reaching it."""
    return offline_cause(errors) is not None
