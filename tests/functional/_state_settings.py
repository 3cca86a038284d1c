"""The settings of each kind of state store a functional test runs on, and their variables.

Budgets, quota marks and rate schedules are proven on every store that keeps them: the
per-process memory store, a SQLite file, the session's Redis. Several modules run a test
once per kind and hand the same store to a CLI subprocess through its environment; how a
kind's settings read and which variables name them is written here once.
"""

from pathlib import Path
from typing import Any

import pytest

__all__ = ["state_environment", "state_settings"]


def state_settings(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """The settings of a fresh store of ``kind``: ``memory``, ``sqlite`` or ``redis``.

    SQLite's file is in the test's own directory; Redis is the session's server, its
    database emptied for the test (the ``redis_url`` fixture, asked for only here, so a
    memory or SQLite case needs no redis-server).
    """
    if kind == "memory":
        return {"state_backend": "memory"}
    if kind == "sqlite":
        return {"state_backend": "sqlite", "state_dir": tmp_path / "state"}
    url: str = request.getfixturevalue("redis_url")
    return {"state_backend": "redis", "redis_url": url}


def state_environment(state: dict[str, Any]) -> dict[str, str]:
    """The environment variables that name the store ``state`` sets, for a CLI process."""
    backend = state["state_backend"]
    if backend == "redis":
        return {"WEBSEARCH_STATE_BACKEND": "redis", "WEBSEARCH_REDIS_URL": state["redis_url"]}
    if backend == "sqlite":
        return {"WEBSEARCH_STATE_BACKEND": "sqlite", "WEBSEARCH_STATE_DIR": str(state["state_dir"])}
    return {"WEBSEARCH_STATE_BACKEND": backend}
