"""The page fetcher's DNS resolver: names that resolve to a non-public address are refused.

Kept apart from :mod:`websearch_core.content.safety` (the address rules, plain Python)
because it subclasses aiohttp's resolver: only the fetcher, which needs aiohttp anyway,
loads it, so checking a URL does not import the HTTP stack.
"""

import socket

from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver

from .errors import FetchRefusedError
from .safety import Networks, address_refusal

__all__ = ["SafeResolver"]


class SafeResolver(AbstractResolver):
    """A resolver that refuses host names resolving to a non-public address.

    Args:
        allow_private: Allow non-public addresses, cloud metadata services excepted.
        allowed: Networks allowed although not public.
        resolver: The resolver doing the lookups (aiohttp's default when omitted).
    """

    def __init__(
        self,
        *,
        allow_private: bool,
        allowed: Networks = (),
        resolver: AbstractResolver | None = None,
    ) -> None:
        self._allow_private = allow_private
        self._allowed = allowed
        self._resolver = resolver if resolver is not None else DefaultResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        """Resolve ``host``; refuse it when any of its addresses may not be fetched.

        Every address is checked, not only the first: a name with one public and one
        private address would otherwise reach the private one on a connection retry.
        With private addresses allowed the answers are still checked, for metadata
        services: a name an attacker controls can resolve to 169.254.169.254.

        Raises:
            FetchRefusedError: The name resolves to an address the rules refuse.
        """
        results = await self._resolver.resolve(host, port, family)
        for result in results:
            refusal = address_refusal(
                result["host"], self._allowed, allow_private=self._allow_private
            )
            if refusal:
                raise FetchRefusedError(
                    f"http://{host}/", f"{host} resolves to {result['host']}, {refusal}", "address"
                )
        return results

    async def close(self) -> None:
        """Close the wrapped resolver."""
        await self._resolver.close()
