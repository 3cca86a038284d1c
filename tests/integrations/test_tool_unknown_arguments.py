"""An argument a tool does not take is named, with the one probably meant and those there are.

All four tools (LangChain's and LlamaIndex's ``web_search`` and ``web_fetch``) answered an
unknown argument with pydantic's ``Extra inputs are not permitted``: a model that wrote
``limits`` or ``max_char`` was told neither what was meant nor what the tool takes, so it
could only guess again. Every tool words it in one place (``tool_errors``): a filter's
name given to ``web_search`` is told the directive the query takes instead, and LangChain's
path for a ``pydantic.v1`` args schema reads as the v2 path does.
"""

from typing import Any, ClassVar

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.messages.tool import ToolCall
from langchain_core.tools import StructuredTool
from pydantic import BaseModel
from pydantic.v1 import BaseModel as BaseModelV1
from pydantic.v1 import Extra, Field
from pydantic.v1 import ValidationError as ValidationErrorV1

from langchain_websearch import WebFetchTool, WebSearchTool
from llamaindex_websearch import create_web_fetch_tool, create_web_search_tool
from tests.integrations._helpers import sim_settings
from websearch_core.testing import Simulator

SEARCH_ARGUMENTS = "query, recency, limit, max_tokens, temperature, num_search_results"


async def _search_texts(sim: Simulator, args: dict[str, Any]) -> list[str]:
    """What each adapter's ``web_search`` answers ``args`` with (refused: no search ran)."""
    options = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    async with WebSearchTool(**options) as langchain_tool:
        call = ToolCall(name="web_search", args=args, id="call_1", type="tool_call")
        message = await langchain_tool.ainvoke(call)
    async with create_web_search_tool(**options) as llamaindex_tool:
        output = await llamaindex_tool.acall(**args)
    assert isinstance(message, ToolMessage) and message.status == "error"
    assert output.is_error
    assert sim["brave"].requests == [] and sim["duckduckgo"].requests == []
    return [str(message.content), output.content]


async def _fetch_texts(args: dict[str, Any]) -> list[str]:
    """What each adapter's ``web_fetch`` answers ``args`` with (refused before any fetch)."""
    langchain_tool = WebFetchTool()
    call = ToolCall(name="web_fetch", args=args, id="call_1", type="tool_call")
    message = await langchain_tool.ainvoke(call)
    async with create_web_fetch_tool() as llamaindex_tool:
        output = await llamaindex_tool.acall(**args)
    assert isinstance(message, ToolMessage) and message.status == "error"
    assert output.is_error
    return [str(message.content), output.content]


async def test_a_mistyped_search_argument_names_the_one_meant(sim: Simulator) -> None:
    for text in await _search_texts(sim, {"query": "rust", "limits": 3}):
        assert text == (
            "Error: invalid web_search arguments: limits: not an argument (did you mean "
            f"limit?); the arguments are {SEARCH_ARGUMENTS}"
        )


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("max_results", "limit"),  # Tavily's: was "did you mean num_search_results?"
        ("num_results", "limit"),  # Exa's: the same
        ("count", "limit"),  # Brave's: was "not an argument" alone
        ("timelimit", "recency"),  # duckduckgo_search's: was "did you mean limit?"
        ("freshness", "recency"),
    ],
)
async def test_another_apis_argument_name_is_told_the_one_it_means(
    sim: Simulator, name: str, meant: str
) -> None:
    # A model trained on other search APIs sends their names; spelling pointed it at a
    # wrong argument (or none), so its next call was no better.
    for text in await _search_texts(sim, {"query": "rust", name: 3}):
        assert text == (
            f"Error: invalid web_search arguments: {name}: not an argument (did you mean "
            f"{meant}?); the arguments are {SEARCH_ARGUMENTS}"
        )


async def test_the_argument_told_reaches_brave_as_its_count(threaded_sim: Simulator) -> None:
    """A guard (passes before and after: Brave reads num_search_results as its count too):
    called again as the refusal says, Tavily's ``max_results`` is Brave's ``count``."""
    tool = WebSearchTool(settings=sim_settings(threaded_sim), api_keys=threaded_sim.api_keys())
    refused = str(tool.invoke({"query": "rust", "max_results": 3}))
    meant = refused.split("did you mean ", 1)[1].split("?", 1)[0]
    tool.invoke({"query": "rust", meant: 3})
    (request,) = threaded_sim["brave"].requests
    assert request.query_dict()["count"] == "3"


async def test_an_invented_search_argument_is_told_those_there_are(sim: Simulator) -> None:
    args = {"query": "rust", "site": "docs.rs", "provider": "brave"}
    for text in await _search_texts(sim, args):
        assert text == (
            "Error: invalid web_search arguments: provider: not an argument; site: not an "
            f"argument (write site:<domain> in the query); the arguments are {SEARCH_ARGUMENTS}"
        )


