"""Ctrl-C ends a search and ``auth set`` with 130; ``auth remove --json`` answers in JSON.

Stop 53 proved the 130 for ``fetch`` alone. Here a search (``websearch "query"``) is
interrupted once the simulated Brave holds its request, and ``auth set`` at its hidden
prompt by the terminal's own Ctrl-C byte: the prompt on a pseudo-terminal is the child's
own word that it waits. Neither run is bounded by a clock, only by what the child did.

``auth remove brave --json`` was refused (``--json: not an option``, exit 2), in JSON as
every refusal under ``--json`` is: a script managing keys read a refusal where it asked for
an answer. It now answers in JSON, removed or not.
"""

import asyncio
import json
import os
import pty
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web

from tests.content._server import PageServer, server_in_thread
from tests.integrations._readme_scripts import user_env
from tests.unit.test_cli_subcommand_exit_statuses import _help_statuses
from tests.websearch_process import WEBSEARCH, run_websearch

_BRAVE_PATH = "/res/v1/web/search"
"""Where Brave's adapter sends a search, under the base URL it is given."""
_CTRL_C = b"\x03"
"""What a terminal's Ctrl-C key writes: its line discipline sends SIGINT for it."""


@pytest.fixture
def held() -> Iterator[tuple[PageServer, threading.Event]]:
    """A loopback Brave that holds every request it gets, and the event it sets then."""
    reached = threading.Event()

    async def hold(_request: web.Request) -> web.StreamResponse:
        reached.set()
        await asyncio.Event().wait()  # cancelled when the server stops
        return web.Response()

    for server in server_in_thread({}):
        server.route(_BRAVE_PATH, hold)
        yield server, reached


def _websearch(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = run_websearch(args, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def test_guard_an_interrupted_search_exits_130(
    held: tuple[PageServer, threading.Event], tmp_path: Path
) -> None:
    """A guard (held before): ``websearch "query"`` Ctrl-C'd while Brave holds its request."""
    server, reached = held
    env = user_env(
        tmp_path,
        WEBSEARCH_BASE_URLS=json.dumps({"brave": server.url("")}),
        WEBSEARCH_PROVIDER="brave",
        BRAVE_API_KEY="BSA-interrupted-search",
    )
    process = subprocess.Popen(
        [*WEBSEARCH, "python asyncio"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert reached.wait(120), "the search never reached the simulated Brave"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (process.returncode, out, err.strip()) == (130, "", "websearch: interrupted")
    assert "BSA-interrupted-search" not in out + err


@pytest.mark.skipif(shutil.which("setsid") is None, reason="needs util-linux's setsid -c")
def test_auth_set_interrupted_at_its_prompt_exits_130_and_its_help_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: ``auth set --help`` named no 130 (the exit was 130 already).

    On a pseudo-terminal made the child's controlling terminal (``setsid -c``), the key's
    hidden prompt is read first, then Ctrl-C typed: nothing is stored.
    """
    assert "interrupted (Ctrl-C" in _help_statuses("auth set", capsys)[130]
    master, terminal = pty.openpty()
    command = [*WEBSEARCH, "auth", "set", "brave"]
    process = subprocess.Popen(
        ["setsid", "-c", *command],
        env=user_env(tmp_path),
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
    )
    os.close(terminal)
    try:
        said = _read_until(master, b"(input hidden): ")
        assert said.endswith(b"API key for brave (input hidden): "), said
        os.write(master, _CTRL_C)
        rest = _read_until(master, None)
        assert process.wait(120) == 130
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
    assert rest.split() == [b"websearch:", b"interrupted"]
    assert not (tmp_path / "credentials.json").exists()


def _read_until(master: int, end: bytes | None) -> bytes:
    """What the terminal shows until ``end`` (``None``: until the child closes it)."""
    said = b""
    while end is None or end not in said:
        try:
            chunk = os.read(master, 1024)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        said += chunk
    return said


def test_auth_remove_answers_in_json(tmp_path: Path) -> None:
    """Failed before: ``--json`` was refused as not an option of ``auth remove`` (exit 2)."""
    env = user_env(tmp_path)
    none = _websearch(["auth", "remove", "brave", "--json"], env)
    assert (none.returncode, json.loads(none.stdout)) == (
        1,
        {"provider": "brave", "error": "no stored API key for brave", "failed": True},
    )
    assert none.stderr == "websearch: no stored API key for brave\n"
    stored = run_websearch(["auth", "set", "brave"], env=env, stdin="BSA-removed-key")
    assert stored.returncode == 0, stored.stderr
    removed = _websearch(["auth", "remove", "Brave", "--json"], env)
    assert (removed.returncode, json.loads(removed.stdout), removed.stderr) == (
        0,
        {"provider": "brave", "removed": "api_key", "oauth_kept": False},
        "",
    )
    assert "BSA-removed-key" not in removed.stdout
    sign_in = _websearch(["auth", "remove", "gemini-cli", "--oauth", "--json"], env)
    assert (sign_in.returncode, json.loads(sign_in.stdout)["provider"]) == (1, "gemini-cli")


def test_guard_auth_remove_without_json_says_one_line(tmp_path: Path) -> None:
    """A guard (held before): without ``--json`` the words are the same, and no JSON."""
    done = _websearch(["auth", "remove", "brave"], user_env(tmp_path))
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        "",
        "websearch: no stored API key for brave\n",
    )
