"""A loopback endpoint is reached directly, never through a proxy (a sign-in's clear-text leak).

A sign-in may go to a loopback base URL over plain http (the simulator, a local gateway),
since it never leaves the machine. Through a proxy it would: the proxy received the bearer
token in clear text, and it then reached the proxy's own loopback, not this machine's. As
Go's and Chromium's proxy rules have it, a loopback host is never proxied. The simulator
plays the proxy and counts what arrives.
"""

from pathlib import Path

import aiohttp
import pytest

from tests.proxied_sign_ins import stored_sign_in
from websearch_core import WebSearch
from websearch_core.testing import Simulator

QUERY = "python asyncio"
ACCESS = "codex-stored-access-token-0123456789"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A credentials file holding a valid Codex sign-in whose access token is :data:`ACCESS`."""
    return stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS, refresh_token="r")


def _seen(sim: Simulator, provider_id: str) -> str:
    """Everything ``sim`` received for ``provider_id``, as one text."""
    return " ".join(f"{r.path} {dict(r.headers)}" for r in sim[provider_id].requests)


@pytest.mark.parametrize("how", ["setting", "environment"])
async def test_a_loopback_endpoint_is_not_proxied(
    how: str, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Simulator(["codex"]) as sim, Simulator(["brave"]) as proxy:
        through = proxy["brave"].base_url
        if how == "setting":
            settings = sim.settings(proxy=through, credentials_file=store)
        else:
            monkeypatch.setenv("HTTP_PROXY", through)
            settings = sim.settings(credentials_file=store)
        async with WebSearch(settings, api_keys={}) as ws:
            result = await ws.run(QUERY, provider="codex")
    assert proxy["brave"].requests == [], "the proxy received the sign-in"
    assert result.error is None, result.error
    assert ACCESS in _seen(sim, "codex")


@pytest.mark.parametrize("how", ["environment", "session"])
async def test_a_callers_session_never_sends_loopback_to_a_remote_proxy(
    how: str, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # aiohttp cannot be told to send one request past a session's proxy: the request is
    # refused before it is sent, naming the way out and the proxy without its password.
    remote = "http://user:hunter2@proxy.example.invalid:3128"
    async with Simulator(["codex"]) as sim:
        settings = sim.settings(credentials_file=store)
        if how == "environment":
            monkeypatch.setenv("HTTP_PROXY", remote)
            session = aiohttp.ClientSession(trust_env=True)
        else:
            session = aiohttp.ClientSession(proxy=remote)
        async with session, WebSearch(settings, api_keys={}, session=session) as ws:
            result = await ws.run(QUERY, provider="codex")
    assert sim["codex"].requests == []
    assert result.error is not None
    assert "request was not sent" in result.error, result.error
    assert "through the proxy http://proxy.example.invalid:3128" in result.error
    assert "add 127.0.0.1 to NO_PROXY" in result.error
    assert "hunter2" not in result.error


async def test_a_remote_endpoint_still_goes_through_the_proxy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Only loopback is exempt: Brave's real host is unreachable here, so an answer proves
    # the request went to the proxy.
    async with Simulator(["brave"]) as sim:
        monkeypatch.setenv("HTTP_PROXY", sim["brave"].base_url)
        settings = sim.settings(base_urls={"brave": "http://api.search.brave.invalid"})
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            result = await ws.run(QUERY, provider="brave")
    assert result.error is None, result.error
    assert len(sim["brave"].requests) == 1


async def test_a_callers_session_with_its_own_and_the_environments_proxy_uses_its_own(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # aiohttp sends through ``ClientSession(proxy=...)`` even when the session trusts the
    # environment, so that proxy is the one checked, not the environment's (here none).
    monkeypatch.delenv("HTTP_PROXY", raising=False)
    remote = "http://proxy.example.invalid:3128"
    async with Simulator(["codex"]) as sim:
        settings = sim.settings(credentials_file=store)
        session = aiohttp.ClientSession(proxy=remote, trust_env=True)
        async with session, WebSearch(settings, api_keys={}, session=session) as ws:
            result = await ws.run(QUERY, provider="codex")
    assert sim["codex"].requests == []
    assert result.error is not None
    assert "through the proxy http://proxy.example.invalid:3128" in result.error
