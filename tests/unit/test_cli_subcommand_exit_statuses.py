"""Each subcommand's ``--help`` names its exit statuses, and each named status is the real one.

``websearch --help`` gave every command's statuses in one line; ``auth``, ``auth set``,
``providers`` and ``fetch`` gave none of their own. Each case below names a phrase of the
help's ``exit status:`` clause for one status, and runs that case in a fresh interpreter
(its own home, credential store and memory state; pages from a loopback server): the
phrase must stand in the clause of the status the process then exits with. Each command
also runs with its stdout's reader gone (``| head -1``), which its help says is no failure.
"""

import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiohttp import web

from tests.content._pages import load_pages
from tests.content._server import PageServer, server_in_thread
from tests.integrations._readme_scripts import user_env
from websearch_core.cli import main

_KEY = "BSA-exit-status-key"
_DEV_FULL = Path("/dev/full")
"""A device every write to fails with ENOSPC: a full disk without filling one."""
_SIGN_IN = {"access_token": "ya29.exit", "refresh_token": "1//exit", "expiry_date": 1}


@dataclass(frozen=True)
class Case:
    """One run of a command: the status its help names, and the phrase naming the case."""

    command: str
    status: int
    phrase: str
    args: list[str]
    stdin: str = ""
    stdout: str = "pipe"  # "pipe", "full" (/dev/full) or "gone" (the reader closed it)
    stored: bool = False  # Brave's key stored first
    env: dict[str, str] = field(default_factory=dict)


