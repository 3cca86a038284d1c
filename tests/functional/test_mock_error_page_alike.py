"""``MockTransport`` cuts an error page past the size cap as the real transport does.

The real transport quotes only an error body's head, so one past the cap is cut there,
not refused (refusing it puts "response exceeded" where the status belongs and loses a
429's wait). ``MockTransport`` refused it. Each case sends one reply both ways, once over
a loopback socket the simulator closes after it, once from a handler, and asks the same
of both.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Final

import aiohttp
import pytest

from websearch_core.errors import SearchProviderError
from websearch_core.testing import Fault, MockTransport, Simulator
from websearch_core.transport import HttpRequest, HttpResponse, Transport

URL: Final = "https://api.search.brave.com/res/v1/web/search"
CAP: Final = 2048
Outcome = tuple[str, object]
"""``("reply", (status, body length, Retry-After))`` or ``("failed", (type, text))``."""


@asynccontextmanager
async def _both(status: int, body: bytes) -> AsyncIterator[tuple[Transport, Transport]]:
    headers = {"Content-Type": "application/json", "Retry-After": "7"}
    lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    raw = f"HTTP/1.1 {status} X\r\n{lines}Connection: close\r\n\r\n".encode() + body
    answer = HttpResponse(status=status, body=body, headers=headers)
    async with Simulator(["brave"]) as sim, aiohttp.ClientSession() as session:
        sim["brave"].enqueue(Fault.not_http(raw))
        routes = sim.base_urls()
        real = Transport(session, timeout_seconds=10.0, max_response_bytes=CAP, base_urls=routes)
        yield real, MockTransport(lambda _: answer, max_response_bytes=CAP, base_urls=routes)


async def _outcome(transport: Transport) -> Outcome:
    try:
        got = await transport.send("brave", "Brave", HttpRequest(method="GET", url=URL))
    except SearchProviderError as exc:
        return "failed", (type(exc).__name__, exc.message)
    return "reply", (got.status, len(got.body), got.header("Retry-After"))


@pytest.mark.parametrize("status", [429, 503])
async def test_an_error_page_past_the_cap_is_cut_not_refused(status: int) -> None:
    """Failed before on the mock (``Brave API response exceeded 2 KiB``): the status and
    its ``Retry-After`` were lost to the size refusal."""
    async with _both(status, b'{"error": "' + b"x" * 3000 + b'"}') as (real, mock):
        got = await _outcome(real), await _outcome(mock)
    assert got[0] == ("reply", (status, CAP, "7")), got[0]
    assert got[1] == got[0]


async def test_guard_a_success_past_the_cap_is_refused_both_ways() -> None:
    """A guard (passes before and after): a 200 past the cap is refused alike."""
    async with _both(200, b'{"web": "' + b"x" * 3000 + b'"}') as (real, mock):
        got = await _outcome(real), await _outcome(mock)
    assert got[0] == ("failed", ("ResponseTooLargeError", "Brave API response exceeded 2 KiB"))
    assert got[1] == got[0]
