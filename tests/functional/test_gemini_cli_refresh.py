"""A Gemini CLI or Antigravity sign-in renews its own token at Google's token endpoint.

An imported Gemini CLI token lasts about an hour, and only a refresh hook passed in code
could renew it: an hour after ``websearch auth import gemini-cli`` every search failed with
"no refresh hook is configured". The sign-in now trades its refresh token for a new access
token with the Gemini CLI's own OAuth client, at Google's token endpoint whatever Gemini's
base URL; the simulator's ``/token`` (standing in for ``https://oauth2.googleapis.com/token``
through the ``google_oauth`` base URL the simulator sets) answers it and no live service is
ever called. An Antigravity sign-in does the same with Antigravity's own OAuth client: it
too needed a hook passed in code.
"""

import asyncio
import json
import logging
import os
import stat
import time
from pathlib import Path

import pytest

from tests.functional._sim_helpers import credential_store, gemini_protocol, simulator_fixture
from websearch_core import WebSearch
from websearch_core.credentials import OAuthToken
from websearch_core.errors import (
    AllProvidersFailedError,
    AuthorizationError,
    ProviderUnavailableError,
)
from websearch_core.models import SearchResponse
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.gemini import (
    ANTIGRAVITY_CLIENT,
    GEMINI_CLI_CLIENT,
)

QUERY = "python asyncio"
TOKEN_PATH = "/token"
STREAM_PATH = "/v1internal:streamGenerateContent"
OLD_ACCESS = "ya29.a0old-cli-access"
REFRESH = "1//0cli-refresh-token"
SIGN_IN_AGAIN = (
    "sign in again (run `gemini` and choose Login with Google), then run"
    " `websearch auth import gemini-cli`"
)


pytestmark = pytest.mark.usefixtures("gemini_default_model")


sim = simulator_fixture("gemini")


def _sign_in(sim: Simulator, expires_at: float | None, access: str = OLD_ACCESS) -> OAuthToken:
    token = OAuthToken(access_token=access, refresh_token=REFRESH, expires_at=expires_at)
    credential_store(sim).set_oauth("gemini-cli", token)
    return token


def _paths(sim: Simulator) -> list[str]:
    return [request.path for request in sim["gemini"].requests]


async def test_an_expired_token_is_renewed_with_the_gemini_cli_client_and_stored(
    sim: Simulator,
) -> None:
    old = _sign_in(sim, expires_at=time.time() - 60)
    before = time.time()
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        response = await ws.search(QUERY, provider="gemini")
        after = time.time()
        assert _paths(sim) == [TOKEN_PATH, STREAM_PATH]
        exchange, stream = sim["gemini"].requests
        client_id, client_secret = GEMINI_CLI_CLIENT
        assert exchange.method == "POST"
        assert dict(exchange.form()) == {
            "grant_type": "refresh_token",
            "refresh_token": REFRESH,
            "client_id": client_id,
            "client_secret": client_secret,
        }
        assert exchange.header("Authorization") is None  # the old token is not sent
        assert stream.header("Authorization") == "Bearer ya29.sim-access-1"
        assert response.auth_mode == "oauth" and response.answer

        # Written back: the new access token, the refresh token kept (Google sent none),
        # the expiry counted from the request, the sign-in still the same one; mode 0600.
        stored = credential_store(sim).get_oauth("gemini-cli")
        assert stored is not None
        assert (stored.access_token, stored.refresh_token) == ("ya29.sim-access-1", REFRESH)
        assert stored.expires_at is not None
        assert before + 3599 <= stored.expires_at <= after + 3599
        assert stored.fingerprint() == old.fingerprint()
        path = Path(os.path.realpath(sim.settings().resolved_credentials_file()))
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert not [p for p in path.parent.iterdir() if p.name.startswith(".credentials-")]

        # The next search sends the stored token without asking again.
        await ws.search("another query", provider="gemini")
    assert _paths(sim) == [TOKEN_PATH, STREAM_PATH, STREAM_PATH]
    assert gemini_protocol(sim).issued == ["ya29.sim-access-1"]


