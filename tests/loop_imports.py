"""Run a script in a fresh interpreter that records the imports made on an event loop's thread.

A first search, status or fetch must import its modules off the loop (a server's other
requests wait while the loop imports). A fresh interpreter has imported nothing of ours yet;
the script this runs sets ``loop_thread`` to the loop's thread id around the call it tests,
and every module imported on that thread meanwhile lands in ``on_loop``. The script prints
one JSON object as its last line, which is returned. Each run is a child forked from a
waiting interpreter (:mod:`tests.script_forks`) that holds what a fresh ``python -c`` holds,
plus, where a test says so, the third-party modules of the frameworks its script imports
before it measures anything.
"""

import json
import textwrap

from tests.script_forks import run_script

WATCH = textwrap.dedent(
    """
    import importlib.abc, sys, threading

    loop_thread = None
    on_loop = []
    watching = False
    while_watching = []

    class Watch(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if threading.get_ident() == loop_thread:
                on_loop.append(name)
            if watching:
                while_watching.append(name)
            return None

    sys.meta_path.insert(0, Watch())

    async def serve_page(body, content_type, on_request=None):
        # One page on a loopback port: (the runner to clean up, the page's URL).
        from aiohttp import web

        async def page(request):
            if on_request is not None:
                on_request()
            return web.Response(body=body, content_type=content_type)

        app = web.Application()
        app.router.add_get("/page", page)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        return runner, f"http://127.0.0.1:{runner.addresses[0][1]}/page"
    """
)
"""The watch every script starts with: ``loop_thread`` (set it) and ``on_loop`` (read it);
``watching`` (set it) and ``while_watching`` (read it) for imports on any thread;
``serve_page`` for a one-page loopback server."""


WATCH_DEADLINE = textwrap.dedent(
    """
    import websearch_core.client as client

    class WatchedDeadline(client.Deadline):
        def __init__(self, *args, **kwargs):
            global watching
            watching = True
            super().__init__(*args, **kwargs)

    client.Deadline = WatchedDeadline
    """
)
"""A script's head that sets ``watching`` once the client builds a search's deadline (the
``Deadline`` watched, not replaced): what is imported after it, the search's time paid."""


def slowed_import(module: str) -> str:
    """A script's head that makes ``module``'s first import take 0.5 s, as on a loaded machine.

    The head names the module ``SLOWED``, so a script can tell whether its import was done
    before a call began (``SLOWED in sys.modules``) rather than time the call against a
    margin a loaded machine can eat.

    Args:
        module: The module whose import a first call would otherwise pay for.
    """
    return textwrap.dedent(
        f"""
        import importlib.abc, sys, time

        SLOWED = {module!r}

        class SlowImport(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name == {module!r}:
                    time.sleep(0.5)  # what a loaded machine takes to import it and its own
                return None

        sys.meta_path.insert(0, SlowImport())
        """
    )


def gated_import(module: str) -> str:
    """A script's head that holds ``module``'s first import until the script sets ``GATE``.

    A loaded machine's slow import, made as slow as the test wants by an event it controls
    rather than by a sleep: the script sees a call end while the import is still held
    (``GATED not in sys.modules``), then lets it go. ``GATED_ON`` names the threads that
    reached it (the loop's would hang the loop). Never released (a call that waits for the
    import, as before a fix), the hold lapses after 30 s and ``GATE_LAPSED`` says so.
    ``first_then_released(ask)`` makes a call with the import held and another after it
    is let go, and returns both outcomes with ``held``, ``lapsed`` and ``on``.

    Before the second call it awaits, with no limit, what entering a tool imports (the
    build's rest, the chain, the page fetcher and its extractors): the second call proves
    the tool answers after a build that gave up, and its 3 s were otherwise a first
    import's too (the extractors took 3.45 s of them at load 10, "no content within the
    3 s deadline"), which no event bounded.

    Args:
        module: The module whose import a first call would wait for.
    """
    return textwrap.dedent(
        f"""
        import importlib.abc, sys, threading

        GATED = {module!r}
        GATE = threading.Event()
        GATED_ON = []
        GATE_LAPSED = []

        class GatedImport(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name == GATED:
                    GATED_ON.append(threading.current_thread().name)
                    if not GATE.wait(30):  # a bound on a failing test, not a time measured
                        GATE_LAPSED.append(name)
                return None

        sys.meta_path.insert(0, GatedImport())

        async def first_then_released(ask):
            # ask() with GATED held, then again once it is let go: both outcomes, whether
            # the import was still held when the first ended, and what the gate saw.
            import asyncio, importlib
            from websearch_core.provider_imports import import_for_uses

            first = await ask()
            held = GATED not in sys.modules  # the import still waits on the gate
            GATE.set()
            await asyncio.to_thread(importlib.import_module, GATED)  # its end
            # What entering the tool would have imported (the build's rest, the chain, the
            # fetcher), awaited to its end: the second call's deadline is then the call's
            # own, not a first import's that a loaded machine stretches past it.
            await import_for_uses(("build", "search", "fetch"))
            second = await ask()
            return dict(
                first=first, held=held, second=second, lapsed=GATE_LAPSED, on=GATED_ON
            )
        """
    )


