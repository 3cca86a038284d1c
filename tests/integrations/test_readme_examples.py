"""The README's Python examples for the client, the tools and the retrievers run as shown.

``tests/unit/test_readme.py`` runs the two testing examples and checks every import; the
quick start's tool, the client's ``run``/``search``, both frameworks' tool calls and both
retrievers were only imported, so a renamed attribute (``output.raw_output``,
``nodes[0].score``) or a changed call would have stayed in the README. Each runs here as
written, its settings read from the environment as a user's would be, pointed at the
loopback simulator (no key, no network). The page-fetching examples fetch real sites and
are left to ``tests/content``. Every test here is a guard: the examples were right when
these were written (each passes before and after), and a README edit or an API change that
breaks one fails here.
"""

import ast
import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from websearch_core import SEARCH_PROVIDER_ORDER
from websearch_core.testing import Simulator

README = Path(__file__).resolve().parents[2] / "README.md"

EXAMPLES = {
    "quick start tool": "tool = WebSearchTool()  # reads keys",
    "client": 'WebSearch(provider="brave") as ws:',
    "LangChain tool call": '"type": "tool_call"',
    "LlamaIndex tool": "output = tool.call(",
    "LangChain retriever": "from langchain_websearch import WebSearchRetriever",
    "LlamaIndex retriever": "from llamaindex_websearch import WebSearchRetriever",
}
"""Each example run here, by a line only it holds."""


def _block(marker: str) -> str:
    text = README.read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if marker in b]
    return block


@pytest.fixture
def simulated_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """The environment a user would set, every provider it names on loopback."""
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as sim:
        others = [pid for pid in SEARCH_PROVIDER_ORDER if pid not in sim.providers]
        monkeypatch.setenv("WEBSEARCH_BASE_URLS", json.dumps(sim.base_urls()))
        monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
        monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
        monkeypatch.setenv("BRAVE_API_KEY", sim.api_keys()["brave"])
        yield sim


def _run(source: str) -> dict[str, Any]:
    """Run ``source`` as a script would, awaiting its top-level ``await`` and ``async with``.

    A block without them runs as plain code; one with them runs as the body of a coroutine
    (as in a notebook cell), and its names are returned from it.
    """
    namespace: dict[str, Any] = {}
    if "await " not in source and "async with" not in source:
        exec(compile(source, "README.md", "exec"), namespace)
        return namespace
    body = "\n".join(f"    {line}" for line in source.splitlines())
    wrapped = f"async def example():\n{body}\n    return locals()\n"
    ast.parse(wrapped)  # a block that is not Python fails here, naming README.md
    exec(compile(wrapped, "README.md", "exec"), namespace)
    found: dict[str, Any] = asyncio.run(namespace["example"]())
    return found


def test_every_example_named_here_is_in_the_readme() -> None:
    """A guard on this file: each marker still finds exactly one example."""
    for marker in EXAMPLES.values():
        _block(marker)


def test_the_quick_start_tool_prints_what_the_model_reads(
    simulated_environment: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("langchain_core")
    _run(_block(EXAMPLES["quick start tool"]))
    printed = capsys.readouterr().out
    assert printed.startswith("[1] ")
    assert len(simulated_environment["brave"].requests) == 1  # the key ranks Brave first


def test_the_client_example_runs_and_searches(
    simulated_environment: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    found = _run(_block(EXAMPLES["client"]))
    assert found["result"].response.provider == "brave"
    assert found["response"].sources  # search() gives the structured response
    assert capsys.readouterr().out.startswith(found["result"].text)


def test_the_langchain_tool_call_gives_content_and_artifact(
    simulated_environment: Simulator,
) -> None:
    pytest.importorskip("langchain_core")
    found = _run(_block(EXAMPLES["LangChain tool call"]))
    message = found["message"]
    assert message.content.startswith("[1] ")
    assert set(message.artifact) == {"response"}


def test_the_llamaindex_tool_gives_content_and_raw_output(
    simulated_environment: Simulator,
) -> None:
    pytest.importorskip("llama_index.core")
    found = _run(_block(EXAMPLES["LlamaIndex tool"]))
    output = found["output"]
    assert output.content.startswith("[1] ")
    assert set(output.raw_output) == {"response"}


def test_the_langchain_retriever_example_runs(simulated_environment: Simulator) -> None:
    pytest.importorskip("langchain_core")
    found = _run(_block(EXAMPLES["LangChain retriever"]))
    docs = found["docs"]
    assert 0 < len(docs) <= 3
    assert list(docs[0].metadata)[:3] == ["title", "url", "published_date"]


def test_the_llamaindex_retriever_example_runs(simulated_environment: Simulator) -> None:
    pytest.importorskip("llama_index.core")
    found = _run(_block(EXAMPLES["LlamaIndex retriever"]))
    nodes = found["nodes"]
    assert 0 < len(nodes) <= 3
    assert [node.score for node in nodes[:2]] == [1.0, 0.5]
