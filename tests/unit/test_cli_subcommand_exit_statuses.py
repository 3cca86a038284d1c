"""Each subcommand's ``--help`` names its exit statuses, and each named status is the real one.

``websearch --help`` gave every command's statuses in one line; ``auth``, ``auth set``,
``providers`` and ``fetch`` gave none of their own. Each case below names a phrase of the
help's ``exit status:`` clause for one status, and runs that case as its own process (its
own home, credential store and memory state; pages from a loopback server): the phrase must
stand in the clause of the status the process then exits with. Each command also runs with
its stdout's reader gone (``| head -1``), which its help says is no failure.

The cases run as ``python -m websearch_core`` would, through :mod:`tests.cli_runs`: one
interpreter imports the command once and forks a child per case (59 interpreter starts took
about 150 s of a 2-core CI). Each case is still its own test id and assertion.
"""

import json
import re
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiohttp import web

from tests.cli_runs import run_all
from tests.content._pages import load_pages
from tests.content._server import PageServer, server_in_thread
from tests.integrations._readme_scripts import user_env
from tests.websearch_process import WEBSEARCH
from websearch_core.cli import main

_KEY = "BSA-exit-status-key"
_DEV_FULL = Path("/dev/full")
"""A device every write to fails with ENOSPC: a full disk without filling one."""
_SIGN_IN = {"access_token": "ya29.exit", "refresh_token": "1//exit", "expiry_date": 1}


@dataclass(frozen=True)
class Case:
    """One run of a command: the status its help names, and the phrase naming the case.

    ``args`` may hold ``{good}``, ``{bad}``, ``{tokenless}`` (sign-in files) and
    ``{article}``, ``{empty}``, ``{missing}`` (loopback pages), filled in when the run is made:
    the cases are test ids before any file or server exists.
    """

    command: str
    status: int
    phrase: str
    args: list[str]
    stdin: str = ""
    stdout: str = "pipe"  # "pipe", "full" (/dev/full) or "gone" (the reader closed it)
    stored: bool = False  # Brave's key stored first
    env: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.command}-{self.status}-{self.stdout}-{self.phrase}"


