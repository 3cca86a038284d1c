"""A first call's deadline as the user wrote it: in the config file, lowercase, or in a notebook.

Stop 51 (firstcall7) bounded every first call's build by the deadline known before the
settings are read, and left four gaps, each reproduced here in a fresh interpreter:

- a config file's ``deadline_seconds = 3`` was not known before the file was read, so a
  first call's build waited up to the default 55 s for a held import;
- ``websearch_deadline_seconds=3`` (the settings read their variables in any case of
  letters) was not looked at, so the same;
- a config file on a disk that does not answer held the first call with no limit (the
  settings read it on the loop);
- a synchronous call made where a loop runs (a notebook) searched on a worker thread that
  lost the call's clock, so its deadline counted from the search, not the call.

Every hold (an import, the file's read) is let go by the script once the first call has
ended, never timed; the next call is then answered.
"""

import textwrap

import pytest

from tests.loop_imports import (
    ANSWER_READER,
    frameworks_of,
    gated_import,
    held_deadline,
    run_held,
    run_watched,
)

_DEADLINE_SECONDS = 3.0
"""The deadline of a first call that must be answered, its first imports and all."""

_ONCE_DEADLINE_SECONDS = 10.0
"""The file's deadline where the disk hangs after its first read: the first call must be
answered, its first imports and all (a first fetch's took over 3 s at load 10: "no content
within the 3 s deadline"). Nothing waits it out when the call is right; the hang it guards
against is 30 s, unbounded, and seen whatever the deadline (``on``, ``lapsed``)."""

