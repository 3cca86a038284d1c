"""Where a sign-in may go, per sign-in: the cases the all-provider contract does not reach.

The contract (``tests/contract/test_sign_in_destination.py``) sends each provider's stored
token to an untrusted gateway. Here: a Google sign-in's refresh token and its token endpoint
(``google_oauth``), Perplexity's OAuth token passed over for its key, an Anthropic OAuth token
given as the key, the services' own hosts (allowed without trust) and look-alikes of them
(refused), and where the setting that trusts a gateway is read. A gateway is reached through
the simulator playing an HTTP proxy, so a request that goes out arrives and is seen.
"""

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import ConfigurationError
from websearch_core.settings import Settings
from websearch_core.settings_errors import configuration_errors
from websearch_core.testing import Simulator

QUERY = "python asyncio"
GATEWAY = "http://gateway.example.invalid"
ACCESS = "ya29.a0stored-access-token"
REFRESH = "refresh-token-0123456789"
REFUSED = "Refusing to send the "


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "credentials.json"


def _sign_in(path: Path, entry: str, *, expired: bool = False) -> None:
    token = OAuthToken(
        access_token=ACCESS,
        refresh_token=REFRESH,
        expires_at=time.time() + (-60 if expired else 3600),
    )
    CredentialStore(path).set_oauth(entry, token)


def _seen(sim: Simulator, provider_id: str) -> str:
    """Everything the simulator received for ``provider_id``, as one text."""
    return " ".join(
        f"{r.path} {dict(r.headers)} {r.body.decode('utf-8', 'replace')}"
        for r in sim[provider_id].requests
    )


def _through_gateway(
    sim: Simulator, provider_id: str, store: Path, endpoint: str | None = None
) -> dict[str, Any]:
    """Settings that send ``endpoint`` (the provider's own by default) to :data:`GATEWAY`.

    The simulator plays the HTTP proxy the gateway is reached through, so a request that
    goes out arrives at ``provider_id``'s simulated service and is seen.
    """
    return {
        "base_urls": {**sim.base_urls(), endpoint or provider_id: GATEWAY},
        "proxy": sim[provider_id].base_url,
        "credentials_file": store,
    }


async def _reason(settings: Settings, provider_id: str, **keys: str) -> str:
    async with WebSearch(settings, api_keys=keys) as ws:
        return next(s.reason for s in await ws.provider_status() if s.id == provider_id)


@pytest.fixture(autouse=True)
def _gemini_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GEMINI_SEARCH_MODEL", raising=False)
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")


async def test_a_refresh_token_goes_to_no_untrusted_token_endpoint(store: Path) -> None:
    _sign_in(store, "gemini-cli", expired=True)
    async with Simulator(["gemini"]) as sim:
        through = _through_gateway(sim, "gemini", store, "google_oauth")
        settings = sim.settings(**through)
        reason = await _reason(settings, "gemini")
        async with WebSearch(settings, api_keys={}) as ws:
            result = await ws.run(QUERY, provider="gemini")
        assert sim["gemini"].requests == []
        assert reason.startswith("misconfigured: Refusing to send the refresh token of the ")
        assert "custom endpoint http://gateway.example.invalid (the Google OAuth base URL" in reason
        assert "add google_oauth to sign_in_gateways" in reason
        assert result.error is not None and REFUSED in result.error

        trusted = sim.settings(**through, sign_in_gateways=["google_oauth"])
        async with WebSearch(trusted, api_keys={}) as ws:
            result = await ws.run(QUERY, provider="gemini")
        assert result.error is None, result.error
        assert REFRESH in _seen(sim, "gemini")


async def test_a_refresh_token_goes_to_google_and_to_loopback(store: Path) -> None:
    _sign_in(store, "gemini-cli", expired=True)
    official = Settings(
        base_urls={"google_oauth": "https://oauth2.googleapis.com"}, credentials_file=store
    )
    assert REFUSED not in await _reason(official, "gemini")
    async with Simulator(["gemini"]) as sim:  # its google_oauth is a loopback origin
        settings = sim.settings(credentials_file=store)
        async with WebSearch(settings, api_keys={}) as ws:
            result = await ws.run(QUERY, provider="gemini")
    assert result.error is None, result.error
    assert REFRESH in _seen(sim, "gemini")


@pytest.mark.parametrize(
    ("key", "state"),
    [("pplx-0123456789abcdef", "ready; passed over"), (None, "misconfigured")],
    ids=["passes-its-token-over-and-searches-with-its-key", "with-only-a-sign-in-is-misconfigured"],
)
async def test_perplexity_refuses_its_token_to_a_gateway(
    store: Path, key: str | None, state: str
) -> None:
    _sign_in(store, "perplexity")
    async with Simulator(["perplexity"]) as sim:
        settings = sim.settings(**_through_gateway(sim, "perplexity", store))
        keys = {"perplexity": key} if key else {}
        reason = await _reason(settings, "perplexity", **keys)
        async with WebSearch(settings, api_keys=keys) as ws:
            result = await ws.run(QUERY, provider="perplexity")
    assert reason.startswith(f"{state}: Refusing to send the Perplexity OAuth token")
    if key:
        assert result.error is None, result.error
        seen = _seen(sim, "perplexity")
        assert key in seen and ACCESS not in seen
    else:
        assert result.error is not None and sim["perplexity"].requests == []


