"""Every ``WebSearch`` option reaches the client alike from either framework's builders.

LlamaIndex's factories took every ``WebSearch`` keyword; LangChain's tool and retriever, and
LlamaIndex's retriever, took only ``settings``, ``api_keys``, ``provider``,
``timeout_seconds`` and ``web_search`` and refused the rest as unexpected keywords, so
``deadline_seconds=`` needed a ``Settings``.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool

from langchain_websearch import WebSearchRetriever, WebSearchTool
from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever
from llamaindex_websearch import WebSearchToolSpec, create_web_search_tool
from tests.integrations._helpers import MODEL_FIELDS
from websearch_core import Settings, WebSearch
from websearch_core.settings import SettingsOverrides


def _given(tmp_path: Path) -> dict[str, object]:
    """A valid value other than the default for every setting ``WebSearch`` takes."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "config.toml").write_text("")
    return {
        "provider": "brave",
        "providers": "brave,duckduckgo",
        "fallback": False,
        "exclude": "bing",
        "budget": {"brave": "10/day"},
        "rate": {"brave": "1/s"},
        "rate_limit_wait_seconds": 2.5,
        "auth_cooldown_seconds": 60,
        "cache": False,
        "cache_ttl_seconds": 120,
        "cache_stale_seconds": 3600,
        "state_backend": "memory",
        "state_dir": other / "state",
        "redis_url": "redis://127.0.0.1:6379/0",
        "timeout_seconds": 7,
        "deadline_seconds": 40,
        "connect_timeout_seconds": 3,
        "state_wait_seconds": 1,
        "proxy": "http://127.0.0.1:3128",
        "gemini_model": "gemini-2.5-flash",
        "max_response_bytes": 1_000_000,
        "fence_results": True,
        "base_urls": {"brave": "http://127.0.0.1:9"},
        "refresh_hooks": {"codex": "my_tokens:refresh_codex"},
        "sign_in_gateways": "codex",
        "searxng": {"endpoint": "http://127.0.0.1:8888"},
        "credentials_file": other / "credentials.json",
        "config_file": other / "config.toml",
    }


def _langchain_tool_client(**options: Any) -> WebSearch:
    return WebSearchTool(**options).new_client()


def _langchain_retriever_client(**options: Any) -> WebSearch:
    return WebSearchRetriever(**options).new_client()


def _llamaindex_spec_client(**options: Any) -> WebSearch:
    return WebSearchToolSpec(**options)._new_client()


def _llamaindex_retriever_client(**options: Any) -> WebSearch:
    return LlamaIndexRetriever(**options)._config.new_client()


CLIENT_BUILDERS: list[tuple[str, Callable[..., WebSearch]]] = [
    ("WebSearchTool", _langchain_tool_client),
    ("WebSearchRetriever", _langchain_retriever_client),
    ("WebSearchToolSpec", _llamaindex_spec_client),
    ("LlamaIndex WebSearchRetriever", _llamaindex_retriever_client),
]
"""The client each builder makes from its options, as its first search would."""


def test_guard_every_setting_has_a_value_here(tmp_path: Path) -> None:
    """Guard (passes before and after): a new ``WebSearch`` setting must join the table."""
    assert set(_given(tmp_path)) == set(SettingsOverrides.__optional_keys__)


@pytest.mark.parametrize(("owner", "client_of"), CLIENT_BUILDERS)
@pytest.mark.parametrize("option", sorted(SettingsOverrides.__optional_keys__))
def test_each_setting_given_reaches_the_client(
    tmp_path: Path, owner: str, client_of: Callable[..., WebSearch], option: str
) -> None:
    """Each setting given to the builder is the client's, as ``Settings`` reads it.

    Failed before for LangChain's tool and retriever and LlamaIndex's retriever (all but
    ``provider`` and ``timeout_seconds`` refused as unexpected keyword arguments).
    """
    value = _given(tmp_path)[option]
    expected = getattr(Settings(**{option: value}), option)
    assert expected != getattr(client_of().settings, option)  # the value changes something
    assert getattr(client_of(**{option: value}).settings, option) == expected


BUILDERS: list[tuple[str, Callable[..., object]]] = [
    ("WebSearchTool", WebSearchTool),
    ("WebSearchRetriever", WebSearchRetriever),
    ("create_web_search_tool", create_web_search_tool),
    ("WebSearchToolSpec", WebSearchToolSpec),
    ("LlamaIndex WebSearchRetriever", LlamaIndexRetriever),
]


def _llamaindex_problem(option: str, value: object) -> str:
    """What LlamaIndex's factory says of ``option=value``, without its call's and option's name."""
    with pytest.raises((TypeError, ValueError)) as raised:
        create_web_search_tool(**{option: value})
    said = str(raised.value).removeprefix("create_web_search_tool(): ")
    return said.removeprefix(f"{option}: ")


@pytest.mark.parametrize(("owner", "build"), BUILDERS)
@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("deadline_seconds", 0),
        ("connect_timeout_seconds", "soon"),
        ("cache", "perhaps"),
        ("exclude", "altavista"),
        ("state_backend", "postgres"),
        ("proxy", "not a url"),
        ("base_urls", {"brave": "ftp://127.0.0.1"}),
        ("session", "sk-not-a-session"),
    ],
)
def test_a_bad_option_is_refused_alike_when_built(
    owner: str, build: Callable[..., object], option: str, value: object
) -> None:
    """Every builder refuses it at once, naming the option, in LlamaIndex's words.

    Failed before for LangChain's and LlamaIndex's retrievers (refused as an unexpected
    keyword, its value unchecked).
    """
    problem = _llamaindex_problem(option, value)
    with pytest.raises((TypeError, ValueError)) as raised:
        build(**{option: value})
    said = str(raised.value)
    assert option in said
    assert problem in said
    assert "sk-not-a-session" not in said


def test_options_stay_out_of_the_schema_the_model_sees() -> None:
    """The options configure the client; the model's arguments are the search's alone."""
    tool = WebSearchTool(deadline_seconds=30, cache=False, exclude="bing")
    schema = convert_to_openai_tool(tool)["function"]["parameters"]
    assert list(schema["properties"]) == MODEL_FIELDS
    assert not {"deadline_seconds", "cache", "exclude"} & set(tool.model_dump())


def test_a_client_beside_any_option_is_refused_in_the_shared_words() -> None:
    """``web_search=`` with an option the retrievers now take names it, as the factories do.

    Failed before for LlamaIndex's retriever (``deadline_seconds`` an unexpected keyword).
    """
    client = WebSearch(exclude="bing")
    problems = []
    for build in (WebSearchTool, create_web_search_tool, LlamaIndexRetriever):
        with pytest.raises((TypeError, ValueError)) as raised:
            build(web_search=client, deadline_seconds=30)
        problems.append(str(raised.value))
    expected = "pass either web_search or the options to build a client (deadline_seconds)"
    assert all(expected in problem for problem in problems)
