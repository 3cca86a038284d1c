"""The browser's egress proxy alone: what it forwards, what it refuses, and what it closes.

A client here is a raw socket speaking what Chromium speaks to a proxy: ``CONNECT
host:port`` and absolute-form ``GET http://host/path``. Only 127.0.0.1 is allowed, so
127.0.0.2 (a loopback address like any other) stands for every forbidden address.
"""

import asyncio
import logging
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from tests.content._egress_talk import EGRESS_ALLOWED, SECONDS, ask_proxy, open_proxy
from tests.content._server import PageServer
from tests.refused_port import refused_port
from websearch_core.content import FetchRefusedError
from websearch_core.content.egress import EgressProxy


class _EchoServer:
    """A TCP server on 127.0.0.1 that echoes, and notes when a connection ends."""

    def __init__(self) -> None:
        self.port = 0
        self.ended = asyncio.Event()
        self._server: asyncio.Server | None = None

    async def _echo(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(4096):
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            self.ended.set()
            writer.close()

    async def __aenter__(self) -> "_EchoServer":
        self._server = await asyncio.start_server(self._echo, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    async def __aexit__(self, *_exc: object) -> None:
        assert self._server is not None
        self._server.close()


@pytest_asyncio.fixture
async def echo() -> AsyncIterator[_EchoServer]:
    async with _EchoServer() as server:
        yield server


# --- CONNECT -----------------------------------------------------------------------------------


async def test_connect_to_an_allowed_address_opens_a_tunnel(
    proxy: EgressProxy, server: PageServer
) -> None:
    server.page("/page", "through the tunnel", "text/plain")
    reader, writer = await open_proxy(proxy)
    writer.write(f"CONNECT 127.0.0.1:{server.port} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    async with asyncio.timeout(SECONDS):
        assert await reader.readuntil(b"\r\n\r\n") == b"HTTP/1.1 200 Connection Established\r\n\r\n"
        writer.write(b"GET /page HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = await reader.read()
    writer.close()
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"through the tunnel")
    assert server.hits["/page"] == 1


async def test_connect_to_a_refused_address_is_403_and_reported(
    proxy: EgressProxy, other: PageServer, refusals: list[FetchRefusedError]
) -> None:
    answer = await ask_proxy(proxy, f"CONNECT 127.0.0.2:{other.port} HTTP/1.1\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 403 Forbidden\r\n")
    assert b"127.0.0.2 is a loopback address" in answer
    assert [(r.kind, r.url) for r in refusals] == [("address", f"https://127.0.0.2:{other.port}/")]
    assert "127.0.0.2 is a loopback address" in refusals[0].reason
    assert not other.hits


async def test_a_name_is_refused_for_the_address_the_proxy_resolved_it_to(
    proxy: EgressProxy, refusals: list[FetchRefusedError], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = socket.getaddrinfo

    def rebound(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        return real("127.0.0.2" if host == "rebind.test" else host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebound)
    answer = await ask_proxy(proxy, b"CONNECT rebind.test:443 HTTP/1.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 403 ")
    assert b"rebind.test resolves to 127.0.0.2, a loopback address" in answer
    assert refusals[0].url == "https://rebind.test/"


async def test_a_metadata_address_is_refused_without_a_connection(proxy: EgressProxy) -> None:
    answer = await ask_proxy(proxy, b"CONNECT 169.254.169.254:80 HTTP/1.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 403 ") and b"a cloud metadata address" in answer


async def test_an_allowed_address_that_does_not_answer_is_502(proxy: EgressProxy) -> None:
    port = refused_port()
    answer = await ask_proxy(proxy, f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 502 Bad Gateway\r\n")
    assert f"127.0.0.1:{port} did not accept a connection".encode() in answer


async def test_a_tunnel_ends_both_ways_when_the_browser_leaves(
    proxy: EgressProxy, echo: _EchoServer
) -> None:
    reader, writer = await open_proxy(proxy)
    writer.write(f"CONNECT 127.0.0.1:{echo.port} HTTP/1.1\r\n\r\n".encode())
    async with asyncio.timeout(SECONDS):
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"ping")
        assert await reader.readexactly(4) == b"ping"
        writer.close()
        await echo.ended.wait()  # the proxy closed its side to the server too


async def test_closing_the_proxy_ends_the_tunnels_still_open(echo: _EchoServer) -> None:
    proxy = EgressProxy(EGRESS_ALLOWED)
    await proxy.__aenter__()
    reader, writer = await open_proxy(proxy)
    writer.write(f"CONNECT 127.0.0.1:{echo.port} HTTP/1.1\r\n\r\n".encode())
    async with asyncio.timeout(SECONDS):
        await reader.readuntil(b"\r\n\r\n")
        await proxy.aclose()
        assert await reader.read() == b""  # the browser's side is closed
        await echo.ended.wait()  # and the server's
    writer.close()
    with pytest.raises(RuntimeError, match="not running"):
        _ = proxy.url


# --- plain http ----------------------------------------------------------------------------


async def test_plain_http_goes_in_origin_form_and_only_one_request_per_connection(
    proxy: EgressProxy, server: PageServer, other: PageServer
) -> None:
    seen: list[web.Request] = []

    async def record(request: web.Request) -> web.Response:
        seen.append(request)
        return web.Response(text="first answer")

    server.route("/seen", record)
    first = (
        f"GET http://127.0.0.1:{server.port}/seen?q=1 HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{server.port}\r\nProxy-Connection: keep-alive\r\n"
        "Connection: keep-alive, X-Dropped\r\nX-Dropped: 1\r\nX-Kept: yes\r\n\r\n"
    )
    # A second request on the same connection, to an address the rules refuse: a proxy
    # that kept the connection to the first server would hand it this request.
    second = f"GET http://127.0.0.2:{other.port}/other HTTP/1.1\r\nHost: 127.0.0.2\r\n\r\n"
    answer = await ask_proxy(proxy, (first + second).encode())
    assert answer.count(b"HTTP/1.1 ") == 1 and answer.endswith(b"first answer")
    assert [r.path_qs for r in seen] == ["/seen?q=1"]
    headers = seen[0].headers
    assert headers["Connection"] == "close" and headers["X-Kept"] == "yes"
    assert "Proxy-Connection" not in headers and "X-Dropped" not in headers
    assert headers["Host"] == f"127.0.0.1:{server.port}"
    assert server.hits == {"/seen": 1} and not other.hits


async def test_a_request_body_is_passed_on_exactly(proxy: EgressProxy, server: PageServer) -> None:
    async def echo_body(request: web.Request) -> web.Response:
        return web.Response(body=await request.read())

    server.route("/post", echo_body)
    request = (
        f"POST http://127.0.0.1:{server.port}/post HTTP/1.1\r\nHost: x\r\n"
        "Content-Length: 5\r\n\r\nhello"
    )
    answer = await ask_proxy(proxy, request.encode())
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"\r\n\r\nhello")


async def test_plain_http_to_a_refused_address_is_403(
    proxy: EgressProxy, other: PageServer, refusals: list[FetchRefusedError]
) -> None:
    url = f"http://127.0.0.2:{other.port}/admin?token=1"
    answer = await ask_proxy(proxy, f"GET {url} HTTP/1.1\r\nHost: 127.0.0.2\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 403 Forbidden\r\n")
    assert answer.endswith(b"refused by the fetcher: " + refusals[0].reason.encode())
    assert refusals[0].url == url and not other.hits


# --- what is not proxied -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_head", "status"),
    [
        (b"GARBAGE\r\n\r\n", b"400"),
        (b"GET /relative HTTP/1.1\r\nHost: a\r\n\r\n", b"400"),
        (b"GET https://example.org/ HTTP/1.1\r\n\r\n", b"400"),
        (b"GET http://127.0.0.1:1/ HTTP/2\r\n\r\n", b"400"),
        (b"GET http://\x1b[31m.test/ HTTP/1.1\r\n\r\n", b"400"),
        (b"CONNECT example.org HTTP/1.1\r\n\r\n", b"400"),
        (b"CONNECT user@example.org:443 HTTP/1.1\r\n\r\n", b"400"),
        (b"GET http://127.0.0.1:1/ HTTP/1.1\r\nX: a\r\n folded\r\n\r\n", b"400"),
        (b"GET http://127.0.0.1:1/ HTTP/1.1\r\nX: a\nInjected: b\r\n\r\n", b"400"),
        (b"GET http://127.0.0.1:1/ HTTP/1.1\r\nContent-Length: -1\r\n\r\n", b"400"),
        ("GET http://127.0.0.1:1/ HTTP/1.1\r\nContent-Length: ²\r\n\r\n".encode("latin-1"), b"400"),
        (b"POST http://127.0.0.1:1/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", b"501"),
    ],
)
async def test_anything_but_plain_proxy_requests_is_answered_and_closed(
    proxy: EgressProxy, request_head: bytes, status: bytes
) -> None:
    answer = await ask_proxy(proxy, request_head)
    assert answer.startswith(b"HTTP/1.1 " + status + b" ")


async def test_an_oversized_request_head_is_431() -> None:
    async with EgressProxy(EGRESS_ALLOWED, max_head_bytes=1024) as proxy:
        head = b"GET http://127.0.0.1:1/ HTTP/1.1\r\nX-Big: " + b"a" * 2048 + b"\r\n\r\n"
        answer = await ask_proxy(proxy, head)
    assert answer.startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n")
    assert b"over the 1024-byte limit" in answer


async def test_a_browser_that_leaves_mid_request_leaves_nothing_behind(
    proxy: EgressProxy, server: PageServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    reader, writer = await open_proxy(proxy)
    writer.write(b"GET http://127.0.0.1:1/ HTTP/1.1\r\nHost: a\r\n")  # no blank line yet
    await writer.drain()
    writer.close()
    async with asyncio.timeout(SECONDS):
        assert await reader.read() == b""
    # The proxy still serves, and nothing was logged as an unhandled error.
    server.page("/after", "still serving", "text/plain")
    after = f"GET http://127.0.0.1:{server.port}/after HTTP/1.1\r\n\r\n"
    answer = await ask_proxy(proxy, after.encode())
    assert answer.endswith(b"still serving")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_head_that_never_ends_is_dropped_after_the_head_timeout() -> None:
    async with EgressProxy(EGRESS_ALLOWED, head_timeout=0.2) as proxy:
        reader, writer = await open_proxy(proxy)
        writer.write(b"GET http://127.0.0.1:1/ HTTP/1.1\r\n")
        async with asyncio.timeout(SECONDS):
            assert await reader.read() == b""
        writer.close()
