"""The LlamaIndex ``web_search`` tool and tool spec, against the simulator."""

import inspect
import json
import subprocess
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from llama_index.core.agent.workflow import AgentOutput, FunctionAgent, ToolCallResult
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.instrumentation.span import SimpleSpan
from llama_index.core.instrumentation.span_handlers import SimpleSpanHandler
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool, ToolOutput
from llama_index.core.tools.tool_spec.base import BaseToolSpec
from llama_index_instrumentation import get_dispatcher
from pydantic import Field

from llamaindex_websearch import (
    WebSearchArgs,
    WebSearchFunctionTool,
    WebSearchToolSpec,
    create_web_search_tool,
)
from tests.integrations._helpers import MODEL_FIELDS, sim_settings
from websearch_core import (
    TOOL_DESCRIPTION,
    ConfigurationError,
    SearchParams,
    SearchToolResult,
    WebSearch,
)
from websearch_core.testing import Fault, Simulator


def _tool(sim: Simulator, *exclude: str) -> FunctionTool:
    return create_web_search_tool(settings=sim_settings(sim, *exclude), api_keys=sim.api_keys())


def _spec(sim: Simulator, *exclude: str) -> WebSearchToolSpec:
    return WebSearchToolSpec(settings=sim_settings(sim, *exclude), api_keys=sim.api_keys())


# --- metadata -------------------------------------------------------------------------------


def test_tool_metadata() -> None:
    tool = create_web_search_tool()
    assert isinstance(tool, FunctionTool)
    assert isinstance(tool, WebSearchFunctionTool)
    assert tool.metadata.name == "web_search"
    assert tool.metadata.description == TOOL_DESCRIPTION
    assert len(tool.metadata.description) < 1024
    assert tool.metadata.fn_schema is WebSearchArgs
    openai = tool.metadata.to_openai_tool()["function"]  # raises past 1024 characters
    assert openai["name"] == "web_search"
    assert list(openai["parameters"]["properties"]) == MODEL_FIELDS
    assert openai["parameters"]["required"] == ["query"]


@pytest.mark.parametrize("name", MODEL_FIELDS)
def test_schema_bounds_match_search_params(name: str) -> None:
    ignored = {"title", "description", "default"}
    ours = WebSearchArgs.model_json_schema()["properties"][name]
    core = SearchParams.model_json_schema()["properties"][name]

    def strip(schema: dict[str, Any]) -> str:
        return json.dumps({k: v for k, v in schema.items() if k not in ignored}).replace(".0", "")

    assert strip(ours) == strip(core)


def test_spec_shape() -> None:
    spec = WebSearchToolSpec()
    assert BaseToolSpec in type(spec).__mro__
    assert spec.spec_functions == [("web_search", "aweb_search")]
    (tool,) = spec.to_tool_list()
    assert isinstance(tool, WebSearchFunctionTool)
    assert tool.metadata.name == "web_search"
    assert tool.metadata.description == TOOL_DESCRIPTION


async def test_spec_tool_list_async() -> None:
    (tool,) = await WebSearchToolSpec().to_tool_list_async()
    assert tool.metadata.name == "web_search"


def test_web_search_and_kwargs_are_exclusive() -> None:
    with pytest.raises(TypeError, match="not both"):
        create_web_search_tool(WebSearch(), api_keys={"brave": "k"})


@pytest.mark.parametrize(
    ("api_keys", "problem"),
    [
        (
            "sk-very-secret",
            'api_keys must map provider ids to keys, like {"brave": "..."} (got str)',
        ),
        ({"brave": 1234567890}, 'api_keys["brave"] must be a string (got int)'),
    ],
)
def test_keys_in_the_wrong_shape_are_a_configuration_error_when_built(
    api_keys: object, problem: str
) -> None:
    # The client is built at the first call: a string for the mapping raised a ValueError
    # out of acall, a number for a key an AttributeError out of the search; then the first
    # call answered "Error: configuration: ..."; now the tool is not built (as WebSearch).
    with pytest.raises(ConfigurationError) as raised:
        create_web_search_tool(api_keys=api_keys)
    assert str(raised.value) == f"create_web_search_tool(): {problem}"
    assert "sk-very-secret" not in str(raised.value)
    assert "1234567890" not in str(raised.value)