HELD_DEADLINE_SECONDS = 2.0
"""The deadline of a first search made with an import held until the call ended.

Each such case waits it out once by design, so it is short; the call's imports before
the held one are light. The second call, made after every import was awaited, asks the
loopback simulator alone, which 2 s leaves room for on a loaded machine (1.5 s was tried
first: at load 10-14 on two cores it left a second fetch too little).
"""

HELD_FETCH_DEADLINE_SECONDS = 3.0
"""A held first call's deadline where the second call also fetches and extracts a page.

At 1.5 s that second fetch ran out ("no content within the 1.5 s deadline") at load 10.
"""


def held_deadline(adapter: str) -> float:
    """The deadline for a held case whose calls are ``adapter``'s (a fetch tool's is longer)."""
    return HELD_FETCH_DEADLINE_SECONDS if "fetch" in adapter else HELD_DEADLINE_SECONDS


ANSWER_READER = textwrap.dedent(
    """
    from websearch_core.errors import AllProvidersFailedError

    async def call(ask):
        # What a call came to: the error text, "nothing" for an empty retrieval, or None
        # when answered (a tool's text, a retriever's documents).
        try:
            answer = await ask()
        except AllProvidersFailedError as error:
            return str(error)
        if isinstance(answer, list):
            return None if answer else "nothing"
        text = str(answer)
        return text if text.startswith("Error:") else None
    """
)
"""A script's ``call(ask)``: what a first call of any adapter came to, read alike."""

SLOW_CHAIN_IMPORT = slowed_import("websearch_core.call_setup")
"""A script's head that makes the chain's first import take 0.5 s, as on a loaded machine."""

SLOW_FETCH_IMPORT = slowed_import("websearch_core.content.service")
"""A script's head that makes the page fetcher's first import take 0.5 s."""


SIMULATOR = "websearch_core.testing"
"""The loopback simulator's module, which every script given :func:`frameworks_of`'s packages
imports at its top, before it measures anything: its third-party modules (aiohttp, pydantic,
attrs, dotenv, ...; about 0.4 s of CPU a case) may be inherited too."""


def frameworks_of(adapter: str) -> tuple[str, ...]:
    """The packages a script for ``adapter`` ("langchain tool", "search", ...) imports first.

    For :func:`run_watched`'s ``preload_imports_of``, where the script imports them before it
    measures anything: the simulator's module (:data:`SIMULATOR`) and, for a LangChain or
    LlamaIndex adapter, its adapter package. Their third-party modules (LangChain's,
    LlamaIndex's, the simulator's aiohttp server) are then inherited rather than imported
    again for each case; our own modules never are. A script that does not import the
    simulator at its top must not be given these.
    """
    if adapter.startswith("langchain"):
        return ("langchain_websearch", SIMULATOR)
    if adapter.startswith("llamaindex"):
        return ("llamaindex_websearch", SIMULATOR)
    return (SIMULATOR,)


def run_watched(
    script: str,
    *,
    preload_imports_of: tuple[str, ...] = (),
    absent: tuple[str, ...] = (),
    **values: object,
) -> dict[str, object]:
    """Run ``script`` after :data:`WATCH`, with ``values`` as its globals; its last line's JSON.

    Args:
        script: The script, after :data:`WATCH` and the globals.
        preload_imports_of: Packages of ours the script imports before it measures anything,
            whose third-party modules the run may inherit (:func:`frameworks_of`).
        absent: Modules the script must import itself (held, slowed): never inherited.
        **values: The script's globals (``ADAPTER``, ``DEADLINE``, ...).
    """
    assigned = "".join(f"{name} = {value!r}\n" for name, value in values.items())
    completed = run_script(
        f"{assigned}{WATCH}{script}", preload_imports_of=preload_imports_of, absent=absent
    )
    assert completed.returncode == 0, completed.stderr
    found: dict[str, object] = json.loads(completed.stdout.splitlines()[-1])
    return found


def run_held(
    module: str, script: str, *, preload_imports_of: tuple[str, ...] = (), **values: object
) -> dict[str, object]:
    """Run ``script`` with ``module``'s first import held (:func:`gated_import`); its findings.

    Checks what every such test needs before its own assertions: the first call ended while
    the hold was still on (it never waited the hold out), and what was held was reached once,
    on the import thread, never on the loop's.
    """
    found = run_watched(
        gated_import(module) + script,
        preload_imports_of=preload_imports_of,
        absent=(module,),
        **values,
    )
    assert found["lapsed"] == [], found  # the call waited for the hold: never let go
    assert found["held"] is True, found  # it ended while the hold was on
    assert found["on"] == ["websearch-imports"], found  # off the loop, once
    return found
