"""The result cache's scope covers the settings that decide which providers can run.

Which provider answers an automatic search rests on the settings as much as on the keys:
trusting a gateway with a sign-in (``sign_in_gateways``) lets the provider behind it run,
where before it was skipped and the next one answered. That answer, cached, was served
after the change until it expired, so the change seemed to do nothing.
"""

import time
from pathlib import Path
from typing import Any

import pytest

from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.testing import Simulator

QUERY = "python asyncio"
GATEWAY = "http://gateway.example.invalid"


async def test_trusting_a_gateway_misses_the_cache(tmp_path: Path) -> None:
    store = tmp_path / "credentials.json"
    token = OAuthToken(access_token="a" * 24, refresh_token="r", expires_at=time.time() + 3600)
    CredentialStore(store).set_oauth("codex", token)
    async with Simulator(["codex", "brave"]) as sim:
        # The gateway is reached through the simulator playing the proxy.
        shared: dict[str, Any] = {
            "base_urls": {**sim.base_urls(), "codex": GATEWAY},
            "proxy": sim["codex"].base_url,
            "credentials_file": store,
            "state_backend": "sqlite",
            "state_dir": tmp_path,
        }
        keys = {"brave": "BSA0123456789abcdef"}
        async with WebSearch(sim.settings(**shared), api_keys=keys) as ws:
            before = await ws.search(QUERY)
        trusted = sim.settings(**shared, sign_in_gateways=["codex"])
        async with WebSearch(trusted, api_keys=keys) as ws:
            after = await ws.search(QUERY)
    assert (before.provider, before.cached) == ("brave", False)
    assert (after.provider, after.cached) == ("codex", False)
    assert len(sim["codex"].requests) == 1


async def test_an_endpoint_variable_changed_misses_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ANTHROPIC_BASE_URL is read from the environment, not the settings: on a gateway the
    # OAuth token given as the key is refused and Brave answers; pointed back at a loopback
    # endpoint, Anthropic can run and must be asked.
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-oat01-0123456789abcdef")
    async with Simulator(["anthropic", "brave"]) as sim:
        urls = sim.base_urls()
        endpoint = urls.pop("anthropic")  # ANTHROPIC_BASE_URL is where requests go
        settings = sim.settings(
            base_urls=urls,
            provider="anthropic",
            credentials_file=tmp_path / "credentials.json",
            state_backend="sqlite",
            state_dir=tmp_path,
        )
        keys = {"brave": "BSA0123456789abcdef"}
        monkeypatch.setenv("ANTHROPIC_BASE_URL", GATEWAY)
        async with WebSearch(settings, api_keys=keys) as ws:
            before = await ws.search(QUERY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", endpoint)
        async with WebSearch(settings, api_keys=keys) as ws:
            after = await ws.search(QUERY)
    assert (before.provider, before.cached) == ("brave", False)
    assert (after.provider, after.cached) == ("anthropic", False)
    assert len(sim["anthropic"].requests) == 1
