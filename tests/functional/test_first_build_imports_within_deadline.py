"""Building a client imports nothing without a limit: no provider module, nothing on the loop.

A build has no deadline yet (a tool builds its client at its first call, on the loop,
after reading the settings that set it). Two imports escaped the bound:

- The check for a key under a name nothing reads (``BRAVE_SEARCH_API_KEY``) read the
  module of every provider a variable's name starts with, ``BRAVE_API_KEY`` too, so
  nearly every user's build imported a provider module, on the loop for a tool. With that
  import held (a plugin, a slow disk), a 3 s call waited out the whole 30 s hold. The
  build now checks the providers already imported, and the first search the rest, after
  its imports (which end by its deadline).
- A tool given no settings reads them at that build, from the environment and the config
  file: the TOML reader and the refresh hooks' check were imported on the loop.

- A tool given a ``Settings`` or ``deadline_seconds=`` waited for the build's own light
  imports (the settings' wording, ``tomllib``, ...) with no limit, though it knew its
  deadline: they now end by it, the error naming the module still held.

Each case runs in a fresh interpreter; a held import is let go by the script (an event),
never timed.
"""

import textwrap

import pytest

from tests.loop_imports import (
    ANSWER_READER,
    HELD_DEADLINE_SECONDS,
    frameworks_of,
    run_held,
    run_watched,
)

_AS_WRITTEN = f"{HELD_DEADLINE_SECONDS:g}"
"""The held first calls' deadline as the error texts write it."""

_HELD_SCRIPT = textwrap.dedent(
    """
    import asyncio, importlib, json, os

    from websearch_core.errors import AllProvidersFailedError
    from websearch_core.testing import Simulator

    def make(settings):
        # The key is the environment's: BRAVE_API_KEY, as most users set it.
        if ADAPTER == "langchain tool":
            from langchain_websearch import WebSearchTool

            return WebSearchTool(settings=settings)
        if ADAPTER == "llamaindex retriever":
            from llamaindex_websearch import WebSearchRetriever

            return WebSearchRetriever(settings=settings)
        from websearch_core import WebSearch

        return WebSearch(settings)

    async def call(searcher):
        # The error text, or None when answered.
        try:
            if ADAPTER == "langchain tool":
                text = await searcher.ainvoke({"query": "python asyncio"})
            elif ADAPTER == "llamaindex retriever":
                return None if await searcher.aretrieve("python asyncio") else "nothing"
            else:
                text = (await searcher.run("python asyncio")).text
        except AllProvidersFailedError as error:
            return str(error)
        return text if text.startswith("Error:") else None

    async def main():
        async with Simulator(["brave"]) as sim:
            os.environ["BRAVE_API_KEY"] = sim.api_keys()["brave"]
            settings = sim.settings(
                providers=("brave",), state_backend="memory", deadline_seconds=DEADLINE
            )
            searcher = make(settings)
            try:
                return await first_then_released(lambda: call(searcher))
            finally:
                await searcher.aclose()

    print(json.dumps(asyncio.run(main())))
    """
)
"""A first call made while Brave's module is held, the gate let go only after it ends."""


@pytest.mark.parametrize("adapter", ["client", "langchain tool", "llamaindex retriever"])
def test_a_first_call_ends_by_its_deadline_while_its_keyed_providers_import_is_held(
    adapter: str,
) -> None:
    """With ``BRAVE_API_KEY`` set and Brave's module held, the first call ends by its deadline.

    Failed before: the build's key-name check imported Brave's module on the loop (the
    client built in the loop's task, the tools at their first call), so the call waited
    out the 30 s hold (``lapsed``), on ``MainThread``.
    """
    found = run_held(
        "websearch_core.providers.brave",
        _HELD_SCRIPT,
        preload_imports_of=frameworks_of(adapter),
        ADAPTER=adapter,
        DEADLINE=HELD_DEADLINE_SECONDS,
    )
    first = found["first"]
    assert isinstance(first, str), found
    said = f"the {_AS_WRITTEN}s deadline for the whole search ran out; not tried: brave"
    assert said in first, found
    assert found["second"] is None, found


