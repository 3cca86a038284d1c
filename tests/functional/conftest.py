"""Fixtures for the functional tests.

The browser-escalating scrapers' (Google, Ecosia, Mojeek) are not autouse: a module opts in
with ``pytestmark = pytest.mark.usefixtures("no_browser_escalation")``. ``shared_state``
and ``any_state`` run a test once per kind of state store. ``locked_file`` serves the tests
of a state store that does not answer (a SQLite file locked by another connection);
``silent_state`` gives the settings of one, that file or a silent Redis.
"""

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.functional._locked_store import write_lock_held
from tests.functional._sim_helpers import MISSING_CHROMIUM
from tests.functional._state_settings import state_settings
from tests.stalling_proxy import silent_server


@pytest.fixture
def no_browser_escalation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Escalation off, so the plain fetch's page is final and no Chromium is started."""
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")


@pytest.fixture
def browser_missing(no_browser_escalation: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Escalation on, towards a Chromium that does not exist (so the browser never runs).

    It asks for :func:`no_browser_escalation` so that it always runs after it, whatever the
    order of the marks that request the two.
    """
    monkeypatch.delenv("WEBSEARCH_BROWSER")
    monkeypatch.setenv("WEBSEARCH_CHROMIUM_PATH", MISSING_CHROMIUM)


@pytest.fixture
def gemini_default_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gemini's sign-ins search with the default model in Cloud project ``p``.

    No ``GEMINI_SEARCH_MODEL`` from the machine's environment, and a project set, so no
    ``loadCodeAssist`` request comes before the search's own.
    """
    monkeypatch.delenv("GEMINI_SEARCH_MODEL", raising=False)
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")


@pytest.fixture(params=["sqlite", "redis"])
def shared_state(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """Settings of a store two processes share: a SQLite file, or the session's Redis."""
    return state_settings(request.param, request, tmp_path)


@pytest.fixture(params=["memory", "sqlite", "redis"])
def any_state(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """Settings of each store the marks and budgets live in, the per-process one included."""
    return state_settings(request.param, request, tmp_path)


@pytest.fixture
def no_gemini_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """No Gemini model or Cloud project from the machine's environment.

    Gemini's requests (which model, whether ``loadCodeAssist`` comes first) follow
    ``GEMINI_SEARCH_MODEL`` and ``GOOGLE_CLOUD_PROJECT(_ID)``; the tests that count them
    start from none of the three.
    """
    for name in ("GEMINI_SEARCH_MODEL", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def locked_file(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """A connection that will hold the state file's write lock once the test takes it."""
    # Any thread: a SelfRelease rolls the lock back from its timer's.
    path = tmp_path / "state.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    yield holder
    if holder.in_transaction:
        holder.execute("ROLLBACK")
    holder.close()


@pytest.fixture(params=["sqlite", "redis"])
def silent_state(
    request: pytest.FixtureRequest, tmp_path: Path, locked_file: sqlite3.Connection
) -> Iterator[dict[str, Any]]:
    """Settings of a store that does not answer: a file held locked, or a silent Redis."""
    if request.param == "sqlite":
        with write_lock_held(locked_file):
            yield {"state_backend": "sqlite", "state_dir": tmp_path}
        return
    pytest.importorskip("redis")
    with silent_server() as port:
        yield {"state_backend": "redis", "redis_url": f"redis://127.0.0.1:{port}/0"}
