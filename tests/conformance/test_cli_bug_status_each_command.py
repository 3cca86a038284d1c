"""Each subcommand's ``--help`` gives a bug's status 1, and a bug on the way in is one too.

keys55 made ``websearch --help`` say that a bug in any command exits 1 with one
``internal error`` line and its masked traceback; each subcommand's own ``--help`` (docs55)
named its statuses without that. Here each subcommand is run in a subprocess with a bug
quoting the key put in its handler (the way ``test_cli_bug_exit_status`` puts one), and
its help must say what it then did. A bug while the command is being imported, before
:mod:`websearch_core.cli` has loaded, was Python's own traceback: the key a bug quoted
whole in it, where the help promises the masked report.
"""

import os
import pathlib
import subprocess
import sys

import pytest

from tests.conformance._leaks import echo_forms_seen, shapes_seen
from tests.conformance.test_cli_bug_exit_status import KEY, PROVIDER, WRAPPER
from tests.conformance.test_secret_audit import _cli_environment
from websearch_core.cli import main
from websearch_core.cli_crash import REPORT_FAILED

HANDLERS = {
    "auth set": ("websearch_core.cli", "_auth_set", ["auth", "set", PROVIDER]),
    "auth list": ("websearch_core.cli", "_auth_list", ["auth", "list"]),
    "auth remove": ("websearch_core.cli", "_auth_remove", ["auth", "remove", PROVIDER]),
    "auth import": ("websearch_core.cli", "_auth_import", ["auth", "import", "gemini-cli"]),
    "providers": ("websearch_core.cli", "_providers", ["providers"]),
    "fetch": ("websearch_core.content.cli_fetch", "_fetch", ["fetch", "https://example.com"]),
}
"""Each subcommand's handler, where the bug goes, and a command line that reaches it."""
BUG_SAID = "or a bug (one internal error line, then its traceback with keys masked, or a fixed"
"""What every help says of a bug (``cli_exit_help.BUG_REPORT``), as a person reads it."""
IMPORT_BUG = """
import sys
class Broken:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            raise KeyError({key!r})
        return None
sys.meta_path.insert(0, Broken())
from websearch_core.__main__ import main
sys.exit(main())
"""
"""A module of the command raising as it is imported, its error quoting the key."""
ENVIRON_READS = """
import os, sys
read = []
class Watched(type(os.environ)):
    def __getitem__(self, name):
        read.append(name)
        return super().__getitem__(name)
    def __iter__(self):
        read.append("(every variable)")
        return super().__iter__()
e = os.environ
os.environ = Watched(e._data, e.encodekey, e.decodekey, e.encodevalue, e.decodevalue)
import websearch_core.__main__, websearch_core.cli, websearch_core.content.cli_fetch
print("\\n".join(read))
"""
"""Imports the command as the entry does, printing each variable read meanwhile."""


def _run(
    code: str, arguments: list[str], tmp_path: pathlib.Path
) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter: the key in a config file and ``BRAVE_API_KEY``."""
    env = _cli_environment(PROVIDER, tmp_path, "http://127.0.0.1:9")
    config = tmp_path / "config.toml"
    config.write_text(f'[api_keys]\n{PROVIDER} = "{KEY}"\n', encoding="utf-8")
    env["WEBSEARCH_CONFIG_FILE"] = str(config)
    env["BRAVE_API_KEY"] = KEY
    return subprocess.run(
        [sys.executable, "-c", code, *arguments],
        env=env,
        input=KEY,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _status_1(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The status-1 clause of ``websearch <command> --help``, its lines joined."""
    assert main([*command.split(), "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    return text.split("exit status: ", 1)[1].split(" 1 ", 1)[1].split(", 2 ", 1)[0]


@pytest.mark.parametrize("command", sorted(HANDLERS))
def test_each_subcommand_s_help_gives_the_status_a_bug_in_it_exits_with(
    command: str, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: no subcommand's help named a bug (each run exits 1, masked)."""
    module, name, arguments = HANDLERS[command]
    done = _run(WRAPPER.format(key=KEY, module=module, name=name), arguments, tmp_path)
    assert done.returncode == 1, done.stderr
    assert "internal error" in done.stderr and "in bug" in done.stderr, done.stderr
    assert shapes_seen(KEY, [done.stdout, done.stderr]) == []
    assert BUG_SAID in _status_1(command, capsys)


def test_the_auth_help_gives_a_bug_s_status_too(capsys: pytest.CaptureFixture[str]) -> None:
    """Failed before: ``auth --help`` named a bug nowhere (its actions are run above)."""
    assert BUG_SAID in _status_1("auth", capsys)


def test_a_bug_importing_the_command_is_the_masked_report(tmp_path: pathlib.Path) -> None:
    """Failed before: Python's traceback of the import, the key whole in its ``KeyError``."""
    code = IMPORT_BUG.format(module="websearch_core.cli_output", key=KEY)
    done = _run(code, ["python asyncio"], tmp_path)
    seen = [done.stdout, done.stderr]
    assert shapes_seen(KEY, seen) == [] and echo_forms_seen(KEY, seen) == [], done.stderr
    assert done.stderr.startswith("websearch: internal error (a bug"), done.stderr
    assert "find_spec" in done.stderr and done.returncode == 1


def test_a_bug_importing_the_report_itself_is_the_fixed_line(tmp_path: pathlib.Path) -> None:
    """Failed before: Python's traceback, the key whole. The report's module is what broke,
    so nothing of the error is shown: the fixed line."""
    code = IMPORT_BUG.format(module="websearch_core.cli_crash", key=KEY)
    done = _run(code, ["python asyncio"], tmp_path)
    assert shapes_seen(KEY, [done.stdout, done.stderr]) == [], done.stderr
    assert done.stderr.endswith(REPORT_FAILED) and "Traceback" not in done.stderr
    assert done.returncode == 1


def test_guard_importing_the_command_reads_no_key_variable(tmp_path: pathlib.Path) -> None:
    """A guard (passed before): the command's imports read no key variable, nor the whole
    environment, so an import-time bug had no key of ours to quote; the report is made
    all the same (above), against a bug that would."""
    from websearch_core.key_variable_names import KEY_VARIABLES

    done = _run(ENVIRON_READS, [], tmp_path)
    assert done.returncode == 0, done.stderr
    read = done.stdout.split()
    assert [name for name in read if name.lower() in KEY_VARIABLES] == []
    assert "(every variable)" not in read
    assert not [name for name in read if name.startswith(("WEBSEARCH_", "SEARXNG_"))]
    assert os.environ is not None


def test_the_readme_says_a_bug_importing_the_command_is_reported_so() -> None:
    """Failed before: the README named a bug in a search, the output or another command."""
    readme = pathlib.Path(__file__).resolve().parents[2] / "README.md"
    text = " ".join(readme.read_text(encoding="utf-8").split())
    assert "or in importing the command (no import reads a key;" in text
    assert "Each command's `--help` says so." in text