def _help_statuses(command: str, capsys: pytest.CaptureFixture[str]) -> dict[int, str]:
    """The ``exit status:`` clause of ``websearch <command> --help``, split by status."""
    assert main([*command.split(), "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    statuses = text.split("exit status: ", 1)[1].split(". ", 1)[0]
    parts = re.split(r"(?:^|, )(\d+) ", statuses)[1:]
    return {int(number): clause for number, clause in zip(parts[::2], parts[1::2], strict=True)}


def _run(case: Case, tmp_path: Path) -> int:
    """Run ``case`` in a fresh interpreter; its exit status."""
    env = user_env(tmp_path, **case.env)
    if case.stored:
        _websearch(["auth", "set", "brave"], env, _KEY, subprocess.DEVNULL)
    if case.stdout == "full":
        with _DEV_FULL.open("w") as full:
            return _websearch(case.args, env, case.stdin, full)
    if case.stdout == "gone":
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            return _websearch(case.args, env, case.stdin, write_end)
        finally:
            os.close(write_end)
    return _websearch(case.args, env, case.stdin, subprocess.PIPE)


def _websearch(args: list[str], env: dict[str, str], stdin: str, stdout: object) -> int:
    done = subprocess.run(
        [sys.executable, "-m", "websearch_core", *args],
        env=env,
        input=stdin,
        stdout=stdout,  # type: ignore[arg-type]
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode


@pytest.fixture(scope="module")
def pages() -> Iterator[PageServer]:
    """A loopback server: a real article at ``/article``, an empty page, 404 elsewhere."""
    article = load_pages()[0]
    yield from server_in_thread({"/article": article.html, "/empty": "<html></html>"})


def _files(tmp_path: Path) -> dict[str, str]:
    """Sign-in files to import: a good one, one not JSON, one without its token."""
    good, bad, tokenless = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "nt.json"
    good.write_text(json.dumps(_SIGN_IN))
    bad.write_text("not json")
    tokenless.write_text(json.dumps({"refresh_token": "1//exit"}))
    return {"good": str(good), "bad": str(bad), "tokenless": str(tokenless)}


def _auth_cases(files: dict[str, str]) -> list[Case]:
    good = ["auth", "import", "gemini-cli", files["good"]]
    return [
        Case("auth", 0, "done", ["auth", "list"]),
        Case("auth", 1, "auth remove found nothing stored", ["auth", "remove", "brave"]),
        Case("auth", 1, "could not be written", ["auth", "list"], stdout="full", stored=True),
        Case("auth", 2, "no action", ["auth"]),
        Case("auth", 2, "an unknown one", ["auth", "forget", "brave"]),
        Case("auth", 2, "an unknown provider id", ["auth", "remove", "nosuch"]),
        Case("auth", 2, "a file that cannot be imported", [*good[:3], files["bad"]]),
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
        Case("auth import", 0, "the sign-in is stored", good),
        Case("auth import", 1, "stored but its output could not be written", good, stdout="full"),
        Case("auth import", 2, "an unknown source", ["auth", "import", "nosuch"]),
        Case("auth import", 2, "the file missing", ["auth", "import", "gemini-cli"]),
        Case("auth import", 2, "not JSON", [*good[:3], files["bad"]]),
        Case("auth import", 2, "without its token", [*good[:3], files["tokenless"]]),
    ]


def _other_cases(pages: PageServer) -> list[Case]:
    article, private = pages.url("/article"), ["fetch", "--allow-private"]
    return [
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
        Case("fetch", 0, "the content is printed", [*private, article]),
        Case("fetch", 0, "without readable text", [*private, pages.url("/empty")]),
        Case("fetch", 1, "an HTTP error", [*private, pages.url("/missing")]),
        Case("fetch", 1, "no connection", [*private, "http://127.0.0.1:9/"]),
        Case(
            "fetch", 1, "a loopback or private address without --allow-private", ["fetch", article]
        ),
        Case("fetch", 1, "could not be written", [*private, article], stdout="full"),
        Case("fetch", 2, "a URL without http(s)://", ["fetch", "example.com"]),
        Case("fetch", 2, "a bad --timeout", ["fetch", "--timeout", "0", article]),
        Case("fetch", 2, "--markdown with --json", ["fetch", "--markdown", "--json", article]),
    ]


def _reader_gone_cases(files: dict[str, str], pages: PageServer) -> list[Case]:
    """Each command's success with nobody reading its stdout."""
    return [
        Case("auth", 0, "done", ["auth", "list"], stdout="gone", stored=True),
        Case("auth set", 0, "stored", ["auth", "set", "brave"], stdin=_KEY, stdout="gone"),
        Case("auth list", 0, "listed", ["auth", "list"], stdout="gone", stored=True),
        Case("auth remove", 0, "removed", ["auth", "remove", "brave"], stdout="gone", stored=True),
        Case(
            "auth import",
            0,
            "stored",
            ["auth", "import", "gemini-cli", files["good"]],
            stdout="gone",
        ),
        Case("providers", 0, "listed", ["providers"], stdout="gone"),
        Case(
            "fetch",
            0,
            "printed",
            ["fetch", "--allow-private", pages.url("/article")],
            stdout="gone",
        ),
    ]


def _check(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if case.stdout == "full" and not _DEV_FULL.exists():
        return  # no such device here (not Linux): the other cases still run
    clauses = _help_statuses(case.command, capsys)
    assert case.phrase in clauses.get(case.status, ""), (case.command, clauses)
    assert (case.args, _run(case, tmp_path)) == (case.args, case.status)


def test_auth_commands_exit_as_their_help_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: no subcommand's help had an ``exit status:`` clause."""
    files = _files(tmp_path)
    for number, case in enumerate(_auth_cases(files)):
        _check(case, tmp_path / str(number), capsys)


def test_providers_and_fetch_exit_as_their_help_says(
    pages: PageServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: neither ``providers --help`` nor ``fetch --help`` named a status."""
    for number, case in enumerate(_other_cases(pages)):
        _check(case, tmp_path / str(number), capsys)


def test_a_reader_gone_is_no_failure_as_each_help_says(
    pages: PageServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: no subcommand's help said so (the statuses were already 0)."""
    files = _files(tmp_path)
    for number, case in enumerate(_reader_gone_cases(files, pages)):
        assert main([*case.command.split(), "--help"]) == 0
        said = " ".join(capsys.readouterr().out.split())
        assert "A reader that stops reading (| head -1) is no failure" in said
        assert (case.args, _run(case, tmp_path / str(number))) == (case.args, 0)


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
        [sys.executable, "-m", "websearch_core", "fetch", "--allow-private", pages.url("/hang")],
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
