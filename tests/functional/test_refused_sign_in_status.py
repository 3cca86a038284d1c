"""``websearch providers`` says a sign-in was refused for good, and what brings it back.

A refresh refused for good (Google's ``invalid_grant``, a hook raising
:class:`~websearch_core.errors.SignInRefusedError`) is kept beside the stored token, and
every later search fails at once; yet the table, ``--json`` and ``provider_status()`` read
``ready (Gemini CLI sign-in)`` / ``ready (OAuth token)`` once the search's mark had run
out (measured: a new ``websearch providers`` showed both ready). Now that row says the
sign-in is refused and what to do; a new sign-in makes it ready again, and a provider
that goes on to another credential (Perplexity's key) stays ready, naming the sign-in as
passed over.

Each refusal is earned end to end against the simulator: Gemini's own refresh at Google's
simulated ``/token``, Codex's and Perplexity's through the test hook at ``/oauth/token``.
The search's short mark is reset first: it hid the state only for its few minutes.
"""

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.functional._sim_helpers import (
    credential_store,
    gemini_protocol,
    sim_client,
    simulator_fixture,
)
from tests.token_hook import refresher
from websearch_core import WebSearch, get_provider
from websearch_core.cli import EXIT_OK, main
from websearch_core.credentials import OAuthToken
from websearch_core.errors import AllProvidersFailedError
from websearch_core.oauth_identity import grant_fingerprint
from websearch_core.orchestration.quota import utc_text
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols._oauth_refresh import TOKEN_PATH as HOOK_TOKEN_PATH
from websearch_core.testing.protocols._oauth_refresh import RefreshGrant

GEMINI_OLD = OAuthToken("ya29.a0old-cli-access", "1//0cli-refresh-token", time.time() - 60)
CODEX_OLD = OAuthToken("sim-codex-old-access", "sim-codex-old-refresh", time.time() - 60)
PPLX_OLD = OAuthToken("sim-pplx-old-access", "sim-pplx-old-refresh", time.time() - 60)
GEMINI_REFUSED = (
    "sign-in refused (Gemini CLI sign-in); sign in again (run `gemini` and choose Login with "
    "Google), then run `websearch auth import gemini-cli`"
)
STORE_NEW = "store a new token (`CredentialStore.set_oauth`)"
CODEX_REFUSED = f"sign-in refused (OAuth token); {STORE_NEW}"
SECRETS = tuple(
    part
    for token in (GEMINI_OLD, CODEX_OLD, PPLX_OLD)
    for part in (
        token.access_token,
        token.refresh_token or "",
        grant_fingerprint(token.access_token, token.refresh_token),
    )
)


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GEMINI_SEARCH_MODEL", raising=False)
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    for name in ("PERPLEXITY_COOKIES", "PERPLEXITY_API_KEY", "PPLX_API_KEY"):
        monkeypatch.delenv(name, raising=False)


sim = simulator_fixture("gemini", "codex", "perplexity")


def _grant(sim: Simulator, provider: str) -> RefreshGrant:
    grant = getattr(sim[provider].protocol, "sign_in", None)
    assert isinstance(grant, RefreshGrant)
    return grant


def _client(sim: Simulator, keys: dict[str, str] | None = None) -> WebSearch:
    hooks = {
        entry: refresher(f"{sim[entry].base_url}{HOOK_TOKEN_PATH}")
        for entry in ("codex", "perplexity")
    }
    return sim_client(sim, api_keys=keys or {}, oauth_refreshers=hooks)


async def _refused(sim: Simulator, *providers: str) -> None:
    """Each provider's stored sign-in refused for good by a search; its mark then reset."""
    store = credential_store(sim)
    for provider in providers:
        if provider == "gemini":
            store.set_oauth("gemini-cli", GEMINI_OLD)
            gemini_protocol(sim).revoked.add(GEMINI_OLD.refresh_token or "")
        else:
            old = CODEX_OLD if provider == "codex" else PPLX_OLD
            store.set_oauth(provider, old)
            _grant(sim, provider).revoked.add(old.refresh_token or "")
    async with _client(sim) as ws:
        for provider in providers:
            with pytest.raises(AllProvidersFailedError):
                await ws.search("python asyncio", provider=provider)
            await ws.reset_provider(provider)  # the mark ran out: the table's reading stays


