"""The LangChain and LlamaIndex tools answer the same call with the same text and status."""

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.messages.tool import ToolCall

from langchain_websearch import WebSearchTool
from llamaindex_websearch import WebSearchToolSpec, create_web_search_tool
from tests.integrations._helpers import sim_settings
from websearch_core import SEARCH_PROVIDER_ORDER, WebSearch
from websearch_core.testing import Fault, Simulator


def _call(args: dict[str, Any]) -> ToolCall:
    return ToolCall(name="web_search", args=args, id="call_1", type="tool_call")


async def _both(args: dict[str, Any], **options: Any) -> tuple[ToolMessage, Any]:
    """One call through each adapter; both built from the same options."""
    async with WebSearchTool(**options) as langchain_tool:
        message = await langchain_tool.ainvoke(_call(args))
    async with create_web_search_tool(**options) as llamaindex_tool:
        output = await llamaindex_tool.acall(**args)
    assert isinstance(message, ToolMessage)
    return message, output


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"query": "python", "limit": 0}, "limit: must be at least 1 and at most 100 results"),
        ({"query": "python", "limit": "5"}, "limit: Input should be a valid integer"),
        ({"query": "python", "temperature": 3.5}, "temperature: must be at least 0 and at most 2"),
        ({"query": "python", "recency": "decade"}, "recency: Input should be 'day', 'week'"),
        ({"query": ""}, "query: must not be empty or only whitespace"),
        ({"query": "   "}, "query: must not be empty or only whitespace"),
        ({"limit": 3}, "query: Field required"),
        # Invented filters are refused in both, never dropped into an unfiltered search.
        (
            {"query": "rust", "site": "docs.rs"},
            "site: not an argument (write site:<domain> in the query); the arguments are query, ",
        ),
        (
            {"query": "rust after:2026-02-01 before:2026-01-01"},
            "query: after:2026-02-01 is later than before:2026-01-01, so no date is in the range",
        ),
        ({"query": "rust", "provider": "brave"}, "provider: not an argument; the arguments are "),
        ({"query": "rust", "limits": 3}, "limits: not an argument (did you mean limit?); "),
    ],
)
async def test_invalid_arguments_give_the_same_error(
    sim: Simulator, args: dict[str, Any], expected: str
) -> None:
    options = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    message, output = await _both(args, **options)
    assert message.status == "error"
    assert output.is_error
    assert message.content == output.content
    assert isinstance(message.content, str)
    assert message.content.startswith(f"Error: invalid web_search arguments: {expected}")
    assert sim["brave"].requests == []


async def test_a_failed_search_is_an_error_in_both(sim: Simulator) -> None:
    sim["brave"].always(Fault.server_error(503, "upstream down"))
    sim["duckduckgo"].always(Fault.challenge())
    options = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    message, output = await _both({"query": "python"}, **options)
    assert message.status == "error"
    assert output.is_error
    assert message.content == output.content
    assert isinstance(message.content, str)
    assert message.content.startswith("Error: All web search providers failed: brave: ")
    assert message.artifact["error"] == output.raw_output["error"]
    assert message.artifact["error"] == message.content.removeprefix("Error: ")
    for details in (message.artifact, output.raw_output):
        attempts = details["response"]["attempts"]
        assert [(a["provider"], a["outcome"], a["status"]) for a in attempts] == [
            ("brave", "failed", 503),
            ("duckduckgo", "failed", 429),
        ]


async def test_a_good_search_is_a_success_in_both(sim: Simulator) -> None:
    options = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    message, output = await _both({"query": "python", "limit": 2}, **options)
    assert message.status == "success"
    assert not output.is_error
    assert message.content == output.content
    # Each source's age is counted when its search parsed it: two searches a moment apart
    # can straddle a second (29200516 against 29200517 in one CI run), nothing else may differ.
    ages: list[list[int]] = []
    stripped: list[list[dict[str, object]]] = []
    for details in (message.artifact, output.raw_output):
        sources = details["response"]["sources"]
        ages.append([source["age_seconds"] for source in sources])
        stripped.append([{k: v for k, v in s.items() if k != "age_seconds"} for s in sources])
    assert stripped[0] == stripped[1] and len(stripped[0]) == 2
    assert all(abs(a - b) <= 2 for a, b in zip(*ages, strict=True))


def _broken_toml(path: Path) -> str:
    path.write_text("provider = [unclosed\n")
    return f"config file {path} is not valid TOML: "


def _not_utf8(path: Path) -> str:
    path.write_bytes(b'provider = "\xff\xfe"\n')
    return f"config file {path} is not UTF-8 text (byte 12 cannot be decoded)"


def _bad_setting_in_file(path: Path) -> str:
    path.write_text("cache_ttl_seconds = -5\n")
    return f"config file {path} (cache_ttl_seconds): must be more than 0 seconds"


