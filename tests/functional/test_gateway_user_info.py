"""A gateway URL with a user name, for a provider whose credential is a bearer token.

``https://user:pw@gw`` goes out as ``Authorization: Basic``; a key sent as ``Authorization:
Bearer`` needs the same header, and aiohttp refused the request before sending it: the
attempt read ``ValueError Cannot combine AUTHORIZATION header with AUTH argument or
credentials encoded in URL``. Anthropic's key now goes in its own ``x-api-key`` on such a
gateway, so the search is answered; a credential that has no other header (an Anthropic
OAuth token, Tavily's key) is named as the clash it is, and the chain moves on.
"""

import pytest

from websearch_core import WebSearch
from websearch_core.testing import Simulator

QUERY = "python asyncio"
CLASH = (
    "request was not sent: the user name in its base URL goes out as Authorization: Basic, "
    "and its credential needs the Authorization header too; remove the user info from the "
    "URL or use a credential sent in another header"
)


def _with_user(origin: str) -> str:
    return origin.replace("://", "://gwuser:gwpass@", 1)


async def test_an_anthropic_key_goes_in_x_api_key_beside_the_gateways_basic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with Simulator(["anthropic", "serper"]) as sim:
        urls = sim.base_urls()
        monkeypatch.setenv("ANTHROPIC_BASE_URL", _with_user(urls.pop("anthropic")))
        settings = sim.settings(providers=("anthropic", "serper"), base_urls=urls)
        keys = {"anthropic": "sk-ant-api-fake", "serper": "fake-serper"}
        async with WebSearch(settings, api_keys=keys) as ws:
            result = await ws.run(QUERY, use_cache=False)
        [request] = sim["anthropic"].requests
    assert result.response.provider == "anthropic"  # type: ignore[attr-defined]
    assert request.header("x-api-key") == "sk-ant-api-fake"
    assert request.header("Authorization") == "Basic Z3d1c2VyOmd3cGFzcw=="  # gwuser:gwpass


async def test_an_anthropic_gateway_without_a_user_name_still_gets_a_bearer_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with Simulator(["anthropic"]) as sim:
        urls = sim.base_urls()
        monkeypatch.setenv("ANTHROPIC_BASE_URL", urls.pop("anthropic"))
        settings = sim.settings(providers=("anthropic",), base_urls=urls)
        async with WebSearch(settings, api_keys={"anthropic": "sk-ant-api-fake"}) as ws:
            await ws.run(QUERY, use_cache=False)
        [request] = sim["anthropic"].requests
    assert request.header("Authorization") == "Bearer sk-ant-api-fake"
    assert request.header("x-api-key") is None


@pytest.mark.parametrize(
    ("provider", "key", "label"),
    [("anthropic", "sk-ant-oat01-fake", "Anthropic"), ("tavily", "tvly-fake", "Tavily")],
    ids=["anthropic-oauth", "tavily"],
)
async def test_a_bearer_credential_behind_a_user_name_is_named_and_the_chain_moves_on(
    provider: str, key: str, label: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Simulator([provider, "serper"]) as sim:
        urls = sim.base_urls()
        gateway = _with_user(urls[provider])
        if provider == "anthropic":
            monkeypatch.setenv("ANTHROPIC_BASE_URL", gateway)
            del urls[provider]
        else:
            urls[provider] = gateway
        settings = sim.settings(providers=(provider, "serper"), base_urls=urls)
        async with WebSearch(settings, api_keys={provider: key, "serper": "s"}) as ws:
            result = await ws.run(QUERY, use_cache=False)
        assert sim[provider].requests == []
    response = result.response  # type: ignore[attr-defined]
    assert response.provider == "serper"
    failed = response.attempts[0]
    assert failed.provider == provider
    assert failed.detail == f"{label} {CLASH}"
    assert "gwpass" not in result.text and key not in repr(response)  # type: ignore[attr-defined]
