"""The browser's egress proxy reads a request's host as the fetcher's checks read it.

The proxy judged a target with ``check_url`` (the host in its IDNA 2008 form, no root dot)
but looked up and wrote in ``Host`` the host ``urlsplit`` read: ``straße.de`` was judged as
``xn--strae-oqa.de`` and resolved as ``strasse.de`` (the socket module encodes with IDNA
2003), another registered domain. ``socket.getaddrinfo`` is stood in for by a table that
encodes a name as the real one does before reading it, so a lookup of the wrong form
answers the wrong address. The request head is read as Latin-1, so ``ß`` is sent as one
byte. 127.0.0.1 is the allowed address, 127.0.0.2 stands for every forbidden one.
"""

import socket

import pytest
from aiohttp import web

from tests.content._egress_talk import EncodingDns, ask_proxy
from tests.content._server import PageServer
from websearch_core.content import FetchRefusedError
from websearch_core.content.egress import EgressProxy


@pytest.mark.parametrize("method", ["GET", "CONNECT"])
async def test_the_name_looked_up_is_the_name_judged(
    method: str,
    proxy: EgressProxy,
    server: PageServer,
    refusals: list[FetchRefusedError],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The name judged answers a forbidden address; the 2003 form, the allowed server.
    dns = EncodingDns({"strasse.de": "127.0.0.1", "xn--strae-oqa.de": "127.0.0.2"})
    monkeypatch.setattr(socket, "getaddrinfo", dns.getaddrinfo)
    server.page("/inside", "another domain's page", "text/plain")
    if method == "GET":
        head = f"GET http://straße.de:{server.port}/inside HTTP/1.1\r\n\r\n"
    else:
        head = f"CONNECT straße.de:{server.port} HTTP/1.1\r\n\r\n"
    answer = await ask_proxy(proxy, head.encode("latin-1"))
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

    dns = EncodingDns({"strasse.xn--strae-oqa.de": "127.0.0.1"})
    monkeypatch.setattr(socket, "getaddrinfo", dns.getaddrinfo)
    server.route("/host", record)
    head = f"GET http://STRASSE.straße.de.:{server.port}/host HTTP/1.1\r\n\r\n"
    answer = await ask_proxy(proxy, head.encode("latin-1"))
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
    answer = await ask_proxy(proxy, head.encode("latin-1"))
    assert answer.startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert answer.endswith(b"the request target's authority is not host[:port]")
    assert not server.hits and not other.hits


async def test_a_plain_target_is_still_proxied(proxy: EgressProxy, server: PageServer) -> None:
    """A guard: an ASCII host, as Chromium sends every host, reaches the allowed server."""
    server.page("/plain", "plain", "text/plain")
    head = f"GET http://127.0.0.1:{server.port}/plain HTTP/1.1\r\n\r\n"
    answer = await ask_proxy(proxy, head.encode("latin-1"))
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"plain")
    assert server.hits["/plain"] == 1
