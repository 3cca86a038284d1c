"""Every adapter refuses a mistyped constructor argument with the argument probably meant.

``langchain_websearch.WebSearchTool(api_key=...)`` was refused with pydantic's bare
``Extra inputs are not permitted`` and ``llamaindex_websearch.WebSearchRetriever(api_key=...)``
with Python's bare ``unexpected keyword argument``: neither said ``api_keys``. The LlamaIndex
tool factories and spec, which keep their ``WebSearch`` arguments for the first call, were
refused only by that call.
"""

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from langchain_websearch import WebFetchTool, WebSearchTool
from langchain_websearch import WebSearchRetriever as LangChainRetriever
from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever
from llamaindex_websearch import (
    WebSearchToolSpec,
    create_web_fetch_tool,
    create_web_search_tool,
    web_fetch_metadata,
    web_search_metadata,
)
from websearch_core import ConfigurationError, WebSearch

SECRET = "sk-mistyped-test-91d0"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"api_key": SECRET}, "'api_key'; did you mean api_keys?"),
        ({"timeout": 5}, "'timeout'; did you mean timeout_seconds?"),
        ({"incude_answer": True}, "'incude_answer'; did you mean include_answer?"),
        ({"colour": "red"}, "'colour'"),
    ],
)
def test_the_llamaindex_retriever_names_the_argument_meant(
    given: dict[str, Any], expected: str
) -> None:
    # Worded as the factories word it, listing what it takes (its own keywords and every
    # WebSearch option) now that it takes those options too.
    with pytest.raises(TypeError) as caught:
        LlamaIndexRetriever(**given)
    message = str(caught.value)
    takes = ", ".join(_factory_keywords(LlamaIndexRetriever))
    assert message == (
        f"WebSearchRetriever() got an unexpected keyword argument {expected} "
        f"(WebSearchRetriever() takes {takes})"
    )
    assert SECRET not in message


@pytest.mark.parametrize(
    "build",
    [create_web_search_tool, WebSearchToolSpec, create_web_fetch_tool],
    ids=lambda build: build.__name__,
)
@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"api_key": SECRET}, "'api_key'; did you mean api_keys?"),
        ({"timeout": 5}, "'timeout'; did you mean timeout_seconds?"),
        ({"provder": "brave"}, "'provder'; did you mean provider?"),
        ({"colour": "red"}, "'colour'"),
    ],
)
def test_the_llamaindex_tools_refuse_a_mistyped_option_when_built(
    build: Callable[..., object], given: dict[str, Any], expected: str
) -> None:
    # Refused by the call that has the typo, not by the tool's first search, listing what
    # the call takes as a tool class called directly does.
    with pytest.raises(TypeError) as caught:
        build(**given)
    message = str(caught.value)
    owner = build.__name__
    takes = ", ".join(_factory_keywords(build))
    assert message == (
        f"{owner}() got an unexpected keyword argument {expected} ({owner}() takes {takes})"
    )
    assert SECRET not in message


def _factory_keywords(build: Callable[..., object]) -> list[str]:
    """What a factory takes, in the refusal's order: web_search, its own, WebSearch's options."""
    import inspect

    from websearch_core.client import WebSearchOptions

    own = [p.name for p in inspect.signature(build).parameters.values() if p.kind is p.KEYWORD_ONLY]
    return ["web_search", *own, *sorted(WebSearchOptions.__optional_keys__)]


def test_the_llamaindex_fetch_tool_names_its_own_option_too() -> None:
    with pytest.raises(TypeError) as caught:
        create_web_fetch_tool(allow_private=True)  # type: ignore[call-arg]
    assert str(caught.value).startswith(
        "create_web_fetch_tool() got an unexpected keyword argument 'allow_private'; did you "
        "mean allow_private_addresses? (create_web_fetch_tool() takes web_search, "
        "allow_private_addresses, api_keys, "
    )


@pytest.mark.parametrize("build", [web_search_metadata, web_fetch_metadata])
def test_the_llamaindex_metadata_factories_name_the_argument_meant(
    build: Callable[..., object],
) -> None:
    with pytest.raises(TypeError) as caught:
        build(nme="search")
    expected = f"{build.__name__}() got an unexpected keyword argument 'nme'; did you mean name?"
    assert str(caught.value) == expected
    assert build(name="search").name == "search"  # type: ignore[attr-defined]


