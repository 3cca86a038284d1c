"""The browser's egress proxy reads a request's host as the fetcher's checks read it.

The proxy judged a target with ``check_url`` (the host in its IDNA 2008 form, no root dot)
but looked up and wrote in ``Host`` the host ``urlsplit`` read: ``straße.de`` was judged as
``xn--strae-oqa.de`` and resolved as ``strasse.de`` (the socket module encodes with IDNA
2003), another registered domain. ``socket.getaddrinfo`` is stood in for by a table that
encodes a name as the real one does before reading it, so a lookup of the wrong form
answers the wrong address. The request head is read as Latin-1, so ``ß`` is sent as one
byte. 127.0.0.1 is the allowed address, 127.0.0.2 stands for every forbidden one.
"""

import asyncio
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from tests.content._server import PageServer, serve
from websearch_core.content import FetchRefusedError
from websearch_core.content.egress import EgressProxy
from websearch_core.content.safety import parse_networks

_ALLOWED = parse_networks(["127.0.0.1/32"])
_SECONDS = 5.0


class _Dns:
    """``socket.getaddrinfo`` answering names from a table, encoding them as it does."""

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


@pytest_asyncio.fixture
async def other() -> AsyncIterator[PageServer]:
    async for running in serve("127.0.0.2"):
        yield running


@pytest_asyncio.fixture
async def refusals() -> list[FetchRefusedError]:
    return []


@pytest_asyncio.fixture
async def proxy(refusals: list[FetchRefusedError]) -> AsyncIterator[EgressProxy]:
    async with EgressProxy(_ALLOWED, on_refusal=refusals.append) as running:
        yield running


async def _ask(proxy: EgressProxy, data: bytes) -> bytes:
    """Send ``data``, and read what comes back until the proxy closes the connection."""
    port = int(proxy.url.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        async with asyncio.timeout(_SECONDS):
            return await reader.read()
    finally:
        writer.close()


@pytest.mark.parametrize("method", ["GET", "CONNECT"])
async def test_the_name_looked_up_is_the_name_judged(
    method: str,
    proxy: EgressProxy,
    server: PageServer,
    refusals: list[FetchRefusedError],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The name judged answers a forbidden address; the 2003 form, the allowed server.
    dns = _Dns({"strasse.de": "127.0.0.1", "xn--strae-oqa.de": "127.0.0.2"})
    monkeypatch.setattr(socket, "getaddrinfo", dns.getaddrinfo)
    server.page("/inside", "another domain's page", "text/plain")
    if method == "GET":
        head = f"GET http://straße.de:{server.port}/inside HTTP/1.1\r\n\r\n"
    else:
        head = f"CONNECT straße.de:{server.port} HTTP/1.1\r\n\r\n"
    answer = await _ask(proxy, head.encode("latin-1"))
    assert answer.startswith(b"HTTP/1.1 403 Forbidden\r\n")
    assert b"xn--strae-oqa.de resolves to 127.0.0.2, a loopback address" in answer
    assert dns.asked == ["xn--strae-oqa.de"]
    assert [refusal.kind for refusal in refusals] == ["address"]
    assert not server.hits


async def test_the_host_header_names_the_host_as_judged(
    proxy: EgressProxy, server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []

    async def record(request: web.Request) -> web.Response:
        seen.append(request.headers["Host"])
        return web.Response(text="found")

    dns = _Dns({"strasse.xn--strae-oqa.de": "127.0.0.1"})
    monkeypatch.setattr(socket, "getaddrinfo", dns.getaddrinfo)
    server.route("/host", record)
    head = f"GET http://STRASSE.straße.de.:{server.port}/host HTTP/1.1\r\n\r\n"
    answer = await _ask(proxy, head.encode("latin-1"))
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"found")
    assert seen == [f"strasse.xn--strae-oqa.de:{server.port}"]
    assert dns.asked == ["strasse.xn--strae-oqa.de"]


@pytest.mark.parametrize("authority", ["127.0.0.2\\@127.0.0.1", "user@127.0.0.1"])
async def test_a_target_whose_readers_disagree_on_its_host_is_not_proxied(
    authority: str, proxy: EgressProxy, server: PageServer, other: PageServer
) -> None:
    # urlsplit reads 127.0.0.1 (allowed); a browser reads the first as 127.0.0.2.
    server.page("/", "the allowed server", "text/plain")
    other.page("/", "the forbidden server", "text/plain")
    head = f"GET http://{authority}:{server.port}/ HTTP/1.1\r\n\r\n"
    answer = await _ask(proxy, head.encode("latin-1"))
    assert answer.startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert answer.endswith(b"the request target's authority is not host[:port]")
    assert not server.hits and not other.hits


async def test_a_plain_target_is_still_proxied(proxy: EgressProxy, server: PageServer) -> None:
    """A guard: an ASCII host, as Chromium sends every host, reaches the allowed server."""
    server.page("/plain", "plain", "text/plain")
    head = f"GET http://127.0.0.1:{server.port}/plain HTTP/1.1\r\n\r\n"
    answer = await _ask(proxy, head.encode("latin-1"))
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"plain")
    assert server.hits["/plain"] == 1
