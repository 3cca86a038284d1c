"""What ``CredentialStore`` writes: through a symbolic link."""

import os
import stat
from pathlib import Path

import pytest

from websearch_core.credentials import CredentialStore

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

