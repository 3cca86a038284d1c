"""Provider requests can go through an HTTP proxy (set explicitly, or by HTTPS_PROXY)."""

from typing import Any

import pytest

from tests.stalling_proxy import silent_server
from websearch_core import Settings, WebSearch
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


@pytest.mark.parametrize(
    ("how", "named"), [("setting", "the proxy setting"), ("environment", "HTTP_PROXY")]
)
async def test_a_proxy_that_never_answers_is_named_when_the_request_times_out(
    how: str, named: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A plain http request goes to the proxy whole, with no CONNECT to hang on: a proxy that
    # takes it and never answers read as "Brave search timed out", as if Brave were slow.
    # The search still ends at its time limit, and now says which proxy it went through.
    with silent_server() as port:
        proxy = f"http://127.0.0.1:{port}"
        values: dict[str, Any] = {
            "providers": ["brave"],
            "base_urls": {"brave": "http://api.search.brave.invalid"},
            "timeout_seconds": 0.5,
            "state_backend": "memory",
        }
        if how == "setting":
            values["proxy"] = proxy
        else:
            monkeypatch.setenv("HTTP_PROXY", proxy)
        async with WebSearch(Settings(**values), api_keys={"brave": "sim-key"}) as ws:
            result = await ws.run("python asyncio")
    assert (
        result.error
        == f"Brave search timed out after 0.5s (sent through the proxy that {named} names)"
    )