@pytest.mark.parametrize(
    ("name", "directive"),
    [
        ("site", "site:<domain>"),
        ("include_domains", "site:<domain>"),
        ("exclude_domains", "-site:<domain>"),
        ("after", "after:<YYYY-MM-DD>"),
        ("date_after", "after:<YYYY-MM-DD>"),
        ("Before", "before:<YYYY-MM-DD>"),
        ("filetype", "filetype:<extension>"),
        ("language", "lang:<code>"),
    ],
)
async def test_a_filter_given_as_an_argument_is_told_its_directive(
    sim: Simulator, name: str, directive: str
) -> None:
    """Before, the model read only ``not an argument``: nothing said the query takes it."""
    for text in await _search_texts(sim, {"query": "rust", name: "x"}):
        assert text == (
            f"Error: invalid web_search arguments: {name}: not an argument (write {directive} "
            f"in the query); the arguments are {SEARCH_ARGUMENTS}"
        )


async def test_a_fetch_tool_is_not_told_of_directives() -> None:
    """A guard (passes before and after): ``web_fetch`` has no query to write one in."""
    for text in await _fetch_texts({"url": "https://example.invalid/", "site": "docs.rs"}):
        assert text == (
            "Error: invalid web_fetch arguments: site: not an argument; the arguments are "
            "url, max_chars"
        )


async def test_a_mistyped_fetch_argument_names_the_one_meant() -> None:
    for text in await _fetch_texts({"url": "https://example.invalid/", "max_char": 500}):
        assert text == (
            "Error: invalid web_fetch arguments: max_char: not an argument (did you mean "
            "max_chars?); the arguments are url, max_chars"
        )


async def test_other_refusals_are_worded_as_before(sim: Simulator) -> None:
    """A guard (passes before and after): a bad value's text is pydantic's, no list added."""
    for text in await _search_texts(sim, {"query": "rust", "limit": 0}):
        assert text == (
            "Error: invalid web_search arguments: limit: must be at least 1 and at most 100 results"
        )


class _V1Arguments(BaseModelV1):
    """``web_search``'s arguments written with ``pydantic.v1``, as an older schema is."""

    query: str
    recency: str | None = None
    limit: int | None = Field(default=None, ge=1, le=100)
    max_tokens: int | None = None
    temperature: float | None = None
    num_search_results: int | None = None

    class Config:
        extra = Extra.forbid


class _V1SchemaTool(WebSearchTool):
    """The LangChain tool over a v1 schema: LangChain then raises pydantic v1's error."""

    args_schema: ClassVar[type[BaseModel]] = _V1Arguments  # type: ignore[assignment]


async def _langchain_routes_v1_errors_when_awaited() -> bool:
    """Whether this langchain-core hands a v1 schema's error to the tool when awaited.

    langchain-core 1.2.5 (the lowest bound) catches only pydantic v2's error in
    ``BaseTool.arun`` (its ``run`` catches both), so there an awaited v1 refusal escapes
    before any tool's handler runs: LangChain's own behaviour, nothing a tool can word.
    """

    class _Numbered(BaseModelV1):
        number: int

    async def _echo(number: int) -> str:
        return str(number)

    probe = StructuredTool.from_function(
        coroutine=_echo,
        name="probe",
        description="probe",
        args_schema=_Numbered,  # type: ignore[arg-type]
        handle_validation_error=True,
    )
    try:
        await probe.ainvoke({"number": "not a number"})
    except ValidationErrorV1:
        return False
    return True


async def _v1_and_v2_texts(sim: Simulator, args: dict[str, Any], awaited: bool) -> tuple[str, str]:
    """What the v1-schema tool and the ordinary one answer ``args`` with (no search ran).

    ``awaited``: called with ``ainvoke``; otherwise with ``invoke``, which refuses before
    the tool's own code runs, so it blocks nothing here.
    """
    if awaited and not await _langchain_routes_v1_errors_when_awaited():
        pytest.skip("this langchain-core lets an awaited v1 schema's error escape")
    options = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    texts = []
    for tool_class in (_V1SchemaTool, WebSearchTool):
        async with tool_class(**options) as tool:
            call = ToolCall(name="web_search", args=args, id="call_1", type="tool_call")
            message = await tool.ainvoke(call) if awaited else tool.invoke(call)
        assert isinstance(message, ToolMessage) and message.status == "error"
        texts.append(str(message.content))
    assert sim["brave"].requests == [] and sim["duckduckgo"].requests == []
    return texts[0], texts[1]


@pytest.mark.parametrize(
    "args",
    [
        {"query": "rust", "limits": 3},
        {"query": "rust", "site": "docs.rs", "provider": "brave"},
    ],
)
@pytest.mark.parametrize("awaited", [True, False], ids=["ainvoke", "invoke"])
async def test_the_v1_schema_path_names_an_unknown_argument_as_v2_does(
    sim: Simulator, args: dict[str, Any], awaited: bool
) -> None:
    """Before, the v1 path gave pydantic's ``extra fields not permitted`` block of text."""
    v1_text, v2_text = await _v1_and_v2_texts(sim, args, awaited)
    assert v1_text == v2_text
    assert v1_text.endswith(f"; the arguments are {SEARCH_ARGUMENTS}")


@pytest.mark.parametrize("awaited", [True, False], ids=["ainvoke", "invoke"])
async def test_the_v1_schema_path_names_a_bad_value_on_one_line(
    sim: Simulator, awaited: bool
) -> None:
    """Before, pydantic v1's text was given whole: its title and a line per problem."""
    v1_text, _ = await _v1_and_v2_texts(sim, {"query": "rust", "limit": 0}, awaited)
    assert v1_text == (
        "Error: invalid web_search arguments: limit: ensure this value is greater than or "
        "equal to 1"
    )
