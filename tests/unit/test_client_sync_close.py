"""``ws.close()`` and ``with WebSearch() as ws:`` close a client from synchronous code.

A script searching with ``run_sync`` has no loop to await ``aclose()`` on: ``ws.close()``
said ``'WebSearch' object has no attribute 'close'`` and ``with WebSearch() as ws:``
``'WebSearch' object does not support the context manager protocol``, Python's words.
"""

import asyncio

from websearch_core import WebSearch
from websearch_core.testing import Simulator


def test_with_and_close_close_the_client_in_synchronous_code(brave: Simulator) -> None:
    """``with WebSearch() as ws:`` said ``does not support the context manager protocol``
    and ``ws.close()`` ``has no attribute 'close'``; the client stays usable after it."""
    with WebSearch() as ws:
        assert ws.run_sync("one", use_cache=False).response.provider == "brave"
    assert ws.run_sync("two", use_cache=False).response.provider == "brave"
    ws.close()
    assert [r.query_dict()["q"] for r in brave["brave"].requests] == ["one", "two"]


def test_close_inside_a_running_loop_closes_that_loop_s_session(brave: Simulator) -> None:
    """``close()`` in async code (a notebook cell) neither blocks nor fails: the session the
    loop's search opened is closed there, and the next search opens another."""

    async def searches() -> tuple[bool, str]:
        ws = WebSearch()
        await ws.run("one", use_cache=False)
        sessions = list(ws._loop_sessions.values())
        ws.close()
        while not all(session.closed for session in sessions):  # closed on this loop
            await asyncio.sleep(0)
        again = await ws.run("two", use_cache=False)
        await ws.aclose()
        return bool(sessions), again.response.provider

    assert asyncio.run(searches()) == (True, "brave")
