"""Options written before ``auth`` go to its action, or are refused in ``auth``'s own shape.

``websearch --json auth list`` was refused (``--json does not apply to auth``) though
``auth list --json`` answers, and ``--json providers`` is ``providers --json``; and a
refusal of an option no action takes (``websearch --no-cache auth set brave --json``) held
only ``error`` and ``failed``, where every other ``auth`` refusal names its ``provider``,
and sent the user to ``auth --help``, which lists no action's options. These run the
command as a user would (a subprocess, its own HOME and store) and look for the key in
both streams of every run.
"""

import json
import subprocess
from pathlib import Path

from tests.integrations._readme_scripts import user_env
from tests.unit._secret_cli_runs import websearch_showing_none

KEY = "BSAq7Wd3Fg5Hj7Kl9Zx1Cv3Bn5Mq7Wd3Fg"
"""A Brave-shaped key: looked for in every output."""


def _websearch(
    args: list[str], env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """``websearch <args>``, its outputs never holding the key."""
    return websearch_showing_none(args, env, (KEY,), stdin)


def test_an_action_option_before_auth_is_the_actions(tmp_path: Path) -> None:
    """Failed before: each was refused with exit 2 and no answer."""
    env = user_env(tmp_path)
    stored = _websearch(["--json", "auth", "set", "brave"], env, KEY)
    assert stored.returncode == 0, stored.stderr
    assert json.loads(stored.stdout)["provider"] == "brave"
    listed = _websearch(["--json", "auth", "list"], env)
    assert listed.returncode == 0, listed.stderr
    as_after = _websearch(["auth", "list", "--json"], env)
    assert json.loads(listed.stdout) == json.loads(as_after.stdout)
    assert json.loads(listed.stdout)["stored"] == [
        {"provider": "brave", "api_key": True, "oauth": False}
    ]
    removed = _websearch(["--json", "-v", "auth", "remove", "brave"], env)
    assert removed.returncode == 0, removed.stderr
    assert json.loads(removed.stdout) == {
        "provider": "brave",
        "removed": "api_key",
        "oauth_kept": False,
    }
    assert "credential store" in removed.stderr  # -v stayed auth's own


def test_an_option_no_action_takes_is_refused_as_auth_refuses(tmp_path: Path) -> None:
    """Failed before: no ``provider`` field, and the line named ``auth``, not its action."""
    env = user_env(tmp_path)
    cases = {
        ("--no-cache", "auth", "set", "Brave", "--json"): ("auth set", "brave"),
        ("--json", "--limit", "3", "auth", "remove", "brave"): ("auth remove", "brave"),
        ("--json", "--no-cache", "auth", "list"): ("auth list", None),
        ("--json", "--no-cache", "auth", "import", "gemini-cli"): ("auth import", "gemini-cli"),
    }
    for argv, (named, provider) in cases.items():
        done = _websearch(list(argv), env, KEY)
        assert done.returncode == 2, argv
        answer = json.loads(done.stdout)
        assert list(answer) == ["provider", "error", "failed"], argv
        assert (answer["provider"], answer["failed"]) == (provider, True), argv
        assert done.stderr == f"websearch: {answer['error']}\n"
        option = argv[1] if argv[0] == "--json" else argv[0]
        assert str(answer["error"]).startswith(
            f"{option} does not apply to {named} (websearch {named} --help lists its options)"
        ), argv
    plain = _websearch(["--no-cache", "auth", "set", "brave"], env, KEY)
    assert (plain.returncode, plain.stdout) == (2, "")
    assert plain.stderr.startswith("websearch: --no-cache does not apply to auth set ")
    assert json.loads(_websearch(["auth", "list", "--json"], env).stdout)["stored"] == []


def test_options_between_auth_and_its_action_are_walked_the_same(tmp_path: Path) -> None:
    """Failed before: ``auth --json list`` was refused, suggesting ``--json`` itself."""
    env = user_env(tmp_path)
    stored = _websearch(["auth", "--json", "set", "brave"], env, KEY)
    assert stored.returncode == 0, stored.stderr
    assert json.loads(stored.stdout)["provider"] == "brave"
    listed = _websearch(["auth", "-v", "--json", "list"], env)
    assert listed.returncode == 0, listed.stderr
    as_after = _websearch(["auth", "list", "--json"], env)
    assert json.loads(listed.stdout) == json.loads(as_after.stdout)
    refused = _websearch(["auth", "--json", "--no-cache", "set", "Brave"], env, KEY)
    assert refused.returncode == 2
    assert json.loads(refused.stdout) == {
        "provider": "brave",
        "error": "--no-cache does not apply to auth set "
        "(websearch auth set --help lists its options)",
        "failed": True,
    }
    mistyped = _websearch(["auth", "--jsn", "list"], env)
    assert (mistyped.returncode, mistyped.stdout) == (2, "")
    assert mistyped.stderr == (
        "websearch: --jsn does not apply to auth list "
        "(websearch auth list --help lists its options); did you mean --json?\n"
    )
    assert json.loads(_websearch(["auth", "list", "--json"], env).stdout)["stored"] == [
        {"provider": "brave", "api_key": True, "oauth": False}
    ]


def test_json_before_auth_without_an_action_is_refused_as_after_it(tmp_path: Path) -> None:
    """Failed before: ``--json auth`` was refused as an option of ``auth`` itself."""
    env = user_env(tmp_path)
    before = _websearch(["--json", "auth"], env)
    after = _websearch(["auth", "--json"], env)
    assert (before.returncode, before.stdout, before.stderr) == (
        after.returncode,
        after.stdout,
        after.stderr,
    )
    assert json.loads(before.stdout)["error"].startswith("ACTION: required, not given")