_SAID_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, logging, os

    from websearch_core import WebSearch
    from websearch_core.testing import Simulator

    said = []

    class Keep(logging.Handler):
        def emit(self, record):
            said.append(record.getMessage())

    logging.getLogger("websearch_core").addHandler(Keep())

    async def main():
        async with Simulator(["brave", "mojeek"]) as sim:
            os.environ["BRAVE_SEARCH_API_KEY"] = "a-key-nothing-reads"  # not BRAVE_API_KEY
            os.environ["WEBSEARCH_BRAVE_API_KEY"] = "a-key-nothing-reads"  # nor this
            settings = sim.settings(providers=("mojeek", "brave"), state_backend="memory")
            client = WebSearch(settings)
            built = {
                "said": [line for line in said if "nothing" in line],
                "imported": "websearch_core.providers.brave" in sys.modules,
            }
            try:
                answer = (await client.run("python asyncio")).text
                await client.run("python asyncio")
            finally:
                await client.aclose()
        searched = [line for line in said if "nothing" in line]
        return {"built": built, "searched": searched, "answer": answer}

    print(json.dumps(asyncio.run(main())))
    """
)


def test_a_key_nothing_reads_is_said_at_the_first_search_when_its_module_was_not_imported() -> None:
    """The build leaves Brave's key-name checks to the first search, which still says each once.

    Failed before: the build imported Brave's module to check ``BRAVE_SEARCH_API_KEY``
    and ``WEBSEARCH_BRAVE_API_KEY`` (``imported`` was true, both said at the build).
    """
    found = run_watched(_SAID_SCRIPT)
    built = found["built"]
    assert built == {"said": [], "imported": False}, found
    assert isinstance(found["answer"], str) and "python asyncio" in found["answer"], found
    assert found["searched"] == [
        "WEBSEARCH_BRAVE_API_KEY sets nothing and is ignored; did you mean BRAVE_API_KEY?",
        "BRAVE_SEARCH_API_KEY is set, but nothing reads it: Brave reads its key from BRAVE_API_KEY",
    ], found


_CONFIG_FILE_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, os, pathlib, tempfile, threading

    from websearch_core.testing import Simulator

    def make():
        if ADAPTER == "langchain tool":
            from langchain_websearch import WebSearchTool

            tool = WebSearchTool()
            return lambda: tool.ainvoke({"query": "python asyncio"})
        from llamaindex_websearch import create_web_search_tool

        tool = create_web_search_tool()
        return lambda: tool.acall(query="python asyncio")

    async def main():
        global loop_thread
        async with Simulator(["brave"]) as sim:
            folder = pathlib.Path(tempfile.mkdtemp())
            config = folder / "config.toml"
            config.write_text(
                'providers = ["brave"]\\n'
                'state_backend = "sqlite"\\n'
                f'state_dir = {json.dumps(str(folder))}\\n'
                "[base_urls]\\n"
                f'brave = {json.dumps(sim.base_urls()["brave"])}\\n'
            )
            os.environ["WEBSEARCH_CONFIG_FILE"] = str(config)
            os.environ["BRAVE_API_KEY"] = sim.api_keys()["brave"]
            call = make()
            loop_thread = threading.get_ident()
            answer = str(await call())
            loop_thread = None
        return answer

    answer = asyncio.run(main())
    print(json.dumps({"answer": answer, "on_loop": on_loop}))
    """
)
"""A tool given no settings, which reads them from a config file at its first call."""


@pytest.mark.parametrize("adapter", ["langchain tool", "llamaindex tool"])
def test_a_tool_reading_its_config_file_at_its_first_call_imports_nothing_on_the_loop(
    adapter: str,
) -> None:
    """The config file's reader and the settings' checks are imported off the loop.

    Failed before: ``tomllib`` (four modules) and ``websearch_core.refresh_hooks`` were
    imported on the loop's thread as the tool read its settings.
    """
    found = run_watched(
        _CONFIG_FILE_SCRIPT, preload_imports_of=frameworks_of(adapter), ADAPTER=adapter
    )
    assert isinstance(found["answer"], str) and "python asyncio" in found["answer"], found
    on_loop = found["on_loop"]
    assert isinstance(on_loop, list)
    roots = ("websearch_core", "tomllib", "platformdirs")
    assert [name for name in on_loop if name.split(".")[0] in roots] == [], on_loop


