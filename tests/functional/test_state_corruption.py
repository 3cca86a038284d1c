"""A state store that cannot break the tool: every way the state can be broken, three ways in.

Each mode damages the state the way a disk, a crash, another program or an admin might,
then checks that (1) ``websearch providers`` lists the providers and warns once instead of
a traceback, (2) ``websearch providers reset`` reports instead of raising, (3) a search
still answers, and (4) ``websearch providers reset --all`` moves a damaged SQLite file
aside (never deleting it) after which the state works again.
"""

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.functional._state_settings import state_environment
from tests.redis_server import free_loopback_port
from websearch_core import WebSearch
from websearch_core.cli import main
from websearch_core.state import SQLiteStore, UsageWindow
from websearch_core.testing import Simulator

STATE_FILE = "state.sqlite3"

# Modes whose damage cannot be told from a working store are expected to just work.
HARMLESS = frozenset({"empty_file", "garbage_wal"})
# Modes that ``reset --all`` repairs by moving the file (or directory) aside.
MOVABLE = frozenset(
    {"truncated", "bit_flipped", "foreign_schema", "directory", "garbage_file", "symlink_loop"}
)
SQLITE_MODES = (
    "truncated",
    "bit_flipped",
    "foreign_schema",
    "directory",
    "empty_file",
    "garbage_file",
    "unreadable",
    "garbage_dir",
    "unwritable_dir",
    "newer_schema",
    "symlink_loop",
    "garbage_wal",
)
REDIS_MODES = ("redis_unreachable", "redis_foreign_values")
MODES = SQLITE_MODES + REDIS_MODES


async def _valid_state(path: Path) -> None:
    """A real state file with marks, usage and enough cache to span many pages."""
    async with SQLiteStore(path) as store:
        until = time.time() + 3600
        await store.reserve_usage("brave", [UsageWindow("month:x", until, limit=10)])
        await store.record_failure("tavily")
        for n in range(40):
            await store.cache_set(
                f"k{n}", os.urandom(3000), now=time.time(), ttl=60, keep_stale_for=0
            )


def _sqlite_file(path: Path, build: Callable[[sqlite3.Connection], None]) -> None:
    conn = sqlite3.connect(path)
    build(conn)
    conn.commit()
    conn.close()


async def _truncated(path: Path) -> None:
    await _valid_state(path)
    os.truncate(path, 4096 * 2 + 1000)


async def _bit_flipped(path: Path) -> None:
    await _valid_state(path)
    data = bytearray(path.read_bytes())
    for offset in range(100, 900):  # page 1 below the header: the schema table
        data[offset] ^= 0xA5
    path.write_bytes(bytes(data))


async def _foreign_schema(path: Path) -> None:
    _sqlite_file(path, lambda c: c.execute("CREATE TABLE notes (id INTEGER, body TEXT)"))


async def _directory(path: Path) -> None:
    path.mkdir()


async def _empty_file(path: Path) -> None:
    path.write_bytes(b"")


async def _garbage_file(path: Path) -> None:
    path.write_bytes(b"this is not a database\n" * 200)


