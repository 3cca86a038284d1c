"""``auth set`` and ``auth list`` answer in JSON with ``--json``, as ``auth remove`` does.

firstusers17 gave ``auth remove`` its ``--json``; ``auth set brave --json`` and ``auth list
--json`` were still refused (``--json: not an option``, exit 2), the refusal itself in JSON,
so a script storing or checking keys had a document saying only that it could not ask.
Decided from the other commands' shapes: ``auth set`` answers as ``auth remove`` does (the
``provider`` and what was done to it), plus the store's file and where a key sent before
the stored one comes from (a name, never a value); ``auth list`` answers as ``providers
--json`` does (an object, its rows under one name), each id with what it holds as true or
false. Secrets never appear: every run here looks for the key and the tokens in both streams.
"""

import json
import subprocess
from pathlib import Path

import pytest

from tests.integrations._readme_scripts import user_env
from tests.unit._secret_cli_runs import websearch_showing_none
from websearch_core.cli import main

KEY = "BSAj8Kd2Lm4Np6Qr8St0Uv2Wx4Yz6Ab8Cd"
"""A Brave-shaped key to store: looked for in every output."""
SIGN_IN = {
    "access_token": "ya29.listed-token",
    "refresh_token": "1//listed-refresh",
    "expiry_date": 1,
}
"""A Gemini CLI sign-in file's fields, imported so the store holds an OAuth entry too."""


_NOTHING_MOVED = {"moved_aside_to": None, "moved_aside_from": None, "damage": None}
"""What a reset that moved no damaged state file aside says of one (firstusers18)."""


def _websearch(
    args: list[str], env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """``websearch <args>``, its outputs holding neither the key nor the sign-in's tokens."""
    secrets = (KEY, SIGN_IN["access_token"], SIGN_IN["refresh_token"])
    return websearch_showing_none(args, env, secrets, stdin)


def test_auth_set_answers_in_json(tmp_path: Path) -> None:
    """Failed before: ``--json`` was refused as not an option of ``auth set`` (exit 2)."""
    env = user_env(tmp_path)
    done = _websearch(["auth", "set", "brave", "--json"], env, KEY)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert json.loads(done.stdout) == {
        "provider": "brave",
        "stored": "api_key",
        "credentials_file": str(tmp_path / "credentials.json"),
        "used_instead": None,
    }
    outranked = _websearch(
        ["auth", "set", "Brave", "--json"], {**env, "BRAVE_API_KEY": "BSA-in-the-variable"}, KEY
    )
    assert json.loads(outranked.stdout)["used_instead"] == "BRAVE_API_KEY"
    assert "BSA-in-the-variable" not in outranked.stdout
    assert "used before the stored one" in outranked.stderr  # the warning is said as before


def test_auth_list_answers_in_json(tmp_path: Path) -> None:
    """Failed before: ``--json`` was refused as not an option of ``auth list`` (exit 2)."""
    env = user_env(tmp_path)
    store = str(tmp_path / "credentials.json")
    empty = _websearch(["auth", "list", "--json"], env)
    assert (empty.returncode, json.loads(empty.stdout)) == (
        0,
        {"credentials_file": store, "stored": []},
    )
    assert _websearch(["auth", "set", "brave"], env, KEY).returncode == 0
    sign_in = tmp_path / "oauth_creds.json"
    sign_in.write_text(json.dumps(SIGN_IN), encoding="utf-8")
    assert _websearch(["auth", "import", "gemini-cli", str(sign_in)], env).returncode == 0
    listed = _websearch(["auth", "list", "--json"], env)
    assert (listed.returncode, listed.stderr) == (0, "")
    assert json.loads(listed.stdout) == {
        "credentials_file": store,
        "stored": [
            {"provider": "brave", "api_key": True, "oauth": False},
            {"provider": "gemini-cli", "api_key": False, "oauth": True},
        ],
    }
    plain = _websearch(["auth", "list"], env)  # without --json: the ids, one a line
    assert (plain.returncode, plain.stdout) == (0, "brave\ngemini-cli\n")


def test_the_help_and_the_readme_say_what_each_answers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Failed before: neither help nor the README named a ``--json`` for these actions."""
    said = {}
    for action in ("set", "list"):
        assert main(["auth", action, "--help"]) == 0
        said[action] = " ".join(capsys.readouterr().out.split())
    assert '{"provider", "stored": "api_key", "credentials_file", "used_instead"}' in said["set"]
    assert '{"credentials_file", "stored": [{"provider", "api_key", "oauth"}]}' in said["list"]
    readme = Path(__file__).resolve().parents[2] / "README.md"
    text = " ".join(readme.read_text(encoding="utf-8").split())
    assert "`websearch auth list --json`" in text and "`auth set --json`" in text
    assert '`websearch providers reset brave --json` answers `{"provider": "brave",' in text


def test_providers_reset_answers_in_json(tmp_path: Path) -> None:
    """Failed before: ``providers reset brave --json`` took the option and printed prose,
    its refusals on stderr alone; a script that asked for JSON could not parse either."""
    env = user_env(tmp_path)
    one = _websearch(["providers", "reset", "Brave", "--json"], env)
    assert (one.returncode, json.loads(one.stdout)) == (
        0,
        {"provider": "brave", "reset": True, **_NOTHING_MOVED},
    )
    every = _websearch(["providers", "reset", "--all", "--json"], env)
    assert json.loads(every.stdout) == {"provider": None, "reset": True, **_NOTHING_MOVED}
    refused = _websearch(["providers", "reset", "--json"], env)
    assert refused.returncode == 2 and json.loads(refused.stdout)["failed"] is True
    assert refused.stderr.startswith("websearch: providers reset needs a provider id or --all")


def test_guard_providers_reset_without_json_says_its_line(tmp_path: Path) -> None:
    """A guard (held before): without ``--json`` the words are the ones they were."""
    done = _websearch(["providers", "reset", "brave"], user_env(tmp_path))
    assert (done.returncode, done.stdout) == (
        0,
        "brave: cooldowns, quota marks and usage counters cleared\n",
    )
