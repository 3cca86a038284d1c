"""Ordinary use leaves no unclosed HTTP session behind, with or without ``aclose()``.

The client and every tool and retriever close what they opened when the loop that opened
it shuts down; ``async with`` (or ``aclose()``) closes it sooner.

Each case is a plain script run with warnings as errors: one async call inside
``asyncio.run`` and nothing else, as a new user writes it. An aiohttp session left open is
reported on stderr when it is collected ("Unclosed client session", or an ignored
``ResourceWarning``), so a clean case writes nothing to stderr.

The ten cases share one interpreter, run one after another, each in its own namespace and
its own ``asyncio.run``, its globals dropped and collected before the next starts; a marker
line on stdout and stderr opens each case's part, and each test reads its own. One
interpreter a case cost ~13 s each on a loaded 2-core machine (importing LangChain and
LlamaIndex again), 130 s of the suite; no case reads what another left, as each builds its
own simulator, client and loop. What is reported after the last case (at the
interpreter's exit) fails every case, as no one case can be named for it.
"""

import subprocess
import sys
import textwrap

import pytest

_PRELUDE = """
import asyncio, gc
from websearch_core import SEARCH_PROVIDER_ORDER
from websearch_core.testing import Simulator

def settings(sim):
    others = tuple(pid for pid in SEARCH_PROVIDER_ORDER if pid not in sim.providers)
    return sim.settings(exclude=others)
"""

_EPILOGUE = """
asyncio.run(main())
gc.collect()
print("ok")
"""

CASES = {
    "langchain tool": """
        from langchain_websearch import WebSearchTool

        async def main():
            async with Simulator(["brave"]) as sim:
                tool = WebSearchTool(settings=settings(sim), api_keys=sim.api_keys())
                content = await tool.ainvoke({"query": "python"})
                assert content.startswith("[1] python result 1"), content
    """,
    "langchain retriever": """
        from langchain_websearch import WebSearchRetriever

        async def main():
            async with Simulator(["brave"]) as sim:
                retriever = WebSearchRetriever(settings=settings(sim), api_keys=sim.api_keys())
                docs = await retriever.ainvoke("python")
                assert len(docs) == 5, docs
    """,
    "llamaindex tool": """
        from llamaindex_websearch import create_web_search_tool

        async def main():
            async with Simulator(["brave"]) as sim:
                tool = create_web_search_tool(settings=settings(sim), api_keys=sim.api_keys())
                output = await tool.acall(query="python")
                assert not output.is_error, output.content
    """,
    "llamaindex spec": """
        from llamaindex_websearch import WebSearchToolSpec

        async def main():
            async with Simulator(["brave"]) as sim:
                spec = WebSearchToolSpec(settings=settings(sim), api_keys=sim.api_keys())
                (tool,) = spec.to_tool_list()
                output = await tool.acall(query="python")
                assert not output.is_error, output.content
    """,
    "llamaindex retriever": """
        from llamaindex_websearch import WebSearchRetriever

        async def main():
            async with Simulator(["brave"]) as sim:
                retriever = WebSearchRetriever(settings=settings(sim), api_keys=sim.api_keys())
                nodes = await retriever.aretrieve("python")
                assert len(nodes) == 5, nodes
    """,
    "two loops, one tool": """
        from langchain_websearch import WebSearchTool

        async def search(tool):
            return await tool.ainvoke({"query": "python"})

        async def main():
            with Simulator(["brave"]).running_in_thread() as sim:
                tool = WebSearchTool(settings=settings(sim), api_keys=sim.api_keys())
                await search(tool)
                # a second loop (as a notebook or a sync wrapper makes) gets its own session
                await asyncio.to_thread(asyncio.run, search(tool))
    """,
    "client without async with": """
        from websearch_core import WebSearch

        async def main():
            async with Simulator(["brave"]) as sim:
                web_search = WebSearch(settings(sim), api_keys=sim.api_keys())
                result = await web_search.run("python")
                assert result.error is None, result.text
                statuses = await web_search.provider_status()
                assert statuses, statuses
    """,
    "two loops, one client": """
        from websearch_core import WebSearch

        async def search(web_search, query):
            return await web_search.search(query)

        async def main():
            with Simulator(["brave"]).running_in_thread() as sim:
                web_search = WebSearch(settings(sim), api_keys=sim.api_keys())
                await search(web_search, "python")
                # a second loop while the first runs (a sync wrapper in a notebook)
                await asyncio.to_thread(asyncio.run, search(web_search, "rust"))
                await search(web_search, "go")  # and back: a new session for this loop
                assert len(sim["brave"].requests) == 3
    """,
    "made per request, dropped while the loop runs": """
        from langchain_websearch import WebSearchRetriever, WebSearchTool
        from llamaindex_websearch import WebSearchRetriever as Nodes
        from llamaindex_websearch import create_web_search_tool
        from websearch_core import WebSearch

        async def main():
            # As a web handler does: a tool per request, never closed, collected while the
            # server's loop goes on. aiohttp reported each session as unclosed.
            async with Simulator(["brave"]) as sim:
                options = {"settings": settings(sim), "api_keys": sim.api_keys()}
                calls = [
                    lambda: WebSearchTool(**options).ainvoke({"query": "python"}),
                    lambda: WebSearchRetriever(**options).ainvoke("python"),
                    lambda: create_web_search_tool(**options).acall(query="python"),
                    lambda: Nodes(**options).aretrieve("python"),
                    lambda: WebSearch(options["settings"], api_keys=options["api_keys"]).run("q"),
                ]
                for call in calls:
                    await call()
                    gc.collect()
                    await asyncio.sleep(0.05)  # the dropped session's closing runs
                assert len(sim["brave"].requests) == 5
    """,
    "async with": """
        from langchain_websearch import WebSearchRetriever, WebSearchTool
        from llamaindex_websearch import WebSearchRetriever as Nodes
        from llamaindex_websearch import create_web_search_tool

        async def main():
            async with Simulator(["brave"]) as sim:
                options = {"settings": settings(sim), "api_keys": sim.api_keys()}
                async with WebSearchTool(**options) as tool:
                    await tool.ainvoke({"query": "python"})
                async with WebSearchRetriever(**options) as retriever:
                    await retriever.ainvoke("python")
                async with create_web_search_tool(**options) as function_tool:
                    await function_tool.acall(query="python")
                async with Nodes(**options) as nodes:
                    await nodes.aretrieve("python")
                    assert len(sim["brave"].requests) == 4
    """,
}


