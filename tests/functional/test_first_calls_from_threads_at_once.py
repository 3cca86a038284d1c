"""Guard: first calls made from several threads at once import the chain without deadlock.

A first search or fetch imports its modules on a worker thread (``asyncio.to_thread``), and
synchronous callers (``run_sync``, a pool of threads each running ``asyncio.run``) each
have their own loop, so several threads can import the same modules at once. Python's
per-module import locks make one wait for the other (and break a cycle of waits with a
partly initialised module, which would fail a search with an ImportError). This guard
passes before and after the fetch tools' imports moved: it holds the shared path to that.

A fresh interpreter makes the chain's import take 0.5 s, so the threads' imports overlap:
two clients' first searches (one ``search_sync``), and a third client's first fetch (the
fetcher imports part of the chain), started together. Each thread is waited for at most
60 s, and one still running is reported rather than hung on.
"""

import textwrap

from tests.loop_imports import SLOW_CHAIN_IMPORT, run_watched

_SCRIPT = SLOW_CHAIN_IMPORT + textwrap.dedent(
    """
    import asyncio, json, queue, threading
    from websearch_core import WebSearch
    from websearch_core.testing import Simulator

    start = threading.Barrier(3)
    answers = {}

    def search(name, settings, api_keys):
        start.wait()
        try:
            answers[name] = asyncio.run(WebSearch(settings, api_keys=api_keys).run("asyncio"))
            answers[name] = answers[name].response.provider
        except Exception as error:
            answers[name] = repr(error)

    def search_sync(name, settings, api_keys):
        start.wait()
        try:
            client = WebSearch(settings, api_keys=api_keys)
            answers[name] = client.search_sync("asyncio").provider
        except Exception as error:
            answers[name] = repr(error)

    def fetch(name, url):
        async def first_fetch():
            client = WebSearch(state_backend="memory")
            try:
                return (await client.fetch(url, allow_private_addresses=True)).title
            finally:
                await client.aclose()

        start.wait()
        try:
            answers[name] = asyncio.run(first_fetch())
        except Exception as error:
            answers[name] = repr(error)

    async def serve(until):
        runner, url = await serve_page(PAGE, "text/html")
        async with Simulator(["brave"]) as sim:
            settings = sim.settings(providers=("brave",))
            until.put((url, settings, sim.api_keys()))
            while not done.is_set():
                await asyncio.sleep(0.05)
        await runner.cleanup()

    ready, done = queue.Queue(), threading.Event()
    server = threading.Thread(target=lambda: asyncio.run(serve(ready)), daemon=True)
    server.start()
    url, settings, api_keys = ready.get(timeout=60)
    threads = [
        threading.Thread(target=search, args=("search", settings, api_keys), daemon=True),
        threading.Thread(
            target=search_sync, args=("search_sync", settings, api_keys), daemon=True
        ),
        threading.Thread(target=fetch, args=("fetch", url), daemon=True),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    stuck = [thread.name for thread in threads if thread.is_alive()]
    done.set()
    server.join(timeout=60)
    print(json.dumps({"answers": answers, "stuck": stuck}))
    """
)

_PAGE = b"<html><head><title>Notes</title></head><body><p>Some text.</p></body></html>"


def test_first_calls_from_three_threads_at_once_all_answer() -> None:
    found = run_watched(_SCRIPT, PAGE=_PAGE)
    assert found == {
        "answers": {"search": "brave", "search_sync": "brave", "fetch": "Notes"},
        "stuck": [],
    }, found
