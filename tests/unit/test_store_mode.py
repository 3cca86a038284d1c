"""A credential store other users can read is used, with one warning naming the fix.

A copy of the store (``cp`` to a new machine, an archive unpacked with the default umask)
is left 0644, readable by every user of the machine, and it was used without a word. It is
not refused (``ssh`` refuses such a key file, but that would stop every search of a user
whose keys worked yesterday): a warning names the file, the mode and ``chmod 600``, once
per process, never a key.
"""

import json
import logging
import os
from pathlib import Path

import pytest

from websearch_core.cli import EXIT_OK, main
from websearch_core.credentials import Credentials, CredentialStore

SECRET = "sk-store-mode-8e41"

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes say who may read")


def _store(tmp_path: Path, mode: int) -> Path:
    path = tmp_path / "credentials.json"
    path.write_text(json.dumps({"brave": {"api_key": SECRET}}))
    path.chmod(mode)
    return path


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "websearch_core.credentials" and r.levelno == logging.WARNING
    ]


def test_a_store_others_can_read_is_used_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _store(tmp_path, 0o644)
    caplog.set_level(logging.WARNING, logger="websearch_core")
    for _ in range(3):  # every lookup of every client in the process
        assert Credentials(store=CredentialStore(path)).api_key("brave") == SECRET
    assert _warnings(caplog) == [
        f"credential store {path} can be read by other users (mode 0644); make it yours "
        f"alone with: chmod 600 {path}"
    ]
    assert SECRET not in caplog.text


@pytest.mark.parametrize(
    ("mode", "open_to"),
    [(0o640, "read"), (0o620, "changed"), (0o666, "read and changed")],
)
def test_group_or_other_read_or_write_counts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, mode: int, open_to: str
) -> None:
    path = _store(tmp_path, mode)
    caplog.set_level(logging.WARNING, logger="websearch_core")
    CredentialStore(path).get("brave")
    assert _warnings(caplog) == [
        f"credential store {path} can be {open_to} by other users (mode {mode:04o}); make it "
        f"yours alone with: chmod 600 {path}"
    ]


@pytest.mark.parametrize("mode", [0o600, 0o400])
def test_a_store_only_its_owner_can_read_is_not_warned_about(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, mode: int
) -> None:
    path = _store(tmp_path, mode)
    caplog.set_level(logging.WARNING, logger="websearch_core")
    assert CredentialStore(path).get("brave") == SECRET
    assert _warnings(caplog) == []


def test_the_command_prints_the_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _store(tmp_path, 0o644)
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(path))
    assert main(["auth", "list"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert out == "brave\n"
    assert err == (
        f"websearch: warning: credential store {path} can be read by other users (mode "
        f"0644); make it yours alone with: chmod 600 {path}\n"
    )
    assert SECRET not in out + err
