"""A mark earned with an OAuth sign-in belongs to that sign-in, and survives its refresh.

Marks were scoped by key and endpoint only. A Gemini rate limit earned with the Gemini CLI
sign-in kept Gemini out after the user moved to the Antigravity sign-in (another account,
another quota), and a 401 cooldown stayed on a store entry after a token for another account
was stored there. The scope now names the sign-in a search would send; a refresh keeps it,
so a renewed token does not forget a mark.
"""

import base64
import json
import time
from collections.abc import AsyncIterator

import pytest

from tests.functional._sim_helpers import credential_store, sim_client
from websearch_core import WebSearch
from websearch_core.credentials import OAuthToken, TokenRefresher
from websearch_core.errors import AuthorizationError, RateLimitedError
from websearch_core.ledger import Ledger, mark_scope
from websearch_core.providers import get_provider
from websearch_core.state import MemoryStore
from websearch_core.testing import Fault, Simulator

QUERY = "python asyncio"
GEMINI = get_provider("gemini").info


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    async with Simulator(["gemini", "brave"]) as simulator:
        yield simulator


def _client(sim: Simulator, hooks: dict[str, TokenRefresher] | None = None) -> WebSearch:
    keys = {"brave": sim.api_keys()["brave"]}
    return sim_client(
        sim, api_keys=keys, oauth_refreshers=hooks, providers=("gemini", "brave"), cache=False
    )


def _jwt(subject: str, nonce: str) -> str:
    claims = {"iss": "https://auth.example", "sub": subject, "nonce": nonce}
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"eyJhbGciOiJSUzI1NiJ9.{payload}.sig"


async def _outcomes(ws: WebSearch) -> dict[str, str]:
    result = await ws.run(QUERY)
    assert result.error is None
    return {a.provider: a.outcome for a in result.response.attempts}


async def test_a_rate_limit_stays_with_the_sign_in_that_earned_it(sim: Simulator) -> None:
    credential_store(sim).set_oauth(
        "gemini-cli", OAuthToken(access_token="cli-a", refresh_token="cli-r")
    )
    credential_store(sim).set_oauth("gemini", OAuthToken(access_token="ag-a", refresh_token="ag-r"))
    sim["gemini"].enqueue(Fault.rate_limited(retry_after=3600))
    async with _client(sim) as ws:
        first = await _outcomes(ws)
        again = await _outcomes(ws)
        assert len(sim["gemini"].requests) == 1
        # The user moves to the Antigravity sign-in: another account, another quota.
        credential_store(sim).remove("gemini-cli", "oauth")
        moved = await _outcomes(ws)
    assert (first["gemini"], again["gemini"], moved["gemini"]) == ("failed", "skipped", "success")
    assert sim["gemini"].requests[-1].header("Authorization") == "Bearer ag-a"


async def test_a_key_s_rate_limit_is_still_the_provider_s(sim: Simulator) -> None:
    # A key does not say whose account it is: a second key may share the spent quota.
    store = MemoryStore()
    scope = {"gemini": "key-a"}
    ledger = Ledger(store, scope_of=lambda pid: scope.get(pid))
    limited = RateLimitedError("gemini", "slow down", retry_after=3600)
    await ledger.record_failure("gemini", limited)
    mark = await store.get_mark("gemini", time.time())
    assert mark is not None and mark.scope == ""


async def test_a_refresh_keeps_the_mark_and_another_account_drops_it(sim: Simulator) -> None:
    credential_store(sim).set_oauth(
        "gemini-cli", OAuthToken(access_token="cli-a", refresh_token="cli-r1", expires_at=1.0)
    )

    async def rotate(entry: str, token: OAuthToken) -> OAuthToken:
        # An issuer that rotates the refresh token too: nothing of the old token is left.
        return OAuthToken(access_token="cli-b", refresh_token="cli-r2")

    async with _client(sim, {"gemini-cli": rotate}) as ws:
        context = ws._context()
        store = await ws.state()
        ledger = Ledger(store, scope_of=lambda pid: mark_scope(context, pid))
        await ledger.record_failure("gemini", AuthorizationError("gemini", "refused", 401))
        earned = mark_scope(context, "gemini")
        await context.credentials.valid_oauth_token("gemini", entry="gemini-cli")
        assert mark_scope(context, "gemini") == earned
        assert await ledger.skip_reason(GEMINI) is not None
        # A token for another account stored in the same entry is another door.
        credential_store(sim).set_oauth(
            "gemini-cli", OAuthToken(access_token="x", refresh_token="other")
        )
        assert mark_scope(context, "gemini") != earned
        assert await ledger.skip_reason(GEMINI) is None
    for secret in ("cli-a", "cli-b", "cli-r1", "cli-r2", "other"):
        assert secret not in earned


async def test_a_jwt_subject_is_the_account_whatever_token_is_current(sim: Simulator) -> None:
    store = credential_store(sim)
    scopes = []
    for access, refresh in (("one", "r1"), ("two", "r2")):
        store.set_oauth(
            "codex", OAuthToken(access_token=_jwt("user-1", access), refresh_token=refresh)
        )
        async with _client(sim) as ws:
            scopes.append(mark_scope(ws._context(), "codex"))
    store.set_oauth("codex", OAuthToken(access_token=_jwt("user-2", "one"), refresh_token="r1"))
    async with _client(sim) as ws:
        other = mark_scope(ws._context(), "codex")
    assert scopes[0] == scopes[1] != other
    assert all(s.startswith("oauth:") for s in (*scopes, other))


async def test_a_key_the_sign_in_wins_over_does_not_move_the_scope(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With a stored token Gemini never sends its key, yet the key was part of the scope:
    # exporting GEMINI_API_KEY lifted a rate limit the sign-in had earned (one more request
    # to a sign-in still limited). Without a token the key is what is sent, and counts.
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    scopes: dict[tuple[bool, str], str] = {}
    for token in (True, False):
        if token:
            credential_store(sim).set_oauth(
                "gemini", OAuthToken(access_token="ag-a", refresh_token="r")
            )
        else:
            credential_store(sim).remove("gemini", "oauth")
        for key in ("", "AIzaFIRSTKEY", "AIzaSECONDKEY"):
            monkeypatch.setenv("GEMINI_API_KEY", key)
            async with _client(sim) as ws:
                scopes[token, key] = mark_scope(ws._context(), "gemini")
    assert scopes[True, ""] == scopes[True, "AIzaFIRSTKEY"] == scopes[True, "AIzaSECONDKEY"]
    assert len({scopes[False, "AIzaFIRSTKEY"], scopes[False, "AIzaSECONDKEY"]}) == 2
