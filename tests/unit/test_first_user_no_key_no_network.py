"""A first user's ``websearch "query"`` with no key and no network, line by line vs the README.

Walked as a user meets it: a fresh HOME, no ``WEBSEARCH_*`` variable but the base URLs the
README names (``WEBSEARCH_<ID>_BASE_URL``) pointing every credential-free engine at a
loopback port nothing listens on, so the network is blocked the way a firewall blocks it.
Every line printed is checked against the README's Quick start: the engines in its order,
the head line, one indented line each, the closing hint. Two differences were found: the
Quick start quoted only the offline hint (names not resolved), where a blocked network
closes with another line, and it did not say where the lines go (stderr; stdout is empty,
so ``websearch "q" > out.txt`` leaves an empty file and the error on the terminal).
"""

import os
import re
import socket
import subprocess
from pathlib import Path

from tests.websearch_process import run_websearch

ROOT = Path(__file__).resolve().parents[2]
QUERY = "what changed in Python 3.13?"


def _quick_start() -> str:
    """The README's Quick start, its lines joined by spaces."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Quick start")
    return " ".join(text[start : text.index("**2. Add a key.**", start)].split())


def _free_engines(quick_start: str) -> list[str]:
    """The engine ids in the order the Quick start names them (``DuckDuckGo first, ...``)."""
    named = re.search(r"engines: (\w+) first, then ([\w, ]+)\.", quick_start)
    assert named is not None, "the Quick start no longer names the free engines' order"
    rest = named.group(2).replace(" and ", ", ").split(", ")
    return [name.lower() for name in (named.group(1), *rest)]


def _closed_port() -> int:
    """A loopback port nothing listens on: bound by the test, then closed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _first_run(home: Path, engines: list[str]) -> subprocess.CompletedProcess[str]:
    """``websearch QUERY`` as a first user runs it, every free engine's host refusing."""
    base = f"http://127.0.0.1:{_closed_port()}"
    env = {name: os.environ[name] for name in ("PATH", "LANG") if name in os.environ}
    env.update({"PYTHONPATH": str(ROOT), "HOME": str(home)})
    env.update({f"WEBSEARCH_{engine.upper()}_BASE_URL": base for engine in engines})
    return run_websearch([QUERY], env=env)


def test_every_line_is_what_the_quick_start_says(tmp_path: Path) -> None:
    """Failed before: the blocked network's closing line and the stream were not in it."""
    quick_start = _quick_start()
    engines = _free_engines(quick_start)
    assert engines == ["duckduckgo", "bing", "yahoo", "startpage", "google", "ecosia", "mojeek"]
    done = _first_run(tmp_path, engines)
    assert done.returncode == 1, done.stderr
    assert "exits 1" in quick_start
    assert done.stdout == ""
    assert "on stderr (stdout stays empty)" in quick_start
    head, *rows, hint = done.stderr.splitlines()
    assert f"`{head}`" in quick_start
    assert [row.split(":", 1)[0] for row in rows] == [f"  {engine}" for engine in engines]
    assert all(": could not connect" in row or "failed: " in row for row in rows)
    blocked = hint.split(": ", 1)[0]
    assert blocked == (
        "Not one provider's host accepted a connection, so this machine's network looks blocked"
    )
    assert f"`{blocked}: ...`" in quick_start
    assert hint in " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
