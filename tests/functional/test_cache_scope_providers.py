"""The result cache's scope covers the settings that decide which providers can run.

Which provider answers an automatic search rests on the settings as much as on the keys:
trusting a gateway with a sign-in (``sign_in_gateways``) lets the provider behind it run,
where before it was skipped and the next one answered. That answer, cached, was served
after the change until it expired, so the change seemed to do nothing.
"""

import time
from pathlib import Path
from typing import Any

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
