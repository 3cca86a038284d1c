"""The LangChain tool's and retriever's docstring examples run as written, offline.

Their ``.. code-block:: python`` sections are what LangChain's API reference shows; none
ran. Each class's blocks run here in order, in one namespace (a later block uses the
``tool`` or ``retriever`` an earlier one built), the settings from the environment
pointing at the loopback simulator, and ``"..."`` (where the reader writes a key) read as
the simulator's key. The retriever's "Use within a chain" block needs a model and is left
out. The retriever's test is a guard (its examples ran); the tool's failed before its Async
block stopped calling ``ainvoke``'s text a ``message``.
"""

import asyncio
import inspect
import json
import re
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest

from websearch_core import SEARCH_PROVIDER_ORDER
from websearch_core.testing import Simulator

pytest.importorskip("langchain_core")

from langchain_websearch import WebSearchRetriever, WebSearchTool


def _blocks(cls: type, skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Each ``.. code-block:: python`` of ``cls``'s docstring, with the heading above it."""
    doc = inspect.getdoc(cls) or ""
    found = re.finditer(
        r"^(\S[^\n]*):\n\s*\.\. code-block:: python\n\n((?:(?: {8}.*)?\n)+)", doc, re.M
    )
    return [
        (heading, textwrap.dedent(body))
        for heading, body in (match.groups() for match in found)
        if heading not in skip
    ]


@pytest.fixture
def simulated_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as sim:
        others = [pid for pid in SEARCH_PROVIDER_ORDER if pid not in sim.providers]
        monkeypatch.setenv("WEBSEARCH_BASE_URLS", json.dumps(sim.base_urls()))
        monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
        monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
        yield sim


def _run(blocks: list[tuple[str, str]], key: str) -> dict[str, Any]:
    """Run the blocks in order in one namespace; one with ``await`` in a coroutine."""
    namespace: dict[str, Any] = {}
    for heading, source in blocks:
        source = source.replace('{"brave": "..."}', f'{{"brave": "{key}"}}')
        if "await " in source or "async with" in source:
            body = textwrap.indent(source, "    ")
            wrapped = f"async def example():\n{body}    return locals()\n"
            exec(compile(wrapped, f"docstring: {heading}", "exec"), namespace)
            namespace.update(asyncio.run(namespace["example"]()))
        else:
            exec(compile(source, f"docstring: {heading}", "exec"), namespace)
    return namespace


def test_the_tool_examples_run(simulated_environment: Simulator) -> None:
    blocks = _blocks(WebSearchTool)
    assert [heading for heading, _ in blocks] == [
        "Instantiate",
        "Invoke directly with args",
        "Invoke with ToolCall",
        "Async",
    ]
    found = _run(blocks, simulated_environment.api_keys()["brave"])
    # Given plain arguments, ainvoke returns the text alone: the block named it "message",
    # as if it were the ToolMessage a ToolCall gets (failed before the rename).
    assert isinstance(found["text"], str) and found["text"].startswith("[1] ")
    assert len(simulated_environment["brave"].requests) >= 2  # the explicit tool asked Brave


def test_the_retriever_examples_run(simulated_environment: Simulator) -> None:
    blocks = _blocks(WebSearchRetriever, skip=("Use within a chain",))
    assert [heading for heading, _ in blocks] == ["Instantiate", "Invoke", "Async"]
    found = _run(blocks, simulated_environment.api_keys()["brave"])
    assert found["docs"] and found["docs"][0].metadata["url"].startswith("https://")