@pytest.mark.parametrize("write", [_broken_toml, _not_utf8, _bad_setting_in_file])
async def test_a_bad_config_file_is_named_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: Any
) -> None:
    config = tmp_path / "config.toml"
    expected = write(config)
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    message, output = await _both({"query": "python"})
    _assert_configuration_error(message, output, expected)


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        (
            "WEBSEARCH_TIMEOUT_SECONDS",
            "soon",
            "WEBSEARCH_TIMEOUT_SECONDS: Input should be a valid number",
        ),
        (
            "WEBSEARCH_TIMEOUT_SECONDS",
            "9999",
            "WEBSEARCH_TIMEOUT_SECONDS: must be more than 0 and at most 300 seconds",
        ),
        (
            "WEBSEARCH_REDIS_URL",
            "http://user:hunter2@cache.internal:6379",
            "WEBSEARCH_REDIS_URL: redis_url must start with one of redis://, rediss://, unix://",
        ),
        (
            "WEBSEARCH_REDIS_URL",
            "redis://:hunter2@cache.internal:63 79/0",
            "WEBSEARCH_REDIS_URL: redis_url has an invalid host or port (a port is a number up "
            "to 65535; an IPv6 address goes in brackets)",
        ),
        (
            "WEBSEARCH_EXCLUDE",
            "altavista",
            "WEBSEARCH_EXCLUDE: unknown provider id altavista (known: perplexity",
        ),
    ],
)
async def test_a_bad_variable_is_named_in_one_line(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, expected: str
) -> None:
    monkeypatch.setenv(name, value)
    others = ",".join(pid for pid in SEARCH_PROVIDER_ORDER if pid != "duckduckgo")
    if name != "WEBSEARCH_EXCLUDE":  # nothing may reach a real site if the error is missed
        monkeypatch.setenv("WEBSEARCH_EXCLUDE", others)
        monkeypatch.setenv("WEBSEARCH_DUCKDUCKGO_BASE_URL", "http://127.0.0.1:9")
    message, output = await _both({"query": "python"})
    _assert_configuration_error(message, output, expected)
    assert "hunter2" not in message.content


async def test_a_credential_store_that_is_not_utf8_leaves_the_keyless_engine_to_answer(
    sim: Simulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Brave's key is looked for in the store, which an editor saved in Latin-1. This test
    # pinned "Error: configuration: ..." for both tools; the spec's availability probes
    # swallow lookup errors, so Brave is passed over and DuckDuckGo (no key) answers
    # alike in both, the store's problem in the artifact's notes.
    store = tmp_path / "credentials.json"
    store.write_bytes(b'{"brave": {"api_key": "caf\xe9"}}')
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(store))
    message, output = await _both({"query": "python"}, settings=sim_settings(sim))
    problem = f"credential store {store} is not UTF-8 text (byte 26 cannot be decoded); "
    assert message.status == "success"
    assert not output.is_error
    assert message.content == output.content
    for details in (message.artifact, output.raw_output):
        assert details["response"]["provider"] == "duckduckgo"
        assert [n for n in details["response"]["notes"] if n.startswith(problem)] != []
    assert sim["brave"].requests == []
    assert len(sim["duckduckgo"].requests) == 2


def _assert_configuration_error(message: ToolMessage, output: Any, expected: str) -> None:
    assert message.status == "error"
    assert output.is_error
    assert message.content == output.content
    assert isinstance(message.content, str)
    assert message.content.startswith(f"Error: configuration: {expected}")
    assert "\n" not in message.content
    assert message.artifact is None
    assert output.raw_output == {"error": message.content.removeprefix("Error: ")}


TOOL_BUILDERS: list[tuple[str, Callable[..., object]]] = [
    ("WebSearchTool", WebSearchTool),
    ("create_web_search_tool", create_web_search_tool),
    ("WebSearchToolSpec", WebSearchToolSpec),
]
"""Every way to build ``web_search`` in either framework from the options they share."""


@pytest.mark.parametrize(("owner", "build"), TOOL_BUILDERS)
@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("timeout_seconds", 0, "must be more than 0 and at most 300 seconds"),
        ("timeout_seconds", -1.5, "must be more than 0 and at most 300 seconds"),
        ("timeout_seconds", math.inf, "Input should be a finite number"),
        ("timeout_seconds", math.nan, "Input should be a finite number"),
        ("timeout_seconds", 301, "must be more than 0 and at most 300 seconds"),
        ("timeout_seconds", "soon", "Input should be a valid number"),
        ("provider", 5, "Input should be a valid string"),
    ],
)
def test_a_shared_option_either_tool_refuses_is_refused_when_it_is_built(
    owner: str, build: Callable[..., object], option: str, value: object, expected: str
) -> None:
    """LlamaIndex's builders took these and answered every call ``Error: configuration``.

    LangChain's tool refuses them as it is built (its options are checked fields); the
    LlamaIndex factory and spec now do too, naming the option in the same pydantic words
    (each raising its own kind of ``ValueError``: see the README's list of differences).
    """
    with pytest.raises(ValueError) as raised:
        build(**{option: value})
    message = str(raised.value)
    assert option in message
    assert expected in message


