"""The Quick start's and the framework sections' tool examples run as written, each alone.

Each block runs in a process of its own as a user's script would (the blocks are
synchronous, so as they stand), its settings from the environment, its own home and working
folder, the searches on the loopback simulator's Brave and DuckDuckGo with every other
provider excluded. The four are forked children of one :mod:`tests.cli_runs` interpreter
that imported the frameworks once, each run to its own interpreter's exit: four fresh
interpreters spent 4-8 s each importing LangChain and LlamaIndex (load 5). What the
block's comments say is read back in the same process: the Quick start's printed text is
what a model reads, the same text plain Python's ``run_sync`` and LlamaIndex's tool give;
``message.content`` and ``output.content`` are the formatted text, the artifact and
``raw_output`` hold ``{"response": ...}``; ``response_format="content"`` leaves no
artifact; the tool of one's own shape answers as ``run()`` does. Every test here is a
guard: each passed on the README and code it was written against.
"""

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.cli_runs import run_all
from tests.integrations._readme_scripts import README, readme_block, simulated_env, user_env
from websearch_core.testing import Simulator

QUERY = "what is PEP 703?"

PRELOAD = ("langchain_core.tools", "langchain_websearch", "llamaindex_websearch")
"""What the blocks import, imported once before the runs are forked."""


@pytest.fixture(scope="module")
def sim() -> Iterator[Simulator]:
    """The simulator's Brave and DuckDuckGo on loopback, answering every block alike."""
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as simulator:
        yield simulator


def _scripts() -> dict[str, str]:
    """Each test's script: its README block, then what reads back its comments' claims."""
    return {
        "quick start": readme_block("hand it to your agent's tools") + _QUICK_START_CHECKS,
        "langchain": readme_block('message = tool.invoke({"type": "tool_call"') + _LANGCHAIN_CHECKS,
        "llamaindex": readme_block("output = tool.call(query=") + _LLAMAINDEX_CHECKS,
        "own shape": readme_block("from langchain_core.tools import tool") + _OWN_SHAPE_CHECKS,
    }


@pytest.fixture(scope="module")
def printed(sim: Simulator, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each script's outcome (``status``, ``stdout``, ``stderr``), each run in its own
    home and working folder, with its own environment."""
    root = tmp_path_factory.mktemp("quick-start")
    runs = []
    for number, (name, script) in enumerate(_scripts().items()):
        folder = root / str(number)
        folder.mkdir()
        (folder / "block.py").write_text(script, encoding="utf-8")
        env = simulated_env(sim, folder)
        runs.append(
            {
                "id": name,
                "script": str(folder / "block.py"),
                "args": [],
                "cwd": str(folder),
                "env": env,
                "stdin": "",
                "stdout": "pipe",
            }
        )
    return run_all(runs, root, user_env(root), preload=PRELOAD)


def _sections(done: dict[str, Any]) -> dict[str, str]:
    """What the script printed, split at its ``=== name`` lines (the block's own first)."""
    assert done["status"] == 0, done["stderr"]
    parts: dict[str, str] = {}
    name = "block"
    for line in str(done["stdout"]).splitlines(keepends=True):
        if line.startswith("=== "):
            name = line[4:].strip()
            parts[name] = ""
        else:
            parts[name] = parts.get(name, "") + line
    return parts


_QUICK_START_CHECKS = (
    "print('=== plain')\n"
    "from websearch_core import WebSearch\n"
    f"print(WebSearch().run_sync({QUERY!r}).text)\n"
    "print('=== llamaindex')\n"
    "from llamaindex_websearch import create_web_search_tool\n"
    f"print(create_web_search_tool().call(query={QUERY!r}).content)\n"
)


def test_the_quick_start_tool_prints_what_plain_python_and_llamaindex_give(
    sim: Simulator, printed: dict[str, dict[str, Any]]
) -> None:
    """Step 3: the printed text is numbered results (title, URL, snippet), the one text the
    README's plain-Python and LlamaIndex one-liners give too."""
    parts = _sections(printed["quick start"])
    first = sim["brave"].results_for(QUERY)[0]
    assert re.match(rf"\[1\] {re.escape(first.title)}.*\n    https://\S+\n    \S", parts["block"])
    assert parts["block"] == parts["plain"] == parts["llamaindex"]


_LANGCHAIN_CHECKS = (
    "print('=== content')\nprint(message.content)\n"
    "print('=== artifact')\nprint(sorted(message.artifact), message.status)\n"
    "bare = WebSearchTool(response_format='content').invoke("
    "{'type': 'tool_call', 'id': '2', 'name': 'web_search', "
    f"'args': {{'query': {QUERY!r}}}}})\n"
    "print('=== bare')\nprint(bare.artifact, bare.content == message.content)\n"
    "print('=== options')\nprint(WebSearchTool(deadline_seconds=20, exclude='bing').name)\n"
)


def test_the_langchain_block_gives_the_text_and_the_response_artifact(
    printed: dict[str, dict[str, Any]],
) -> None:
    """The ToolCall's message: the formatted text, ``{"response": {...}}``; the comments'
    ``response_format="content"`` leaves no artifact, and the options build a tool."""
    parts = _sections(printed["langchain"])
    assert parts["content"].startswith("[1] ")
    assert parts["artifact"] == "['response'] success\n"
    assert parts["bare"] == "None True\n"
    assert parts["options"] == "web_search\n"


_LLAMAINDEX_CHECKS = (
    "print('=== content')\nprint(output.content)\n"
    "print('=== raw')\nprint(sorted(output.raw_output), output.is_error)\n"
)


def test_the_llamaindex_block_gives_the_text_and_the_response_output(
    printed: dict[str, dict[str, Any]],
) -> None:
    """``output.content`` is the formatted text, ``raw_output`` ``{"response": {...}}``."""
    parts = _sections(printed["llamaindex"])
    assert parts["content"].startswith("[1] ")
    assert parts["raw"] == "['response'] False\n"


_OWN_SHAPE_CHECKS = (
    "import asyncio\n"
    f"print('=== own')\nprint(asyncio.run(web_search.ainvoke({{'query': {QUERY!r}}})))\n"
    f"print('=== run')\nprint(ws.run_sync({QUERY!r}).text)\n"
    "print('=== name')\nprint(search_tool.name)\n"
    "print('=== wrapped')\n"
    "try:\n    tool(ws.run).args\n"
    "except (TypeError, AttributeError) as error:\n"
    "    print(f'{type(error).__name__}: {error}')\n"
)


def test_a_tool_of_one_s_own_shape_answers_as_run_does(printed: dict[str, dict[str, Any]]) -> None:
    """The ``@tool`` wrapper returns ``run()``'s text; the tool beside it is ``web_search``;
    ``tool(ws.run)`` fails as LangChain reads its schema (``.args``), as the README says."""
    parts = _sections(printed["own shape"])
    assert parts["own"].startswith("[1] ") and parts["own"] == parts["run"]
    assert parts["name"] == "web_search\n"
    # The error the README names, by the pydantic release installed (both in its text).
    said = {"TypeError": "Unpack accepts only a single type", "AttributeError": "__constraints__"}
    kind, _, message = parts["wrapped"].partition(": ")
    assert message.startswith(said[kind]), parts["wrapped"]
    assert f"`{kind}: {said[kind]}" in " ".join(README.read_text(encoding="utf-8").split())
