"""``providers reset --all --json`` on a damaged SQLite state file says what it moved aside.

docs56 gave ``reset`` its ``--json`` but never ran it on a damaged file; run here (a file of
words where the database should be, made in the test), it moved the file and answered only
``moved_aside_to``: which file was damaged, and why, were left for a script to guess from
the new name. Now the answer holds the file's old path and the store's words on its damage.
"""

import json
from pathlib import Path

from tests.integrations._readme_scripts import user_env
from tests.websearch_process import run_websearch

DAMAGED = b"these words are where the state database should be\n" * 200
"""Not a database: SQLite refuses it as such on the first statement."""


def _sqlite_env(tmp_path: Path) -> tuple[dict[str, str], Path]:
    state_dir = tmp_path / "state-dir"
    state_dir.mkdir()
    env = user_env(tmp_path, WEBSEARCH_STATE_BACKEND="sqlite", WEBSEARCH_STATE_DIR=str(state_dir))
    return env, state_dir / "state.sqlite3"


def test_reset_all_json_names_the_damaged_file_and_its_damage(tmp_path: Path) -> None:
    """Failed before: the answer had no ``moved_aside_from`` nor ``damage``."""
    env, state_file = _sqlite_env(tmp_path)
    state_file.write_bytes(DAMAGED)
    done = run_websearch(["providers", "reset", "--all", "--json"], env=env)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    answer = json.loads(done.stdout)
    assert list(answer) == [
        "provider",
        "reset",
        "moved_aside_to",
        "moved_aside_from",
        "damage",
    ]
    assert (answer["provider"], answer["reset"]) == (None, True)
    moved = Path(answer["moved_aside_to"])
    assert moved.parent == state_file.parent
    assert moved.name.startswith("state.sqlite3.broken-")
    assert moved.read_bytes() == DAMAGED  # moved, never rewritten or deleted
    assert answer["moved_aside_from"] == str(state_file)
    assert "file is not a database" in answer["damage"]
    assert str(state_file) in answer["damage"]
    again = json.loads(run_websearch(["providers", "reset", "--all", "--json"], env=env).stdout)
    assert again == {
        "provider": None,
        "reset": True,
        "moved_aside_to": None,
        "moved_aside_from": None,
        "damage": None,
    }


def test_reset_all_prose_on_a_damaged_file_is_as_before(tmp_path: Path) -> None:
    """A guard: without ``--json`` the two prose lines are unchanged, the new path named."""
    env, state_file = _sqlite_env(tmp_path)
    state_file.write_bytes(DAMAGED)
    done = run_websearch(["providers", "reset", "--all"], env=env)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith("The state file was damaged; moved it aside to ")
    assert Path(first.rsplit(" ", 1)[1]).read_bytes() == DAMAGED
    assert second == (
        "Every provider starts again with no cooldowns, quota marks or usage counters."
    )
