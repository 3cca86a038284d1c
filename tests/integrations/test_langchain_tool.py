"""``WebSearchTool`` through LangChain's own invocation paths, against the simulator."""

import asyncio
import inspect
import json
import subprocess
import sys
import typing
from collections.abc import Iterator
from typing import Annotated, Any, get_origin

import aiohttp
import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.tool import ToolCall
from langchain_core.tools import BaseTool, InjectedToolArg, InjectedToolCallId
from langchain_core.tools import base as langchain_tools_base
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from langchain_websearch import (
    WebFetchTool,
    WebSearchInput,
    WebSearchRetriever,
    WebSearchTool,
    _tool_calls,
)
from tests.integrations._helpers import MODEL_FIELDS, sim_settings
from websearch_core import (
    SEARCH_PROVIDER_ORDER,
    TOOL_DESCRIPTION,
    SearchParams,
    WebSearch,
)
from websearch_core.testing import Fault, Simulator
from websearch_core.tool_schema import ToolArguments


def _tool(sim: Simulator, *exclude: str, **fields: Any) -> WebSearchTool:
    return WebSearchTool(settings=sim_settings(sim, *exclude), api_keys=sim.api_keys(), **fields)


def _call(args: dict[str, Any], call_id: str = "call_1") -> ToolCall:
    return ToolCall(name="web_search", args=args, id=call_id, type="tool_call")


# --- schema and metadata ------------------------------------------------------------------


def test_input_schema_has_only_the_model_facing_fields() -> None:
    assert list(WebSearchInput.model_fields) == MODEL_FIELDS
    assert WebSearchInput.model_json_schema()["required"] == ["query"]
    for name, field in WebSearchInput.model_fields.items():
        assert field.description, name


@pytest.mark.parametrize("name", MODEL_FIELDS)
def test_input_schema_bounds_match_search_params(name: str) -> None:
    def constraints(schema: dict[str, Any]) -> Any:
        ignored = {"title", "description", "default"}
        return json.loads(
            json.dumps({k: v for k, v in schema.items() if k not in ignored}).replace(".0,", ",")
        )

    ours = WebSearchInput.model_json_schema()["properties"][name]
    core = SearchParams.model_json_schema()["properties"][name]
    assert _normalised(constraints(ours)) == _normalised(constraints(core))