def _help_statuses(command: str, capsys: pytest.CaptureFixture[str]) -> dict[int, str]:
    """The ``exit status:`` clause of ``websearch <command> --help``, split by status."""
    assert main([*command.split(), "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    statuses = text.split("exit status: ", 1)[1].split(". ", 1)[0]
    parts = re.split(r"(?:^|, )(\d+) ", statuses)[1:]
    return {int(number): clause for number, clause in zip(parts[::2], parts[1::2], strict=True)}


_GOOD = ["auth", "import", "gemini-cli", "{good}"]
_PRIVATE = ["fetch", "--allow-private"]

AUTH_CASES = [
    Case("auth", 0, "done", ["auth", "list"]),
    Case("auth", 1, "auth remove found nothing stored", ["auth", "remove", "brave"]),
    Case("auth", 1, "could not be written", ["auth", "list"], stdout="full", stored=True),
    Case("auth", 2, "no action", ["auth"]),
    Case("auth", 2, "an unknown one", ["auth", "forget", "brave"]),
    Case("auth", 2, "an unknown provider id", ["auth", "remove", "nosuch"]),
    Case("auth", 2, "a file that cannot be imported", [*_GOOD[:3], "{bad}"]),
    Case("auth set", 0, "the key is stored", ["auth", "set", "brave"], stdin=_KEY),
    Case(
        "auth set",
        1,
        "stored but its output could not be written",
        ["auth", "set", "brave"],
        stdin=_KEY,
        stdout="full",
    ),
    Case("auth set", 2, "no provider", ["auth", "set"], stdin=_KEY),
    Case("auth set", 2, "an unknown id", ["auth", "set", "nosuch"], stdin=_KEY),
    Case("auth set", 2, "a provider that takes no key", ["auth", "set", "duckduckgo"], _KEY),
    Case("auth set", 2, "an empty key", ["auth", "set", "brave"], stdin=""),
    Case("auth list", 0, "listed", ["auth", "list"], stored=True),
    Case("auth list", 0, "also when nothing is stored", ["auth", "list"]),
    Case("auth list", 1, "could not be written", ["auth", "list"], stdout="full", stored=True),
    Case("auth remove", 0, "removed", ["auth", "remove", "brave"], stored=True),
    Case("auth remove", 1, "nothing was stored under the id", ["auth", "remove", "brave"]),
    Case(
        "auth remove",
        1,
        "could not be written",
        ["auth", "remove", "brave"],
        stdout="full",
        stored=True,
    ),
    Case("auth remove", 2, "an unknown provider id", ["auth", "remove", "nosuch"]),
    Case("auth remove", 2, "no id", ["auth", "remove"]),
    Case("auth import", 0, "the sign-in is stored", _GOOD),
    Case("auth import", 1, "stored but its output could not be written", _GOOD, stdout="full"),
    Case("auth import", 2, "an unknown source", ["auth", "import", "nosuch"]),
    Case("auth import", 2, "the file missing", ["auth", "import", "gemini-cli"]),
    Case("auth import", 2, "not JSON", [*_GOOD[:3], "{bad}"]),
    Case("auth import", 2, "without its token", [*_GOOD[:3], "{tokenless}"]),
]

OTHER_CASES = [
    Case("providers", 0, "listed", ["providers"]),
    Case("providers", 0, "or reset", ["providers", "reset", "brave"]),
    Case("providers", 1, "could not be written", ["providers"], stdout="full"),
    Case("providers", 2, "reset without an id or --all", ["providers", "reset"]),
    Case("providers", 2, "an unknown provider id", ["providers", "reset", "nosuch"]),
    Case("providers", 2, "an argument too many", ["providers", "reset", "brave", "more"]),
    Case(
        "providers",
        2,
        "WEBSEARCH_STATE_BACKEND",
        ["providers"],
        env={"WEBSEARCH_STATE_BACKEND": "nowhere"},
    ),
    Case("fetch", 0, "the content is printed", [*_PRIVATE, "{article}"]),
    Case("fetch", 0, "without readable text", [*_PRIVATE, "{empty}"]),
    Case("fetch", 1, "an HTTP error", [*_PRIVATE, "{missing}"]),
    Case("fetch", 1, "no connection", [*_PRIVATE, "http://127.0.0.1:9/"]),
    Case(
        "fetch", 1, "a loopback or private address without --allow-private", ["fetch", "{article}"]
    ),
    Case("fetch", 1, "could not be written", [*_PRIVATE, "{article}"], stdout="full"),
    Case("fetch", 2, "a URL without http(s)://", ["fetch", "example.com"]),
    Case("fetch", 2, "a bad --timeout", ["fetch", "--timeout", "0", "{article}"]),
    Case("fetch", 2, "--markdown with --json", ["fetch", "--markdown", "--json", "{article}"]),
]

READER_GONE_CASES = [
    Case("auth", 0, "done", ["auth", "list"], stdout="gone", stored=True),
    Case("auth set", 0, "stored", ["auth", "set", "brave"], stdin=_KEY, stdout="gone"),
    Case("auth list", 0, "listed", ["auth", "list"], stdout="gone", stored=True),
    Case("auth remove", 0, "removed", ["auth", "remove", "brave"], stdout="gone", stored=True),
    Case("auth import", 0, "stored", _GOOD, stdout="gone"),
    Case("providers", 0, "listed", ["providers"], stdout="gone"),
    Case("fetch", 0, "printed", [*_PRIVATE, "{article}"], stdout="gone"),
]
"""Each command's success with nobody reading its stdout."""


@dataclass(frozen=True)
class Outcome:
    """How one case's process ended: its exit status and what it wrote to stderr."""

    status: int
    stderr: str
    before: str = ""  # the stderr of the run storing Brave's key first, if any


@pytest.fixture(scope="module")
def pages() -> Iterator[PageServer]:
    """A loopback server: a real article at ``/article``, an empty page, 404 elsewhere."""
    article = load_pages()[0]
    yield from server_in_thread({"/article": article.html, "/empty": "<html></html>"})


def _files(directory: Path) -> dict[str, str]:
    """Sign-in files to import: a good one, one not JSON, one without its token."""
    good, bad, tokenless = directory / "good.json", directory / "bad.json", directory / "nt.json"
    good.write_text(json.dumps(_SIGN_IN))
    bad.write_text("not json")
    tokenless.write_text(json.dumps({"refresh_token": "1//exit"}))
    return {"good": str(good), "bad": str(bad), "tokenless": str(tokenless)}


def _runs(case: Case, home: Path, places: dict[str, str]) -> list[dict[str, object]]:
    """The runs ``case`` takes, in order: storing Brave's key first if it says so."""
    env = user_env(home, **case.env)
    run = {
        "id": case.id,
        "args": [arg.format(**places) for arg in case.args],
        "env": env,
        "stdin": case.stdin,
        "stdout": case.stdout,
    }
    if not case.stored:
        return [run]
    store = {**run, "id": f"{case.id} (stored first)", "args": ["auth", "set", "brave"]}
    return [{**store, "stdin": _KEY, "stdout": "null"}, run]


@pytest.fixture(scope="module")
def outcomes(pages: PageServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """Every case's outcome, all run by one interpreter of :mod:`tests.cli_runs`."""
    root = tmp_path_factory.mktemp("exit-statuses")
    places = {
        **_files(root),
        "article": pages.url("/article"),
        "empty": pages.url("/empty"),
        "missing": pages.url("/missing"),
    }
    cases = [*AUTH_CASES, *OTHER_CASES, *READER_GONE_CASES]
    cases = [case for case in cases if case.stdout != "full" or _DEV_FULL.exists()]
    runs = [run for n, case in enumerate(cases) for run in _runs(case, root / str(n), places)]
    said = run_all(runs, root, user_env(root))
    return {
        case.id: Outcome(
            said[case.id]["status"],
            said[case.id]["stderr"],
            said.get(f"{case.id} (stored first)", {}).get("stderr", ""),
        )
        for case in cases
    }


def _check(case: Case, outcomes: dict[str, Outcome], capsys: pytest.CaptureFixture[str]) -> None:
    if case.stdout == "full" and not _DEV_FULL.exists():
        pytest.skip("no /dev/full here (not Linux): the other cases still run")
    clauses = _help_statuses(case.command, capsys)
    assert case.phrase in clauses.get(case.status, ""), (case.command, clauses)
    _ended_with(case, outcomes[case.id], case.status)


def _ended_with(case: Case, outcome: Outcome, status: int) -> None:
    assert "Traceback" not in outcome.before, outcome.before
    assert "Traceback" not in outcome.stderr, outcome.stderr
    assert (case.args, outcome.status) == (case.args, status), outcome.stderr


@pytest.mark.parametrize("case", AUTH_CASES, ids=lambda case: case.id)
def test_auth_commands_exit_as_their_help_says(
    case: Case, outcomes: dict[str, Outcome], capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: no subcommand's help had an ``exit status:`` clause."""
    _check(case, outcomes, capsys)


@pytest.mark.parametrize("case", OTHER_CASES, ids=lambda case: case.id)
def test_providers_and_fetch_exit_as_their_help_says(
    case: Case, outcomes: dict[str, Outcome], capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: neither ``providers --help`` nor ``fetch --help`` named a status."""
    _check(case, outcomes, capsys)


@pytest.mark.parametrize("case", READER_GONE_CASES, ids=lambda case: case.id)
def test_a_reader_gone_is_no_failure_as_each_help_says(
    case: Case, outcomes: dict[str, Outcome], capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: no subcommand's help said so (the statuses were already 0)."""
    assert main([*case.command.split(), "--help"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "A reader that stops reading (| head -1) is no failure" in said
    _ended_with(case, outcomes[case.id], 0)


def _hanging(reached: threading.Event) -> Callable[[web.Request], object]:
    async def handler(_request: web.Request) -> web.StreamResponse:
        reached.set()
        await _forever()
        return web.Response()

    return handler  # type: ignore[return-value]


async def _forever() -> None:
    import asyncio

    await asyncio.Event().wait()  # cancelled when the server stops


def test_an_interrupted_fetch_exits_130(
    pages: PageServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: ``fetch --help`` named no 130. Ctrl-C once the request has arrived."""
    assert "interrupted (Ctrl-C)" in _help_statuses("fetch", capsys)[130]
    reached = threading.Event()
    pages.route("/hang", _hanging(reached))  # type: ignore[arg-type]
    process = subprocess.Popen(
        [*WEBSEARCH, "fetch", "--allow-private", pages.url("/hang")],
        env=user_env(tmp_path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert reached.wait(120), "the fetch never reached the page"
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (process.returncode, err.strip()) == (130, "websearch: interrupted")


def test_the_readme_sends_to_each_command_s_help(capsys: pytest.CaptureFixture[str]) -> None:
    """Failed before: the README gave the main help's statuses only.

    Each status the README's paragraph gives is the one the command's help names, and the
    cases above run each of those.
    """
    readme = Path(__file__).resolve().parents[2] / "README.md"
    text = " ".join(readme.read_text(encoding="utf-8").split())
    assert "Each command's `--help` ends with its own exit statuses" in text
    said = {
        ("auth set", 1): "stored but its output could not be written",
        ("auth import", 1): "stored but its output could not be written",
        ("auth list", 0): "also when nothing is stored",
        ("providers", 2): "reset without an id or --all",
        ("fetch", 0): "a page without readable text",
    }
    for (command, status), phrase in said.items():
        assert phrase in _help_statuses(command, capsys)[status], (command, status)