def test_the_llamaindex_tools_still_take_every_web_search_option() -> None:
    # Each name WebSearch takes passes the name check. A value its setting refuses (None
    # for most) is refused too, since the values are checked when the tool is built (as
    # WebSearch would refuse it at the first call): named as that option, never as a name.
    from websearch_core.client import WEB_SEARCH_OPTION_NAMES

    for name in sorted(WEB_SEARCH_OPTION_NAMES):
        options: dict[str, Any] = {name: None}
        for build in (create_web_search_tool, WebSearchToolSpec, create_web_fetch_tool):
            try:
                build(**options)
            except ConfigurationError as error:
                assert str(error).startswith(f"{build.__name__}(): {name}: ")


def test_the_llamaindex_retriever_keeps_its_signature_and_arguments() -> None:
    """Its own keywords stay in the signature; the client's are the factories' typed options."""
    import inspect

    parameters = inspect.signature(LlamaIndexRetriever).parameters
    assert {"web_search", "k", "include_answer", "recency"} <= parameters.keys()
    assert parameters["options"].kind is inspect.Parameter.VAR_KEYWORD
    assert "WebSearchOptions" in str(parameters["options"].annotation)
    retriever = LlamaIndexRetriever(None, k=3, include_answer=True, api_keys={"brave": "k-1"})
    assert (retriever.k, retriever.include_answer) == (3, True)


@pytest.mark.parametrize("adapter", [WebSearchTool, WebFetchTool, LangChainRetriever])
def test_the_langchain_adapters_name_the_argument_meant_beside_other_errors(
    adapter: type[BaseModel],
) -> None:
    with pytest.raises(ValidationError) as caught:
        adapter(api_key=SECRET, provider="brav")
    errors = [(".".join(map(str, e["loc"])), e["type"], e["msg"]) for e in caught.value.errors()]
    assert caught.value.title == adapter.__name__
    assert errors == [
        ("provider", "value_error", "Value error, Unknown search provider: brav " + _known()),
        ("api_key", "extra_forbidden", "unexpected keyword argument; did you mean api_keys?"),
    ]
    assert SECRET not in str(caught.value)


def test_a_mistyped_setting_in_given_settings_is_named_as_a_setting() -> None:
    with pytest.raises(ValidationError) as caught:
        WebSearchTool(settings={"timeout": 5})
    assert [(e["loc"], e["msg"]) for e in caught.value.errors()] == [
        (("settings", "timeout"), "not a setting; did you mean timeout_seconds?")
    ]


def _known() -> str:
    from websearch_core.provider_ids import unknown_provider_message

    return unknown_provider_message("brav").removeprefix("Unknown search provider: brav ")


def _direct_classes() -> list[tuple[type[Any], str]]:
    """Each LlamaIndex tool class with the factory that builds it from WebSearch options."""
    from llamaindex_websearch import WebFetchFunctionTool, WebSearchFunctionTool

    return [
        (WebSearchFunctionTool, "create_web_search_tool"),
        (WebFetchFunctionTool, "create_web_fetch_tool"),
    ]


def _function_tool_keywords() -> str:
    """FunctionTool's keywords, as the refusal lists them (read, so an upgrade is followed)."""
    import inspect

    from llama_index.core.tools import FunctionTool

    return ", ".join(inspect.signature(FunctionTool).parameters)


def _from_defaults_keywords() -> str:
    """FunctionTool.from_defaults's keywords, as the refusal lists them."""
    import inspect

    from llama_index.core.tools import FunctionTool

    return ", ".join(inspect.signature(FunctionTool.from_defaults).parameters)


def _keyword_cases() -> list[Any]:
    """Each mistyped keyword, given to a tool class called directly and to its from_defaults.

    Each case is (how the tool is built, the keyword given, how the refusal names it, the
    factory option it probably meant or None).
    """
    called = [
        ("api_key", {"api_key": SECRET}, "'api_key'; did you mean api_keys?", "api_keys"),
        ("api_keys", {"api_keys": {"brave": SECRET}}, "'api_keys'", "api_keys"),
        ("timeout", {"timeout": 5}, "'timeout'; did you mean timeout_seconds?", "timeout_seconds"),
        ("fnn", {"fnn": print}, "'fnn'; did you mean fn?", None),
        ("colour", {"colour": "red"}, "'colour'", None),
    ]
    from_defaults = [
        ("api_key", {"api_key": SECRET}, "'api_key'; did you mean api_keys?", "api_keys"),
        ("timeout", {"timeout": 5}, "'timeout'; did you mean timeout_seconds?", "timeout_seconds"),
        ("nme", {"nme": "echo"}, "'nme'; did you mean name?", None),
        ("colour", {"colour": "red"}, "'colour'", None),
    ]
    return [
        pytest.param(how, given, named, meant, id=f"{how}-{case}")
        for how, cases in (("called", called), ("from_defaults", from_defaults))
        for case, given, named, meant in cases
    ]