def _normalised(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _normalised(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalised(v) for v in value]
    return value


def test_input_schema_is_strict_like_search_params() -> None:
    for bad in ({"query": "q", "limit": "5"}, {"query": "q", "limit": True}, {"query": 5}):
        with pytest.raises(ValidationError):
            WebSearchInput.model_validate(bad)


def test_tool_metadata() -> None:
    tool = WebSearchTool()
    assert isinstance(tool, BaseTool)
    assert tool.name == "web_search"
    assert tool.description == TOOL_DESCRIPTION
    assert tool.response_format == "content_and_artifact"
    schema = tool.tool_call_schema.model_json_schema()  # what a model is shown
    assert sorted(schema["properties"]) == sorted(MODEL_FIELDS)
    assert "provider" not in schema["properties"]
    openai = convert_to_openai_tool(tool)["function"]
    assert openai["name"] == "web_search"
    assert openai["description"] == TOOL_DESCRIPTION
    assert openai["parameters"]["required"] == ["query"]


def test_the_lighter_signature_shows_a_model_exactly_the_same_tool() -> None:
    # WebSearchInput's signature writes each field's type as text, without pydantic's
    # constraint wrappers (LangChain reads it twice on every call); a twin schema keeping
    # pydantic's own signature must look the same to LangChain and to a model,
    # constraints included.
    class Twin(ToolArguments):
        pass

    Twin.__name__ = Twin.__qualname__ = "WebSearchInput"
    ours = inspect.signature(WebSearchInput)
    pydantics = inspect.signature(Twin)
    assert any(get_origin(p.annotation) is Annotated for p in pydantics.parameters.values())
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == [
        (p.name, p.kind, p.default) for p in pydantics.parameters.values()
    ]
    for name, parameter in ours.parameters.items():
        field_type = WebSearchInput.model_fields[name].annotation
        assert parameter.annotation == inspect.formatannotation(field_type)
        assert eval(parameter.annotation, vars(typing)) == field_type
    twin_tool = WebSearchTool(args_schema=Twin)
    assert convert_to_openai_tool(WebSearchTool()) == convert_to_openai_tool(twin_tool)
    shown = [WebSearchTool().tool_call_schema, twin_tool.tool_call_schema]
    assert all(isinstance(schema, type) and issubclass(schema, BaseModel) for schema in shown)
    assert shown[0].model_json_schema() == shown[1].model_json_schema()  # type: ignore[union-attr]
    assert WebSearchTool().args == twin_tool.args


def test_configuration_is_validated_at_construction() -> None:
    with pytest.raises(ValidationError, match="Unknown search provider: altavista"):
        WebSearchTool(provider="altavista")
    with pytest.raises(ValidationError, match="not both"):
        WebSearchTool(web_search=WebSearch(), api_keys={"brave": "k"})
    assert WebSearchTool(provider=" Auto ").provider is None
    assert WebSearchTool(provider="Brave").provider == "brave"
    # NaN compares false with every bound, so it was refused as "less than or equal to
    # 300": the settings say it is not a finite number, and so do the tools now.
    with pytest.raises(ValidationError, match="finite number"):
        WebSearchTool(timeout_seconds=float("nan"))


def test_keys_are_secret() -> None:
    tool = WebSearchTool(api_keys={"brave": "sk-very-secret"})
    assert "sk-very-secret" not in repr(tool)
    assert "sk-very-secret" not in str(tool.model_dump())


@pytest.mark.parametrize("adapter", [WebSearchTool, WebFetchTool, WebSearchRetriever])
@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (
            {"api_key": "sk-very-secret"},
            ("api_key", "unexpected keyword argument; did you mean api_keys?"),
        ),
        ({"timeout": 5}, ("timeout", "unexpected keyword argument; did you mean timeout_seconds?")),
        ({"colour": "red"}, ("colour", "unexpected keyword argument")),
        ({"api_keys": "sk-very-secret"}, ("api_keys", "Input should be a valid dictionary")),
    ],
)
def test_a_mistyped_option_is_refused_without_its_value(
    adapter: type[BaseModel], options: dict[str, Any], problem: tuple[str, str]
) -> None:
    # LangChain's base classes ignore an unknown keyword: WebSearchTool(api_key=...) built a
    # tool that searched without the key, silently. A key given in the wrong shape was
    # refused, but pydantic's message repeated it (input_value='sk-very-secret'). Then
    # refused as "Extra inputs are not permitted", without the name probably meant.
    with pytest.raises(ValidationError) as caught:
        adapter(**options)
    assert [(".".join(map(str, e["loc"])), e["msg"]) for e in caught.value.errors()] == [problem]
    assert "sk-very-secret" not in str(caught.value)


