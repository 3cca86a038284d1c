"""An argument of the wrong kind is refused when the client or tool is built, saying what fits.

``WebSearch("brave")`` (the provider meant) or ``WebSearch("sk-...")`` (a key) raised
``AttributeError: 'str' object has no attribute 'api_keys'``; a wrong ``session`` or refresh
hook was taken silently and failed at the first search; and LlamaIndex's factories, which
build their client at the first call, let that call raise ``AttributeError``.
"""

from collections.abc import Callable
from typing import Any

import pytest

from llamaindex_websearch import (
    WebSearchToolSpec,
    create_web_fetch_tool,
    create_web_search_tool,
)
from websearch_core import ConfigurationError, WebSearch

SECRET = "sk-wrong-place-7d1e"


def test_a_string_for_settings_says_how_to_choose_a_provider_without_repeating_it() -> None:
    with pytest.raises(TypeError) as raised:
        WebSearch(SECRET)  # type: ignore[arg-type]
    message = str(raised.value)
    assert message.startswith("settings must be a websearch_core.Settings, not str")
    assert "provider=" in message and "api_keys=" in message
    assert SECRET not in message


def test_a_mapping_for_settings_says_to_pass_its_fields_as_keywords() -> None:
    with pytest.raises(TypeError, match=r"not dict; pass its fields as keywords"):
        WebSearch({"provider": "brave"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"session": object()}, "session must be an aiohttp.ClientSession, not object"),
        ({"oauth_refreshers": ["codex"]}, "oauth_refreshers must map a sign-in's store entry"),
        ({"oauth_refreshers": {"codex": 3}}, "oauth_refreshers['codex'] must be a refresh hook"),
    ],
)
def test_a_session_or_hook_of_the_wrong_kind_is_refused_when_built(
    arguments: dict[str, Any], expected: str
) -> None:
    with pytest.raises(TypeError) as raised:
        WebSearch(**arguments)
    assert str(raised.value).startswith(expected)


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        (
            lambda: create_web_search_tool(web_search="x"),  # type: ignore[arg-type]
            "create_web_search_tool(): web_search must be a websearch_core.WebSearch, not str",
        ),
        (
            lambda: create_web_search_tool(settings=SECRET),  # type: ignore[typeddict-item]
            "create_web_search_tool(): settings must be a websearch_core.Settings, not str",
        ),
        (
            lambda: WebSearchToolSpec(web_search=3),  # type: ignore[arg-type]
            "WebSearchToolSpec(): web_search must be a websearch_core.WebSearch, not int",
        ),
        (
            lambda: create_web_fetch_tool(settings={"provider": "brave"}),  # type: ignore[typeddict-item]
            "create_web_fetch_tool(): settings must be a websearch_core.Settings, not dict",
        ),
    ],
)
def test_llamaindex_refuses_the_wrong_kind_when_the_tool_is_built(
    build: Callable[[], object], expected: str
) -> None:
    with pytest.raises(TypeError) as raised:
        build()
    assert str(raised.value).startswith(expected)
    assert SECRET not in str(raised.value)


LLAMAINDEX_FACTORIES: list[tuple[str, Callable[..., Any]]] = [
    ("create_web_search_tool", create_web_search_tool),
    ("WebSearchToolSpec", WebSearchToolSpec),
    ("create_web_fetch_tool", create_web_fetch_tool),
]


@pytest.mark.parametrize(("owner", "build"), LLAMAINDEX_FACTORIES)
def test_a_mistyped_provider_is_refused_when_a_llamaindex_tool_is_built(
    owner: str, build: Callable[..., Any]
) -> None:
    with pytest.raises(ConfigurationError) as raised:
        build(provider="bravee")
    message = str(raised.value)
    assert message.startswith(f"{owner}(): Unknown search provider: bravee (known: ")
    assert message.endswith("did you mean brave?")


@pytest.mark.parametrize(("owner", "build"), LLAMAINDEX_FACTORIES)
def test_a_key_no_key_can_be_is_refused_when_a_llamaindex_tool_is_built_without_showing_it(
    owner: str, build: Callable[..., Any]
) -> None:
    with pytest.raises(ConfigurationError) as raised:
        build(api_keys={"brave": f'"{SECRET}"'})
    message = str(raised.value)
    assert message.startswith(f'{owner}(): api_keys["brave"]: the API key contains a quote mark')
    assert SECRET not in message


@pytest.mark.parametrize(("owner", "build"), LLAMAINDEX_FACTORIES)
def test_guard_a_known_provider_in_any_case_or_auto_builds_a_llamaindex_tool(
    owner: str, build: Callable[..., Any]
) -> None:
    """Guard (passes before and after): the check refuses only what the client refuses."""
    for provider in (" Brave ", "auto", None):
        assert build(provider=provider, api_keys={"brave": "BSA-real-looking-key"}) is not None


@pytest.mark.parametrize(("owner", "build"), LLAMAINDEX_FACTORIES)
@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"deadline_seconds": 0}, "deadline_seconds: must be more than 0 and at most 900 seconds"),
        ({"proxy": f"socks://{SECRET}@proxy"}, "proxy: proxy must be an http(s) URL"),
        ({"budget": {"brave": "lots"}}, "budget: budget.brave must look like '2000/month'"),
        ({"state_backend": "disk"}, "state_backend: Input should be 'auto', 'sqlite', 'redis'"),
    ],
)
def test_a_setting_its_field_refuses_is_refused_when_a_llamaindex_tool_is_built(
    owner: str, build: Callable[..., Any], options: dict[str, object], expected: str
) -> None:
    """Taken when built, these made every call answer ``Error: configuration: ...``."""
    with pytest.raises(ConfigurationError) as raised:
        build(**options)
    message = str(raised.value)
    assert message.startswith(f"{owner}(): {expected}")
    assert SECRET not in message


@pytest.mark.parametrize(("owner", "build"), LLAMAINDEX_FACTORIES)
def test_guard_a_setting_that_needs_another_from_the_environment_builds_a_llamaindex_tool(
    owner: str, build: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard (passes before and after): what weighs two settings waits for the first call.

    ``state_backend="redis"`` needs a ``redis_url`` and a store wait must fit in half the
    deadline; either other value may come from the environment, which is read then.
    """
    monkeypatch.setenv("WEBSEARCH_REDIS_URL", "redis://127.0.0.1:9/0")
    monkeypatch.setenv("WEBSEARCH_DEADLINE_SECONDS", "120")
    assert build(state_backend="redis", state_wait_seconds=45.0) is not None
    assert build(exclude="bing,yahoo", timeout_seconds="5") is not None
