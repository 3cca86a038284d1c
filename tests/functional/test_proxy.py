"""Provider requests can go through an HTTP proxy (set explicitly, or by HTTPS_PROXY)."""

import pytest

from websearch_core import WebSearch
from websearch_core.testing import Simulator


@pytest.mark.parametrize("how", ["setting", "environment"])
async def test_requests_go_through_the_proxy(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The simulator plays the proxy: Brave's real host is unreachable here, so an answer
    # proves the request went to the proxy, which received it in absolute form.
    async with Simulator(["brave"]) as sim:
        proxy = sim["brave"].base_url
        overrides = {"base_urls": {"brave": "http://api.search.brave.invalid"}}
        if how == "setting":
            settings = sim.settings(proxy=proxy, **overrides)
        else:
            monkeypatch.setenv("HTTP_PROXY", proxy)
            settings = sim.settings(**overrides)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            result = await ws.run("python asyncio", provider="brave")
    assert result.error is None, result.error
    assert sim["brave"].requests[0].path == "/res/v1/web/search"


def test_proxy_credentials_stay_secret() -> None:
    from websearch_core.settings import Settings

    settings = Settings(proxy="http://user:hunter2@proxy.example:3128")
    assert "hunter2" not in repr(settings)