async def _renewal_refused(
    sim: Simulator, provider: str, token: OAuthToken, *, unauthorized: bool = True
) -> None:
    """Store ``token``, have its renewal refused for good, and leave the refusal kept.

    With ``unauthorized`` a one-off 401 makes the search renew a token still valid; without,
    the token is already due for renewal. The cooldown the failure set is reset, as its
    mark running out would.
    """
    credential_store(sim).set_oauth(provider, token)
    _grant(sim, provider).revoked.add(token.refresh_token or "")
    if unauthorized:
        sim[provider].enqueue(Fault.unauthorized())
    async with _client(sim) as ws:
        with pytest.raises(AllProvidersFailedError):
            await ws.search("python asyncio", provider=provider)
        await ws.reset_provider(provider)
    assert credential_store(sim).refusal(provider) is not None  # kept


async def _status(
    sim: Simulator, keys: dict[str, str] | None = None
) -> dict[str, tuple[bool, str]]:
    async with _client(sim, keys) as ws:
        return {s.id: (s.available, s.reason) for s in await ws.provider_status()}


async def test_provider_status_says_the_sign_in_was_refused(sim: Simulator) -> None:
    await _refused(sim, "gemini", "codex")
    status = await _status(sim)
    assert status["gemini"] == (False, GEMINI_REFUSED)
    assert status["codex"] == (False, CODEX_REFUSED)
    for secret in SECRETS:
        assert secret not in json.dumps(status)


async def test_a_key_beside_a_refused_gemini_sign_in_is_not_sent(sim: Simulator) -> None:
    # The sign-in wins over the key (README): a search fails on it, so the row says so.
    await _refused(sim, "gemini")
    status = await _status(sim, {"gemini": "gemini-key"})
    async with _client(sim, {"gemini": "gemini-key"}) as ws:
        with pytest.raises(AllProvidersFailedError, match="refused the sign-in"):
            await ws.search("python asyncio", provider="gemini")
    assert status["gemini"] == (False, GEMINI_REFUSED)


async def test_perplexity_runs_on_its_key_and_names_the_refused_sign_in(
    sim: Simulator,
) -> None:
    await _refused(sim, "perplexity")
    keys = {"perplexity": "pplx-simulated-key"}
    status = await _status(sim, keys)
    async with _client(sim, keys) as ws:
        response = await ws.search("python asyncio", provider="perplexity")
    assert response.answer
    assert status["perplexity"] == (
        True,
        f"ready; passed over: OAuth token (sign-in refused; {STORE_NEW})",
    )


async def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The command's output; run in a thread, as it runs its own event loop."""
    capsys.readouterr()
    assert await asyncio.to_thread(main, args) == EXIT_OK
    return capsys.readouterr().out


