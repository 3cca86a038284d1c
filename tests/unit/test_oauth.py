import os
import stat
import time
from pathlib import Path

import pytest

from websearch_core.credentials import Credentials, CredentialStore, OAuthToken
from websearch_core.errors import AuthorizationError, ProviderNotConfiguredError


def _store(tmp_path: Path) -> CredentialStore:
    return CredentialStore(tmp_path / "creds.json")


def test_tokens_are_stored_owner_only_and_hidden(tmp_path: Path) -> None:
    store = _store(tmp_path)
    token = OAuthToken(access_token="acc-123456", refresh_token="ref-654321", expires_at=2e9)
    store.set_oauth("gemini", token)
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    assert store.get_oauth("gemini") == token
    assert "acc-123456" not in repr(token) and "ref-654321" not in repr(token)
    store.set("gemini", "api-key-value")  # an API key beside the token keeps both
    assert store.get_oauth("gemini") == token and store.get("gemini") == "api-key-value"


def test_expiry_uses_a_safety_margin() -> None:
    now = time.time()
    assert not OAuthToken(access_token="a", expires_at=None).is_expired(now)
    assert not OAuthToken(access_token="a", expires_at=now + 3600).is_expired(now)
    assert OAuthToken(access_token="a", expires_at=now + 30).is_expired(now)
    assert OAuthToken(access_token="a", expires_at=now - 1).is_expired(now)


async def test_valid_token_is_returned_as_is(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.set_oauth("gemini", OAuthToken(access_token="live-token", expires_at=time.time() + 3600))
    credentials = Credentials(store=store, environ={})
    assert (await credentials.valid_oauth_token("gemini")).access_token == "live-token"
    assert "live-token" in credentials.secrets()  # known, so it is scrubbed from errors


async def test_missing_token_is_not_configured(tmp_path: Path) -> None:
    with pytest.raises(ProviderNotConfiguredError):
        await Credentials(store=_store(tmp_path), environ={}).valid_oauth_token("gemini")


async def test_expired_token_without_hook_is_a_clear_authorization_error(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.set_oauth("gemini", OAuthToken(access_token="old-token", expires_at=time.time() - 10))
    with pytest.raises(AuthorizationError, match="no refresh hook is configured") as caught:
        await Credentials(store=store, environ={}).valid_oauth_token("gemini")
    assert caught.value.status == 401
    assert "old-token" not in str(caught.value)


async def test_expired_token_is_refreshed_once_and_stored(tmp_path: Path) -> None:
    store = _store(tmp_path)
    old = OAuthToken(
        access_token="old-token", refresh_token="refresh-me", expires_at=time.time() - 10
    )
    store.set_oauth("gemini", old)
    calls: list[tuple[str, OAuthToken]] = []

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        calls.append((provider, token))
        return OAuthToken(
            access_token="new-token", refresh_token="refresh-2", expires_at=time.time() + 3600
        )

    credentials = Credentials(store=store, environ={}, refreshers={"gemini": refresh})
    fresh = await credentials.valid_oauth_token("gemini")
    assert fresh.access_token == "new-token"
    assert calls == [("gemini", old)]
    assert store.get_oauth("gemini") == fresh
    again = await credentials.valid_oauth_token("gemini")
    assert again == fresh and len(calls) == 1  # still valid: no second refresh
    forced = await credentials.valid_oauth_token("gemini", force_refresh=True)
    assert forced.access_token == "new-token" and len(calls) == 2


async def test_failed_refresh_is_an_authorization_error_without_secrets(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.set_oauth("gemini", OAuthToken(access_token="old-token", expires_at=time.time() - 10))

    async def broken(provider: str, token: OAuthToken) -> OAuthToken:
        raise RuntimeError(f"refresh endpoint rejected {token.access_token}")

    credentials = Credentials(store=store, environ={}, refreshers={"gemini": broken})
    with pytest.raises(AuthorizationError, match="refresh failed") as caught:
        await credentials.valid_oauth_token("gemini")
    assert "old-token" not in str(caught.value)


async def test_a_second_entry_of_one_provider_is_refreshed_through_its_own_hook(
    tmp_path: Path,
) -> None:
    store = _store(tmp_path)
    old = OAuthToken(access_token="cli-old", refresh_token="cli-r", expires_at=time.time() - 10)
    store.set_oauth("gemini-cli", old)
    store.set_oauth("gemini", OAuthToken(access_token="ag-token"))
    calls: list[tuple[str, str]] = []

    async def refresh(entry: str, token: OAuthToken) -> OAuthToken:
        calls.append((entry, token.access_token))
        return OAuthToken(access_token="cli-new", refresh_token="cli-r")

    async def other(entry: str, token: OAuthToken) -> OAuthToken:
        raise AssertionError("the provider's own hook was used for another entry")

    credentials = Credentials(
        store=store, environ={}, refreshers={"gemini-cli": refresh, "gemini": other}
    )
    fresh = await credentials.valid_oauth_token("gemini", entry="gemini-cli")
    assert fresh.access_token == "cli-new" and calls == [("gemini-cli", "cli-old")]
    assert store.get_oauth("gemini-cli") == fresh
    assert store.get_oauth("gemini") == OAuthToken(access_token="ag-token")  # left alone
    assert "cli-new" in credentials.secrets()

    # Without that entry's hook: the error is the provider's and names the entry.
    store.set_oauth("gemini-cli", old)
    bare = Credentials(store=store, environ={}, refreshers={"gemini": other})
    with pytest.raises(AuthorizationError) as caught:
        await bare.valid_oauth_token("gemini", entry="gemini-cli")
    assert caught.value.provider == "gemini"
    assert caught.value.message.startswith("gemini-cli: OAuth token expired")
    assert "cli-old" not in str(caught.value)
    with pytest.raises(ProviderNotConfiguredError, match="gemini-x: no OAuth token") as missing:
        await bare.valid_oauth_token("gemini", entry="gemini-x")
    assert missing.value.provider == "gemini"
