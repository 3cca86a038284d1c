"""A search whose plan is imported already asks so with a plain call, not the import's coroutine.

``WebSearch._begin`` runs on every search. It asks ``plan_imported`` first and awaits
``import_off_loop`` only while the plan's providers are not known imported, so later
searches build no coroutine for a set lookup. The second test holds the other side too: a
search whose plan is not known imported still waits for its imports, and only it (the
functional ``test_first_call_*`` files hold their deadline and thread).
"""

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import websearch_core.client as client_module
from websearch_core import WebSearch, provider_imports
from websearch_core.testing import Simulator


def _counting(
    monkeypatch: pytest.MonkeyPatch,
) -> list[str | None]:
    """Every ``import_off_loop`` a search awaits, by its forced provider, as it runs."""
    awaited: list[str | None] = []
    real: Callable[..., Awaitable[None]] = provider_imports.import_off_loop

    async def counted(settings: Any, forced: str | None, within: Any = None) -> None:
        awaited.append(forced)
        await real(settings, forced, within)

    monkeypatch.setattr(client_module, "import_off_loop", counted)
    return awaited


async def test_searches_of_an_imported_plan_await_no_import_coroutine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with Simulator(["brave"]) as sim:
        config = sim.settings(provider="brave", fallback=False, cache=False)
        async with WebSearch(config, api_keys=sim.api_keys()) as search:
            first = await search.search("python asyncio")  # imports (or finds) the plan
            awaited = _counting(monkeypatch)
            later = [await search.search("python asyncio") for _ in range(3)]
    assert first.sources and all(answer.sources == first.sources for answer in later)
    assert awaited == []


async def test_a_plan_not_known_imported_still_awaits_its_imports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the plan is not known imported, the search awaits the import; after, none."""
    monkeypatch.setattr(provider_imports, "_everything_loaded", False)
    monkeypatch.setattr(provider_imports, "_loaded_plans", set())
    async with Simulator(["brave"]) as sim:
        config = sim.settings(provider="brave", fallback=False, cache=False)
        async with WebSearch(config, api_keys=sim.api_keys()) as search:
            awaited = _counting(monkeypatch)
            answer = await search.search("python asyncio")
            again = await search.search("python asyncio")
    assert answer.sources and again.sources == answer.sources
    assert awaited == [None]  # the first search only: it found the plan imported after