def test_missing_llama_index_gives_an_install_hint() -> None:
    code = (
        "import sys; sys.modules['llama_index.core'] = None\n"
        "try:\n    import llamaindex_websearch\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install "websearch-tools[llamaindex]"' in out.stdout


# --- calls ----------------------------------------------------------------------------------


def test_call(threaded_sim: Simulator) -> None:
    output = _tool(threaded_sim).call(query="python asyncio", limit=3)
    assert isinstance(output, ToolOutput)
    assert output.tool_name == "web_search"
    assert output.content.startswith("[1] python asyncio result 1")
    assert "[4]" not in output.content
    assert not output.is_error
    assert output.raw_input == {"args": (), "kwargs": {"query": "python asyncio", "limit": 3}}
    raw = output.raw_output
    assert isinstance(raw, dict)
    assert raw["response"]["provider"] == "brave"
    assert len(raw["response"]["sources"]) == 3
    assert "error" not in raw
    json.dumps(raw)
    assert threaded_sim["brave"].requests[0].query_dict()["count"] == "3"


async def test_acall(sim: Simulator) -> None:
    spec = _spec(sim)
    (tool,) = spec.to_tool_list()
    try:
        first = await tool.acall(query="rust", recency="week")
        second = await tool.acall(query="go")
    finally:
        await spec.aclose()
    assert first.content.startswith("[1] rust result 1")
    assert first.raw_output["response"]["provider"] == "brave"
    assert "https://site1.example.org/go" in second.content
    assert sim["brave"].requests[0].query_dict()["freshness"] == "pw"


class _SpanRecorder(SimpleSpanHandler):
    """A span handler that also keeps the arguments each span was opened with."""

    arguments: list[dict[str, Any]] = Field(default_factory=list)

    def new_span(
        self,
        id_: str,
        bound_args: inspect.BoundArguments,
        instance: Any | None = None,
        parent_span_id: str | None = None,
        tags: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> SimpleSpan:
        self.arguments.append(dict(bound_args.arguments))
        return super().new_span(id_, bound_args, instance, parent_span_id, tags, **kwargs)


@pytest.fixture
def spans() -> Iterator[_SpanRecorder]:
    """Every instrumentation span LlamaIndex opens while the test runs."""
    dispatcher = get_dispatcher()
    handler = _SpanRecorder()
    dispatcher.add_span_handler(handler)
    yield handler
    dispatcher.span_handlers.remove(handler)


def _span_names(handler: _SpanRecorder) -> list[str]:
    return [span.id_.split("-")[0] for span in handler.completed_spans]


async def test_acall_opens_one_span_as_a_plain_function_tool_does(
    sim: Simulator, spans: _SpanRecorder
) -> None:
    # LlamaIndex spans FunctionTool.acall and every override of it; running the base
    # body inside our override must not open a second, nested span of the same name.
    spec = _spec(sim)
    (tool,) = spec.to_tool_list()
    try:
        output = await tool.acall(query="rust")
    finally:
        await spec.aclose()
    assert not output.is_error
    assert _span_names(spans) == ["WebSearchFunctionTool.acall"]
    assert spans.completed_spans[0].parent_id is None
    assert spans.arguments == [{"kwargs": {"query": "rust"}}]


def test_call_opens_one_span_too(threaded_sim: Simulator, spans: _SpanRecorder) -> None:
    output = _tool(threaded_sim).call(query="rust")
    assert not output.is_error
    assert _span_names(spans) == ["WebSearchFunctionTool.call"]
    assert spans.arguments == [{"kwargs": {"query": "rust"}}]


async def test_fallback_is_recorded_in_raw_output(sim: Simulator) -> None:
    sim["brave"].enqueue(Fault.payment_required())
    spec = _spec(sim)
    output = await spec.to_tool_list()[0].acall(query="python asyncio")
    await spec.aclose()
    response = output.raw_output["response"]
    assert response["provider"] == "duckduckgo"
    assert [(a["provider"], a["outcome"]) for a in response["attempts"]] == [
        ("brave", "failed"),
        ("duckduckgo", "success"),
    ]


async def test_provider_failure_is_error_output(sim: Simulator) -> None:
    sim["brave"].always(Fault.server_error(503, "upstream down"))
    spec = _spec(sim, "duckduckgo")
    output = await spec.to_tool_list()[0].acall(query="python")
    await spec.aclose()
    assert output.is_error
    assert output.content.startswith("Error: ")
    assert output.raw_output["error"] == output.content.removeprefix("Error: ")
    assert output.raw_output["response"]["provider"] == "brave"
    assert "sim-key-brave" not in output.content


def test_sync_failure_is_error_output(threaded_sim: Simulator) -> None:
    threaded_sim["brave"].always(Fault.unauthorized())
    output = _tool(threaded_sim, "duckduckgo").call(query="python")
    assert output.is_error
    assert output.content.startswith("Error: ")


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"query": "python", "limit": 0}, "limit"),
        ({"query": "python", "temperature": True}, "temperature"),
        ({"query": " "}, "query"),
        ({"limit": 3}, "query"),
        ({"query": "python", "provider": "duckduckgo"}, "provider"),
    ],
)
async def test_invalid_arguments_go_back_to_the_model(
    sim: Simulator, kwargs: dict[str, Any], field: str
) -> None:
    tool = _tool(sim)
    output = await tool.acall(**kwargs)
    assert isinstance(output, ToolOutput)
    assert output.is_error
    assert output.content.startswith(f"Error: invalid web_search arguments: {field}: ")
    assert "\n" not in output.content
    assert output.raw_output == {"error": output.content.removeprefix("Error: ")}
    assert output.raw_input == {"args": (), "kwargs": kwargs}
    assert sim["brave"].requests == []
    assert sim["duckduckgo"].requests == []