@pytest.mark.parametrize(("tool", "factory"), _direct_classes(), ids=["search", "fetch"])
@pytest.mark.parametrize(("how", "given", "named", "meant"), _keyword_cases())
def test_a_llamaindex_tool_class_names_the_keyword_and_its_factory(
    tool: type[Any], factory: str, how: str, given: dict[str, Any], named: str, meant: str | None
) -> None:
    # Called directly: FunctionTool.__init__() got an unexpected keyword argument 'api_key'
    # named neither the class called, nor api_keys, nor the factory that takes it. Its
    # from_defaults() said the same of FunctionTool.from_defaults(); worded now as the class
    # called directly is.
    with pytest.raises(TypeError) as caught:
        if how == "called":
            tool(**given)
        else:
            tool.from_defaults(fn=lambda query: query, **given)
    if how == "called":
        owner, takes = tool.__name__, _function_tool_keywords()
    else:
        owner, takes = f"{tool.__name__}.from_defaults", _from_defaults_keywords()
    if meant is None:
        where = f"{owner}() takes {takes}; {factory}() builds one from WebSearch options"
    else:
        where = (
            f"{meant} is an option of {factory}(), which builds this tool; "
            f"{owner}() itself takes {takes}"
        )
    message = str(caught.value)
    assert message == f"{owner}() got an unexpected keyword argument {named} ({where})"
    assert SECRET not in message


def test_the_llamaindex_fetch_tool_class_names_its_factorys_own_option() -> None:
    from llamaindex_websearch import WebFetchFunctionTool, WebSearchFunctionTool

    with pytest.raises(TypeError, match=r"did you mean allow_private_addresses\? \(allow_priv"):
        WebFetchFunctionTool(allow_private=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError) as caught:  # not an option of the search tool's factory
        WebSearchFunctionTool(allow_private_addresses=True)  # type: ignore[call-arg]
    assert "create_web_search_tool() builds one from WebSearch options" in str(caught.value)


@pytest.mark.parametrize(("tool", "factory"), _direct_classes(), ids=["search", "fetch"])
def test_a_llamaindex_tool_class_still_takes_function_tools_arguments(
    tool: type[Any], factory: str
) -> None:
    import inspect

    from llama_index.core.tools import FunctionTool

    # What type checkers and inspect see is FunctionTool's own signature.
    assert inspect.signature(tool) == inspect.signature(FunctionTool)
    metadata = web_search_metadata(name="echo")
    by_keyword = tool(fn=lambda query: f"echo {query}", metadata=metadata)
    by_position = tool(lambda query: f"echo {query}", metadata)
    defaults = tool.from_defaults(fn=lambda query: f"echo {query}", name="echo")
    for built in (by_keyword, by_position, defaults):
        assert type(built) is tool
        assert FunctionTool.call(built, query="x").content == "echo x"


def test_a_subclass_of_a_llamaindex_tool_class_keeps_its_own_keywords() -> None:
    from llama_index.core.tools import FunctionTool

    from llamaindex_websearch import WebSearchFunctionTool

    class Tagged(WebSearchFunctionTool):
        def __init__(self, *args: Any, tag: str = "", **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.tag = tag

    class Named(WebSearchFunctionTool):
        def __init__(self, fn: Any, metadata: Any, label: str = "") -> None:
            super().__init__(fn=fn, metadata=metadata)
            self.label = label

    metadata = web_search_metadata(name="echo")
    tagged = Tagged(fn=lambda query: query, metadata=metadata, tag="mine")
    assert tagged.tag == "mine"
    assert Named(fn=lambda query: query, metadata=metadata, label="mine").label == "mine"
    with pytest.raises(TypeError) as caught:  # its own keywords, under its own name
        Named(fn=lambda query: query, metadata=metadata, lable="mine")  # type: ignore[call-arg]
    assert str(caught.value) == (
        "Named() got an unexpected keyword argument 'lable'; did you mean label? "
        "(Named() takes fn, metadata, label; create_web_search_tool() builds one from "
        "WebSearch options)"
    )
    assert isinstance(tagged, FunctionTool)


def test_from_defaults_mistakes_stay_type_errors_for_mypy_and_at_run_time() -> None:
    # Each call below is a mypy error (the ignores are checked by warn_unused_ignores), so
    # the run-time check did not hide FunctionTool.from_defaults's signature.
    from llamaindex_websearch import WebFetchFunctionTool, WebSearchFunctionTool

    with pytest.raises(TypeError, match=r"did you mean api_keys\? \(api_keys is an option"):
        WebSearchFunctionTool.from_defaults(fn=print, api_key=SECRET)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"did you mean allow_private_addresses\? \(allow_priv"):
        WebFetchFunctionTool.from_defaults(fn=print, allow_private=True)  # type: ignore[call-arg]