def test_the_core_does_not_import_langchain() -> None:
    code = (
        "import sys, websearch_core, websearch_core.cli; "
        "assert not any(m.startswith(('langchain', 'llama_index')) for m in sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_missing_langchain_core_gives_an_install_hint() -> None:
    code = (
        "import sys; sys.modules['langchain_core'] = None\n"
        "try:\n    import langchain_websearch\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install "websearch-tools[langchain]"' in out.stdout


# --- invocation -----------------------------------------------------------------------------


def test_invoke_with_a_tool_call(threaded_sim: Simulator) -> None:
    message = _tool(threaded_sim).invoke(_call({"query": "python asyncio", "limit": 3}))
    assert isinstance(message, ToolMessage)
    assert message.tool_call_id == "call_1"
    assert message.name == "web_search"
    assert message.status == "success"
    assert isinstance(message.content, str)
    assert message.content.startswith("[1] python asyncio result 1")
    assert "[4]" not in message.content
    response = message.artifact["response"]
    assert response["provider"] == "brave"
    assert len(response["sources"]) == 3
    assert "error" not in message.artifact
    json.dumps(message.artifact)  # plain JSON-compatible data
    assert threaded_sim["brave"].requests[0].query_dict()["count"] == "3"


def test_invoke_with_plain_args_returns_the_content(threaded_sim: Simulator) -> None:
    content = _tool(threaded_sim).invoke({"query": "python asyncio"})
    assert isinstance(content, str)
    assert content.startswith("[1] python asyncio result 1")


@pytest.mark.parametrize("failing", [False, True])
async def test_response_format_content_gives_the_text_alone(sim: Simulator, failing: bool) -> None:
    # LangChain takes what _run returns as the content when response_format="content": the
    # model read the (text, artifact) pair as one JSON string, the response's dump included,
    # and a plain invoke returned a tuple.
    if failing:
        sim["brave"].always(Fault.server_error(503, "down"))
        sim["duckduckgo"].always(Fault.challenge())
    async with _tool(sim, response_format="content") as tool:
        message = await tool.ainvoke(_call({"query": "python asyncio"}))
        plain = await tool.ainvoke({"query": "python asyncio"})
    assert isinstance(message, ToolMessage)
    assert message.content == plain
    assert isinstance(plain, str)
    if failing:
        assert plain.startswith("Error: All web search providers failed: brave: ")
        assert message.status == "error"
    else:
        assert plain.startswith("[1] python asyncio result 1")
        assert message.status == "success"
    assert message.artifact in (None, {})


async def test_ainvoke_with_a_tool_call(sim: Simulator) -> None:
    tool = _tool(sim)
    try:
        first = await tool.ainvoke(_call({"query": "rust", "recency": "month"}))
        second = await tool.ainvoke(_call({"query": "go"}, "call_2"))
    finally:
        await tool.aclose()
    assert isinstance(first, ToolMessage)
    assert isinstance(second, ToolMessage)
    assert first.artifact["response"]["provider"] == "brave"
    assert second.tool_call_id == "call_2"
    assert "https://site1.example.org/go" in second.content
    assert sim["brave"].requests[0].query_dict()["freshness"] == "pm"


async def test_ainvoke_with_plain_args(sim: Simulator) -> None:
    tool = _tool(sim)
    content = await tool.ainvoke({"query": "rust"})
    await tool.aclose()
    assert isinstance(content, str)
    assert content.startswith("[1] rust result 1")


async def test_a_plain_string_is_the_query(sim: Simulator) -> None:
    # LangChain hands a string input to the tool positionally, not as a keyword.
    tool = _tool(sim)
    content = await tool.ainvoke("rust")
    await tool.aclose()
    assert content.startswith("[1] rust result 1")
    assert sim["brave"].requests[0].query_dict()["q"] == "rust"


def test_the_run_methods_give_langchain_nothing_to_resolve_per_call() -> None:
    # LangChain resolves the running method's type hints on every call; typed parameters
    # made that a large part of the tool's own cost. The arguments' types live in the
    # args schema, which validates them before the method runs, so the methods' hints
    # resolve to nothing; their signatures (annotations included, for inspect and
    # readers) are stored on them, so that per-call read is cheap too.
    Parameter = inspect.Parameter
    own = inspect.Signature(
        [
            Parameter("self", Parameter.POSITIONAL_OR_KEYWORD),
            Parameter("args", Parameter.VAR_POSITIONAL, annotation=Any),
            Parameter("kwargs", Parameter.VAR_KEYWORD, annotation=Any),
        ],
        return_annotation=Any,
    )
    for method in (WebSearchTool._run, WebSearchTool._arun):
        assert typing.get_type_hints(method) == {}
        assert vars(method)["__signature__"] == own


async def test_langchain_reads_the_run_methods_as_plain_functions(sim: Simulator) -> None:
    # LangChain reads the running method's parameters and type hints on every call; as a
    # bound method it built a second signature (without self) each time. Looked up on a
    # tool, each is a function bound to that tool with the bound method's signature.
    tool = _tool(sim)
    other = _tool(sim)
    for name in ("_run", "_arun"):
        method = getattr(tool, name)
        as_bound = inspect.signature(getattr(WebSearchTool, name).__get__(tool, WebSearchTool))
        assert not inspect.ismethod(method)
        assert vars(method)["__signature__"] == as_bound
        assert typing.get_type_hints(method) == {}
        assert getattr(other, name) is not method
    content, artifact = await tool._arun(query="rust")
    await tool.aclose()
    assert content.startswith("[1] rust result 1")
    assert artifact == {}  # no tool call: LangChain keeps no artifact


async def test_a_subclass_running_its_own_arun_is_called_by_langchain(sim: Simulator) -> None:
    # A guard: a subclass's own _arun (a plain method again) is what LangChain runs, and
    # super()._arun reaches the tool's search.
    seen: list[dict[str, Any]] = []

    class Noting(WebSearchTool):
        async def _arun(self, *args: Any, **kwargs: Any) -> Any:
            seen.append(kwargs)
            return await super()._arun(*args, **kwargs)

    tool = Noting(settings=sim_settings(sim), api_keys=sim.api_keys())
    content = await tool.ainvoke({"query": "rust", "limit": 2})
    await tool.aclose()
    assert content.startswith("[1] rust result 1")
    assert seen == [
        {
            "query": "rust",
            "recency": None,
            "limit": 2,
            "max_tokens": None,
            "temperature": None,
            "num_search_results": None,
        }
    ]


async def test_a_call_on_a_loop_with_its_client_works_out_no_build_bound(
    sim: Simulator,
) -> None:
    # What bounds a first call's build (the call's options, for the config file's deadlines)
    # was made on every call and handed to a lookup that read it only on a loop's first
    # call; a call whose loop has its client now reaches the client without it.
    built: list[object] = []

    class Counting(WebSearchTool):
        def build_bound(self) -> Any:
            built.append(self)
            return super().build_bound()

    tool = Counting(settings=sim_settings(sim), api_keys=sim.api_keys())
    first = await tool.ainvoke({"query": "rust"})
    second = await tool.ainvoke({"query": "rust"})
    await tool.aclose()
    assert first.startswith("[1] rust result 1")
    assert second == first
    assert len(built) == 1


async def test_a_search_reads_the_tools_clients_without_pydantics_fallback(
    sim: Simulator,
) -> None:
    # A guard of the per-call cost, not of what the tool answers: pydantic answers a
    # private attribute through __getattr__ after a raised and caught AttributeError
    # (1.5-5 us on every search); the tool reads its clients from pydantic's store.
    # The tool's answer and its session's reuse are checked as before.
    looked_up: list[str] = []

    class Watched(WebSearchTool):
        def __getattr__(self, name: str) -> Any:
            looked_up.append(name)
            return super().__getattr__(name)

    tool = Watched(settings=sim_settings(sim), api_keys=sim.api_keys())
    first = await tool.ainvoke({"query": "rust"})
    second = await tool.ainvoke({"query": "rust"})
    await tool.aclose()
    assert first.startswith("[1] rust result 1")
    assert second == first
    assert "_clients" not in looked_up


async def test_callbacks_see_the_arguments_on_every_call(sim: Simulator) -> None:
    # Which arguments callbacks may see is worked out once per schema and set of names;
    # a second call with the same names and one with others must read the same as the first.
    class Inputs(BaseCallbackHandler):
        def __init__(self) -> None:
            self.seen: list[dict[str, Any] | None] = []

        def on_tool_start(self, *args: Any, inputs: Any = None, **kwargs: Any) -> None:
            self.seen.append(inputs)

    handler = Inputs()
    tool = _tool(sim, callbacks=[handler])
    calls = [{"query": "rust"}, {"query": "go"}, {"query": "go", "limit": 2}, {"query": "c"}]
    for args in calls:
        await tool.ainvoke(_call(args))
    await tool.ainvoke(_call({"query": "go", "site": "x.org"}))  # refused, but still shown
    await tool.aclose()
    assert handler.seen == [*calls, {"query": "go", "site": "x.org"}]


def test_injected_arguments_stay_hidden_per_schema() -> None:
    # The kept answer is per schema: of two schemas with the same names, the one that
    # injects ``user`` hides it while the other shows it, whichever is asked first.
    class ShownUser(WebSearchInput):
        user: str = ""

    class HiddenUser(WebSearchInput):
        user: Annotated[str, InjectedToolArg] = ""

    class UserTool(WebSearchTool):
        args_schema: type[BaseModel] = HiddenUser

    names = {"query": "go", "user": "u1"}
    for _ in range(2):
        assert WebSearchTool(args_schema=ShownUser)._filter_injected_args(names) == names
        assert WebSearchTool(args_schema=HiddenUser)._filter_injected_args(names) == {"query": "go"}
        assert UserTool()._filter_injected_args(names) == {"query": "go"}


def _parses(tool: BaseTool, tool_input: Any, call_id: str | None) -> object:
    """What ``tool`` parses ``tool_input`` into, or the errors it raises, as plain data."""
    try:
        return tool._parse_input(dict(tool_input), call_id)
    except ValidationError as error:  # as JSON: a validator's ValueError in ctx is text there
        return json.loads(error.json(include_url=False))
    except ValueError as error:
        return str(error)


def test_the_input_parses_as_langchain_parses_it() -> None:
    # The tools skip LangChain's per-call read of the schema's annotations where it
    # finds nothing; what they parse must stay LangChain's own answer for every schema:
    # a plain one, one with an injected tool call id, an alias, kept or dropped extras.
    class CallId(WebSearchInput):
        call: Annotated[str, InjectedToolCallId] = ""

    class Aliased(WebSearchInput):
        pages: int | None = Field(default=None, alias="max_pages")

    class Extras(WebSearchInput):
        model_config = ConfigDict(extra="allow")

    class Ignores(WebSearchInput):
        model_config = ConfigDict(extra="ignore")

    inputs: list[dict[str, Any]] = [
        {"query": "go"},
        {"query": "go", "limit": 3, "recency": "week"},
        {"query": "go", "max_pages": 2},
        {"query": "go", "site": "x.org"},
        {"query": "", "limit": 0},
        {"limit": 2},
    ]
    for schema in (WebSearchInput, CallId, Aliased, Extras, Ignores):
        tool = WebSearchTool(args_schema=schema)
        for tool_input in inputs:
            for call_id in (None, "call_7"):
                ours = _parses(tool, tool_input, call_id)
                assert ours == _parses_by_langchain(tool, tool_input, call_id), (schema, tool_input)
    fetch = WebFetchTool()
    for fetch_input in ({"url": "https://x.org/"}, {"url": "https://x.org/", "max_chars": 9}, {}):
        assert _parses(fetch, fetch_input, None) == _parses_by_langchain(fetch, fetch_input, None)


def _parses_by_langchain(tool: BaseTool, tool_input: Any, call_id: str | None) -> object:
    try:
        return BaseTool._parse_input(tool, dict(tool_input), call_id)
    except ValidationError as error:  # as JSON: a validator's ValueError in ctx is text there
        return json.loads(error.json(include_url=False))
    except ValueError as error:
        return str(error)


@pytest.fixture
def fresh_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """No schema judged or confirmed yet, as in a new process."""
    monkeypatch.setattr(_tool_calls, "_PLAIN", {})
    monkeypatch.setattr(_tool_calls, "_CONFIRMED", set())


def _recorded_parse(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """LangChain's own ``_parse_input``, each input it is handed recorded."""
    calls: list[object] = []
    real = BaseTool._parse_input

    def langchains(self: BaseTool, tool_input: Any, tool_call_id: str | None) -> Any:
        calls.append(tool_input)
        return real(self, tool_input, tool_call_id)

    monkeypatch.setattr(BaseTool, "_parse_input", langchains)
    return calls


@pytest.mark.usefixtures("fresh_parse")
def test_a_langchain_whose_injected_keys_changed_shape_parses_every_input_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The quick parse reads LangChain's private ``_injected_args_keys`` (a set): a release
    # that keeps them otherwise (here a tuple, which LangChain's own parse still iterates)
    # leaves every parse to LangChain, never a guess of ours.
    calls = _recorded_parse(monkeypatch)
    assert _parses(WebSearchTool(), {"query": "rust"}, None)  # parsed both ways: confirmed
    calls.clear()
    monkeypatch.setattr(BaseTool, "_injected_args_keys", property(lambda self: ()))
    tool = WebSearchTool()
    ours = _parses(tool, {"query": "go", "limit": 3}, None)
    assert calls == [{"query": "go", "limit": 3}]  # ours went to LangChain's own parse
    assert ours == _parses_by_langchain(tool, {"query": "go", "limit": 3}, None)


@pytest.mark.usefixtures("fresh_parse")
def test_a_langchain_that_parses_a_plain_schema_otherwise_is_followed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The quick parse stands for what LangChain 1.2.5-1.8.3 returns for a plain schema
    # (every field). A release that returns less (here: only the fields given, as
    # LangChain before 1.2.5 did) is noticed on the first input and followed from then on.
    real = BaseTool._parse_input

    def given_only(self: BaseTool, tool_input: Any, tool_call_id: str | None) -> Any:
        parsed = real(self, tool_input, tool_call_id)
        return {name: value for name, value in parsed.items() if name in tool_input}

    monkeypatch.setattr(BaseTool, "_parse_input", given_only)
    tool = WebSearchTool()
    for tool_input in ({"query": "go"}, {"query": "c", "limit": 2}, {"query": "zig"}):
        assert _parses(tool, tool_input, None) == tool_input


@pytest.mark.usefixtures("fresh_parse")
def test_a_langchain_calling_the_private_hooks_in_a_new_shape_gets_its_own_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Our tools override two private BaseTool methods; a release that passes them one more
    # argument must get its own methods' answer, not a TypeError from ours.
    seen: list[object] = []
    real_parse = BaseTool._parse_input
    real_filter = BaseTool._filter_injected_args

    def parse(self: BaseTool, tool_input: Any, tool_call_id: str | None, runtime: object) -> Any:
        seen.append(runtime)
        return real_parse(self, tool_input, tool_call_id)

    def filtered(self: BaseTool, tool_input: dict[str, Any], *, runtime: object) -> Any:
        seen.append(runtime)
        return real_filter(self, tool_input)

    monkeypatch.setattr(BaseTool, "_parse_input", parse)
    monkeypatch.setattr(BaseTool, "_filter_injected_args", filtered)
    for tool in (WebSearchTool(), WebFetchTool()):
        given = {"query": "go"} if isinstance(tool, WebSearchTool) else {"url": "https://x.org/"}
        assert tool._parse_input(dict(given), None, "rt") == real_parse(tool, dict(given), None)
        assert tool._filter_injected_args(given, runtime="rt") == given
    assert seen == ["rt"] * 4


async def test_the_schema_annotations_are_read_once(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # LangChain read every annotation of the schema on every call (for an injected tool
    # call id); the answer depends on the schema alone, so it is read once.
    reads: list[object] = []
    real = langchain_tools_base.get_all_basemodel_annotations

    def counted(cls: Any, **kwargs: Any) -> Any:
        reads.append(cls)
        return real(cls, **kwargs)

    monkeypatch.setattr(langchain_tools_base, "get_all_basemodel_annotations", counted)
    tool = _tool(sim)
    await tool.ainvoke({"query": "rust"})  # the first call may read them
    reads.clear()
    for query in ("go", "c", "zig"):
        assert (await tool.ainvoke({"query": query})).startswith(f"[1] {query} result 1")
        await tool.ainvoke(_call({"query": query}))
    await tool.aclose()
    assert reads == []


async def test_fallback_is_recorded_in_the_artifact(sim: Simulator) -> None:
    sim["brave"].enqueue(Fault.payment_required())
    tool = _tool(sim)
    message = await tool.ainvoke(_call({"query": "python asyncio"}))
    await tool.aclose()
    response = message.artifact["response"]
    assert response["provider"] == "duckduckgo"
    assert [(a["provider"], a["outcome"]) for a in response["attempts"]] == [
        ("brave", "failed"),
        ("duckduckgo", "success"),
    ]


async def test_provider_failure_is_error_text_with_the_artifact(sim: Simulator) -> None:
    sim["brave"].always(Fault.server_error(503, "upstream down"))
    tool = _tool(sim, "duckduckgo")
    message = await tool.ainvoke(_call({"query": "python"}))
    await tool.aclose()
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert message.tool_call_id == "call_1"
    assert message.name == "web_search"
    assert message.content.startswith("Error: ")
    assert message.artifact is not None
    assert message.artifact["error"] == message.content.removeprefix("Error: ")
    assert message.artifact["response"]["provider"] == "brave"
    assert message.artifact["response"]["attempts"][0]["status"] == 503
    assert "sim-key-brave" not in message.content


def test_sync_failure_is_error_text_too(threaded_sim: Simulator) -> None:
    threaded_sim["brave"].always(Fault.unauthorized())
    message = _tool(threaded_sim, "duckduckgo").invoke(_call({"query": "python"}))
    assert message.status == "error"
    assert message.content.startswith("Error: ")
    assert message.artifact["error"]


def test_failure_without_a_tool_call_is_the_error_text(threaded_sim: Simulator) -> None:
    threaded_sim["brave"].always(Fault.unauthorized())
    content = _tool(threaded_sim, "duckduckgo").invoke({"query": "python"})
    assert content == "Error: Brave authorization failed (401). Check API key or base URL."


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"query": "python", "limit": 0}, "limit"),
        ({"query": "python", "temperature": 3.5}, "temperature"),
        ({"query": "python", "recency": "decade"}, "recency"),
        ({"query": ""}, "query"),
        ({"limit": 3}, "query"),
    ],
)
async def test_invalid_arguments_go_back_to_the_model(
    sim: Simulator, args: dict[str, Any], field: str
) -> None:
    tool = _tool(sim)
    message = await tool.ainvoke(_call(args))
    await tool.aclose()
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert message.content.startswith("Error: invalid web_search arguments:")
    assert field in message.content
    assert sim["brave"].requests == []


