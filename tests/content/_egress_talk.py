"""Talking to the egress proxy byte by byte, and a name lookup that encodes as the socket does.

Shared by the egress tests and the fetcher's encoded-host tests, which judge what the proxy
or the fetcher looks up against what its checks read.
"""

import asyncio
import socket
from typing import Any

from websearch_core.content.egress import EgressProxy
from websearch_core.content.safety import parse_networks

EGRESS_ALLOWED = parse_networks(["127.0.0.1/32"])
"""What the egress proxy fixture lets through: 127.0.0.2 stands for every forbidden address."""

SECONDS = 5.0
"""How long a test waits for the proxy's whole answer."""


async def open_proxy(proxy: EgressProxy) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to ``proxy``'s loopback port."""
    port = int(proxy.url.rsplit(":", 1)[1])
    return await asyncio.open_connection("127.0.0.1", port)


async def ask_proxy(proxy: EgressProxy, data: bytes) -> bytes:
    """Send ``data``, and read what comes back until the proxy closes the connection."""
    reader, writer = await open_proxy(proxy)
    try:
        writer.write(data)
        async with asyncio.timeout(SECONDS):
            return await reader.read()
    finally:
        writer.close()


class EncodingDns:
    """``socket.getaddrinfo`` answering names from a table, encoding them as it does.

    The socket module encodes a name with IDNA 2003 before looking it up, so a lookup of
    ``straße.de`` asks for ``strasse.de``: the table is read with the name so encoded, and
    a lookup of the wrong form answers the wrong address.
    """

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers
        self.asked: list[str] = []
        self._real = socket.getaddrinfo

    def getaddrinfo(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.encode("idna").decode("ascii") if isinstance(host, str) else host
        self.asked.append(name)
        address = self.answers.get(name)
        if address is None:
            return self._real(host, port, *args, **kwargs)
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port))]
