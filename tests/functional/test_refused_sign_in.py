"""A refresh refused for good is remembered until a new sign-in; a passing failure is not.

Each search that met a sign-in whose refresh token was refused (the user signed out, the
token was revoked or used up) asked the token endpoint again, and got the same refusal: one
wasted request per search, per thread, per process. A final refusal (Google's
``invalid_grant``, or a hook raising :class:`~websearch_core.errors.SignInRefusedError`) is
now kept beside the stored token, by a digest of its refresh token, and later searches fail
with its text at once; storing a new sign-in, or another refresh token, asks again. A
timeout or a 5xx is a passing failure: the next search asks again.

Driven end to end through ``WebSearch`` against the simulator: Gemini's own refresh at its
``/token``, and Codex's through the test hook at ``/oauth/token``.
"""

import errno
import io
import json
import logging
import os
import tempfile
import time
from pathlib import Path

import pytest

from tests.functional._sim_helpers import credential_store, gemini_protocol, simulator_fixture
from tests.token_hook import RefreshRefusedError, refresher
from websearch_core import WebSearch
from websearch_core.cli import EXIT_OK, main
from websearch_core.credentials import OAuthToken
from websearch_core.errors import (
    AllProvidersFailedError,
    ProviderUnavailableError,
    SearchProviderError,
    SignInRefusedError,
)
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols._oauth_refresh import TOKEN_PATH as HOOK_TOKEN_PATH
from websearch_core.testing.protocols._oauth_refresh import RefreshGrant

GOOGLE_TOKEN_PATH = "/token"
OLD_ACCESS = "ya29.a0old-cli-access"
REFRESH = "1//0cli-refresh-token"
CODEX_OLD = OAuthToken("sim-codex-old-access", "sim-codex-old-refresh", time.time() - 60)


pytestmark = pytest.mark.usefixtures("gemini_default_model")


sim = simulator_fixture("gemini", "codex")


def _codex_grant(sim: Simulator) -> RefreshGrant:
    grant = getattr(sim["codex"].protocol, "sign_in", None)
    assert isinstance(grant, RefreshGrant)
    return grant


def _gemini_signed_in(sim: Simulator, refresh: str = REFRESH) -> None:
    token = OAuthToken(access_token=OLD_ACCESS, refresh_token=refresh, expires_at=time.time() - 60)
    credential_store(sim).set_oauth("gemini-cli", token)


def _asked(sim: Simulator, provider: str, path: str) -> int:
    return [r.path for r in sim[provider].requests].count(path)


async def _failure(ws: WebSearch, provider: str) -> SearchProviderError:
    with pytest.raises(AllProvidersFailedError) as caught:
        await ws.search("python asyncio", provider=provider)
    (failure,) = caught.value.failures
    return failure


def _codex_client(sim: Simulator) -> WebSearch:
    hook = refresher(f"{sim['codex'].base_url}{HOOK_TOKEN_PATH}")
    return WebSearch(sim.settings(), api_keys={}, oauth_refreshers={"codex": hook})


def _stored_file(sim: Simulator) -> str:
    path = os.path.realpath(sim.settings().resolved_credentials_file())
    return Path(path).read_text(encoding="utf-8")


async def test_googles_invalid_grant_is_asked_once_for_every_later_search(
    sim: Simulator,
) -> None:
    _gemini_signed_in(sim)
    gemini_protocol(sim).revoked.add(REFRESH)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        first = await _failure(ws, "gemini")
    async with WebSearch(sim.settings(), api_keys={}) as ws:  # a new client: a new process
        second = await _failure(ws, "gemini")
        third = await _failure(ws, "gemini")
    assert _asked(sim, "gemini", GOOGLE_TOKEN_PATH) == 1
    assert isinstance(first, SignInRefusedError)
    for later in (second, third):
        assert type(later) is SignInRefusedError
        assert (later.message, later.status) == (first.message, first.status)
    assert "Google refused the sign-in (invalid_grant: " in first.message
    record = json.loads(_stored_file(sim))["gemini-cli"]["oauth"]["refused"]
    assert record["message"] == first.message and set(record) == {"grant", "message"}
    for secret in (REFRESH, OLD_ACCESS, "GOCSPX"):
        assert secret not in json.dumps(record)


async def test_a_new_sign_in_stored_asks_again(sim: Simulator) -> None:
    _gemini_signed_in(sim)
    gemini_protocol(sim).revoked.add(REFRESH)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        await _failure(ws, "gemini")
        # Signed in again (CredentialStore.set_oauth, as `auth import` does): the
        # refusal belonged to the token replaced, even if the refresh token is the same.
        gemini_protocol(sim).revoked.clear()
        _gemini_signed_in(sim)
        response = await ws.search("after signing in again", provider="gemini")
    assert response.answer
    assert _asked(sim, "gemini", GOOGLE_TOKEN_PATH) == 2
    assert '"refused"' not in _stored_file(sim)