async def test_a_gemini_gateway_never_sees_the_refresh(sim: Simulator) -> None:
    # base_urls.gemini is a gateway in front of Cloud Code (here: this simulator); Google's
    # token endpoint is elsewhere (a second one). The refresh token goes only to the latter.
    _sign_in(sim, expires_at=time.time() - 60)
    async with Simulator(["gemini"]) as google:
        settings = sim.settings(
            base_urls={"gemini": sim["gemini"].base_url, "google_oauth": google["gemini"].base_url}
        )
        async with WebSearch(settings, api_keys={}) as ws:
            response = await ws.search(QUERY, provider="gemini")
        assert [request.path for request in google["gemini"].requests] == [TOKEN_PATH]
        assert gemini_protocol(google).issued == ["ya29.sim-access-1"]
    assert _paths(sim) == [STREAM_PATH]
    assert sim["gemini"].requests[0].header("Authorization") == "Bearer ya29.sim-access-1"
    assert not any(REFRESH in request.body.decode() for request in sim["gemini"].requests)
    assert response.answer


async def test_a_token_cloud_code_calls_expired_is_renewed_once_and_the_stream_resent(
    sim: Simulator,
) -> None:
    # No expiry was stored, so only Cloud Code's 401 says the hour is over.
    _sign_in(sim, expires_at=None)
    gemini_protocol(sim).expired.add(OLD_ACCESS)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        response = await ws.search(QUERY, provider="gemini")
    assert _paths(sim) == [STREAM_PATH, TOKEN_PATH, STREAM_PATH]
    first, _, resent = sim["gemini"].requests
    assert first.header("Authorization") == f"Bearer {OLD_ACCESS}"
    assert resent.header("Authorization") == "Bearer ya29.sim-access-1"
    assert response.answer
    stored = credential_store(sim).get_oauth("gemini-cli")
    assert stored is not None and stored.access_token == "ya29.sim-access-1"