@pytest.mark.parametrize(("owner", "build"), TOOL_BUILDERS)
@pytest.mark.parametrize(
    ("option", "value"), [("timeout_seconds", "5"), ("timeout_seconds", 300), ("provider", "auto")]
)
def test_guard_a_shared_option_either_tool_takes_builds_both(
    owner: str, build: Callable[..., object], option: str, value: object
) -> None:
    """Guard (passes before and after): the build-time check refuses only what fails later."""
    assert build(**{option: value}) is not None


async def test_no_keys_given_as_none_builds_and_searches_in_both(sim: Simulator) -> None:
    """``api_keys=None`` (an optional mapping passed on) means no keys in code in both.

    ``WebSearch`` and LlamaIndex's factory took it; LangChain's tool refused it (``Input
    should be a valid dictionary``). DuckDuckGo, keyless, answers in both.
    """
    message, output = await _both({"query": "python"}, settings=sim_settings(sim), api_keys=None)
    assert message.status == "success"
    assert not output.is_error
    assert message.content == output.content
    assert sim["brave"].requests == []
    assert len(sim["duckduckgo"].requests) == 2


@pytest.mark.parametrize(("owner", "build"), TOOL_BUILDERS)
def test_a_client_beside_options_to_build_one_is_refused_alike(
    owner: str, build: Callable[..., object]
) -> None:
    """Both name the options given, in one wording (LangChain's listed its four options,
    LlamaIndex's said ``WebSearch arguments`` and named neither the call nor the option)."""
    client = WebSearch(exclude=list(SEARCH_PROVIDER_ORDER))
    with pytest.raises((TypeError, ValueError)) as raised:
        build(web_search=client, provider="brave", api_keys={}, timeout_seconds=5)
    expected = "pass either web_search or the options to build a client "
    assert f"{expected}(provider, timeout_seconds), not both" in str(raised.value)


@pytest.mark.parametrize(("owner", "build"), TOOL_BUILDERS)
def test_options_that_hold_nothing_beside_a_client_build_either_tool(
    owner: str, build: Callable[..., object]
) -> None:
    """``provider=None`` or ``api_keys={}`` passed on beside a client change nothing.

    LangChain's tool took them; LlamaIndex's builders refused any keyword at all.
    """
    client = WebSearch(exclude=list(SEARCH_PROVIDER_ORDER))
    assert build(web_search=client, provider=None, api_keys={}, settings=None) is not None


@pytest.mark.parametrize(("owner", "build"), TOOL_BUILDERS)
@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        (
            "web_search",
            "sk-not-a-client",
            "web_search must be a websearch_core.WebSearch, not str; leave it out to have the "
            "tool build its own",
        ),
        (
            "settings",
            "brave",
            "settings must be a websearch_core.Settings, not str; to choose a provider pass "
            "provider=...",
        ),
        ("settings", 5, "settings must be a websearch_core.Settings, not int; build one with"),
    ],
)
def test_an_object_of_the_wrong_kind_is_refused_in_the_same_words(
    owner: str, build: Callable[..., object], option: str, value: object, expected: str
) -> None:
    """LangChain's tool answered pydantic's ``Input should be an instance of WebSearch`` (or
    ``a valid dictionary or instance of Settings``), saying nothing of what to pass."""
    with pytest.raises((TypeError, ValueError)) as raised:
        build(**{option: value})
    assert expected in str(raised.value)
    assert "sk-not-a-client" not in str(raised.value)


def test_guard_a_failed_search_called_synchronously_is_an_error_in_both(
    threaded_sim: Simulator,
) -> None:
    """Guard (passes before and after): the sync entry points answer as the async ones do.

    ``invoke`` and ``call`` run the search on their own loop; a failure must still be the
    same ``Error: ...`` text with its details beside it, not an exception.
    """
    threaded_sim["brave"].always(Fault.server_error(503, "upstream down"))
    threaded_sim["duckduckgo"].always(Fault.challenge())
    options = {"settings": sim_settings(threaded_sim), "api_keys": threaded_sim.api_keys()}
    message = WebSearchTool(**options).invoke(_call({"query": "python"}))
    output = create_web_search_tool(**options).call(query="python")
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert output.is_error
    assert message.content == output.content
    assert message.artifact["error"] == output.raw_output["error"]
    assert str(message.content).startswith("Error: All web search providers failed: brave: ")