@pytest.mark.parametrize(
    ("key", "refused"),
    [("sk-ant-oat01-0123456789abcdef", True), ("sk-ant-api03-0123456789abcdef", False)],
    ids=["oauth-token-as-key", "api-key"],
)
async def test_an_anthropic_oauth_token_given_as_the_key_is_a_sign_in(
    store: Path, monkeypatch: pytest.MonkeyPatch, key: str, refused: bool
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    async with Simulator(["anthropic"]) as sim:
        urls = sim.base_urls()
        del urls["anthropic"]  # ANTHROPIC_BASE_URL is where requests go
        monkeypatch.setenv("ANTHROPIC_BASE_URL", GATEWAY)
        settings = sim.settings(
            base_urls=urls, proxy=sim["anthropic"].base_url, credentials_file=store
        )
        reason = await _reason(settings, "anthropic")
        async with WebSearch(settings, api_keys={}) as ws:
            await ws.run(QUERY, provider="anthropic")
    if refused:
        assert reason.startswith("misconfigured: Refusing to send the Anthropic OAuth token in ")
        assert "(the Anthropic base URL set in ANTHROPIC_BASE_URL)" in reason
        assert sim["anthropic"].requests == []
    else:  # an API key may go to any gateway
        assert reason == "ready", reason
        assert key in _seen(sim, "anthropic")


@pytest.mark.parametrize(
    ("provider_id", "entry", "url", "refused"),
    [
        ("codex", "codex", "https://chatgpt.com", False),
        ("codex", "codex", "https://ChatGPT.com:443/backend-api", False),
        ("codex", "codex", "http://chatgpt.com", True),  # not over https
        ("codex", "codex", "https://chatgpt.com:8443", True),
        ("codex", "codex", "https://chatgpt.com.example.net", True),
        ("codex", "codex", "http://localhost:8080", False),
        ("codex", "codex", "http://127.1.2.3:8080", False),
        ("codex", "codex", "http://[::1]:8080", False),
        ("codex", "codex", "http://localhost.example.net", True),
        ("codex", "codex", "http://10.0.0.5:8080", True),
        ("anthropic", "anthropic", "https://api.anthropic.com", False),
        ("gemini", "gemini-cli", "https://cloudcode-pa.googleapis.com", False),
        ("gemini", "gemini", "https://daily-cloudcode-pa.sandbox.googleapis.com", False),
        ("gemini", "gemini", "https://generativelanguage.googleapis.com", True),
        ("perplexity", "perplexity", "https://www.perplexity.ai", False),
    ],
)
async def test_own_hosts_and_loopback_need_no_trust(
    store: Path, provider_id: str, entry: str, url: str, refused: bool
) -> None:
    _sign_in(store, entry)
    settings = Settings(base_urls={provider_id: url}, credentials_file=store)
    reason = await _reason(settings, provider_id)
    assert (REFUSED in reason) is refused, reason


async def test_the_refusal_shows_the_origin_never_the_user_info(store: Path) -> None:
    # The user info would clash with the bearer token anyway; the sign-in rule is asked of
    # the Google token endpoint, whose requests carry no Authorization of the provider's.
    _sign_in(store, "gemini-cli", expired=True)
    settings = Settings(
        base_urls={"google_oauth": "https://gw-user:hunter2@token.example.net:8443/oauth"},
        credentials_file=store,
    )
    reason = await _reason(settings, "gemini")
    assert "custom endpoint https://token.example.net:8443 " in reason
    assert "hunter2" not in reason and "gw-user" not in reason


def test_the_trust_is_read_from_the_variable_and_named_ids_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEBSEARCH_SIGN_IN_GATEWAYS", "Codex, google_oauth")
    assert Settings().sign_in_gateways == ("codex", "google_oauth")
    monkeypatch.setenv("WEBSEARCH_SIGN_IN_GATEWAYS", '["gemini"]')
    assert Settings().sign_in_gateways == ("gemini",)
    monkeypatch.setenv("WEBSEARCH_SIGN_IN_GATEWAYS", "codx")
    with pytest.raises(ConfigurationError) as caught, configuration_errors():
        Settings()
    assert "WEBSEARCH_SIGN_IN_GATEWAYS" in str(caught.value)
    assert "codx" in str(caught.value) and "codex" in str(caught.value)


async def test_the_auto_chain_skips_a_refused_sign_in_and_answers_from_the_next(
    store: Path,
) -> None:
    _sign_in(store, "codex")
    async with Simulator(["codex", "brave"]) as sim:
        # No proxy: the gateway is never reached, and Brave's own origin is loopback.
        urls = {**sim.base_urls(), "codex": GATEWAY}
        settings = sim.settings(base_urls=urls, credentials_file=store)
        async with WebSearch(settings, api_keys={"brave": "BSA0123456789abcdef"}) as ws:
            response = await ws.search(QUERY)
    assert response.provider == "brave"
    skipped = next(a for a in response.attempts if a.provider == "codex")
    assert skipped.outcome == "skipped"
    assert skipped.detail is not None and "Refusing to send the OpenAI OAuth token" in (
        skipped.detail
    )
