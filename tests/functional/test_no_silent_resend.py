"""A request is never sent twice behind the ledger's back when a kept-alive connection drops.

aiohttp re-sends a GET once, silently, when a reused connection turns out closed; its only
switch is private (``ClientSession._retry_connection``). The server here answers the
first request on each connection and drops the connection at the second, so a silent
re-send shows as one arrival more than the searches made. Brave's answer is a real capture.
"""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.conftest import read_capture
from websearch_core import WebSearch
from websearch_core.own_session import stop_silent_resends
from websearch_core.testing import Simulator


class DroppingServer:
    """Answers each connection's first request, drops it at the next; counts arrivals."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.arrivals = 0
        self.url = ""
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> "DroppingServer":
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readuntil(b"\r\n\r\n")
            self.arrivals += 1
            head = (
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(self.body)}\r\nConnection: keep-alive\r\n\r\n"
            )
            writer.write(head.encode() + self.body)
            await writer.drain()
            await reader.readuntil(b"\r\n\r\n")
            self.arrivals += 1  # the second request on this connection: dropped unanswered
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


@pytest.fixture
async def server() -> AsyncIterator[DroppingServer]:
    async with DroppingServer(read_capture("brave/web_search_laravel_2024.json")) as running:
        yield running


async def _searches(server: DroppingServer) -> list[Any]:
    async with Simulator(["brave"]) as sim:
        settings = sim.settings(base_urls={"brave": server.url})
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            return [await ws.run(query, provider="brave") for query in ("laravel", "php")]


async def test_a_dropped_kept_alive_connection_is_not_sent_to_again(
    server: DroppingServer,
) -> None:
    results = await _searches(server)
    assert results[0].error is None, results[0].error
    assert results[1].error is not None  # its kept-alive connection was dropped...
    assert server.arrivals == len(results)  # ...and it was not sent again


async def test_an_aiohttp_whose_switch_no_longer_takes_sends_each_request_once(
    server: DroppingServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A release where the private switch is still there but setting it no longer takes
    # effect (it reads its value elsewhere): the session then reuses no connection.
    monkeypatch.setattr(
        aiohttp.ClientSession,
        "_retry_connection",
        property(lambda self: True, lambda self, value: None),
        raising=False,
    )
    results = await _searches(server)
    assert [result.error for result in results] == [None, None]
    assert server.arrivals == len(results)


async def test_a_switch_gone_or_of_a_new_kind_is_not_set() -> None:
    async with aiohttp.ClientSession() as session:
        assert stop_silent_resends(session)
        assert session._retry_connection is False
        del session._retry_connection
        assert not stop_silent_resends(session)
        assert not hasattr(session, "_retry_connection")
        object.__setattr__(session, "_retry_connection", "sometimes")
        assert not stop_silent_resends(session)
        session._retry_connection = False  # as aiohttp reads it, for the close
