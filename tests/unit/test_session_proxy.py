"""A caller's session's own proxy, read from aiohttp's private slot, never guessed.

aiohttp keeps ``ClientSession(proxy=...)`` in ``_default_proxy`` and offers no public
reader. These tests take that slot away, or put a value of a new kind in it, on a real
session (what a later aiohttp could look like to our read), and check that the transport
then neither fails nor reads a proxy it was not given, and says once that it could not check.
"""

from collections.abc import AsyncIterator

import aiohttp
import pytest
from yarl import URL

from websearch_core.errors import SearchProviderError
from websearch_core.session_proxy import UNREADABLE, session_proxy
from websearch_core.transport import Transport

LOOPBACK = "http://127.0.0.1:8123/search"
REMOTE_PROXY = "http://proxy.example.invalid:3128"


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    """A real session; its proxy slot is put back before it closes."""
    made = aiohttp.ClientSession()
    yield made
    object.__setattr__(made, "_default_proxy", None)
    await made.close()


def _transport(session: aiohttp.ClientSession) -> Transport:
    return Transport(session, timeout_seconds=5, max_response_bytes=1 << 20)


async def test_the_shapes_aiohttp_stores_are_read() -> None:
    async with aiohttp.ClientSession() as plain:
        assert session_proxy(plain) is None
    async with aiohttp.ClientSession(proxy=REMOTE_PROXY) as given:
        assert session_proxy(given) == REMOTE_PROXY
    async with aiohttp.ClientSession(proxy=URL(REMOTE_PROXY)) as as_url:
        assert session_proxy(as_url) == REMOTE_PROXY


@pytest.mark.parametrize(
    "shape", ["gone", "a pair", "a number"], ids=["slot gone", "pair", "number"]
)
async def test_a_slot_aiohttp_no_longer_fills_is_unreadable_and_said_once(
    shape: str, session: aiohttp.ClientSession, caplog: pytest.LogCaptureFixture
) -> None:
    if shape == "gone":
        del session._default_proxy
    else:
        value: object = (REMOTE_PROXY, None) if shape == "a pair" else 3128
        object.__setattr__(session, "_default_proxy", value)
    assert session_proxy(session) is UNREADABLE
    transport = _transport(session)
    with caplog.at_level("WARNING", logger="websearch_core.transport"):
        # Sent as the session sends it: no refusal built from a value not understood.
        assert transport._proxy_for("codex", "Codex", LOOPBACK) is None
        assert transport._proxy_for("codex", "Codex", LOOPBACK) is None
        assert transport._proxy_for("brave", "Brave", "https://api.example.com/") is None
    said = [r.getMessage() for r in caplog.records if r.name == "websearch_core.transport"]
    assert len(said) == 1, said
    assert "could not read the proxy of the HTTP session" in said[0]
    assert f"aiohttp {aiohttp.__version__}" in said[0]
    assert "loopback address 127.0.0.1" in said[0]


async def test_a_readable_remote_proxy_still_refuses_a_loopback_request() -> None:
    async with aiohttp.ClientSession(proxy=URL(REMOTE_PROXY)) as given:
        with pytest.raises(
            SearchProviderError, match=r"through the proxy http://proxy\.example\.invalid:3128"
        ):
            _transport(given)._proxy_for("codex", "Codex", LOOPBACK)
