"""Secrets first handed out inside an attempt are masked in everything built from it.

Exa, Firecrawl and Perplexity can be chosen without a key (``is_explicitly_available``), so
a key in the environment is read only when the provider builds its request, after the
call's redactor was made; Perplexity reads ``OPENROUTER_API_KEY`` only then, and an OAuth
refresh hands out a new token in the middle of the call. An upstream that echoes the
credential ("Incorrect API key provided: ...") must not get it into the model's text, the
metadata, the raised error, the log, or the state's marks.
"""

import base64
import json
import logging
import time

import pytest

from tests.functional._sim_helpers import simulator_fixture
from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import AllProvidersFailedError
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import SimResult

QUERY = "python asyncio"
ENV_KEY = "sk-LATECANARY-0123456789abcdef"


sim = simulator_fixture("exa", "firecrawl", "perplexity", "codex")


def _echo(secret: str) -> Fault:
    """A 400 whose JSON body names the credential, as OpenAI-style APIs do."""
    body = json.dumps({"error": {"message": f"Incorrect API key provided: {secret}."}})
    return Fault.http(400, body, {"Content-Type": "application/json"})


async def _everything_shown(ws: WebSearch, provider: str) -> str:
    """What one failing search puts anywhere a user, a model, a log or the state sees it."""
    result = await ws.run(QUERY, provider=provider, use_cache=False)
    shown = [result.text, json.dumps(result.to_metadata(), default=str)]
    with pytest.raises(AllProvidersFailedError) as caught:
        await ws.search(QUERY, provider=provider, use_cache=False)
    shown += [str(caught.value), repr(caught.value.failures)]
    shown.append(repr(await ws.provider_status()))
    return "\n".join(shown)


def _assert_masked(secret: str, shown: str, logs: str) -> None:
    for text in (shown, logs):
        assert secret.lower() not in text.lower()
        assert secret[:12].lower() not in text.lower()  # no truncated echo either
    assert "***" in shown


@pytest.mark.parametrize(
    ("provider", "variable"),
    [
        ("exa", "EXA_API_KEY"),
        ("firecrawl", "FIRECRAWL_API_KEY"),
        ("perplexity", "PERPLEXITY_API_KEY"),
    ],
)
async def test_a_key_first_read_inside_the_attempt_is_masked(
    sim: Simulator,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    provider: str,
    variable: str,
) -> None:
    monkeypatch.setenv(variable, ENV_KEY)
    sim[provider].always(_echo(ENV_KEY))
    caplog.set_level(logging.INFO, logger="websearch_core")
    async with WebSearch(sim.settings(provider=provider, fallback=False)) as ws:
        shown = await _everything_shown(ws, provider)
    assert sim[provider].requests  # the key was sent, and echoed
    _assert_masked(ENV_KEY, shown, caplog.text)


async def test_openrouter_key_read_only_by_perplexity_s_auth_methods_is_masked(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    openrouter = "sk-or-v1-LATECANARY0123456789abcdef"
    monkeypatch.setenv("OPENROUTER_API_KEY", openrouter)
    sim["perplexity"].always(_echo(openrouter))
    caplog.set_level(logging.INFO, logger="websearch_core")
    async with WebSearch(sim.settings(provider="perplexity", fallback=False)) as ws:
        shown = await _everything_shown(ws, "perplexity")
    _assert_masked(openrouter, shown, caplog.text)


def _jwt(account: str, signature: str) -> str:
    claims = {"https://api.openai.com/auth": {"chatgpt_account_id": account}}
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"eyJhbGciOiJSUzI1NiJ9.{payload}.{signature}"


async def test_an_oauth_token_refreshed_during_the_call_is_masked(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    fresh = _jwt("acct-new", "LATECANARYFRESHSIGNATURE0123456789")
    fresh_refresh = "LATECANARYFRESHREFRESH0123456789"
    store = CredentialStore(sim.settings().resolved_credentials_file())
    expired = OAuthToken(
        access_token=_jwt("acct-old", "oldsignature0123456789"),
        refresh_token="old-refresh-0123456789",
        expires_at=time.time() - 60,
    )

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken(
            access_token=fresh, refresh_token=fresh_refresh, expires_at=time.time() + 3600
        )

    sim["codex"].always(_echo(f"{fresh} (refresh token {fresh_refresh})"))
    caplog.set_level(logging.INFO, logger="websearch_core")
    settings = sim.settings(provider="codex", fallback=False)
    async with WebSearch(settings, oauth_refreshers={"codex": refresh}) as ws:
        store.set_oauth("codex", expired)
        shown = await _everything_shown(ws, "codex")
    _assert_masked("LATECANARYFRESHSIGNATURE0123456789", shown, caplog.text)
    _assert_masked(fresh_refresh, shown, caplog.text)


async def test_a_key_first_read_inside_the_attempt_is_masked_in_its_answer(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard: the answer is cleaned with the secrets known when it came, not at the start.

    Exa reads its key only when it builds its request, so the search's redactor, made
    before, does not know it; the chain hands its own live redactor to the attempt (no
    second one built from a redactor taken at the attempt's start), and that must follow
    the key before the answer is cleaned. Fails when the answer is cleaned with the
    redactor as it was when the attempt began.
    """
    monkeypatch.setenv("EXA_API_KEY", ENV_KEY)
    sim["exa"].results = [
        SimResult(f"Debug page for {ENV_KEY}", "https://example.org/a", f"it says {ENV_KEY}")
    ]
    async with WebSearch(sim.settings(provider="exa", fallback=False)) as ws:
        result = await ws.run(QUERY, use_cache=False)
    assert result.error is None and sim["exa"].requests
    shown = result.text + result.response.model_dump_json()
    assert ENV_KEY not in shown and ENV_KEY[:12] not in shown
    assert "***" in shown
