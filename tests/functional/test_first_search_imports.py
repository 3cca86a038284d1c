"""A process's first search imports the chain and its providers off the event loop.

Those imports held the loop for 0.1-0.2 s (``python -X dev`` reported ``Executing <Task
...> took 0.2 seconds`` on a newcomer's first search, and a server's other requests waited).
Each case runs in a fresh interpreter, where nothing is imported yet, and records the thread
every import runs on.
"""

import textwrap

from tests.loop_imports import run_watched

_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, sys
    from websearch_core import SEARCH_PROVIDER_ORDER, WebSearch
    from websearch_core.testing import Simulator

    with Simulator(["brave", "duckduckgo"]).running_in_thread() as sim:
        others = tuple(pid for pid in SEARCH_PROVIDER_ORDER if pid not in sim.providers)
        settings = sim.settings(exclude=others)

        async def main():
            global loop_thread
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                if BEFORE is not None:  # a search whose plan is imported by now
                    await ws.run("python", provider=BEFORE)
                loop_thread = threading.get_ident()
                result = await ws.run("python", provider=FORCED)
                loop_thread = None
            return result.response.provider

        provider = asyncio.run(main())
    loaded = sorted(m for m in sys.modules if m.startswith("websearch_core.providers."))
    print(json.dumps({"provider": provider, "on_loop": on_loop, "providers": loaded}))
    """
)


def _first_search(forced: str | None, before: str | None = None) -> dict[str, object]:
    return run_watched(_SCRIPT, FORCED=forced, BEFORE=before)


def _ours(names: object) -> list[str]:
    assert isinstance(names, list)
    return [name for name in names if name.split(".")[0] in ("websearch_core", "lxml")]


def test_the_first_auto_search_imports_its_providers_off_the_loop() -> None:
    found = _first_search(None)
    assert found["provider"] == "brave"
    assert _ours(found["on_loop"]) == []


def test_a_forced_search_still_imports_its_provider_alone() -> None:
    found = _first_search("duckduckgo")
    assert found["provider"] == "duckduckgo"
    assert _ours(found["on_loop"]) == []
    assert [
        name
        for name in _ours(found["providers"])
        if not name.split(".")[-1].startswith("_") and name.split(".")[-1] != "base"
    ] == ["websearch_core.providers.duckduckgo"]


def test_a_plan_imported_before_does_not_stand_for_another() -> None:
    # A search's plan found imported is remembered, so the next search with it asks nothing;
    # a search with another plan still imports what that one needs off the loop.
    found = _first_search("duckduckgo", before="brave")
    assert found["provider"] == "duckduckgo"
    assert _ours(found["on_loop"]) == []