def test_blank_query_is_rejected_by_the_core_rules(threaded_sim: Simulator) -> None:
    message = _tool(threaded_sim).invoke(_call({"query": "   "}))
    assert message.status == "error"
    assert "query" in message.content
    assert threaded_sim["brave"].requests == []


async def test_the_model_cannot_force_a_provider(sim: Simulator) -> None:
    tool = _tool(sim)
    message = await tool.ainvoke(_call({"query": "python", "provider": "duckduckgo"}))
    await tool.aclose()
    assert message.status == "error"  # refused, as LlamaIndex refuses it, never dropped
    assert message.content.startswith(
        "Error: invalid web_search arguments: provider: not an argument; the arguments are query,"
    )
    assert sim["duckduckgo"].requests == [] and sim["brave"].requests == []


async def test_preferred_provider_is_construction_time_config(sim: Simulator) -> None:
    tool = _tool(sim, provider="duckduckgo", timeout_seconds=2)
    message = await tool.ainvoke(_call({"query": "python"}))
    await tool.aclose()
    assert message.artifact["response"]["provider"] == "duckduckgo"
    assert sim["brave"].requests == []


async def test_configuration_errors_become_error_messages(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", "altavista")  # read when the tool first searches
    tool = WebSearchTool(api_keys=sim.api_keys())
    message = await tool.ainvoke(_call({"query": "python"}))
    await tool.aclose()
    assert message.status == "error"
    assert message.content.startswith(
        "Error: configuration: WEBSEARCH_EXCLUDE: unknown provider id altavista"
    )


async def test_a_given_web_search_is_used_and_left_open(sim: Simulator) -> None:
    async with WebSearch(sim_settings(sim), api_keys=sim.api_keys()) as web_search:
        tool = WebSearchTool(web_search=web_search)
        await tool.ainvoke({"query": "one"})
        await tool.aclose()
        result = await web_search.run("two")  # still usable
    assert result.response.provider == "brave"
    assert len(sim["brave"].requests) == 2


async def test_sync_invoke_inside_a_running_loop(threaded_sim: Simulator) -> None:
    # LangChain and notebooks call sync tools from inside a loop; the bridge must cope.
    message = _tool(threaded_sim).invoke(_call({"query": "python"}))
    assert message.artifact["response"]["provider"] == "brave"


def test_one_tool_across_event_loops(
    threaded_sim: Simulator, sessions: list[aiohttp.ClientSession]
) -> None:
    # An aiohttp session dies with its loop; a second asyncio.run gets a fresh client, and
    # the first loop closed its own session when it shut down (no aclose was called).
    tool = _tool(threaded_sim)

    async def search(query: str, *, close: bool) -> str:
        content = await tool.ainvoke({"query": query})
        if close:
            await tool.aclose()
        assert isinstance(content, str)
        return content

    assert asyncio.run(search("first", close=False)).startswith("[1] first")
    assert len(sessions) == 1
    assert sessions[0].closed
    assert asyncio.run(search("second", close=True)).startswith("[1] second")
    assert len(sessions) == 2
    assert sessions[1].closed
    assert len(threaded_sim["brave"].requests) == 2


# --- an agent loop with a fake chat model ---------------------------------------------------


def _fake_model(query: str) -> GenericFakeChatModel:
    call = ToolCall(name="web_search", args={"query": query, "limit": 2}, id="tc_1")
    return GenericFakeChatModel(
        messages=iter(
            [AIMessage(content="", tool_calls=[call]), AIMessage(content="Answer from sources.")]
        )
    )


def _run_agent(model: GenericFakeChatModel, tools: list[BaseTool]) -> list[BaseMessage]:
    by_name = {tool.name: tool for tool in tools}
    messages: list[BaseMessage] = [HumanMessage("What is new in asyncio?")]
    while True:
        reply = model.invoke(messages)
        assert isinstance(reply, AIMessage)
        messages.append(reply)
        if not reply.tool_calls:
            return messages
        messages.extend(by_name[call["name"]].invoke(call) for call in reply.tool_calls)


async def _arun_agent(model: GenericFakeChatModel, tools: list[BaseTool]) -> list[BaseMessage]:
    by_name = {tool.name: tool for tool in tools}
    messages: list[BaseMessage] = [HumanMessage("What is new in asyncio?")]
    while True:
        reply = await model.ainvoke(messages)
        assert isinstance(reply, AIMessage)
        messages.append(reply)
        if not reply.tool_calls:
            return messages
        results = await asyncio.gather(
            *(by_name[call["name"]].ainvoke(call) for call in reply.tool_calls)
        )
        messages.extend(results)


def test_agent_loop_calls_the_tool(threaded_sim: Simulator) -> None:
    messages = _run_agent(_fake_model("asyncio news"), [_tool(threaded_sim)])
    _human, _call_message, tool_message, final = messages
    assert isinstance(tool_message, ToolMessage)
    assert tool_message.tool_call_id == "tc_1"
    assert tool_message.content.startswith("[1] asyncio news result 1")
    assert tool_message.artifact["response"]["provider"] == "brave"
    assert final.content == "Answer from sources."
    assert threaded_sim["brave"].requests[0].query_dict()["count"] == "2"


async def test_async_agent_loop_survives_provider_failure(sim: Simulator) -> None:
    sim["brave"].always(Fault.rate_limited(retry_after=30))
    sim["duckduckgo"].always(Fault.challenge())
    tool = _tool(sim)
    messages = await _arun_agent(_fake_model("asyncio news"), [tool])
    await tool.aclose()
    tool_message = messages[2]
    assert isinstance(tool_message, ToolMessage)
    assert tool_message.content.startswith("Error: All web search providers failed:")
    assert tool_message.artifact["error"]
    assert messages[-1].content == "Answer from sources."


# --- LangChain standard tests (when langchain-tests is installed) ---------------------------

try:
    from langchain_tests.integration_tests import ToolsIntegrationTests
    from langchain_tests.unit_tests import ToolsUnitTests
except ImportError:  # not a dependency; the suites above cover the same contract

    def test_langchain_standard_tests() -> None:
        pytest.skip("langchain-tests is not installed")

else:

    class TestWebSearchToolUnit(ToolsUnitTests):
        @property
        def tool_constructor(self) -> type[WebSearchTool]:
            return WebSearchTool

        @property
        def tool_constructor_params(self) -> dict[str, Any]:
            return {"api_keys": {"brave": "sk-fake"}, "provider": "brave"}

        @property
        def tool_invoke_params_example(self) -> dict[str, Any]:
            return {"query": "best time to visit japan", "limit": 3}

    class TestWebSearchToolIntegration(ToolsIntegrationTests):
        @pytest.fixture(autouse=True)
        def _simulated(
            self, monkeypatch: pytest.MonkeyPatch, sessions: list[aiohttp.ClientSession]
        ) -> Iterator[None]:
            with Simulator(["brave"]).running_in_thread() as simulator:
                monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", simulator["brave"].base_url)
                monkeypatch.setenv("BRAVE_API_KEY", "sim-key-brave")
                others = [pid for pid in SEARCH_PROVIDER_ORDER if pid != "brave"]
                monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
                yield
            # The standard tests never close the tool: its loop must have closed the session.
            assert all(session.closed for session in sessions)

        @property
        def tool_constructor(self) -> type[WebSearchTool]:
            return WebSearchTool

        @property
        def tool_invoke_params_example(self) -> dict[str, Any]:
            return {"query": "best time to visit japan", "limit": 3}
