"""A first user's ``websearch "query"`` with no key and no network, line by line vs the README.

Walked as a user meets it: a fresh HOME, no ``WEBSEARCH_*`` variable but the base URLs the
README names (``WEBSEARCH_<ID>_BASE_URL``) pointing every credential-free engine at a
loopback port nothing listens on, so the network is blocked the way a firewall blocks it.
firstusers19: those base URLs made every refusal a loopback one, which (once the browser
engines kept what the hints read) is told as nothing listening there, not a firewall; the
walk now keeps the engines' own hosts and stands a resolver in the command's stead (a
child that sets :func:`websearch_core.lookups.system_resolver`), so the machine that
resolves no name is walked too, and neither walk sends anything past this machine.
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
import sys
from pathlib import Path

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


_CHILD = """
import socket, sys
from aiohttp.abc import AbstractResolver
from websearch_core import lookups

class Network(AbstractResolver):
    async def resolve(self, host, port=0, family=socket.AF_INET):
        if {port} == 0:
            raise OSError(socket.EAI_NONAME, "Name or service not known")
        return [dict(hostname=host, host="127.0.0.1", port={port}, family=socket.AF_INET,
                     proto=0, flags=socket.AI_NUMERICHOST)]

    async def close(self):
        return None

lookups.system_resolver = Network
from websearch_core.cli import main
sys.exit(main(sys.argv[1:]))
"""
"""The command as a user runs it, on a machine whose resolver (the one the client's own
session asks, :func:`websearch_core.lookups.system_resolver`) names no host (port 0), or
gives every name this machine's address at a port nothing listens on: a firewall
refusing every connection. Either way nothing leaves the machine."""


def _closed_port() -> int:
    """A loopback port nothing listens on: bound by the test, then closed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _first_run(
    home: Path, port: int, keys: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``websearch QUERY`` as a first user runs it: no variable (but ``keys``, the Quick
    start's ``export BRAVE_API_KEY=...``), the providers' own hosts."""
    env = {name: os.environ[name] for name in ("PATH", "LANG") if name in os.environ}
    env.update({"PYTHONPATH": str(ROOT), "HOME": str(home), **(keys or {})})
    return subprocess.run(
        [sys.executable, "-c", _CHILD.format(port=port), QUERY],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _rows_alike(rows: list[str], engines: list[str], cause: str) -> None:
    """Each provider's line, in the Quick start's order, in the one wording every one has."""
    assert [row.split(":", 1)[0] for row in rows] == [f"  {engine}" for engine in engines]
    for row in rows:
        said = row.split(": ", 1)[1]
        label = said.split(" search failed: ", 1)[0]
        assert label.lower().removesuffix(" browser") in engines, row
        assert said.startswith(f"{label} search failed: the connection failed ("), row
        assert cause in said, row


def test_no_name_resolved_prints_what_the_quick_start_says(tmp_path: Path) -> None:
    """Failed before: four engines said ``<Engine> connection failed``, three ``... search
    failed: the connection failed``; the closing line, quoted whole, stood (a guard)."""
    quick_start = _quick_start()
    engines = _free_engines(quick_start)
    done = _first_run(tmp_path, 0)
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    head, *rows, hint = done.stderr.splitlines()
    assert f"`{head}`" in quick_start
    _rows_alike(rows, engines, "the host name could not be resolved (ClientConnectorDNSError)")
    assert hint.startswith("Not one provider's host name could be resolved")
    assert f"then `{hint}`" in quick_start  # what happened, and what to check, whole


def test_every_line_is_what_the_quick_start_says(tmp_path: Path) -> None:
    """Failed before: the blocked network's closing line and the stream were not in it;
    then (firstusers19) the engines' two wordings."""
    quick_start = _quick_start()
    engines = _free_engines(quick_start)
    assert engines == ["duckduckgo", "bing", "yahoo", "startpage", "google", "ecosia", "mojeek"]
    done = _first_run(tmp_path, _closed_port())
    assert done.returncode == 1, done.stderr
    assert "exits 1" in quick_start
    assert done.stdout == ""
    assert "on stderr (stdout stays empty)" in quick_start
    head, *rows, hint = done.stderr.splitlines()
    assert f"`{head}`" in quick_start
    _rows_alike(rows, engines, ": could not connect")
    blocked = hint.split(": ", 1)[0]
    assert blocked == (
        "Not one provider's host accepted a connection, so this machine's network looks blocked"
    )
    assert f"`{blocked}: ...`" in quick_start
    assert hint in " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


def test_with_a_key_every_line_is_in_the_one_wording(tmp_path: Path) -> None:
    """Failed before: the Quick start's step 2 (a Brave key) then a search offline listed
    ``Brave connection failed (...)`` above seven ``<Engine> search failed: the connection
    failed (...)``, one cause in two wordings; the closing line stood (a guard)."""
    quick_start = _quick_start()
    engines = _free_engines(quick_start)
    key = {"BRAVE_API_KEY": "BSA" + "k" * 28}
    done = _first_run(tmp_path, 0, key)
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    head, *rows, hint = done.stderr.splitlines()
    assert f"`{head}`" in quick_start
    cause = "the host name could not be resolved (ClientConnectorDNSError)"
    _rows_alike(rows, ["brave", *engines], cause)
    assert rows[0] == (
        f"  brave: Brave search failed: the connection failed (api.search.brave.com): {cause}"
    )
    assert hint.startswith("Not one provider's host name could be resolved")
    assert key["BRAVE_API_KEY"] not in done.stderr
