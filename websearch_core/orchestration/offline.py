"""Whether a search's failures say this machine is offline rather than its providers failing.

Two or more providers' host names all failing to resolve is this machine's network (no
connection, no DNS, a proxy it must use), not the providers: the chain adds the offline
hint to its error, and the ledger counts none of those failures towards a circuit breaker,
so the first search once the network is back asks the providers again. One host alone may
be a mistyped base URL, the user's failure to see, so it takes two.

Only a name that did not resolve tells the machine apart from the provider: a refused or
reset connection, or a timeout, reached (or may have reached) some host, and a working
network gives those for one provider's outage too.
"""

from collections.abc import Iterable

from ..errors import HostNotFoundError, ProviderNotConfiguredError
from .ledger import ProviderSkippedError

__all__ = ["OFFLINE_MIN_PROVIDERS", "is_unresolved", "machine_offline"]

OFFLINE_MIN_PROVIDERS = 2
"""Providers whose hosts must all fail to resolve before the machine is the one to blame."""

_UNSENT = (ProviderSkippedError, ProviderNotConfiguredError)
"""Failures that sent nothing (a cooldown, a budget, a missing key): they tell nothing."""


def is_unresolved(error: BaseException) -> bool:
    """``error`` is a host name that did not resolve: whose failure it is waits for the rest."""
    return isinstance(error, HostNotFoundError)


def machine_offline(errors: Iterable[BaseException]) -> bool:
    """Two or more providers were asked, and not one of their host names resolved.

    Args:
        errors: Every failure of one search (or one fan-out); skips and providers that
            could not run sent nothing, so they neither count nor spoil it. The Public
            Web aggregate whose engines all failed so counts as the engines it asked.
    """
    asked = [error for error in errors if not isinstance(error, _UNSENT)]
    hosts = 0
    for error in asked:
        if not isinstance(error, HostNotFoundError):
            return False
        hosts += error.hosts  # an aggregate's failure counts each engine it asked
    return hosts >= OFFLINE_MIN_PROVIDERS