async def _unreadable(path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads files whatever their permissions")
    await _valid_state(path)
    path.chmod(0)


async def _garbage_dir(path: Path) -> None:
    path.parent.rmdir()
    path.parent.write_text("a file where the state directory should be")


async def _newer_schema(path: Path) -> None:
    _sqlite_file(path, lambda c: c.execute("PRAGMA user_version = 99"))


async def _symlink_loop(path: Path) -> None:
    path.symlink_to(path)


async def _garbage_wal(path: Path) -> None:
    await _valid_state(path)
    path.with_name(STATE_FILE + "-wal").write_bytes(os.urandom(5000))


FILE_DAMAGE: dict[str, Callable[[Path], Awaitable[None]]] = {
    "truncated": _truncated,
    "bit_flipped": _bit_flipped,
    "foreign_schema": _foreign_schema,
    "directory": _directory,
    "empty_file": _empty_file,
    "garbage_file": _garbage_file,
    "unreadable": _unreadable,
    "garbage_dir": _garbage_dir,
    "newer_schema": _newer_schema,
    "symlink_loop": _symlink_loop,
    "garbage_wal": _garbage_wal,
}


def _redis_with_foreign_values(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    month = time.strftime("month:%Y-%m", time.gmtime())
    client.set("websearch:mark:brave", b"{not json")
    client.sadd("websearch:marks", "brave")
    client.set(f"websearch:usage:brave:{month}", b"many")
    client.set("websearch:failures:brave", b"lots")
    client.close()


async def _break(mode: str, state_dir: Path, redis_url: str | None) -> dict[str, Any]:
    """Damage the state per ``mode``; the settings that point a client at it."""
    if mode == "unwritable_dir":
        # /proc refuses new directories even to root, unlike a chmod'ed one.
        return {"state_backend": "sqlite", "state_dir": Path("/proc/self/websearch-state")}
    if mode == "redis_unreachable":
        pytest.importorskip("redis")
        url = f"redis://127.0.0.1:{free_loopback_port()}/0"  # nothing listens there
        return {"state_backend": "redis", "redis_url": url}
    if mode == "redis_foreign_values":
        assert redis_url is not None
        _redis_with_foreign_values(redis_url)
        return {"state_backend": "redis", "redis_url": redis_url}
    state_dir.mkdir(parents=True, exist_ok=True)
    await FILE_DAMAGE[mode](state_dir / STATE_FILE)
    return {"state_backend": "sqlite", "state_dir": state_dir}


def _redis_url(mode: str, request: pytest.FixtureRequest) -> str | None:
    return request.getfixturevalue("redis_url") if mode == "redis_foreign_values" else None


def _use(settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Point the CLI (which reads the environment) at the damaged state."""
    for name, value in state_environment(settings).items():
        monkeypatch.setenv(name, value)


def _run(awaitable: Awaitable[dict[str, Any]]) -> dict[str, Any]:
    async def wrap() -> dict[str, Any]:
        return await awaitable

    return asyncio.run(wrap())


@pytest.mark.parametrize("mode", MODES)
def test_providers_and_reset_never_end_in_a_traceback(
    mode: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    settings = _run(_break(mode, tmp_path / "state", _redis_url(mode, request)))
    _use(settings, monkeypatch)

    assert main(["providers"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].split() == ["ID", "LABEL", "KIND", "USED", "BUDGET", "STATUS"]
    assert "brave" in out and "Traceback" not in err
    warned = "warning: the state store is unavailable" in err
    assert warned == (mode not in HARMLESS), err
    assert err.count("warning") <= 1
    # Unknown counts read as unknown, not as zero; a file reset --all repairs says so.
    used = {line.split()[3] for line in out.splitlines()[1:] if line.startswith("brave ")}
    assert used == ({"?"} if warned else {"0"}), out
    assert ("'websearch providers reset --all' moves a damaged state file aside" in err) == (
        mode in MOVABLE
    ), err

    status = main(["providers", "reset", "brave"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    if status == 0:
        assert out.strip() == "brave: cooldowns, quota marks and usage counters cleared"
    else:
        assert status == 1 and err.startswith("websearch: could not reset the state: ")
        assert mode not in HARMLESS


@pytest.mark.parametrize("mode", MODES)
def test_reset_all_moves_a_damaged_file_aside_and_recovers(
    mode: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    state_dir = tmp_path / "state"
    settings = _run(_break(mode, state_dir, _redis_url(mode, request)))
    _use(settings, monkeypatch)
    before = sorted(p.name for p in state_dir.iterdir()) if state_dir.is_dir() else []

    status = main(["providers", "reset", "--all"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    if mode in MOVABLE:
        assert status == 0, err
        assert out.startswith("The state file was damaged; moved it aside to ")
        moved = Path(out.splitlines()[0].rsplit(" ", 1)[1])
        assert moved.parent == state_dir and moved.name.startswith(STATE_FILE + ".broken-")
        assert os.path.lexists(moved) and not os.path.lexists(state_dir / STATE_FILE)
        assert len(list(state_dir.iterdir())) == len(before)  # moved, nothing deleted
        assert main(["providers"]) == 0  # and the state works again
        assert "warning" not in capsys.readouterr().err
    elif mode in HARMLESS or mode == "redis_foreign_values":
        assert status == 0, err  # a working store is simply cleared
        assert out.strip() == "All providers: cooldowns, quota marks and usage counters cleared"
    else:  # nothing that moving a file could fix: say why, leave everything in place
        assert status == 1 and err.startswith("websearch: could not reset the state: ")
        after = sorted(p.name for p in state_dir.iterdir()) if state_dir.is_dir() else []
        assert after == before


@pytest.mark.parametrize("mode", MODES)
async def test_a_search_still_answers(
    mode: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, request: pytest.FixtureRequest
) -> None:
    state = await _break(mode, tmp_path / "state", _redis_url(mode, request))
    caplog.set_level(logging.WARNING, logger="websearch_core")
    async with Simulator(["brave", "tavily"]) as sim:
        settings = sim.settings(providers=("brave", "tavily"), **state)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            results = [await ws.run(f"python asyncio {n}") for n in range(3)]
    assert all(r.error is None and r.response.provider == "brave" for r in results)
    warnings = [r.getMessage() for r in caplog.records if "state store" in r.getMessage()]
    assert len(warnings) == (0 if mode in HARMLESS else 1), warnings
