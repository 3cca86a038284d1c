"""The Quick start's and the framework sections' tool examples run as written, each alone.

Each block runs in a fresh interpreter as a user's script would (the blocks are
synchronous, so as they stand), its settings from the environment, the searches on the
loopback simulator's Brave and DuckDuckGo with every other provider excluded. What the
block's comments say is read back in the same process: the Quick start's printed text is
what a model reads, the same text plain Python's ``run_sync`` and LlamaIndex's tool give;
``message.content`` and ``output.content`` are the formatted text, the artifact and
``raw_output`` hold ``{"response": ...}``; ``response_format="content"`` leaves no
artifact; the tool of one's own shape answers as ``run()`` does. Every test here is a
guard: each passed on the README and code it was written against.
"""

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integrations._readme_scripts import README, readme_block, run_script, simulated_env
from websearch_core.testing import Simulator

QUERY = "what is PEP 703?"


@pytest.fixture
def sim() -> Iterator[Simulator]:
    """The simulator's Brave and DuckDuckGo on loopback."""
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as simulator:
        yield simulator


def _sections(done: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """What the script printed, split at its ``=== name`` lines (the block's own first)."""
    assert done.returncode == 0, done.stderr
    parts: dict[str, str] = {}
    name = "block"
    for line in done.stdout.splitlines(keepends=True):
        if line.startswith("=== "):
            name = line[4:].strip()
            parts[name] = ""
        else:
            parts[name] = parts.get(name, "") + line
    return parts


def test_the_quick_start_tool_prints_what_plain_python_and_llamaindex_give(
    sim: Simulator, tmp_path: Path
) -> None:
    """Step 3: the printed text is numbered results (title, URL, snippet), the one text the
    README's plain-Python and LlamaIndex one-liners give too."""
    block = readme_block("hand it to your agent's tools")
    checks = (
        "print('=== plain')\n"
        "from websearch_core import WebSearch\n"
        f"print(WebSearch().run_sync({QUERY!r}).text)\n"
        "print('=== llamaindex')\n"
        "from llamaindex_websearch import create_web_search_tool\n"
        f"print(create_web_search_tool().call(query={QUERY!r}).content)\n"
    )
    parts = _sections(run_script(block + checks, simulated_env(sim, tmp_path), tmp_path))
    first = sim["brave"].results_for(QUERY)[0]
    assert re.match(rf"\[1\] {re.escape(first.title)}.*\n    https://\S+\n    \S", parts["block"])
    assert parts["block"] == parts["plain"] == parts["llamaindex"]


def test_the_langchain_block_gives_the_text_and_the_response_artifact(
    sim: Simulator, tmp_path: Path
) -> None:
    """The ToolCall's message: the formatted text, ``{"response": {...}}``; the comments'
    ``response_format="content"`` leaves no artifact, and the options build a tool."""
    block = readme_block('message = tool.invoke({"type": "tool_call"')
    checks = (
        "print('=== content')\nprint(message.content)\n"
        "print('=== artifact')\nprint(sorted(message.artifact), message.status)\n"
        "bare = WebSearchTool(response_format='content').invoke("
        "{'type': 'tool_call', 'id': '2', 'name': 'web_search', "
        f"'args': {{'query': {QUERY!r}}}}})\n"
        "print('=== bare')\nprint(bare.artifact, bare.content == message.content)\n"
        "print('=== options')\nprint(WebSearchTool(deadline_seconds=20, exclude='bing').name)\n"
    )
    parts = _sections(run_script(block + checks, simulated_env(sim, tmp_path), tmp_path))
    assert parts["content"].startswith("[1] ")
    assert parts["artifact"] == "['response'] success\n"
    assert parts["bare"] == "None True\n"
    assert parts["options"] == "web_search\n"


def test_the_llamaindex_block_gives_the_text_and_the_response_output(
    sim: Simulator, tmp_path: Path
) -> None:
    """``output.content`` is the formatted text, ``raw_output`` ``{"response": {...}}``."""
    block = readme_block("output = tool.call(query=")
    checks = (
        "print('=== content')\nprint(output.content)\n"
        "print('=== raw')\nprint(sorted(output.raw_output), output.is_error)\n"
    )
    parts = _sections(run_script(block + checks, simulated_env(sim, tmp_path), tmp_path))
    assert parts["content"].startswith("[1] ")
    assert parts["raw"] == "['response'] False\n"


def test_a_tool_of_one_s_own_shape_answers_as_run_does(sim: Simulator, tmp_path: Path) -> None:
    """The ``@tool`` wrapper returns ``run()``'s text; the tool beside it is ``web_search``;
    ``tool(ws.run)`` fails as LangChain reads its schema (``.args``), as the README says."""
    block = readme_block("from langchain_core.tools import tool")
    checks = (
        "import asyncio\n"
        f"print('=== own')\nprint(asyncio.run(web_search.ainvoke({{'query': {QUERY!r}}})))\n"
        f"print('=== run')\nprint(ws.run_sync({QUERY!r}).text)\n"
        "print('=== name')\nprint(search_tool.name)\n"
        "print('=== wrapped')\n"
        "try:\n    tool(ws.run).args\n"
        "except (TypeError, AttributeError) as error:\n"
        "    print(f'{type(error).__name__}: {error}')\n"
    )
    parts = _sections(run_script(block + checks, simulated_env(sim, tmp_path), tmp_path))
    assert parts["own"].startswith("[1] ") and parts["own"] == parts["run"]
    assert parts["name"] == "web_search\n"
    # The error the README names, by the pydantic release installed (both in its text).
    said = {"TypeError": "Unpack accepts only a single type", "AttributeError": "__constraints__"}
    kind, _, message = parts["wrapped"].partition(": ")
    assert message.startswith(said[kind]), parts["wrapped"]
    assert f"`{kind}: {said[kind]}" in " ".join(README.read_text(encoding="utf-8").split())