def test_sync_invalid_arguments_go_back_to_the_model(threaded_sim: Simulator) -> None:
    output = _tool(threaded_sim).call(query="python", limit="5")
    assert output.is_error
    assert output.content.startswith("Error: invalid web_search arguments: limit: ")
    assert threaded_sim["brave"].requests == []


async def test_positional_arguments_are_read_in_schema_order(sim: Simulator) -> None:
    async with _tool(sim) as tool:
        output = await tool.acall("python", "week")
        too_many = await tool.acall("python", None, 2, None, None, None, "extra")
    assert not output.is_error
    assert sim["brave"].requests[0].query_dict()["freshness"] == "pw"
    assert too_many.is_error
    assert "positional argument 6: more than the 6 arguments there are" in too_many.content
    assert too_many.content.endswith(
        "the arguments are query, recency, limit, max_tokens, temperature, num_search_results"
    )


async def test_an_argument_given_by_position_and_by_name_is_refused(sim: Simulator) -> None:
    async with _tool(sim) as tool:
        output = await tool.acall("python", query="asyncio")
    assert output.is_error
    assert output.content == (
        "Error: invalid web_search arguments: query: given both by position and by name"
    )
    assert sim["brave"].requests == []


async def test_sync_call_inside_a_running_loop(threaded_sim: Simulator) -> None:
    output = _tool(threaded_sim).call(query="python")
    assert output.raw_output["response"]["provider"] == "brave"


def test_spec_functions_return_the_tool_result(threaded_sim: Simulator) -> None:
    spec = _spec(threaded_sim)
    result = spec.web_search("python", limit=2)
    assert isinstance(result, SearchToolResult)
    assert len(result.response.sources) == 2


async def test_a_given_web_search_is_used_and_left_open(sim: Simulator) -> None:
    async with WebSearch(sim_settings(sim), api_keys=sim.api_keys()) as web_search:
        spec = WebSearchToolSpec(web_search)
        await spec.to_tool_list()[0].acall(query="one")
        await spec.aclose()
        result = await web_search.run("two")
    assert result.response.provider == "brave"
    assert len(sim["brave"].requests) == 2


# --- an agent with a mock function-calling LLM ----------------------------------------------

