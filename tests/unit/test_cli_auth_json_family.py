"""Every ``auth`` action answers ``--json`` in one shape family, said by its help and README.

firstusers17 and docs56 gave ``remove``, ``set`` and ``list`` their ``--json`` one at a
time: ``auth import --json`` was refused (``--json: not an option``), and a refusal under
``auth set --json`` (or ``auth remove brav --json``, ``auth list --json --bogus``) held only
``error`` and ``failed`` where ``auth remove``'s nothing-stored refusal named its
``provider``. Now each action's success shape and the one refusal shape come from
``cli_auth_json``; these run the command as a user would (a subprocess, its own HOME and
store) and look for the key and the sign-in's tokens in both streams of every run.
"""

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.integrations._readme_scripts import user_env
from tests.unit._secret_cli_runs import websearch_showing_none
from websearch_core.cli_auth_json import AUTH_JSON_HELP

ROOT = Path(__file__).resolve().parents[2]
KEY = "BSAq7Wd3Fg5Hj7Kl9Zx1Cv3Bn5Mq7Wd3Fg"
"""A Brave-shaped key: looked for in every output."""
SIGN_IN = {
    "access_token": "ya29.family-token",
    "refresh_token": "1//family-refresh",
    "expiry_date": 1000,
}
"""A Gemini CLI sign-in file's fields, long expired (``expiry_date`` in milliseconds)."""
REFUSAL_KEYS = ["provider", "error", "failed"]


def _websearch(
    args: list[str], env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """``websearch <args>``, its outputs holding neither the key nor the sign-in's tokens."""
    secrets = (KEY, SIGN_IN["access_token"], SIGN_IN["refresh_token"])
    return websearch_showing_none(args, env, secrets, stdin)


def _refusal(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    """The refusal document on stdout, checked to be the shared shape."""
    answer: dict[str, object] = json.loads(done.stdout)
    assert list(answer) == REFUSAL_KEYS, answer
    assert answer["failed"] is True
    assert f"websearch: {answer['error']}" in done.stderr  # the same words as the line
    return answer


def test_auth_set_refusals_name_the_provider(tmp_path: Path) -> None:
    """Failed before: ``auth set``'s refusals held no ``provider`` field."""
    env = user_env(tmp_path)
    unknown = _websearch(["auth", "set", "Bravo", "--json"], env, KEY)
    assert unknown.returncode == 2
    assert _refusal(unknown)["provider"] == "bravo"
    spaced = _websearch(["auth", "set", "brave", "--json"], env, f"{KEY[:9]} {KEY[9:]}")
    assert (spaced.returncode, _refusal(spaced)["provider"]) == (2, "brave")
    missing = _websearch(["auth", "set", "--json"], env)
    assert (missing.returncode, _refusal(missing)["provider"]) == (2, None)
    stored = _websearch(["auth", "set", "brave", "--json"], env, KEY)
    assert list(json.loads(stored.stdout)) == [
        "provider",
        "stored",
        "credentials_file",
        "used_instead",
    ]


def test_auth_remove_refusals_are_one_shape(tmp_path: Path) -> None:
    """Failed before: a mistyped id's refusal (exit 2) held no ``provider``, only exit 1's did."""
    env = user_env(tmp_path)
    mistyped = _websearch(["auth", "remove", "brav", "--json"], env)
    assert (mistyped.returncode, _refusal(mistyped)["provider"]) == (2, "brav")
    nothing = _websearch(["auth", "remove", "brave", "--json"], env)
    assert (nothing.returncode, _refusal(nothing)["provider"]) == (1, "brave")
    assert _websearch(["auth", "set", "brave"], env, KEY).returncode == 0
    removed = _websearch(["auth", "remove", "brave", "--json"], env)
    assert json.loads(removed.stdout) == {
        "provider": "brave",
        "removed": "api_key",
        "oauth_kept": False,
    }


def test_auth_list_refusal_has_a_null_provider(tmp_path: Path) -> None:
    """Failed before: ``auth list``'s refusal had no ``provider`` (null: it takes no id)."""
    env = user_env(tmp_path)
    refused = _websearch(["auth", "list", "--json", "--bogus"], env)
    assert (refused.returncode, _refusal(refused)["provider"]) == (2, None)
    listed = _websearch(["auth", "list", "--json"], env)
    assert json.loads(listed.stdout) == {
        "credentials_file": str(tmp_path / "credentials.json"),
        "stored": [],
    }


def test_auth_import_answers_in_json(tmp_path: Path) -> None:
    """Failed before: ``auth import --json`` was refused as not an option (exit 2).

    The expired token's "renews it" sentence goes to stderr under ``--json``: stdout is
    the document alone (``json.loads`` of it would fail otherwise).
    """
    env = user_env(tmp_path)
    sign_in = tmp_path / "oauth_creds.json"
    sign_in.write_text(json.dumps(SIGN_IN), encoding="utf-8")
    done = _websearch(["auth", "import", "gemini-cli", str(sign_in), "--json"], env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "provider": "gemini-cli",
        "stored": "oauth",
        "credentials_file": str(tmp_path / "credentials.json"),
        "imported_from": str(sign_in),
        "refresh_token": True,
        "expires_at": 1.0,
        "expired": True,
    }
    assert "the next search renews it" in done.stderr
    absent = _websearch(["auth", "import", "gemini-cli", str(tmp_path / "no.json"), "--json"], env)
    assert (absent.returncode, _refusal(absent)["provider"]) == (2, "gemini-cli")
    listed = json.loads(_websearch(["auth", "list", "--json"], env).stdout)
    assert listed["stored"] == [{"provider": "gemini-cli", "api_key": False, "oauth": True}]


@pytest.mark.parametrize("action", sorted(AUTH_JSON_HELP))
def test_each_help_says_its_shapes(tmp_path: Path, action: str) -> None:
    """Failed before for ``import`` (no ``--json``); for the others, their refusal shape."""
    done = _websearch(["auth", action, "--help"], user_env(tmp_path))
    assert done.returncode == 0
    said = " ".join(done.stdout.split())
    assert " ".join(AUTH_JSON_HELP[action].split()) in said
    assert '{"provider", "error", "failed": true}' in said


def test_readme_says_each_shape() -> None:
    """Failed before: the README said ``auth import`` had no ``--json``, nor the refusal shape."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "`auth import` has none" not in text
    assert re.search(r'`auth import --json` answers `\{"provider": "gemini-cli"', text)
    assert '"imported_from"' in text
    assert '`{"provider", "error", "failed": true}`' in text
