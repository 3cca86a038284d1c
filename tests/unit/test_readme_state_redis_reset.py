"""The state store section's Redis reset, re-proved end to end on a real redis-server.

Stop 51 (docs51) read the section's journal, fork and Redis-reset claims against the code
and its tests only. The store's own tests hold each step (``test_state_redis_clear``,
``test_state_redis_resets``, ``test_state_journal``, ``test_state_write_behind``); this
one plays what a user does: a refused key leaves Brave skipped, ``websearch providers
reset brave`` deletes its counts and mark in the step that records the reset's time (kept
for a day), and the next search asks Brave again; ``reset --all`` clears cooldown marks
too. It runs against the session's redis-server (skipped where none is installed). A
guard: it passed on the code it was written against.
"""

from collections.abc import Iterator
from typing import Any

import pytest

from websearch_core.cli import EXIT_OK, main
from websearch_core.state.redis import RESET_KEPT_SECONDS
from websearch_core.testing import Simulator
from websearch_core.testing.faults import Fault


@pytest.fixture
def brave(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """Brave alone on loopback, state in the session's Redis."""
    with Simulator(["brave"]).running_in_thread() as sim:
        monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", sim["brave"].base_url)
        monkeypatch.setenv("WEBSEARCH_PROVIDERS", "brave")
        monkeypatch.setenv("BRAVE_API_KEY", sim.api_keys()["brave"])
        monkeypatch.setenv("WEBSEARCH_REDIS_URL", redis_url)
        monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "redis")
        yield sim


def _brave_keys(redis_client: Any) -> list[str]:
    return sorted(key.decode() for key in redis_client.scan_iter("*brave*"))


def test_a_reset_clears_what_skips_brave_and_keeps_its_time_for_a_day(
    brave: Simulator, redis_client: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: refused, skipped; reset, asked again; only the reset's time is left."""
    brave["brave"].always(Fault.unauthorized())
    main(["python", "--no-cache"])
    brave["brave"].always(None)
    asked = len(brave["brave"].requests)
    main(["python", "--no-cache"])
    assert len(brave["brave"].requests) == asked  # cooling down: skipped without a request
    assert len(_brave_keys(redis_client)) > 1  # its mark, counts and index
    assert main(["providers", "reset", "brave"]) == EXIT_OK
    (left,) = _brave_keys(redis_client)
    assert left.endswith("reset:brave")
    assert 0 < redis_client.pttl(left) <= RESET_KEPT_SECONDS * 1000 == 86_400_000
    capsys.readouterr()
    assert main(["python", "--no-cache"]) == EXIT_OK
    assert len(brave["brave"].requests) == asked + 1
    assert capsys.readouterr().out.startswith("[1] ")


def test_reset_all_clears_cooldown_marks_too(
    brave: Simulator, redis_client: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: ``--all`` does what a reset does for every provider, marks included."""
    brave["brave"].always(Fault.unauthorized())
    main(["python", "--no-cache"])
    brave["brave"].always(None)
    assert main(["providers", "reset", "--all"]) == EXIT_OK
    assert all(key.endswith("reset:brave") for key in _brave_keys(redis_client))
    asked = len(brave["brave"].requests)
    capsys.readouterr()
    assert main(["python", "--no-cache"]) == EXIT_OK
    assert len(brave["brave"].requests) == asked + 1