_MARK = "=== closing case: "
"""Opens a case's part of stdout and of stderr (and :data:`_AT_EXIT`'s, after them all)."""
_AT_EXIT = "(the interpreter's exit)"

_RUN_EACH = f"""
import sys, traceback

def run_case(name, source):
    for stream in (sys.stdout, sys.stderr):
        print({_MARK!r} + name, file=stream, flush=True)
    namespace = {{"__name__": "__main__"}}
    try:
        exec(compile(source, name, "exec"), namespace)
    except BaseException:
        traceback.print_exc()
    namespace.clear()
    gc.collect()
    sys.stdout.flush()
    sys.stderr.flush()
"""
"""Runs one case's script in its own namespace; its failure is written in its own part."""


def _parts(output: str) -> dict[str, str]:
    """``output`` split at the case markers: each case's text, and the text after them all."""
    parts: dict[str, str] = {}
    name = ""
    for line in output.splitlines(keepends=True):
        if line.startswith(_MARK):
            name = line[len(_MARK) :].rstrip("\n")
            parts[name] = ""
        else:
            parts[name] = parts.get(name, "") + line
    return parts


@pytest.fixture(scope="module")
def cases_run() -> tuple[dict[str, str], dict[str, str]]:
    """Every case run once in one interpreter (warnings as errors): stdout and stderr parts."""
    cases = "".join(
        f"run_case({name!r}, {_PRELUDE + textwrap.dedent(body) + _EPILOGUE!r})\n"
        for name, body in CASES.items()
    )
    at_exit = f"for stream in (sys.stdout, sys.stderr): print({_MARK + _AT_EXIT!r}, file=stream)\n"
    completed = subprocess.run(
        [sys.executable, "-W", "error", "-c", _PRELUDE + _RUN_EACH + cases + at_exit],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr
    return _parts(completed.stdout), _parts(completed.stderr)


@pytest.mark.parametrize("case", list(CASES))
def test_no_unclosed_session_after_ordinary_use(
    case: str, cases_run: tuple[dict[str, str], dict[str, str]]
) -> None:
    stdout, stderr = cases_run
    assert stderr.get(case) == ""
    assert stdout.get(case) == "ok\n"
    assert stderr.get(_AT_EXIT) == "", "written at exit, after every case ran"
    assert stderr.get("") is None and stdout.get("") is None  # nothing before the first case


def _clean_run(script: str, *flags: str) -> str:
    """The stdout of ``script`` in a fresh interpreter, which must exit 0 writing no stderr."""
    completed = subprocess.run(
        [sys.executable, *flags, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    return completed.stdout


NEVER_CLOSED = """
import asyncio
from langchain_websearch import WebSearchTool
from llamaindex_websearch import create_web_search_tool

with Simulator(["brave"]).running_in_thread() as sim:
    options = {"settings": settings(sim), "api_keys": sim.api_keys()}
    tools = (WebSearchTool(**options), create_web_search_tool(**options))
    # As nest_asyncio's asyncio.run and many notebooks leave it: a loop that ran, idle,
    # never shut down, so its async generators are never finalised.
    loop = asyncio.new_event_loop()
    print(loop.run_until_complete(tools[0].ainvoke({"query": "python"}))[:4])
    print(loop.run_until_complete(tools[1].acall(query="python")).content[:4])
"""


def test_no_unclosed_session_when_the_loop_is_never_shut_down() -> None:
    # Default warnings: the script's own unclosed loop is its business, not the client's.
    assert _clean_run(_PRELUDE + NEVER_CLOSED) == "[1] \n[1] \n"
