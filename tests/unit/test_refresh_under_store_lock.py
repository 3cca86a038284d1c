"""What a refresh reads once it holds the credential store's lock.

Another thread or process may have written the entry while this one waited for the lock:
a token renewed there is used as it is (no second refresh), and an entry that was changed
but is still expired (a refresh token rotated by another program) is refreshed from what is
stored now, not from the stale copy this search read first.
"""

import asyncio
import json
import os
import time
from pathlib import Path

from filelock import FileLock

from websearch_core.credentials import Credentials, CredentialStore, OAuthToken

FIRST = OAuthToken(access_token="at-first", refresh_token="rt-first", expires_at=time.time() - 60)


def _lock_of(path: Path) -> FileLock:
    target = Path(os.path.realpath(path))
    return FileLock(target.with_name(f"{target.name}.lock"))


def _write_behind_the_lock(path: Path, token: OAuthToken) -> None:
    """What another process holding the lock writes: the file replaced whole."""
    tmp = path.with_name(".other-writer")
    tmp.write_text(json.dumps({"codex": {"oauth": token.to_json()}}), encoding="utf-8")
    os.replace(tmp, path)


async def _refresh_while_another_holds_the_lock(
    path: Path, written: OAuthToken, first: OAuthToken = FIRST, *, refused: bool = False
) -> tuple[OAuthToken, list[OAuthToken]]:
    store = CredentialStore(path)
    store.set_oauth("codex", first)
    asked: list[OAuthToken] = []

    async def refresh(entry: str, token: OAuthToken) -> OAuthToken:
        asked.append(token)
        return OAuthToken("at-mine", "rt-mine", time.time() + 3600)

    credentials = Credentials(store=store, environ={}, refreshers={"codex": refresh})
    with _lock_of(path):
        waiting = asyncio.ensure_future(
            credentials.valid_oauth_token(
                "codex", force_refresh=refused, refused=first if refused else None
            )
        )
        await asyncio.sleep(0.2)  # it read the first token and waits for the lock
        assert not waiting.done()
        _write_behind_the_lock(path, written)
    return await asyncio.wait_for(waiting, 10), asked


async def test_a_token_renewed_while_waiting_for_the_lock_is_used_without_refreshing(
    tmp_path: Path,
) -> None:
    renewed = OAuthToken("at-other", "rt-first", time.time() + 3600)
    got, asked = await _refresh_while_another_holds_the_lock(tmp_path / "c.json", renewed)
    assert asked == []
    assert got.access_token == "at-other"


async def test_an_entry_changed_but_expired_is_refreshed_from_what_is_stored_now(
    tmp_path: Path,
) -> None:
    rotated = OAuthToken("at-rotated", "rt-rotated", time.time() - 30)
    path = tmp_path / "c.json"
    got, asked = await _refresh_while_another_holds_the_lock(path, rotated)
    assert [t.refresh_token for t in asked] == ["rt-rotated"]
    assert got.access_token == "at-mine"
    stored = CredentialStore(path).get_oauth("codex")
    assert stored is not None and stored.access_token == "at-mine"


async def test_an_older_token_written_back_is_not_taken_for_the_refused_one(
    tmp_path: Path,
) -> None:
    # The server refused a token good for an hour; the entry now holds another one that
    # expires sooner: a stale copy written back, not a renewal, so it is refreshed.
    refused = OAuthToken("at-refused", "rt-first", time.time() + 3600)
    stale = OAuthToken("at-stale", "rt-first", time.time() + 1800)
    path = tmp_path / "c.json"
    got, asked = await _refresh_while_another_holds_the_lock(path, stale, refused, refused=True)
    assert [t.access_token for t in asked] == ["at-stale"]
    assert got.access_token == "at-mine"
