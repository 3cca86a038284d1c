"""The ``TypedDict`` behind each ``**keywords`` of the public API names what the call takes.

``WebSearch(**overrides)``, ``run(query, **params)``, ``fetch_sync(url, **options)`` and
``create_web_search_tool(**kwargs)`` were typed ``Any``: ``WebSearch(timeout=5)`` or
``run("q", limt=3)`` passed ``mypy --strict`` and failed only when run. Each is now typed by
a ``TypedDict`` kept by hand beside what it mirrors; these tests keep the two equal, so a
field added to the model (or an argument to the method) cannot be left out of its type.
"""

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from websearch_core.client import FetchManyOptions, FetchOptions, WebSearch, WebSearchOptions
from websearch_core.models import SearchOptions, SearchParams
from websearch_core.settings import Settings, SettingsOverrides


def _keys(typed: Any) -> set[str]:
    keys: frozenset[str] = typed.__optional_keys__ | typed.__required_keys__
    return set(keys)


def _keyword_only(method: Callable[..., object]) -> set[str]:
    parameters = inspect.signature(method).parameters.values()
    return {p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY}


def test_the_settings_overrides_are_the_settings_fields_but_api_keys() -> None:
    # api_keys is WebSearch's own argument: an override of that name never reaches Settings.
    assert _keys(SettingsOverrides) == set(Settings.model_fields) - {"api_keys"}
    assert "api_keys" in _keyword_only(WebSearch.__init__)


def test_the_search_options_are_the_search_params_fields_but_query() -> None:
    assert _keys(SearchOptions) == set(SearchParams.model_fields) - {"query"}
    for method in (WebSearch.search, WebSearch.run, WebSearch.search_sync, WebSearch.run_sync):
        # The call's own keywords must not shadow a field: it could never be given.
        assert not _keys(SearchOptions) & _keyword_only(method)
        assert "query" in inspect.signature(method).parameters


def test_the_fetch_options_are_the_fetch_keywords() -> None:
    assert _keys(FetchOptions) == _keyword_only(WebSearch.fetch)
    assert _keys(FetchManyOptions) == _keyword_only(WebSearch.fetch_many)


def test_the_web_search_options_are_the_constructor_arguments() -> None:
    parameters = inspect.signature(WebSearch.__init__).parameters.values()
    named = {p.name for p in parameters if p.kind is not p.VAR_KEYWORD} - {"self"}
    assert _keys(WebSearchOptions) == named | _keys(SettingsOverrides)


@pytest.mark.parametrize(
    "typed", [SettingsOverrides, SearchOptions, FetchOptions, FetchManyOptions, WebSearchOptions]
)
def test_every_keyword_may_be_left_out(typed: Any) -> None:
    assert _keys(typed) == set(typed.__optional_keys__)


@pytest.mark.parametrize(
    "typed",
    [SettingsOverrides, SearchOptions, FetchOptions, FetchManyOptions, WebSearchOptions],
    ids=lambda typed: typed.__name__,
)
def test_each_keyword_type_is_exported_by_the_package(typed: Any) -> None:
    # A wrapper that passes its own **kwargs on names the type in its signature; it should
    # not have to know which private-looking submodule defines it.
    import websearch_core

    assert getattr(websearch_core, typed.__name__) is typed
    assert typed.__name__ in websearch_core.__all__