async def test_a_refused_refresh_says_to_sign_in_again_and_shows_no_secret(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    old = _sign_in(sim, expires_at=time.time() - 60)
    gemini_protocol(sim).revoked.add(REFRESH)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        result = await ws.run(QUERY, provider="gemini")
        rows = {s.id: s.reason for s in await ws.provider_status()}
    assert result.text == (
        "Error: gemini-cli: refreshing the Gemini CLI sign-in: Google refused the sign-in"
        f" (invalid_grant: Token has been expired or revoked.); {SIGN_IN_AGAIN}"
    )
    assert _paths(sim) == [TOKEN_PATH]  # nothing was searched with the dead token
    assert SIGN_IN_AGAIN in rows["gemini"]
    assert credential_store(sim).get_oauth("gemini-cli") == old  # nothing was stored
    shown = result.text + caplog.text + json.dumps(rows)
    for secret in (OLD_ACCESS, REFRESH, GEMINI_CLI_CLIENT[1]):
        assert secret not in shown


async def test_a_refresh_refused_after_cloud_code_refused_the_token_is_logged(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    # Cloud Code's 401 stands as the spec's text; the warning says why no fresh token came.
    _sign_in(sim, expires_at=None)
    gemini_protocol(sim).expired.add(OLD_ACCESS)
    gemini_protocol(sim).revoked.add(REFRESH)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert isinstance(failure, AuthorizationError) and failure.status == 401
    assert _paths(sim) == [STREAM_PATH, TOKEN_PATH]
    assert "invalid_grant: Token has been expired or revoked." in caplog.text
    assert SIGN_IN_AGAIN in caplog.text
    for secret in (OLD_ACCESS, REFRESH):
        assert secret not in caplog.text + failure.message


async def test_a_client_google_does_not_know_is_named(sim: Simulator) -> None:
    _sign_in(sim, expires_at=time.time() - 60)
    gemini_protocol(sim).clients.clear()
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        result = await ws.run(QUERY, provider="gemini")
    # Not "sign in again": a new sign-in is renewed with the same client id and secret.
    assert result.text == (
        "Error: gemini-cli: refreshing the Gemini CLI sign-in: Google refused the OAuth client"
        " (invalid_client: The OAuth client was not found.); signing in again does not help:"
        f" it was sent as the Gemini CLI OAuth client ({GEMINI_CLI_CLIENT[0]}), whose id and"
        " secret are copied into websearch-tools from the Gemini CLI's source; upgrade"
        " websearch-tools"
        " (a release with the client corrected renews this same sign-in), or renew it with a"
        " refresh hook (pass WebSearch(oauth_refreshers=...), or websearch --refresh-hook"
        " gemini-cli=MODULE:FUNCTION on the command line)"
    )
    assert GEMINI_CLI_CLIENT[1] not in result.text  # the secret


async def test_a_token_endpoint_outage_is_a_transient_failure(sim: Simulator) -> None:
    old = _sign_in(sim, expires_at=time.time() - 60)
    sim["gemini"].enqueue(Fault.server_error(503, "unavailable"))
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert isinstance(failure, ProviderUnavailableError) and failure.status == 503
    assert failure.message == (
        "gemini-cli: refreshing the Gemini CLI sign-in: Google's token endpoint answered 503;"
        " try again later"
    )
    assert credential_store(sim).get_oauth("gemini-cli") == old


async def test_a_hook_passed_in_code_wins_over_the_own_refresh(sim: Simulator) -> None:
    _sign_in(sim, expires_at=time.time() - 60)
    calls: list[str] = []

    async def refresh(entry: str, token: OAuthToken) -> OAuthToken:
        calls.append(entry)
        return OAuthToken(access_token="ya29.from-the-hook", refresh_token=REFRESH)

    hooks = {"gemini-cli": refresh}
    async with WebSearch(sim.settings(), api_keys={}, oauth_refreshers=hooks) as ws:
        await ws.search(QUERY, provider="gemini")
    assert calls == ["gemini-cli"] and _paths(sim) == [STREAM_PATH]
    assert sim["gemini"].requests[0].header("Authorization") == "Bearer ya29.from-the-hook"


AG_OLD = "ya29.a0old-antigravity-access"
AG_REFRESH = "1//0antigravity-refresh-token"
AG_SIGN_IN_AGAIN = (
    "sign in to Antigravity again, then store its new token in the `gemini` entry"
    " (`CredentialStore.set_oauth`)"
)


def _antigravity(sim: Simulator) -> OAuthToken:
    token = OAuthToken(access_token=AG_OLD, refresh_token=AG_REFRESH, expires_at=time.time() - 60)
    credential_store(sim).set_oauth("gemini", token)
    return token


async def test_an_antigravity_sign_in_renews_with_its_own_client(sim: Simulator) -> None:
    # Its tokens belong to Antigravity's OAuth client: the Gemini CLI's is never sent for it.
    old = _antigravity(sim)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        row = next(s.reason for s in await ws.provider_status() if s.id == "gemini")
        response = await ws.search(QUERY, provider="gemini")
    assert row == "ready (Antigravity sign-in)"
    assert _paths(sim) == [TOKEN_PATH, STREAM_PATH] and response.answer
    exchange, stream = sim["gemini"].requests
    client_id, client_secret = ANTIGRAVITY_CLIENT
    assert dict(exchange.form()) == {
        "grant_type": "refresh_token",
        "refresh_token": AG_REFRESH,
        "client_id": client_id,
        "client_secret": client_secret,
    }
    assert stream.header("Authorization") == "Bearer ya29.sim-access-1"
    assert (stream.header("User-Agent") or "").startswith("antigravity/")
    stored = credential_store(sim).get_oauth("gemini")
    assert stored is not None
    assert (stored.access_token, stored.refresh_token) == ("ya29.sim-access-1", AG_REFRESH)
    assert stored.fingerprint() == old.fingerprint()
    assert credential_store(sim).get_oauth("gemini-cli") is None


async def test_a_refused_antigravity_refresh_says_what_to_do_and_shows_no_secret(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    old = _antigravity(sim)
    gemini_protocol(sim).revoked.add(AG_REFRESH)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        result = await ws.run(QUERY, provider="gemini")
        rows = {s.id: s.reason for s in await ws.provider_status()}
    assert result.text == (
        "Error: gemini: refreshing the Antigravity sign-in: Google refused the sign-in"
        f" (invalid_grant: Token has been expired or revoked.); {AG_SIGN_IN_AGAIN}"
    )
    assert _paths(sim) == [TOKEN_PATH]
    assert AG_SIGN_IN_AGAIN in rows["gemini"]
    assert credential_store(sim).get_oauth("gemini") == old
    shown = result.text + caplog.text + json.dumps(rows)
    for secret in (AG_OLD, AG_REFRESH, ANTIGRAVITY_CLIENT[1], GEMINI_CLI_CLIENT[1]):
        assert secret not in shown


async def test_an_expiring_token_that_is_renewed_is_not_checked_as_sent(sim: Simulator) -> None:
    # A stored access token no header can carry, past its expiry: the search renews it
    # before sending anything, so the table must not refuse Gemini for it.
    _sign_in(sim, expires_at=time.time() - 60, access="ya29.broken\x01token")
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        row = next(s.reason for s in await ws.provider_status() if s.id == "gemini")
        response = await ws.search(QUERY, provider="gemini")
    assert row == "ready (Gemini CLI sign-in)"
    assert _paths(sim) == [TOKEN_PATH, STREAM_PATH] and response.answer


async def _two_searches(ws: WebSearch) -> list[object]:
    searches = (ws.search(QUERY, provider="gemini"), ws.search("rust tokio", provider="gemini"))
    return await asyncio.gather(*searches, return_exceptions=True)


async def test_two_searches_with_one_expired_token_renew_it_once(sim: Simulator) -> None:
    # Each search refreshed the token itself: two requests to Google's token endpoint (and
    # two tokens issued) where one does, and a refresh-token grant spent twice.
    _sign_in(sim, expires_at=time.time() - 60)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        first, second = await _two_searches(ws)
    assert _paths(sim).count(TOKEN_PATH) == 1
    assert gemini_protocol(sim).issued == ["ya29.sim-access-1"]
    streams = [r for r in sim["gemini"].requests if r.path == STREAM_PATH]
    assert [r.header("Authorization") for r in streams] == ["Bearer ya29.sim-access-1"] * 2
    assert isinstance(first, SearchResponse) and isinstance(second, SearchResponse)
    stored = credential_store(sim).get_oauth("gemini-cli")
    assert stored is not None and stored.access_token == "ya29.sim-access-1"


async def test_a_refused_refresh_is_asked_once_and_seen_by_both_searches(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    _sign_in(sim, expires_at=time.time() - 60)
    gemini_protocol(sim).revoked.add(REFRESH)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        outcomes = await _two_searches(ws)
    assert _paths(sim) == [TOKEN_PATH]
    for outcome in outcomes:
        assert isinstance(outcome, AllProvidersFailedError)
        (failure,) = outcome.failures
        assert isinstance(failure, AuthorizationError)
        assert failure.message.endswith(
            f"(invalid_grant: Token has been expired or revoked.); {SIGN_IN_AGAIN}"
        )
        for secret in (OLD_ACCESS, REFRESH):
            assert secret not in failure.message + caplog.text


async def test_two_searches_refused_with_one_token_renew_it_once(sim: Simulator) -> None:
    # No expiry stored: Cloud Code's 401 to each search says the hour is over. The second
    # refresh, after the first had stored a new token, asked Google again for nothing.
    _sign_in(sim, expires_at=None)
    gemini_protocol(sim).expired.add(OLD_ACCESS)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        first, second = await _two_searches(ws)
    assert _paths(sim).count(TOKEN_PATH) == 1
    assert isinstance(first, SearchResponse) and isinstance(second, SearchResponse)
    resent = [r for r in sim["gemini"].requests if r.path == STREAM_PATH][2:]
    assert [r.header("Authorization") for r in resent] == ["Bearer ya29.sim-access-1"] * 2


async def test_two_clients_of_one_process_renew_their_sign_in_once(sim: Simulator) -> None:
    # Two agents' clients on one credential file: one refresh, and each client knows the
    # new token as a secret (its redaction masks it), not only the one that asked.
    _sign_in(sim, expires_at=time.time() - 60)
    async with (
        WebSearch(sim.settings(), api_keys={}) as one,
        WebSearch(sim.settings(), api_keys={}) as two,
    ):
        outcomes = await asyncio.gather(
            one.search(QUERY, provider="gemini"), two.search("rust tokio", provider="gemini")
        )
        assert all(isinstance(o, SearchResponse) for o in outcomes)
        for client in (one, two):
            assert "ya29.sim-access-1" in client.credentials.secrets()
    assert _paths(sim).count(TOKEN_PATH) == 1


async def test_a_client_google_does_not_know_names_antigravitys_own(sim: Simulator) -> None:
    _antigravity(sim)
    gemini_protocol(sim).clients.clear()
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        result = await ws.run(QUERY, provider="gemini")
    assert (
        "Google refused the OAuth client (invalid_client: The OAuth client was not found.);"
        " signing in again does not help: it was sent as the Antigravity OAuth client"
        f" ({ANTIGRAVITY_CLIENT[0]}), whose id and secret are copied into websearch-tools from"
        " the Antigravity IDE;"
    ) in result.text
    assert "--refresh-hook gemini=MODULE:FUNCTION" in result.text
    assert AG_SIGN_IN_AGAIN not in result.text
    for secret in (ANTIGRAVITY_CLIENT[1], AG_OLD, AG_REFRESH):
        assert secret not in result.text