_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, os, pathlib, tempfile, threading

    from websearch_core.testing import Simulator

    READ_GATE = threading.Event()
    READ_ON = []
    OPENED = []
    _open = pathlib.Path.open
    _stat = pathlib.Path.stat

    def hold(what):
        # The disk stops answering until the script lets it go.
        if READ_GATE.is_set():
            return
        READ_ON.append(threading.current_thread().name if what == "read" else what)
        if not READ_GATE.wait(30):  # a bound on a failing test, not a time measured
            GATE_LAPSED.append(what)

    def held_open(self, *args, **kwargs):
        # A disk that does not answer the config file's read (HOLD_READ), or answers the
        # first and then no other (HOLD_AFTER_READ), until the script lets it go.
        reads = "r" in kwargs.get("mode", args[0] if args else "r")  # not the script's write
        if reads and self.name == "config.toml":
            if HOLD_READ or (HOLD_AFTER_READ and OPENED):
                hold("read" if HOLD_READ else "read again")
            OPENED.append(threading.current_thread().name)
        return _open(self, *args, **kwargs)

    def held_stat(self, *args, **kwargs):
        # is_file, exists and is_symlink ask the disk here: after the first read, held too.
        if HOLD_AFTER_READ and OPENED and self.name == "config.toml":
            hold("looked at again")
        return _stat(self, *args, **kwargs)

    pathlib.Path.open = held_open
    pathlib.Path.stat = held_stat

    def configure(sim):
        # The config file (the brave simulator's URL), and the deadline where GIVEN says.
        folder = pathlib.Path(tempfile.mkdtemp())
        config = folder / "config.toml"
        written = ""
        if GIVEN in ("file", "lowercase file"):
            written = f"deadline_seconds = {DEADLINE}\\n"
        if GIVEN == "file text":
            written = f'deadline_seconds = "{DEADLINE:g}"\\n'
        config.write_text(
            written
            + 'providers = ["brave"]\\n'
            + 'state_backend = "memory"\\n'
            + "[base_urls]\\n"
            + f'brave = {json.dumps(sim.base_urls()["brave"])}\\n'
        )
        named_by = "websearch_config_file" if GIVEN == "lowercase file" else "WEBSEARCH_CONFIG_FILE"
        os.environ[named_by] = str(config)
        if GIVEN == "lowercase":
            os.environ["websearch_deadline_seconds"] = str(DEADLINE)
        if GIVEN == "environment":
            os.environ["WEBSEARCH_DEADLINE_SECONDS"] = str(DEADLINE)
        return str(config)

    def make(url):
        # (the tool, an async function making one call and giving back its answer).
        fetch = {"allow_private_addresses": True}
        if ADAPTER == "langchain tool":
            from langchain_websearch import WebSearchTool

            tool = WebSearchTool()
            ask = lambda: tool.invoke({"query": "python asyncio"})
            aask = lambda: tool.ainvoke({"query": "python asyncio"})
        elif ADAPTER == "llamaindex tool":
            from llamaindex_websearch import create_web_search_tool

            tool = create_web_search_tool()
            ask = lambda: tool.call(query="python asyncio")
            aask = lambda: tool.acall(query="python asyncio")
        else:
            from langchain_websearch import WebFetchTool

            tool = WebFetchTool(**fetch)
            ask = lambda: tool.invoke({"url": url})
            aask = lambda: tool.ainvoke({"url": url})
        if SYNC:
            return tool, lambda: asyncio.to_thread(ask)  # no loop in its thread
        return tool, aask

    async def read_then_released(ask):
        # ask() with the file's read held, then again once it is let go and what entering
        # the tool imports is in (awaited to its end, as first_then_released does: the
        # second call's 3 s are the call's own, not the fetcher's first import's).
        from websearch_core.provider_imports import import_for_uses

        first = await ask()
        held = not READ_GATE.is_set()
        READ_GATE.set()
        await import_for_uses(("build", "search", "fetch"))
        second = await ask()
        return dict(
            first=first, held=held, second=second, lapsed=GATE_LAPSED, on=READ_ON, opened=OPENED
        )

    async def main():
        runner, url = await serve_page(b"<html><body><p>A page.</p></body></html>", "text/html")
        try:
            async with Simulator(["brave"]) as sim:
                os.environ["BRAVE_API_KEY"] = sim.api_keys()["brave"]
                config = configure(sim)
                tool, ask = make(url)
                try:
                    if HOLD_READ or HOLD_AFTER_READ:
                        found = await read_then_released(lambda: call(ask))
                    else:
                        found = await first_then_released(lambda: call(ask))
                finally:
                    GATE.set()
                    READ_GATE.set()
                    await tool.aclose()
        finally:
            await runner.cleanup()
        return {**found, "url": url, "config": config}

    print(json.dumps(asyncio.run(main())))
    """
)
"""A tool's first call, its deadline in the file, lowercase or in the environment, made
while an import its build needs (or the config file's read) is held."""


def _held(
    adapter: str, given: str, module: str, *, sync: bool, hold_read: bool = False
) -> dict[str, object]:
    """The script's findings for one adapter, one place of the deadline and one hold."""
    found = run_held(
        module,
        ANSWER_READER + _SCRIPT,
        preload_imports_of=frameworks_of(adapter),
        ADAPTER=adapter,
        GIVEN=given,
        SYNC=sync,
        HOLD_READ=hold_read,
        HOLD_AFTER_READ=False,
        DEADLINE=held_deadline(adapter),
    )
    assert found["second"] is None, found  # the next call is answered
    return found


def _said(adapter: str, found: dict[str, object], doing: str) -> str:
    """What the first call says when its deadline passes while the build is ``doing``."""
    if adapter == "langchain fetch":
        return (
            f"Error: cannot fetch {found['url']}: the {held_deadline(adapter):g} s deadline "
            f"passed while building the client: {doing} had not finished"
        )
    return (
        f"the {held_deadline(adapter):g}s deadline for the whole search ran out while building "
        f"the client: {doing} had not finished; no provider was asked"
    )


@pytest.mark.parametrize(
    ("adapter", "module", "sync"),
    [
        ("langchain tool", "websearch_core.settings_errors", False),
        ("llamaindex tool", "websearch_core.content.safety", True),
        ("langchain fetch", "websearch_core.refresh_hooks", False),
    ],
)
def test_a_config_files_deadline_bounds_the_first_calls_build(
    adapter: str, module: str, sync: bool
) -> None:
    """``deadline_seconds = 3`` in the config file ends the first call by 3 s, build and all.

    Failed before: the file was read only by the build, after the held import, so the
    build waited by the default 55 s and out the 30 s hold (``lapsed``).
    """
    found = _held(adapter, "file", module, sync=sync)
    assert _said(adapter, found, f"importing {module}") in str(found["first"]), found


@pytest.mark.parametrize(
    ("adapter", "module", "sync"),
    [
        ("langchain tool", "tomllib", True),
        ("llamaindex tool", "websearch_core.refresh_hooks", False),
    ],
)
def test_a_lowercase_deadline_variable_bounds_the_first_calls_build(
    adapter: str, module: str, sync: bool
) -> None:
    """``websearch_deadline_seconds=3``, which the settings read, bounds the build too.

    Failed before: only ``WEBSEARCH_DEADLINE_SECONDS`` was looked at, so the build waited
    by the default 55 s and out the 30 s hold (``lapsed``).
    """
    found = _held(adapter, "lowercase", module, sync=sync)
    assert _said(adapter, found, f"importing {module}") in str(found["first"]), found


@pytest.mark.parametrize(
    ("adapter", "sync"),
    [("langchain tool", False), ("llamaindex tool", True), ("langchain fetch", True)],
)
def test_a_config_file_whose_disk_does_not_answer_ends_the_first_call_by_its_deadline(
    adapter: str, sync: bool
) -> None:
    """A config file's read held (a network disk that hangs) ends the call, naming the file.

    Bounded by the deadline known without the file (here the environment's 3 s). Failed
    before: the settings read the file on the call's thread (the loop, for an async
    call) with no limit, and waited out the 30 s hold (``lapsed``).
    """
    found = _held(adapter, "environment", "nothing.held", sync=sync, hold_read=True)
    doing = f"reading the config file {found['config']}"
    assert _said(adapter, found, doing) in str(found["first"]), found


@pytest.mark.parametrize(
    ("adapter", "module", "sync"),
    [
        ("langchain tool", "websearch_core.settings_errors", True),
        ("llamaindex tool", "websearch_core.refresh_hooks", False),
    ],
)
def test_a_deadline_written_as_text_in_the_config_file_bounds_the_first_calls_build(
    adapter: str, module: str, sync: bool
) -> None:
    """``deadline_seconds = "3"``, which the settings read as 3 s, bounds the build by 3 s.

    Failed before: the early read took only a number, so the build waited by the default
    55 s and out the 30 s hold (``lapsed``), while the settings then searched by 3 s.
    """
    found = _held(adapter, "file text", module, sync=sync)
    assert _said(adapter, found, f"importing {module}") in str(found["first"]), found


@pytest.mark.parametrize(
    ("adapter", "module", "sync"),
    [
        ("langchain tool", "websearch_core.content.safety", False),
        ("langchain fetch", "websearch_core.settings_errors", True),
    ],
)
def test_a_lowercase_config_file_variable_names_the_file_read_first(
    adapter: str, module: str, sync: bool
) -> None:
    """``websearch_config_file``, which the settings read, names the file whose deadline bounds.

    Failed before: the early read (and the settings' own source) read the default file, so
    the build waited by 55 s and out the 30 s hold (``lapsed``); the next call then found
    none of the file's settings (no provider's address).
    """
    found = _held(adapter, "lowercase file", module, sync=sync)
    assert _said(adapter, found, f"importing {module}") in str(found["first"]), found


@pytest.mark.parametrize(
    ("adapter", "sync"),
    [("langchain tool", False), ("llamaindex tool", True), ("langchain fetch", False)],
)
def test_the_first_calls_build_reads_its_config_file_once(adapter: str, sync: bool) -> None:
    """A disk that answers the bounded read, then hangs: the build's settings do not wait on it.

    The build's settings take what the call's bounded read found, and look at the file no
    more: the call is answered by its deadline (10 s, in the file), the disk never asked
    again. Failed before: the settings looked at the file again, on the call's thread (the
    loop, for an async call), with no limit, and waited out the 30 s hold (``lapsed``).
    """
    found = run_watched(
        gated_import("nothing.held") + ANSWER_READER + _SCRIPT,
        preload_imports_of=frameworks_of(adapter),
        ADAPTER=adapter,
        GIVEN="file",
        SYNC=sync,
        HOLD_READ=False,
        HOLD_AFTER_READ=True,
        DEADLINE=_ONCE_DEADLINE_SECONDS,
    )
    assert found["lapsed"] == [], found  # the call waited on the disk: never let go
    assert found["on"] == [], found  # the disk was never asked again while held
    assert found["opened"] == ["websearch-imports"], found  # one read, off the call's thread
    assert found["first"] is None and found["second"] is None, found  # both answered


_IN_A_RUNNING_LOOP = textwrap.dedent(
    """
    import asyncio, json, os, pathlib, tempfile, threading

    import websearch_core.client as client
    import websearch_core.provider_imports as provider_imports
    from websearch_core.testing import Simulator

    STARTS = []  # (thread, the call's start as the code there reads it)

    def watched(module):
        # Record every read of the call's start (call_started, wrapped, not replaced).
        read = module.call_started

        def call_started():
            started = read()
            STARTS.append((threading.current_thread().name, started))
            return started

        module.call_started = call_started

    watched(client)
    watched(provider_imports)

    SERVED = threading.Event()
    STOP = threading.Event()
    SERVER = {}

    def serve():
        # The simulator on a loop of its own: the notebook's loop is blocked by the call.
        async def run():
            async with Simulator(["brave"]) as sim:
                SERVER.update(url=sim.base_urls()["brave"], key=sim.api_keys()["brave"])
                SERVED.set()
                await asyncio.to_thread(STOP.wait)

        asyncio.run(run())

    server = threading.Thread(target=serve)
    server.start()
    SERVED.wait()
    folder = pathlib.Path(tempfile.mkdtemp())
    config = folder / "config.toml"
    config.write_text(
        'providers = ["brave"]\\nstate_backend = "memory"\\n[base_urls]\\n'
        f'brave = {json.dumps(SERVER["url"])}\\n'
    )
    os.environ["WEBSEARCH_CONFIG_FILE"] = str(config)
    os.environ["BRAVE_API_KEY"] = SERVER["key"]
    if ADAPTER == "langchain tool":
        from langchain_websearch import WebSearchTool

        tool = WebSearchTool(deadline_seconds=DEADLINE)
        ask = lambda: tool.invoke({"query": "python asyncio"})
    else:
        from llamaindex_websearch import create_web_search_tool

        tool = create_web_search_tool(deadline_seconds=DEADLINE)
        ask = lambda: tool.call(query="python asyncio")

    async def cell():
        # A notebook cell: a synchronous call while this thread's loop runs.
        return str(ask())

    try:
        answer = asyncio.run(cell())
    finally:
        STOP.set()
        server.join()
    print(json.dumps({"answer": answer, "starts": STARTS}))
    """
)
"""A tool's synchronous call made where a loop runs (a notebook cell), its call's start
as read by the build (the caller's thread) and by the search (the worker's)."""


@pytest.mark.parametrize("adapter", ["langchain tool", "llamaindex tool"])
def test_a_sync_call_in_a_running_loop_counts_its_search_from_the_calls_start(
    adapter: str,
) -> None:
    """The search on the worker thread counts its deadline from the call's start, as the build.

    A synchronous call made where a loop runs searches on a worker thread of its own
    (``websearch-sync-call``); the build before it, on the caller's thread, ends by the
    deadline from the call's start. Failed before: the worker's context was empty, its
    search read no start (``None``) and counted a whole deadline from its own start, so
    the call could last the build's time plus the deadline.
    """
    found = run_watched(
        _IN_A_RUNNING_LOOP,
        preload_imports_of=frameworks_of(adapter),
        ADAPTER=adapter,
        DEADLINE=_DEADLINE_SECONDS,
    )
    assert not str(found["answer"]).startswith("Error:"), found
    starts = found["starts"]
    assert isinstance(starts, list), found
    built = {started for thread, started in starts if thread == "MainThread"}
    searched = {started for thread, started in starts if thread == "websearch-sync-call"}
    assert len(built) == 1 and None not in built, found  # the build read the call's start
    assert searched == built, found  # and so did the search, on the worker
