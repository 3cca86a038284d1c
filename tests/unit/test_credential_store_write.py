"""What ``CredentialStore`` writes: through a symbolic link, never a key it cannot use, and
never without the entries it cannot read."""

import json
import os
import stat
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
        "refusing to store an api_key for brave that contains a control character "
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
