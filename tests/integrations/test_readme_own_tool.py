"""The README's advice for a ``WebSearch`` of one's own made into a LangChain tool holds.

``StructuredTool.from_function(coroutine=ws.run)`` (or ``tool(ws.run)``) fails as LangChain
reads the schema, with ``TypeError: Unpack accepts only a single type`` raised inside
langchain-core on ``run``'s ``**params: Unpack[SearchOptions]``: nothing in it names our
tool. The README now says so and shows what works: ``WebSearchTool(web_search=ws)``, or the
call wrapped in a function of the arguments a model should give. Every test here is a guard
(the advice is documentation; the code is unchanged): it fails if the README's block stops
working or its account of the direct wrapping stops being true. The block's two scripts
are forked children of one interpreter that imported the frameworks (:func:`run_scripts`),
each with its own simulator, home, folder and exit: two fresh interpreters imported them
twice.
"""

import json
import subprocess
import warnings
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from langchain_core.tools import StructuredTool
from pydantic import BaseModel

from tests.integrations._readme_scripts import (
    README,
    as_script,
    readme_block,
    run_scripts,
    simulated_env,
)
from websearch_core import WebSearch
from websearch_core.testing import Simulator

Ran = dict[str, subprocess.CompletedProcess[str]]

_TWO_WAYS = (
    "\nours = await search_tool.ainvoke({'query': 'python'})\n"
    "wrapped = await web_search.ainvoke({'query': 'rust'})\n"
    "print(json.dumps({'ours': ours, 'wrapped': wrapped, 'args': list(web_search.args)}))\n"
    "await ws.aclose()\n"
)

_AWAITED = (
    "\ntry:\n"
    "    web_search.invoke({'query': 'python'})\n"
    "except NotImplementedError as error:\n"
    "    refused = str(error)\n"
    "@tool\n"
    "def web_search_sync(query: str) -> str:\n"
    "    '''Search the web for current information.'''\n"
    "    return ws.run_sync(query).text\n"
    "found = await asyncio.to_thread(web_search_sync.invoke, {'query': 'rust'})\n"
    "print(json.dumps({'refused': refused, 'found': found}))\n"
    "await ws.aclose()\n"
)


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ran]:
    """The block run with each test's checks, each with its own simulator (Brave and
    DuckDuckGo on loopback), home and folder."""
    block = readme_block("from langchain_core.tools import tool")
    root = tmp_path_factory.mktemp("own-tool")
    with ExitStack() as stack:
        scripts = {}
        for name, checks in (("two-ways", _TWO_WAYS), ("awaited", _AWAITED)):
            sim = stack.enter_context(Simulator(["brave", "duckduckgo"]).running_in_thread())
            folder = root / name
            folder.mkdir()
            scripts[name] = (as_script(block, checks), simulated_env(sim, folder), folder)
        yield run_scripts(scripts, root, preload=("langchain_core.tools", "langchain_websearch"))


def test_the_readme_s_two_ways_answer_from_the_simulator(ran: Ran) -> None:
    """A guard: the block runs as a user's script; both tools search, and the wrapped one
    offers the model its ``query`` alone."""
    done = ran["two-ways"]
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["ours"].startswith("[1] python result 1")
    assert found["wrapped"].startswith("[1] rust result 1")
    assert found["args"] == ["query"]


def test_wrapping_run_directly_is_what_the_readme_says() -> None:
    """A guard: LangChain's schema of ``ws.run`` holds more than the query, and reading it
    fails in langchain-core (a release that reads it gets a schema that still offers
    ``use_cache`` and ``params``: the README's advice stands either way). With the oldest
    pydantic supported, building the tool already fails, inside pydantic, on the same
    ``Unpack`` keywords (the README names both errors)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydantic's ArbitraryTypeWarning for Unpack
        try:
            made = StructuredTool.from_function(
                coroutine=WebSearch().run, name="web_search", description="Search the web."
            )
        except AttributeError as error:  # the oldest pydantic supported
            assert str(error) == "__constraints__"
            return
        schema = made.args_schema
        assert isinstance(schema, type) and issubclass(schema, BaseModel)
        fields = list(schema.model_fields)
        assert fields[0] == "query" and {"use_cache", "params"} <= set(fields)
        try:
            offered = made.args
        except TypeError as error:  # langchain-core on the Unpack keywords
            assert "Unpack" in str(error)
        else:
            assert {"use_cache", "params"} <= set(offered)


def test_guard_the_readme_s_async_tool_is_awaited_and_a_def_is_invoked(ran: Ran) -> None:
    """A guard: the block's tool is async, so ``invoke`` raises LangChain's
    ``NotImplementedError`` as the README says; the plain ``def`` it suggests instead
    (returning ``ws.run_sync(query).text``) searches from a script's ``invoke``."""
    done = ran["awaited"]
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.splitlines()[-1])
    assert said["refused"] == "StructuredTool does not support sync invocation."
    assert said["refused"] in README.read_text(encoding="utf-8")
    assert said["found"].startswith("[1] rust result 1")
