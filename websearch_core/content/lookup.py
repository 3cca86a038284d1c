"""Resolve a host name and keep its addresses only when every one of them may be fetched.

Outside aiohttp (whose connector has :class:`~websearch_core.content.resolver.SafeResolver`)
two places look names up: the browser's request guard, which refuses a request early with
its URL, and the browser's loopback proxy (:mod:`.egress`), which connects to the address it
checked. Both call :func:`checked_addresses`, so the rule and its words are the same.
"""

import asyncio
import socket
from dataclasses import dataclass
from typing import Any

from .errors import FetchFailedError, FetchRefusedError
from .safety import Networks, resolved_problem

__all__ = ["CheckedAddress", "checked_addresses"]


@dataclass(frozen=True, slots=True)
class CheckedAddress:
    """One address a name resolved to, as a socket connects to it.

    Attributes:
        family: ``AF_INET`` or ``AF_INET6``.
        sockaddr: The address tuple ``getaddrinfo`` gave (with the port asked for).
    """

    family: socket.AddressFamily
    sockaddr: tuple[Any, ...]


async def checked_addresses(
    url: str, host: str, port: int, allowed: Networks, *, allow_private: bool = False
) -> list[CheckedAddress]:
    """The addresses of ``host``, or a refusal when the rules refuse any of them.

    Every address is judged, not only the first: a name with one public and one private
    address would otherwise reach the private one when the first does not answer.

    Args:
        url: What the refusal names (the request being checked).
        host: The name or IP literal to resolve.
        port: The port to connect to (carried in each ``sockaddr``).
        allowed: Networks allowed although not public.
        allow_private: Allow non-public addresses, cloud metadata services excepted.

    Raises:
        FetchRefusedError: An address is refused (``kind="address"``).
        FetchFailedError: The name does not resolve.
    """
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        reason = f"{host} could not be resolved ({error})"
        # A name no resolver can encode is the URL's fault, not this machine's network.
        unreached = "dns" if isinstance(error, OSError) else None
        raise FetchFailedError(url, reason, unreached=unreached) from None
    problem = resolved_problem(infos, allowed, allow_private=allow_private)
    if problem:
        raise FetchRefusedError(url, f"{host} resolves to {problem}", "address")
    found: list[CheckedAddress] = []
    for family, _type, _proto, _name, sockaddr in infos:
        if family in (socket.AF_INET, socket.AF_INET6):
            address = CheckedAddress(socket.AddressFamily(family), sockaddr)
            if address not in found:
                found.append(address)
    if not found:
        raise FetchFailedError(url, f"{host} has no IPv4 or IPv6 address")
    return found
