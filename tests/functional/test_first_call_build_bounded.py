"""Every first call ends by its deadline while its build's imports are held.

Stop 50 bounded a search tool's first call on a loop, when given a ``Settings`` or
``deadline_seconds=``. Three kinds of first call still waited for the build's light
imports (the settings' wording, ``tomllib``, ...) with no limit:

- the fetch tools (LangChain's and LlamaIndex's ``web_fetch``), whose deadline is the
  fetch's, which they did not pass to the build;
- a synchronous first call (``invoke``, ``call``), which built its client on its own thread;
- a tool given neither, which read its deadline from the settings those imports read.

Each case runs in a fresh interpreter; the held import is let go by the script (an
event) after the first call ends, never timed. The next call is then answered.
"""

import textwrap

import pytest

from tests.loop_imports import ANSWER_READER, frameworks_of, held_deadline, run_held

_SCRIPT = textwrap.dedent(
    """
    import asyncio, importlib, json, os, pathlib, tempfile

    from websearch_core.testing import Simulator

    def options(sim):
        # The deadline: in a Settings, as deadline_seconds=, or in the environment alone.
        folder = pathlib.Path(tempfile.mkdtemp())
        config = folder / "config.toml"
        config.write_text(
            'providers = ["brave"]\\n'
            'state_backend = "memory"\\n'
            "[base_urls]\\n"
            f'brave = {json.dumps(sim.base_urls()["brave"])}\\n'
        )
        os.environ["WEBSEARCH_CONFIG_FILE"] = str(config)
        if GIVEN == "settings":
            return {
                "settings": sim.settings(
                    providers=("brave",),
                    state_backend="memory",
                    deadline_seconds=DEADLINE,
                    timeout_seconds=None,
                )
            }
        if GIVEN == "deadline_seconds":
            return {"deadline_seconds": DEADLINE}
        os.environ["WEBSEARCH_DEADLINE_SECONDS"] = str(DEADLINE)  # neither given
        return {}

    def make(sim, url):
        # (the tool, an async function making one call and giving back its answer).
        given = options(sim)
        fetch = {"allow_private_addresses": True}
        if ADAPTER == "langchain tool":
            from langchain_websearch import WebSearchTool

            tool = WebSearchTool(**given)
            ask = lambda: tool.invoke({"query": "python asyncio"})
            aask = lambda: tool.ainvoke({"query": "python asyncio"})
        elif ADAPTER == "llamaindex tool":
            from llamaindex_websearch import create_web_search_tool

            tool = create_web_search_tool(**given)
            ask = lambda: tool.call(query="python asyncio")
            aask = lambda: tool.acall(query="python asyncio")
        elif ADAPTER == "langchain retriever":
            from langchain_websearch import WebSearchRetriever

            tool = WebSearchRetriever(**given)
            ask = lambda: tool.invoke("python asyncio")
            aask = lambda: tool.ainvoke("python asyncio")
        elif ADAPTER == "langchain fetch":
            from langchain_websearch import WebFetchTool

            tool = WebFetchTool(**given, **fetch)
            ask = lambda: tool.invoke({"url": url})
            aask = lambda: tool.ainvoke({"url": url})
        else:
            from llamaindex_websearch import create_web_fetch_tool

            tool = create_web_fetch_tool(**given, **fetch)
            ask = lambda: tool.call(url=url)
            aask = lambda: tool.acall(url=url)
        if SYNC:
            return tool, lambda: asyncio.to_thread(ask)  # no loop in its thread
        return tool, aask

    async def main():
        runner, url = await serve_page(b"<html><body><p>A page.</p></body></html>", "text/html")
        try:
            async with Simulator(["brave"]) as sim:
                os.environ["BRAVE_API_KEY"] = sim.api_keys()["brave"]
                tool, ask = make(sim, url)
                try:
                    found = await first_then_released(lambda: call(ask))
                finally:
                    await tool.aclose()
        finally:
            await runner.cleanup()
        return {**found, "url": url}

    print(json.dumps(asyncio.run(main())))
    """
)
"""A first call made while a module its build imports is held, let go after the call ends."""


