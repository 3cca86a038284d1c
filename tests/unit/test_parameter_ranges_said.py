"""A search or fetch parameter out of range names its whole range and unit, wherever given.

pydantic said ``limit (--limit): Input should be greater than or equal to 1`` to
``--limit 0`` and ``... less than or equal to 100`` to ``--limit 500``: one end of the range
each time, and not what it counts. ``web_fetch``'s ``max_chars`` alike. The words now come
from ``setting_bounds`` (as the number settings' do): ``limit: must be at least 1 and at most
100 results``, through the command line, ``run``/``search``, both frameworks' tools and
``SearchParams``; pydantic's error type (``greater_than_equal``, ...) is kept.
"""

from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.messages.tool import ToolCall
from pydantic import ValidationError

from langchain_websearch import WebFetchTool, WebSearchTool
from llamaindex_websearch import create_web_fetch_tool, create_web_search_tool
from tests.websearch_process import run_websearch
from websearch_core import SearchParams, WebSearch

LIMIT = "must be at least 1 and at most 100 results"
MAX_CHARS = "must be at least 200 and at most 200000 characters"

PARAMETERS = [
    # (argument, a value past a bound, pydantic's type, the words)
    ("limit", 0, "greater_than_equal", LIMIT),
    ("limit", -3, "greater_than_equal", LIMIT),
    ("limit", 10**9, "less_than_equal", LIMIT),
    ("num_search_results", 101, "less_than_equal", LIMIT),
    ("max_tokens", 0, "greater_than_equal", "must be at least 1 and at most 200000 tokens"),
    ("temperature", 3.5, "less_than_equal", "must be at least 0 and at most 2"),
]


@pytest.mark.parametrize("value", ["0", "-3", "1000000000"])
def test_the_command_line_says_the_whole_range(value: str) -> None:
    """Failed before: ``Input should be greater than or equal to 1`` (or ``less than ...``)."""
    done = run_websearch(["python asyncio", "--limit", value], env={"WEBSEARCH_CACHE": "off"})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"websearch: limit (--limit): {LIMIT}\n"


@pytest.mark.parametrize(("name", "value", "kind", "words"), PARAMETERS)
def test_search_params_say_the_whole_range_and_keep_the_type(
    name: str, value: object, kind: str, words: str
) -> None:
    """Failed before on each: pydantic's ``Input should be ...`` naming one end."""
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="q", **{name: value})
    (error,) = caught.value.errors()
    assert (error["loc"], error["type"], error["msg"]) == ((name,), kind, words)


@pytest.mark.parametrize(("name", "value", "kind", "words"), PARAMETERS[:3])
async def test_run_and_search_say_it(name: str, value: object, kind: str, words: str) -> None:
    """Failed before: ``run("q", limit=0)`` raised pydantic's words."""
    async with WebSearch() as ws:
        for call in (ws.run, ws.search):
            with pytest.raises(ValidationError) as caught:
                await call("python asyncio", **{name: value})
            assert caught.value.errors()[0]["msg"] == words


@pytest.mark.parametrize(("name", "value", "kind", "words"), PARAMETERS)
async def test_both_search_tools_say_it(name: str, value: object, kind: str, words: str) -> None:
    """Failed before on each: ``Error: invalid web_search arguments: limit: Input should ...``."""
    args: dict[str, Any] = {"query": "python asyncio", name: value}
    expected = f"Error: invalid web_search arguments: {name}: {words}"
    async with WebSearchTool() as langchain_tool:
        message = await langchain_tool.ainvoke(
            ToolCall(name="web_search", args=args, id="call_1", type="tool_call")
        )
    async with create_web_search_tool() as llamaindex_tool:
        output = await llamaindex_tool.acall(**args)
    assert isinstance(message, ToolMessage)
    assert str(message.content) == expected
    assert str(output.content) == expected


@pytest.mark.parametrize("value", [5, -1, 10**7])
async def test_both_fetch_tools_say_max_chars_range(value: int) -> None:
    """Failed before: ``max_chars: Input should be greater than or equal to 200`` (or less)."""
    args = {"url": "https://example.invalid/", "max_chars": value}
    expected = f"Error: invalid web_fetch arguments: max_chars: {MAX_CHARS}"
    async with WebFetchTool() as langchain_tool:
        text = await langchain_tool.ainvoke(args)
    llamaindex_tool = create_web_fetch_tool()
    output = await llamaindex_tool.acall(**args)
    assert str(text) == expected
    assert str(output.content) == expected


def test_a_value_that_is_no_number_keeps_its_words() -> None:
    """A guard: only a number past a bound is reworded; ``abc`` keeps pydantic's type words."""
    done = run_websearch(["python asyncio", "--limit", "abc"], env={"WEBSEARCH_CACHE": "off"})
    assert done.returncode == 2
    assert done.stderr == "websearch: limit (--limit): Input should be a valid integer, got 'abc'\n"


def test_a_number_in_range_is_kept() -> None:
    """A guard: the bounds themselves are still allowed (the wrap changes no verdict)."""
    assert SearchParams(query="q", limit=1).limit == 1
    assert SearchParams(query="q", limit=100, temperature=2.0).temperature == 2.0


@pytest.mark.parametrize("k", [0, 101])
def test_both_retrievers_say_ks_range(k: int) -> None:
    """Failed before: ``k: Input should be greater than or equal to 1`` (or less ...)."""
    from langchain_websearch import WebSearchRetriever as LangChainRetriever
    from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever

    for retriever in (LangChainRetriever, LlamaIndexRetriever):
        with pytest.raises(ValidationError) as caught:
            retriever(k=k)
        (error,) = caught.value.errors()
        assert (error["loc"], error["msg"]) == (("k",), LIMIT), retriever


def test_both_retrievers_say_ks_range_for_one_call() -> None:
    """Failed before: ``retriever.invoke("q", k=0)`` said pydantic's one end of the range."""
    from langchain_websearch import WebSearchRetriever as LangChainRetriever
    from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever

    with pytest.raises(ValidationError) as said_by_langchain:
        LangChainRetriever().invoke("python", k=0)
    with pytest.raises(ValidationError) as said_by_llamaindex:
        LlamaIndexRetriever().retrieve("python", k=0)
    for caught in (said_by_langchain, said_by_llamaindex):
        (error,) = caught.value.errors()
        assert (error["loc"], error["type"], error["msg"]) == (
            ("k",),
            "greater_than_equal",
            LIMIT,
        )