async def test_the_table_and_json_say_it_and_a_new_sign_in_clears_it(
    sim: Simulator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await _refused(sim, "gemini", "codex")
    table = await _cli(["providers"], capsys)
    records: list[dict[str, Any]] = json.loads(await _cli(["providers", "--json"], capsys))[
        "providers"
    ]
    rows = {r["id"]: r for r in records}
    assert GEMINI_REFUSED in table and CODEX_REFUSED in table
    assert (rows["gemini"]["available"], rows["gemini"]["status"]) == (False, GEMINI_REFUSED)
    assert (rows["codex"]["available"], rows["codex"]["status"]) == (False, CODEX_REFUSED)
    for secret in SECRETS:
        assert secret not in table and secret not in json.dumps(records)

    creds = tmp_path / "oauth_creds.json"
    expiry_ms = int((time.time() + 3600) * 1000)
    new = {"access_token": "ya29.imported", "refresh_token": "1//0new", "expiry_date": expiry_ms}
    creds.write_text(json.dumps(new), encoding="utf-8")
    await _cli(["auth", "import", "gemini-cli", str(creds)], capsys)
    credential_store(sim).set_oauth("codex", OAuthToken("sim-codex-new", "sim-codex-refresh"))
    status = await _status(sim)
    assert status["gemini"] == (True, "ready (Gemini CLI sign-in)")
    assert status["codex"] == (True, "ready (OAuth token)")


async def test_an_antigravity_sign_in_says_its_own_way_back(sim: Simulator) -> None:
    credential_store(sim).set_oauth("gemini", GEMINI_OLD)  # Antigravity's entry
    gemini_protocol(sim).revoked.add(GEMINI_OLD.refresh_token or "")
    async with _client(sim) as ws:
        with pytest.raises(AllProvidersFailedError):
            await ws.search("python asyncio", provider="gemini")
        await ws.reset_provider("gemini")
    status = await _status(sim)
    assert status["gemini"] == (
        False,
        "sign-in refused (Antigravity sign-in); sign in to Antigravity again, then store its "
        "new token in the `gemini` entry (`CredentialStore.set_oauth`)",
    )


async def test_a_refused_sign_in_whose_token_still_works_reads_ready_until_it_expires(
    sim: Simulator,
) -> None:
    # A one-off 401 made the search renew a token that had an hour left, and the renewal
    # was refused for good (kept). The token itself still works: the next search sends it
    # and is answered. The row said `sign-in refused` while searches succeeded.
    expires_at = time.time() + 3600
    valid = OAuthToken("sim-codex-valid-access", "sim-codex-old-refresh", expires_at)
    await _renewal_refused(sim, "codex", valid)
    status = await _status(sim)
    async with _client(sim) as ws:
        response = await ws.search("still works", provider="codex")
    assert response.answer
    until = utc_text(expires_at - get_provider("codex").oauth_margin())
    assert status["codex"] == (
        True,
        f"ready (OAuth token); refresh refused: works until {until}, then {STORE_NEW}",
    )
    for secret in (valid.access_token, valid.refresh_token or ""):
        assert secret not in json.dumps(status)


@pytest.mark.parametrize("keys", [None, {"perplexity": "pplx-simulated-key"}], ids=["alone", "key"])
async def test_perplexitys_refused_sign_in_whose_token_still_works_reads_ready_until_due(
    sim: Simulator, keys: dict[str, str] | None
) -> None:
    # As Codex's above, for the provider that tries each credential in turn and renews five
    # minutes before expiry: its token is still sent (first, before a key) until then.
    expires_at = time.time() + 3600
    valid = OAuthToken("sim-pplx-valid-access", "sim-pplx-old-refresh", expires_at)
    await _renewal_refused(sim, "perplexity", valid)
    status = await _status(sim, keys)
    before = len(sim["perplexity"].requests)
    async with _client(sim, keys) as ws:
        response = await ws.search("still works", provider="perplexity")
    assert response.answer
    sent = [dict(r.headers).get("Cookie", "") for r in sim["perplexity"].requests[before:]]
    assert len(sent) == 1 and valid.access_token in sent[0]  # the token, not the key
    until = utc_text(expires_at - 300)  # Perplexity renews five minutes before expiry
    assert status["perplexity"] == (
        True,
        f"ready (OAuth token); refresh refused: works until {until}, then {STORE_NEW}",
    )
    for secret in (valid.access_token, valid.refresh_token or ""):
        assert secret not in json.dumps(status)


@pytest.mark.parametrize("keys", [None, {"perplexity": "pplx-simulated-key"}], ids=["alone", "key"])
async def test_perplexitys_refused_sign_in_inside_its_margin_is_not_ready_on_it(
    sim: Simulator, keys: dict[str, str] | None
) -> None:
    # Four minutes left: past Perplexity's five-minute margin though not the default one,
    # so a search no longer sends it; the row must not read "works until" a time gone by.
    valid = OAuthToken("sim-pplx-due-access", "sim-pplx-old-refresh", time.time() + 240)
    await _renewal_refused(sim, "perplexity", valid, unauthorized=False)
    status = await _status(sim, keys)
    if keys is None:
        assert status["perplexity"] == (False, f"sign-in refused (OAuth token); {STORE_NEW}")
    else:
        assert status["perplexity"] == (
            True,
            f"ready; passed over: OAuth token (sign-in refused; {STORE_NEW})",
        )
