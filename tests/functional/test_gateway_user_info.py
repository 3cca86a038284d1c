"""A gateway URL with a user name, for a provider whose credential is a bearer token.

``https://user:pw@gw`` goes out as ``Authorization: Basic``; a key sent as ``Authorization:
Bearer`` needs the same header, and aiohttp refused the request before sending it: the
attempt read ``ValueError Cannot combine AUTHORIZATION header with AUTH argument or
credentials encoded in URL``. Anthropic's key now goes in its own ``x-api-key`` on such a
gateway, so the search is answered. A credential that has no other header (an Anthropic
OAuth token, Tavily's key, SearXNG's token) still failed each attempt while ``websearch
providers`` said ``ready``; the credential check now names the clash before a request, so
the table reads ``misconfigured:`` and the chain skips the provider.
"""

import pytest

from websearch_core import WebSearch
from websearch_core.cli import main
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.status import ProviderStatus
from websearch_core.testing import Simulator

QUERY = "python asyncio"
OTHER_HEADER = "remove the user info from the URL, or switch to a credential sent in another header"
NO_OTHER_HEADER = (
    "remove the user info from the URL: {label} sends no credential in another header, so the "
    "gateway's own sign-in has to go elsewhere"
)
"""The advice, per provider: it said "use a credential sent in another header" to Tavily,
xAI and SearXNG users too, whose providers have none."""


async def _row(ws: WebSearch, provider_id: str) -> ProviderStatus:
    """``provider_id``'s row of the status table, as ``websearch providers`` shows it."""
    return next(row for row in await ws.provider_status() if row.id == provider_id)


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
    ("provider", "key", "label", "source", "what", "fix"),
    [
        # An OAuth token given as the key is named as what it is: no API key was set.
        (
            "anthropic",
            "sk-ant-oat01-fake",
            "Anthropic",
            "ANTHROPIC_BASE_URL",
            "OAuth token",
            f"{OTHER_HEADER}: an Anthropic API key (ANTHROPIC_SEARCH_API_KEY or "
            "ANTHROPIC_API_KEY), in the x-api-key header",
        ),
        (
            "tavily",
            "tvly-fake",
            "Tavily",
            "the base_urls.tavily setting",
            "API key",
            NO_OTHER_HEADER.format(label="Tavily"),
        ),
    ],
    ids=["anthropic-oauth", "tavily"],
)
async def test_a_bearer_credential_behind_a_user_name_is_misconfigured_and_never_sent(
    provider: str,
    key: str,
    label: str,
    source: str,
    what: str,
    fix: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The providers table read "ready" and each search failed its attempt in the
    # transport; now both name the clash, and the chain skips it without a request.
    problem = (
        f"{label} base URL's user name in {source} goes out as Authorization: Basic, and "
        f'the {label} {what} given in code as api_keys["{provider}"] needs the '
        f"Authorization header too; {fix}."
    )
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
            status = await _row(ws, provider)
            result = await ws.run(QUERY, use_cache=False)
        assert sim[provider].requests == []
    assert status.reason == f"misconfigured: {problem}"
    response = result.response  # type: ignore[attr-defined]
    assert response.provider == "serper"
    skipped = response.attempts[0]
    assert (skipped.provider, skipped.outcome, skipped.detail) == (provider, "skipped", problem)
    assert "gwpass" not in result.text and key not in repr(response)  # type: ignore[attr-defined]


async def test_a_searxng_token_behind_an_endpoint_with_a_user_name_is_misconfigured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SEARXNG_TOKEN", "searx-token-fake")
    async with Simulator(["searxng", "serper"]) as sim:
        urls = sim.base_urls()
        endpoint = {"endpoint": _with_user(urls.pop("searxng"))}
        settings = sim.settings(providers=("searxng", "serper"), base_urls=urls, searxng=endpoint)
        async with WebSearch(settings, api_keys={"serper": "s"}) as ws:
            status = await _row(ws, "searxng")
            result = await ws.run(QUERY, use_cache=False)
        assert sim["searxng"].requests == []
    problem = (
        "SearXNG endpoint's user name in the searxng.endpoint setting goes out as "
        "Authorization: Basic, and the SearXNG token in SEARXNG_TOKEN needs the "
        f"Authorization header too; {NO_OTHER_HEADER.format(label='SearXNG')}."
    )
    assert status.reason == f"misconfigured: {problem}"
    assert result.response.provider == "serper"  # type: ignore[attr-defined]


async def test_perplexity_cookies_go_beside_the_user_name_and_its_bearer_key_is_passed_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Perplexity tries each credential in turn: its cookies go in Cookie, so the gateway's
    # Basic goes with them, and only the key (a bearer token) is named as left out.
    monkeypatch.setenv("PERPLEXITY_COOKIES", "__Secure-next-auth.session-token=fake")
    async with Simulator(["perplexity"]) as sim:
        urls = sim.base_urls()
        urls["perplexity"] = _with_user(urls["perplexity"])
        settings = sim.settings(base_urls=urls)
        async with WebSearch(settings, api_keys={"perplexity": "pplx-fake"}) as ws:
            status = await _row(ws, "perplexity")
            result = await ws.run(QUERY, provider="perplexity", use_cache=False)
        [request] = sim["perplexity"].requests
    assert result.error is None
    assert request.header("Authorization") == "Basic Z3d1c2VyOmd3cGFzcw=="
    assert request.header("Cookie") is not None  # the header the advice names
    assert status.reason == (
        "ready; passed over: Perplexity base URL's user name in the base_urls.perplexity "
        "setting goes out as Authorization: Basic, and the Perplexity API key given in code "
        'as api_keys["perplexity"] needs the Authorization header too; '
        f"{OTHER_HEADER}: the Perplexity cookie header (PERPLEXITY_COOKIES), in the Cookie "
        "header."
    )


async def test_a_gemini_sign_in_behind_a_user_name_names_the_command_that_removes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A stored sign-in is sent before Gemini's key, so "switch to a Gemini API key" changed
    # nothing while it stayed stored; the advice names the command that removes it, and
    # doing what it says (that command, the key set) lets the key go beside the Basic.
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    async with Simulator(["gemini", "serper"]) as sim:
        urls = sim.base_urls()
        urls["gemini"] = _with_user(urls["gemini"])
        settings = sim.settings(providers=("gemini", "serper"), base_urls=urls)
        store = CredentialStore(settings.resolved_credentials_file())
        store.set_oauth("gemini-cli", OAuthToken(access_token="ya29.cli-token"))
        keys = {"gemini": "AIza-fake", "serper": "s"}
        async with WebSearch(settings, api_keys=keys) as ws:
            before = await _row(ws, "gemini")
        assert before.reason.startswith("misconfigured: ")
        assert before.reason.endswith(
            f"{OTHER_HEADER}: a Gemini API key (GEMINI_API_KEY or GOOGLE_API_KEY), in the "
            "x-goog-api-key header, once any stored OAuth sign-in used before it is removed "
            "(websearch auth remove gemini-cli --oauth for the Gemini CLI sign-in, websearch "
            "auth remove gemini --oauth for the Antigravity sign-in)."
        )
        assert main(["auth", "remove", "gemini-cli", "--oauth"]) == 0  # as the advice says
        async with WebSearch(settings, api_keys=keys) as ws:
            after = await _row(ws, "gemini")
        assert not after.reason.startswith("misconfigured"), after.reason
