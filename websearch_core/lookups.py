"""Which host names the client's own session is still looking up: a timeout's cause.

A DNS server that never answers leaves the system resolver (aiohttp's threaded
``getaddrinfo``) waiting until it gives the name up by itself, after resolv.conf's
``timeout`` x ``attempts`` per name server (5 s x 2 by glibc's defaults). A provider's
``timeout_seconds`` shorter than that ends first, and aiohttp raises the same bare
``TimeoutError`` as for a provider slow to answer: read so, every provider's attempt counted
towards its breaker on a machine whose DNS was down, and each breaker opened.

:class:`PendingLookups` wraps the session's resolver and keeps a count per host name of the
lookups under way. aiohttp runs a lookup in a task of its own, shielded from the request's
cancellation (its DNS cache is on), so when a request times out during its lookup the
lookup is still counted here: the transport then reads that timeout as a host not reached
(:class:`~websearch_core.errors.HostNotFoundError`), which the offline rule decides on
(:mod:`~websearch_core.orchestration.offline`). Only a lookup costs anything (a dict
update before and after it, a few per minute behind aiohttp's DNS cache); a request
sent on a pooled connection or a cached address never comes here, and nothing is read
unless a request timed out.

A resolver is part of a session's connector, so only a session this package opens carries
one; a caller's session keeps its timeouts as timeouts.
"""

import socket
from collections import Counter

from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver

__all__ = ["PendingLookups", "system_resolver"]


def system_resolver() -> AbstractResolver:
    """The resolver the client's own session asks: aiohttp's default (``getaddrinfo``).

    One place that names it, so a test stands a silent name server in its stead.
    """
    return DefaultResolver()


class PendingLookups(AbstractResolver):
    """A resolver that counts the lookups of each host name still under way.

    Args:
        resolver: The resolver doing the lookups; closed with this one.
    """

    def __init__(self, resolver: AbstractResolver) -> None:
        self._resolver = resolver
        self._pending: Counter[str] = Counter()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        """Resolve ``host`` through the wrapped resolver, counted while it has no answer."""
        pending = self._pending
        name = host.rstrip(".")  # counted as a URL's is read: ``example.org.`` is the same
        pending[name] += 1
        try:
            return await self._resolver.resolve(host, port, family)  # the dot is DNS's
        finally:
            left = pending[name] - 1
            if left:
                pending[name] = left
            else:
                del pending[name]

    def pending(self, *hosts: str | None) -> bool:
        """Whether a lookup of any of ``hosts`` (``None`` skipped) has no answer yet."""
        return any(host is not None and host.rstrip(".") in self._pending for host in hosts)

    async def close(self) -> None:
        """Close the wrapped resolver."""
        await self._resolver.close()