async def test_auth_import_clears_the_refusal(
    sim: Simulator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _gemini_signed_in(sim)
    gemini_protocol(sim).revoked.add(REFRESH)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        await _failure(ws, "gemini")
    creds = tmp_path / "oauth_creds.json"
    expiry_ms = int((time.time() - 60) * 1000)
    new = {"access_token": "ya29.imported", "refresh_token": "1//0new", "expiry_date": expiry_ms}
    creds.write_text(json.dumps(new), encoding="utf-8")
    assert main(["auth", "import", "gemini-cli", str(creds)]) == EXIT_OK
    capsys.readouterr()
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        response = await ws.search("imported", provider="gemini")
    assert response.answer
    assert _asked(sim, "gemini", GOOGLE_TOKEN_PATH) == 2


async def test_a_refresh_token_changed_in_the_file_asks_again(sim: Simulator) -> None:
    # The record names the refresh token it was refused for (by a digest): one written
    # into the file by hand, the record left beside it, is asked about.
    _gemini_signed_in(sim)
    gemini_protocol(sim).revoked.add(REFRESH)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        await _failure(ws, "gemini")
        path = Path(os.path.realpath(sim.settings().resolved_credentials_file()))
        data = json.loads(path.read_text(encoding="utf-8"))
        assert "refused" in data["gemini-cli"]["oauth"]
        data["gemini-cli"]["oauth"]["refresh_token"] = "1//0edited"
        path.write_text(json.dumps(data), encoding="utf-8")
        response = await ws.search("edited", provider="gemini")
    assert response.answer
    assert _asked(sim, "gemini", GOOGLE_TOKEN_PATH) == 2


async def test_a_token_endpoint_outage_is_asked_again_by_the_next_search(sim: Simulator) -> None:
    _gemini_signed_in(sim)
    sim["gemini"].enqueue(Fault.server_error(503, "unavailable"))
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        outage = await _failure(ws, "gemini")
        response = await ws.search("after the outage", provider="gemini")
    assert isinstance(outage, ProviderUnavailableError) and outage.status == 503
    assert response.answer
    assert _asked(sim, "gemini", GOOGLE_TOKEN_PATH) == 2


async def test_a_client_google_does_not_know_is_not_kept(sim: Simulator) -> None:
    # invalid_client is about the OAuth client, not this refresh token: not kept.
    _gemini_signed_in(sim)
    clients = dict(gemini_protocol(sim).clients)
    gemini_protocol(sim).clients.clear()
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        refused = await _failure(ws, "gemini")
        gemini_protocol(sim).clients.update(clients)
        response = await ws.search("client known again", provider="gemini")
    assert type(refused) is not SignInRefusedError and "invalid_client" in refused.message
    assert response.answer
    assert _asked(sim, "gemini", GOOGLE_TOKEN_PATH) == 2


async def test_a_hooks_final_refusal_is_asked_once(sim: Simulator) -> None:
    credential_store(sim).set_oauth("codex", CODEX_OLD)
    _codex_grant(sim).revoked.add(CODEX_OLD.refresh_token or "")
    async with _codex_client(sim) as ws:
        first = await _failure(ws, "codex")
        second = await _failure(ws, "codex")
    said = "codex: OAuth token refresh failed: its refresh hook raised RefreshRefusedError"
    assert isinstance(first, SignInRefusedError) and first.message == said
    assert isinstance(second, SignInRefusedError) and second.message == said
    assert _asked(sim, "codex", HOOK_TOKEN_PATH) == 1
    assert issubclass(RefreshRefusedError, SignInRefusedError)


async def test_a_hooks_other_failure_is_asked_again(sim: Simulator) -> None:
    credential_store(sim).set_oauth("codex", CODEX_OLD)
    sim["codex"].enqueue(Fault.server_error(503, "unavailable"))
    async with _codex_client(sim) as ws:
        failed = await _failure(ws, "codex")
        response = await ws.search("after the outage", provider="codex")
    assert type(failed) is not SignInRefusedError
    assert failed.message == "codex: OAuth token refresh failed: its refresh hook raised " + (
        "RefreshFailedError"
    )
    assert response.answer
    assert _asked(sim, "codex", HOOK_TOKEN_PATH) == 2


async def test_auth_set_says_a_refused_sign_in_still_goes_before_the_key(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A user whose Gemini CLI sign-in was refused stores a key to get searching again:
    # the sign-in wins over the key, so nothing changed, and nothing said so.
    _gemini_signed_in(sim)
    gemini_protocol(sim).revoked.add(REFRESH)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        await _failure(ws, "gemini")
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("gemini-key-0123456789\n"))
    assert main(["auth", "set", "gemini"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert "Stored an API key for gemini" in out
    assert err == (
        "websearch: warning: the stored Gemini CLI sign-in (entry gemini-cli) was refused for "
        "good and is sent before this key, so gemini searches still fail on it; sign in again "
        "(run `gemini` and choose Login with Google), then run `websearch auth import "
        "gemini-cli`, or forget it with `websearch auth remove gemini-cli --oauth`\n"
    )
    assert main(["auth", "remove", "gemini-cli", "--oauth"]) == EXIT_OK
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        response = await ws.search("on the key", provider="gemini")
    assert response.answer
    for secret in (REFRESH, OLD_ACCESS, "gemini-key-0123456789"):
        assert secret not in out + err


async def test_a_refusal_the_store_cannot_keep_is_logged_with_what_to_do(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The store is read (the token, its lock) but cannot be written: the refusal is not
    # kept, each search asks again, and the log line is all the user has to go on.
    _gemini_signed_in(sim)
    gemini_protocol(sim).revoked.add(REFRESH)

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        with caplog.at_level(logging.WARNING, logger="websearch_core"):
            refused = await _failure(ws, "gemini")
    path = sim.settings().resolved_credentials_file()
    (line,) = [r.getMessage() for r in caplog.records if "was not kept" in r.getMessage()]
    assert line == (
        f"gemini-cli: the OAuth refresh's final refusal was not kept (cannot write credential "
        f"store {path}: Read-only file system), so every search asks the token endpoint again "
        "and is refused again; make that file writable, then sign in again as the refusal says"
    )
    assert type(refused) is SignInRefusedError  # the search's own failure is unchanged
    for secret in (REFRESH, OLD_ACCESS):
        assert secret not in caplog.text
