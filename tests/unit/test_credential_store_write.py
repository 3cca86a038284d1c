"""What ``CredentialStore`` writes: through a symbolic link, never a key it cannot use, and
never without the entries it cannot read."""

import json
import os
import stat
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest

from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import ConfigurationError

SECRET = "sk-store-write-3c9d"


@pytest.mark.parametrize("existing", [True, False])
def test_a_symlinked_store_keeps_its_link_and_its_target_gets_the_key(
    tmp_path: Path, existing: bool
) -> None:
    # A dotfiles setup links the store into place; the write used to replace the link with
    # a regular file, so the dotfiles copy silently stopped seeing new keys.
    target = tmp_path / "dotfiles" / "credentials.json"
    if existing:
        target.parent.mkdir()
        target.write_text("{}")
    link = tmp_path / "config" / "credentials.json"
    link.parent.mkdir()
    link.symlink_to(os.path.relpath(target, link.parent))
    store = CredentialStore(link)
    store.set("brave", SECRET)
    assert link.is_symlink()
    assert link.resolve() == target.resolve()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert CredentialStore(target).get("brave") == SECRET
    assert store.remove("brave")
    assert link.is_symlink() and CredentialStore(target).providers() == []


@pytest.mark.parametrize("control", ["\x01", "\x00", "\n", "\t", "\x1b", "\x7f"])
def test_a_key_with_a_control_character_is_not_stored(tmp_path: Path, control: str) -> None:
    path = tmp_path / "credentials.json"
    store = CredentialStore(path)
    with pytest.raises(ConfigurationError) as caught:
        store.set("brave", f"{SECRET}{control}x")
    assert str(caught.value) == (
        "refusing to store an API key for brave that contains a control character "
        "(a line break, a NUL), so it cannot be sent; nothing stored"
    )
    assert isinstance(caught.value, ValueError)
    assert not path.exists()


def test_a_write_keeps_the_entries_it_cannot_read(tmp_path: Path) -> None:
    # A key written by hand as "brave": "..." (not {"api_key": ...}) is no key to a lookup,
    # but storing another provider's key used to delete it from the file for good.
    path = tmp_path / "credentials.json"
    path.write_text(json.dumps({"brave": SECRET, "note": ["mine"], "exa": {"api_key": "e"}}))
    store = CredentialStore(path)
    assert store.providers() == ["exa"]
    store.set("tavily", "tvly-key")
    store.set_oauth("gemini", OAuthToken(access_token="ya29.token"))
    assert store.remove("exa")
    assert json.loads(path.read_text()) == {
        "brave": SECRET,
        "note": ["mine"],
        "tavily": {"api_key": "tvly-key"},
        "gemini": {
            "oauth": {"access_token": "ya29.token", "refresh_token": None, "expires_at": None}
        },
    }
    store.set("brave", "sk-replaced")  # storing a key for such an entry replaces it
    assert json.loads(path.read_text())["brave"] == {"api_key": "sk-replaced"}
    assert store.get("brave") == "sk-replaced"
    assert store.remove("note")
    assert "note" not in json.loads(path.read_text())


_WRITER = """
import sys
from pathlib import Path
from websearch_core.credentials import CredentialStore

path, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
sys.stdout.write("ready\\n")
sys.stdout.flush()
sys.stdin.readline()  # both start writing at once
for i in range(count):
    CredentialStore(path).set(f"{name}-{i}", f"sk-{name}-{i}")
"""


def test_two_writers_at_once_lose_no_key(tmp_path: Path) -> None:
    # Two "websearch auth set" at the same time each read the file, added their key and
    # renamed their copy over it: the later rename erased the other's key, silently.
    # Measured before the lock: 28 to 52 of these 120 keys lost in each of 5 runs.
    path = tmp_path / "credentials.json"
    count = 60
    with ExitStack() as stack:
        writers = [
            stack.enter_context(
                subprocess.Popen(
                    [sys.executable, "-c", _WRITER, str(path), name, str(count)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                )
            )
            for name in ("brave", "tavily")
        ]
        for writer in writers:
            assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        for writer in writers:
            assert writer.stdin is not None
            writer.stdin.write("go\n")
            writer.stdin.flush()
        for writer in writers:
            writer.communicate(timeout=120)
            assert writer.returncode == 0
    stored = json.loads(path.read_text())
    expected = {f"{name}-{i}" for name in ("brave", "tavily") for i in range(count)}
    assert expected - set(stored) == set()
    assert stored["tavily-7"] == {"api_key": "sk-tavily-7"}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_writer_stuck_holding_the_lock_is_named_not_waited_on_for_ever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from filelock import FileLock

    from websearch_core import store_lock

    monkeypatch.setattr(store_lock, "LOCK_WAIT_SECONDS", 0.2)
    path = tmp_path / "credentials.json"
    CredentialStore(path).set("brave", SECRET)
    with FileLock(tmp_path / "credentials.json.lock"), pytest.raises(ConfigurationError) as caught:
        CredentialStore(path).set("tavily", "sk-tavily")
    assert str(caught.value) == (
        f"credential store {path} is being written by another process (its lock "
        f"{path}.lock was held for 0.2 s); try again"
    )
    assert json.loads(path.read_text()) == {"brave": {"api_key": SECRET}}
    CredentialStore(path).set("tavily", "sk-tavily")  # released: the next write goes in
    assert CredentialStore(path).get("tavily") == "sk-tavily"
