"""A search or fetch used without ``await`` names the call and its synchronous twin.

``ws.run("q").text`` said ``'coroutine' object has no attribute 'text'``, ``for source in
ws.search("q")`` ``'coroutine' object is not iterable`` and ``print(ws.run("q"))`` printed
``<coroutine object WebSearch.run at 0x...>``: Python's words, naming neither the call that
was not awaited nor ``run_sync``, which a script or notebook cell can call as it is.
"""

import asyncio
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from websearch_core import WebSearch
from websearch_core.testing import Fault, Simulator

_CALLS: dict[str, Callable[[WebSearch], Any]] = {
    "run": lambda ws: ws.run("q"),
    "search": lambda ws: ws.search("q"),
    "fetch": lambda ws: ws.fetch("https://example.org/"),
    "fetch_many": lambda ws: ws.fetch_many(["https://example.org/"]),
}


@pytest.fixture
def pending(request: pytest.FixtureRequest) -> Iterator[tuple[str, Any]]:
    """One of the calls, not awaited; closed after the test, so nothing warns of it."""
    name: str = request.param
    call = _CALLS[name](WebSearch(provider="brave"))
    yield name, call
    call.close()


def _says_what_to_write(name: str, text: str) -> None:
    assert text.startswith(f"WebSearch.{name}() was not awaited: this is its coroutine, which ")
    assert f"await ws.{name}(...)" in text and f"ws.{name}_sync(...)" in text


@pytest.mark.parametrize("pending", list(_CALLS), indirect=True)
def test_an_attribute_of_the_result_names_the_call(pending: tuple[str, Any]) -> None:
    name, call = pending
    with pytest.raises(AttributeError) as raised:
        _ = call.text
    _says_what_to_write(name, str(raised.value))
    assert "has no attribute 'text'" in str(raised.value)
    assert not hasattr(call, "sources")  # still an AttributeError: hasattr is False


@pytest.mark.parametrize("pending", list(_CALLS), indirect=True)
def test_iterating_or_indexing_the_result_names_the_call(pending: tuple[str, Any]) -> None:
    name, call = pending
    for use in (lambda: [item for item in call], lambda: call[0], lambda: len(call)):
        with pytest.raises(TypeError) as raised:
            use()
        _says_what_to_write(name, str(raised.value))


@pytest.mark.parametrize("pending", list(_CALLS), indirect=True)
def test_printing_the_result_names_the_call(pending: tuple[str, Any]) -> None:
    name, call = pending
    text = str(call)
    assert text.startswith("<") and text.endswith(">")
    _says_what_to_write(name, text[1:-1])


def test_awaited_it_is_a_coroutine_as_before(brave: Simulator) -> None:
    """A guard (passes before and after): ``asyncio.run``, ``create_task``, ``gather`` and
    ``wait_for`` take it, and frameworks still see a coroutine function."""

    async def searches() -> list[str]:
        async with WebSearch() as ws:
            first = await asyncio.create_task(ws.run("one", use_cache=False))
            both = await asyncio.gather(ws.run("two", use_cache=False), ws.search("three"))
            last = await asyncio.wait_for(ws.search("four", use_cache=False), 60)
        return [first.response.sources[0].title, both[0].text, both[1].provider, last.provider]

    title, text, provider, last = asyncio.run(searches())
    assert title == "one result 1" and text.startswith("[1] two result 1")
    assert provider == last == "brave"
    ws = WebSearch()
    assert asyncio.run(ws.run("five", use_cache=False)).response.provider == "brave"
    for method in (ws.run, ws.search, ws.fetch, ws.fetch_many, WebSearch.run):
        assert inspect.iscoroutinefunction(method)
    assert "query" in inspect.signature(ws.run).parameters
    call = ws.search("six")
    assert asyncio.iscoroutine(call) and inspect.isawaitable(call)
    call.close()


def test_a_task_cancelled_stops_its_search(brave: Simulator) -> None:
    """A guard (passes before and after): cancellation reaches the method's coroutine, once
    its request hangs at the simulator (an event, not a wait)."""
    brave["brave"].enqueue(Fault.hang())

    async def cancelled() -> bool:
        async with WebSearch() as ws:
            task = asyncio.create_task(ws.run("hung", use_cache=False))
            while not brave["brave"].requests:  # the request has arrived and hangs
                await asyncio.sleep(0.01)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                return True
            return False

    assert asyncio.run(cancelled())
