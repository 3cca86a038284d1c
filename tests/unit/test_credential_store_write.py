"""What ``CredentialStore`` writes: through a symbolic link, and never a key it cannot use."""

import os
import stat
from pathlib import Path

import pytest

from websearch_core.credentials import CredentialStore
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
        "refusing to store an api_key for brave that contains a control character; nothing stored"
    )
    assert isinstance(caught.value, ValueError)
    assert not path.exists()
