"""``state_wait_seconds`` sets how long a search's and a fetch's store calls wait.

Unset, a cache lookup waits a tenth of the deadline for the state store, at least 0.25 s
and at most 1 s: right for a local file, short for a Redis far away, whose first TLS
connection alone takes several round trips. The setting replaces that share (never more
than half of the deadline, which the waits come out of), and a value the search could not
honour is refused naming the setting. Behind a SQLite file another process holds locked
the store is given up on after the wait in force, which the warning states: the assertions
read what was waited for from there, not from a clock.
"""

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.content._server import PageServer
from tests.content.test_fetch import ARTICLE, fetch
from tests.sqlite_holder import held_by_another_process
from websearch_core import WebSearch
from websearch_core.errors import ConfigurationError
from websearch_core.settings import Settings
from websearch_core.settings_errors import configuration_errors
from websearch_core.testing import Simulator


def _gave_up_after(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The waits the store was given up on after, as the fail-safe's warning says them."""
    words = "searching without it: "
    found = [r.getMessage() for r in caplog.records if words in r.getMessage()]
    return [message.split(" did not answer within ")[1].split(" s")[0] for message in found]


@pytest.mark.parametrize(
    ("deadline", "setting", "waited"),
    [(10.0, None, "1"), (10.0, 0.3, "0.3"), (5.0, None, "0.5"), (5.0, 2.0, "2")],
)
async def test_a_search_waits_for_the_store_as_long_as_the_setting_says(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    deadline: float,
    setting: float | None,
    waited: str,
) -> None:
    async with Simulator(["brave"]) as sim:
        settings = sim.settings(
            deadline_seconds=deadline,
            provider="brave",
            state_backend="sqlite",
            state_dir=tmp_path,
            state_wait_seconds=setting,
        )
        with held_by_another_process(tmp_path / "state.sqlite3"):
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                with caplog.at_level(logging.WARNING, logger="websearch_core.state"):
                    result = await ws.run("python asyncio")
    assert not result.is_error, result.text
    assert _gave_up_after(caplog) == [waited]


@contextlib.asynccontextmanager
async def _page_server() -> AsyncIterator[PageServer]:
    server = PageServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def test_a_fetch_waits_for_the_store_as_long_as_the_setting_says(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with _page_server() as server:
        server.page("/a", ARTICLE)
        with held_by_another_process(tmp_path / "state.sqlite3"):
            async with WebSearch(
                state_backend="sqlite", state_dir=tmp_path, state_wait_seconds=0.3
            ) as ws:
                with caplog.at_level(logging.WARNING, logger="websearch_core.state"):
                    page = await fetch(ws, server.url("/a"), timeout_seconds=10.0)
    assert page.title == "Loopback article"
    assert _gave_up_after(caplog) == ["0.3"]  # not the share of 10 s, 1 s


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            {"state_wait_seconds": 0},
            "state_wait_seconds: must be more than 0 and at most 60 seconds",
        ),
        (
            {"state_wait_seconds": 61},
            "state_wait_seconds: must be more than 0 and at most 60 seconds",
        ),
        (
            {"state_wait_seconds": 3, "deadline_seconds": 5},
            "state_wait_seconds: 3 s is more than half of deadline_seconds (5 s), which the "
            "state store's waits come out of",
        ),
    ],
)
def test_a_wait_the_search_could_not_honour_is_refused_naming_the_setting(
    values: dict[str, float], message: str
) -> None:
    with pytest.raises(ConfigurationError) as refused, configuration_errors():
        Settings(**values)
    assert str(refused.value) == message
