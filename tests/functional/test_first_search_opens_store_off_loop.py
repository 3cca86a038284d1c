"""A first search opens the default SQLite state without holding the event loop.

The store's thread created the directory, the file and the schema, but the connection that
serves short reads and writes inline was opened by its first call: ``connect``, two pragmas
and the ``-shm`` file's reader, on the event loop's thread. On a slow disk (a network home
directory, a loaded machine) every other task of a server waited that long. Each opening
here waits, on whatever thread runs it, for a ticker task on the search's loop to run: on
the loop's own thread it cannot, and the opening records that the loop stood still.
"""

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from websearch_core import Settings, WebSearch
from websearch_core.state.sqlite import SQLiteStore
from websearch_core.testing import Simulator

_LOOP_WAIT = 5.0
"""How long an opening waits for the loop to tick: a bound that ends a stalled run, never
a measure (an opening off the loop sees a tick within milliseconds)."""

_Call = Callable[[], Awaitable[Any]]


class _LoopWatch:
    """Wraps the store's openings so that each records whether the loop ran meanwhile."""

    def __init__(self) -> None:
        self.beat = threading.Event()
        self.loop_ran: list[tuple[str, bool]] = []

    async def tick(self) -> None:
        while True:
            self.beat.set()
            await asyncio.sleep(0.001)

    def around(self, name: str, opening: Callable[[SQLiteStore], Any]) -> Any:
        def watched(store: SQLiteStore) -> Any:
            self.beat.clear()
            self.loop_ran.append((name, self.beat.wait(_LOOP_WAIT)))
            return opening(store)

        return watched


async def _first_search(adapter: str, settings: Settings, api_keys: dict[str, str]) -> str:
    """``adapter``'s first search, its answer as text."""
    if adapter in ("client", "client entered"):
        client = WebSearch(settings=settings, api_keys=api_keys)
        if adapter == "client entered":
            async with client:
                return str(await client.search("python asyncio"))
        try:
            return str(await client.search("python asyncio"))
        finally:
            await client.aclose()
    if adapter == "langchain tool":
        from langchain_websearch import WebSearchTool

        return str(await WebSearchTool(settings=settings, api_keys=api_keys).ainvoke("python"))
    if adapter == "langchain retriever":
        from langchain_websearch import WebSearchRetriever

        retriever = WebSearchRetriever(settings=settings, api_keys=api_keys)
        return str(await retriever.ainvoke("python asyncio"))
    if adapter == "llamaindex tool":
        from llamaindex_websearch import create_web_search_tool

        tool = create_web_search_tool(settings=settings, api_keys=api_keys)
        return str(await tool.acall(query="python asyncio"))
    from llamaindex_websearch import WebSearchRetriever as IndexRetriever

    return str(await IndexRetriever(settings=settings, api_keys=api_keys).aretrieve("python"))


@pytest.mark.parametrize(
    "adapter",
    [
        "client",
        "client entered",
        "langchain tool",
        "langchain retriever",
        "llamaindex tool",
        "llamaindex retriever",
    ],
)
def test_a_first_search_opens_the_sqlite_state_while_the_loop_runs(
    adapter: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    watch = _LoopWatch()
    for name in ("_connect", "_open_inline"):
        monkeypatch.setattr(SQLiteStore, name, watch.around(name, getattr(SQLiteStore, name)))

    async def main() -> str:
        async with Simulator(["brave"]) as sim:
            settings = sim.settings(
                providers=("brave",), state_backend="sqlite", state_dir=tmp_path / "new" / "dir"
            )
            ticker = asyncio.create_task(watch.tick())
            try:
                return await _first_search(adapter, settings, sim.api_keys())
            finally:
                ticker.cancel()

    answer = asyncio.run(main())
    assert "python" in answer.lower()
    assert (tmp_path / "new" / "dir" / "state.sqlite3").is_file()
    opened = [name for name, _ in watch.loop_ran]
    assert "_connect" in opened and "_open_inline" in opened, watch.loop_ran
    assert [name for name, ran in watch.loop_ran if not ran] == [], watch.loop_ran