# llama-index-workflows inspects the agent with inspect.getmembers, which trips pydantic's
# deprecated-attribute warnings; that is the library's noise, not this package's.
_workflow_noise = pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")


def _scripted_llm(query: str) -> MockFunctionCallingLLM:
    def respond(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        results = [m for m in messages if m.role == MessageRole.TOOL]
        if not results:
            call = ToolCallBlock(
                tool_call_id="tc_1", tool_name="web_search", tool_kwargs={"query": query}
            )
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])
        first_line = str(results[-1].content).splitlines()[0]
        return ChatMessage(role=MessageRole.ASSISTANT, content=f"Found: {first_line}")

    return MockFunctionCallingLLM(response_generator=respond)


async def _run_agent(tool: FunctionTool, query: str) -> tuple[list[ToolCallResult], str]:
    agent = FunctionAgent(tools=[tool], llm=_scripted_llm(query))
    handler = agent.run(user_msg="What is new in asyncio?")
    results = [
        event async for event in handler.stream_events() if isinstance(event, ToolCallResult)
    ]
    output = await handler
    assert isinstance(output, AgentOutput)
    return results, str(output.response.content)


@_workflow_noise
async def test_function_agent_calls_the_tool(sim: Simulator) -> None:
    spec = _spec(sim)
    results, answer = await _run_agent(spec.to_tool_list()[0], "asyncio news")
    await spec.aclose()
    (result,) = results
    assert result.tool_name == "web_search"
    assert result.tool_kwargs == {"query": "asyncio news"}
    assert not result.tool_output.is_error
    assert result.tool_output.raw_output["response"]["provider"] == "brave"
    assert answer.startswith("Found: [1] asyncio news result 1")


@_workflow_noise
async def test_function_agent_survives_provider_failure(sim: Simulator) -> None:
    sim["brave"].always(Fault.rate_limited(retry_after=30))
    sim["duckduckgo"].always(Fault.challenge())
    spec = _spec(sim)
    results, answer = await _run_agent(spec.to_tool_list()[0], "asyncio news")
    await spec.aclose()
    (result,) = results
    assert result.tool_output.is_error
    assert result.tool_output.raw_output["error"]
    assert answer.startswith("Found: Error: All web search providers failed:")


@pytest.fixture
def hook_not_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A LlamaIndex that no longer asks the tool's ``_parse_tool_output`` for the text.

    What it then builds is FunctionTool's own hook's answer for our result: ``str()`` of
    the whole object, which the model must never read in place of the results.
    """
    monkeypatch.setattr(
        WebSearchFunctionTool, "_parse_tool_output", FunctionTool._parse_tool_output
    )


def _reads_the_results(output: ToolOutput) -> None:
    assert output.content.startswith("[1] rust result 1"), output.content[:200]
    assert "response=" not in output.content
    assert output.raw_output["response"]["provider"] == "brave"


@pytest.mark.usefixtures("hook_not_asked")
async def test_a_llamaindex_that_no_longer_asks_for_the_text_still_gets_it(sim: Simulator) -> None:
    _reads_the_results(await _tool(sim).acall(query="rust"))


@pytest.mark.usefixtures("hook_not_asked")
def test_a_llamaindex_that_no_longer_asks_for_the_text_still_gets_it_sync(
    threaded_sim: Simulator,
) -> None:
    _reads_the_results(_tool(threaded_sim).call(query="rust"))


async def test_a_call_on_a_loop_with_its_client_works_out_no_build_bound(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The spec's bound for a first call's build was made on every call and read only on a
    # loop's first; a call whose loop has its client now reaches the client without it.
    from llamaindex_websearch import tool as tool_module

    built: list[object] = []
    real = tool_module.BuildBound

    def counting(*args: Any, **kwargs: Any) -> Any:
        built.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(tool_module, "BuildBound", counting)
    tool = _tool(sim)
    first = await tool.acall(query="rust")
    second = await tool.acall(query="rust")
    await tool.aclose()
    assert str(first.content).startswith("[1] rust result 1")
    assert second.content == first.content
    assert not second.is_error
    assert len(built) == 1