_BUILD_HELD_SCRIPT = textwrap.dedent(
    """
    import asyncio, importlib, json, os, pathlib, tempfile

    from websearch_core.testing import Simulator

    def make(sim):
        # The deadline given: in a Settings, or as deadline_seconds= over a config file.
        if GIVEN == "settings":
            options = {
                "settings": sim.settings(
                    providers=("brave",), state_backend="memory", deadline_seconds=DEADLINE
                )
            }
        else:
            folder = pathlib.Path(tempfile.mkdtemp())
            config = folder / "config.toml"
            config.write_text(
                'providers = ["brave"]\\n'
                'state_backend = "memory"\\n'
                "[base_urls]\\n"
                f'brave = {json.dumps(sim.base_urls()["brave"])}\\n'
            )
            os.environ["WEBSEARCH_CONFIG_FILE"] = str(config)
            options = {"deadline_seconds": DEADLINE}
        if ADAPTER == "langchain tool":
            from langchain_websearch import WebSearchTool

            tool = WebSearchTool(**options)
            return tool, lambda: tool.ainvoke({"query": "python asyncio"})
        if ADAPTER == "langchain retriever":
            from langchain_websearch import WebSearchRetriever

            retriever = WebSearchRetriever(**options)
            return retriever, lambda: retriever.ainvoke("python asyncio")
        if ADAPTER == "llamaindex retriever":
            from llamaindex_websearch import WebSearchRetriever

            retriever = WebSearchRetriever(**options)
            return retriever, lambda: retriever.aretrieve("python asyncio")
        from llamaindex_websearch import create_web_search_tool

        tool = create_web_search_tool(**options)
        return tool, lambda: tool.acall(query="python asyncio")

    async def main():
        async with Simulator(["brave"]) as sim:
            os.environ["BRAVE_API_KEY"] = sim.api_keys()["brave"]
            searcher, search = make(sim)
            try:
                return await first_then_released(lambda: call(search))
            finally:
                await searcher.aclose()

    print(json.dumps(asyncio.run(main())))
    """
)
"""A first call made while a module its build imports is held, let go after the call ends."""


@pytest.mark.parametrize(
    ("adapter", "given", "module"),
    [
        ("langchain tool", "settings", "websearch_core.settings_errors"),
        ("langchain retriever", "settings", "websearch_core.content.safety"),
        ("llamaindex retriever", "settings", "websearch_core.settings_errors"),
        ("llamaindex tool", "settings", "websearch_core.content.safety"),
        ("langchain tool", "deadline_seconds", "tomllib"),
        ("langchain retriever", "deadline_seconds", "websearch_core.content.safety"),
        ("llamaindex tool", "deadline_seconds", "websearch_core.content.safety"),
    ],
)
def test_a_first_call_given_its_deadline_ends_by_it_while_its_builds_import_is_held(
    adapter: str, given: str, module: str
) -> None:
    """A tool given a ``Settings`` or ``deadline_seconds=`` ends by it, naming the held module.

    The module held is one the call's build still imports (a LlamaIndex tool checks its
    options, with the settings' wording, when it is made). Failed before: the build's
    imports had no limit, so the call waited out the 30 s hold
    (``lapsed``), then answered.
    """
    found = run_held(
        module,
        ANSWER_READER + _BUILD_HELD_SCRIPT,
        preload_imports_of=frameworks_of(adapter),
        ADAPTER=adapter,
        GIVEN=given,
        DEADLINE=HELD_DEADLINE_SECONDS,
    )
    first = found["first"]
    assert isinstance(first, str), found
    assert (
        f"the {_AS_WRITTEN}s deadline for the whole search ran out while building the client: "
        f"importing {module} had not finished; no provider was asked"
    ) in first, found
    assert found["second"] is None, found


_SAID_LATER_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, logging, os

    from websearch_core import WebSearch
    from websearch_core.testing import Simulator

    said = []

    class Keep(logging.Handler):
        def emit(self, record):
            said.append(record.getMessage())

    logging.getLogger("websearch_core").addHandler(Keep())

    def misnamed():
        return [line for line in said if "BRAVE_SEARCH_API_KEY" in line]

    async def main():
        async with Simulator(["brave", "mojeek"]) as sim:
            os.environ["BRAVE_SEARCH_API_KEY"] = "a-key-nothing-reads"  # not BRAVE_API_KEY
            settings = sim.settings(providers=("mojeek", "brave"), state_backend="memory")
            client = WebSearch(settings)
            try:
                await client.run("python asyncio", provider="mojeek")  # imports Mojeek alone
                forced = {
                    "said": misnamed(),
                    "imported": "websearch_core.providers.brave" in sys.modules,
                }
                await client.run("python asyncio")  # the auto chain: Brave's turn, keyless
                await client.run("python asyncio")
            finally:
                await client.aclose()
        return {"forced": forced, "auto": misnamed()}

    print(json.dumps(asyncio.run(main())))
    """
)


def test_a_key_nothing_reads_is_said_when_a_later_search_first_imports_its_provider() -> None:
    """A first search forced to Mojeek leaves Brave's check to the search that imports it.

    Failed before: the check ran at the first search only, which imported Mojeek alone;
    the auto searches after it passed over Brave (its key under ``BRAVE_SEARCH_API_KEY``)
    and nothing ever said why.
    """
    found = run_watched(_SAID_LATER_SCRIPT)
    assert found["forced"] == {"said": [], "imported": False}, found
    assert found["auto"] == [
        "BRAVE_SEARCH_API_KEY is set, but nothing reads it: Brave reads its key from BRAVE_API_KEY",
    ], found
