"""The README's advice for a ``WebSearch`` of one's own made into a LlamaIndex tool holds.

``FunctionTool.from_defaults(async_fn=ws.run)`` builds and calls, but reading its schema
(``fn_schema_str``, ``get_parameters_dict()``, what an agent sends the model) raised
pydantic's ``PydanticUserError: `run` is not fully defined`` inside pydantic, and its output
was the result's field listing (``text='[1] ...\\n...' response=...``), not its text. The
README now says what works: ``create_web_search_tool(ws)``, or the call wrapped in a
function of the query alone; the guards here fail if its block stops working or its account
of the direct wrapping stops being true. A result's ``str()`` is now its text, so the direct
tool's output (and ``print(result)``) is what a model should read.
"""

import json
from pathlib import Path

from llama_index.core.tools import FunctionTool
from pydantic.errors import PydanticUserError

from tests.integrations._readme_scripts import (
    as_script,
    readme_block,
    run_script,
    simulated_env,
)
from websearch_core import WebSearch
from websearch_core.testing import Simulator

from ._helpers import sim_settings


def test_the_readme_s_two_llamaindex_ways_answer_from_the_simulator(
    threaded_sim: Simulator, tmp_path: Path
) -> None:
    """A guard: the block runs as a user's script; both tools search, and the wrapped one
    offers the model its ``query`` alone."""
    block = readme_block("own_tool = FunctionTool.from_defaults(async_fn=web_search)")
    checks = (
        "\nours = await search_tool.acall(query='python')\n"
        "wrapped = await own_tool.acall(query='rust')\n"
        "offered = list(own_tool.metadata.get_parameters_dict()['properties'])\n"
        "print(json.dumps({'ours': ours.content, 'wrapped': wrapped.content, "
        "'offered': offered}))\n"
        "await ws.aclose()\n"
    )
    done = run_script(as_script(block, checks), simulated_env(threaded_sim, tmp_path), tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["ours"].startswith("[1] python result 1")
    assert found["wrapped"].startswith("[1] rust result 1")
    assert found["offered"] == ["query"]


async def test_guard_wrapping_run_directly_is_what_the_readme_says(sim: Simulator) -> None:
    """A guard: LlamaIndex's schema of ``ws.run`` cannot be read (a release that resolves
    it would offer ``use_cache`` and the rest: the advice stands either way)."""
    ws = WebSearch(settings=sim_settings(sim), api_keys=sim.api_keys())
    made = FunctionTool.from_defaults(async_fn=ws.run)
    try:
        offered = list(made.metadata.get_parameters_dict()["properties"])
    except PydanticUserError as error:
        assert "`run` is not fully defined" in str(error)
    else:
        assert {"query", "use_cache"} <= set(offered)
    await ws.aclose()


async def test_a_tool_of_run_itself_hands_the_model_the_text(sim: Simulator) -> None:
    """LlamaIndex gives the model ``str()`` of what the function returns: that was the
    result's field listing, its newlines escaped; it is the text now (``repr`` unchanged)."""
    ws = WebSearch(settings=sim_settings(sim), api_keys=sim.api_keys())
    made = FunctionTool.from_defaults(async_fn=ws.run)
    output = await made.acall(query="python")
    found = await ws.run("python")
    assert output.content == found.text == str(found)
    assert output.content.startswith("[1] python result 1 (11mo ago)\n")
    assert repr(found).startswith("SearchToolResult(text='[1] python result 1")
    await ws.aclose()