def _held(adapter: str, given: str, module: str, *, sync: bool) -> dict[str, object]:
    """The script's findings for one adapter, option and held module."""
    found = run_held(
        module,
        ANSWER_READER + _SCRIPT,
        preload_imports_of=frameworks_of(adapter),
        ADAPTER=adapter,
        GIVEN=given,
        SYNC=sync,
        DEADLINE=held_deadline(adapter),
    )
    assert found["second"] is None, found  # the next call is answered
    return found


@pytest.mark.parametrize(
    ("adapter", "given", "module", "sync"),
    [
        ("langchain fetch", "settings", "websearch_core.content.safety", False),
        ("langchain fetch", "deadline_seconds", "tomllib", True),
        ("llamaindex fetch", "settings", "websearch_core.content.safety", True),
        ("llamaindex fetch", "deadline_seconds", "tomllib", False),
    ],
)
def test_a_first_fetch_ends_by_its_deadline_while_its_builds_import_is_held(
    adapter: str, given: str, module: str, sync: bool
) -> None:
    """A fetch tool's first call ends by the fetch's deadline, as a fetch's timeout.

    Failed before: the fetch tools passed no deadline to the build, whose imports waited
    out the 30 s hold (``lapsed``); the fetch's deadline began after them.
    """
    found = _held(adapter, given, module, sync=sync)
    assert found["first"] == (
        f"Error: cannot fetch {found['url']}: the {held_deadline(adapter):g} s deadline "
        f"passed while building the client: importing {module} had not finished"
    ), found


@pytest.mark.parametrize(
    ("adapter", "given", "module"),
    [
        ("langchain tool", "settings", "websearch_core.settings_errors"),
        ("langchain tool", "deadline_seconds", "tomllib"),
        ("llamaindex tool", "settings", "websearch_core.content.safety"),
        ("langchain retriever", "deadline_seconds", "websearch_core.content.safety"),
    ],
)
def test_a_first_sync_search_ends_by_its_deadline_while_its_builds_import_is_held(
    adapter: str, given: str, module: str
) -> None:
    """A synchronous first search (``invoke``, ``call``) ends by its deadline, naming the module.

    Failed before: the synchronous call built its client on its own thread, importing with
    no limit, so it waited out the 30 s hold (``lapsed``, on the caller's thread).
    """
    found = _held(adapter, given, module, sync=True)
    first = found["first"]
    assert isinstance(first, str), found
    assert (
        f"the {held_deadline(adapter):g}s deadline for the whole search ran out while building "
        f"the client: importing {module} had not finished; no provider was asked"
    ) in first, found


@pytest.mark.parametrize(
    ("adapter", "module", "sync"),
    [
        ("langchain tool", "tomllib", False),
        ("llamaindex tool", "websearch_core.content.safety", True),
        ("langchain fetch", "websearch_core.refresh_hooks", False),
    ],
)
def test_a_tool_given_no_deadline_ends_by_the_environments_while_its_builds_import_is_held(
    adapter: str, module: str, sync: bool
) -> None:
    """A tool given neither a ``Settings`` nor ``deadline_seconds=`` ends by the environment's.

    ``WEBSEARCH_DEADLINE_SECONDS`` is what the settings will say (a config file cannot
    outrank it), known before the held imports that read the settings. Failed before: the
    tool had no deadline until its settings were read, and waited out the 30 s hold.
    """
    found = _held(adapter, "environment", module, sync=sync)
    first = found["first"]
    assert isinstance(first, str), found
    if adapter == "langchain fetch":
        said = f"cannot fetch {found['url']}: the {held_deadline(adapter):g} s deadline passed"
    else:
        said = f"the {held_deadline(adapter):g}s deadline for the whole search ran out"
    assert f"{said} while building the client: importing {module} had not finished" in first, found