def _needs(owner: str, missing: str, factory: str) -> str:
    return (
        f"{owner}() needs {missing} (it is a FunctionTool: it calls the function it is given); "
        f"for a working tool call {factory}() instead, which takes WebSearch options "
        "(api_keys=, provider=, ...)"
    )


@pytest.mark.parametrize(("tool", "factory"), _direct_classes(), ids=["search", "fetch"])
def test_a_llamaindex_tool_class_without_a_function_says_how_to_get_a_working_one(
    tool: type[Any], factory: str
) -> None:
    # FunctionTool's 'fn or async_fn must be provided.' (or, from from_defaults, an
    # AssertionError 'fn must be provided') never said that the factory builds one.
    name = tool.__name__
    metadata = web_search_metadata(name="echo")
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: tool(), _needs(name, "fn or async_fn and metadata", factory)),
        (lambda: tool(metadata=metadata), _needs(name, "fn or async_fn", factory)),
        (lambda: tool(None, metadata), _needs(name, "fn or async_fn", factory)),
        (lambda: tool(fn=print), _needs(name, "metadata", factory)),
        (lambda: tool.from_defaults(), _needs(f"{name}.from_defaults", "fn or async_fn", factory)),
        (
            lambda: tool.from_defaults(tool_metadata=metadata),
            _needs(f"{name}.from_defaults", "fn or async_fn", factory),
        ),
    ]
    for call, expected in calls:
        with pytest.raises(ValueError) as caught:  # still FunctionTool's exception type
            call()
        assert str(caught.value) == expected


def test_a_copy_of_a_llamaindex_tool_is_not_refused_as_a_call_without_a_function() -> None:
    import copy
    import pickle

    tool = create_web_search_tool(provider="brave")
    for copied in (copy.copy(tool), copy.deepcopy(tool), pickle.loads(pickle.dumps(tool))):
        assert type(copied) is type(tool)
        assert copied.metadata.name == "web_search"


@pytest.mark.parametrize(("tool", "factory"), _direct_classes(), ids=["search", "fetch"])
def test_a_llamaindex_tool_class_given_no_function_to_call_names_its_factory(
    tool: type[Any], factory: str
) -> None:
    # Both answered in FunctionTool's words alone: "<WebSearch object> is not a callable
    # object" (a WebSearch passed as to the LangChain tool) and, for seven positional
    # arguments, "1 is not a callable object".
    name = tool.__name__
    advice = (
        f"for a working tool call {factory}() instead, which takes WebSearch options "
        "(api_keys=, provider=, ...)"
    )
    with pytest.raises(TypeError) as not_a_function:
        tool(WebSearch(), web_search_metadata(name="echo"))
    assert str(not_a_function.value) == (
        f"{name}(): fn must be a function to call, got WebSearch (it is a FunctionTool: it "
        f"calls the function it is given); {advice}"
    )
    with pytest.raises(TypeError) as from_defaults:
        tool.from_defaults(async_fn="search")
    assert str(from_defaults.value).startswith(
        f"{name}.from_defaults(): async_fn must be a function to call, got str"
    )
    with pytest.raises(TypeError) as too_many:
        tool(1, 2, 3, 4, 5, 6, 7)
    assert str(too_many.value) == (
        f"{name}(): too many positional arguments (it is a FunctionTool and takes fn, "
        f"metadata, async_fn, callback, async_callback, partial_params); {advice}"
    )
