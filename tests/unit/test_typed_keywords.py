"""The ``TypedDict`` behind each ``**keywords`` of the public API names what the call takes.

``WebSearch(**overrides)``, ``run(query, **params)``, ``fetch_sync(url, **options)`` and
``create_web_search_tool(**kwargs)`` were typed ``Any``: ``WebSearch(timeout=5)`` or
``run("q", limt=3)`` passed ``mypy --strict`` and failed only when run. Each is now typed by
a ``TypedDict`` kept by hand beside what it mirrors; these tests keep the two equal, so a
field added to the model (or an argument to the method) cannot be left out of its type, nor
typed differently from it.

A keyword's type is what the call accepts, which is wider than the type a model field
stores. Those differences are the documented ones, written once in :func:`_as_given`:
constraints (``ge=``, a validated key) are checked when the call runs, not typed; a ``dict``
may be given as any ``Mapping``; a ``Path`` as ``str | os.PathLike[str]``; a ``SecretStr``
as a plain ``str``; a ``date`` as ISO text; a nested model as a mapping of its fields; a
``tuple[str, ...]`` as ``Sequence[str]`` where the model also reads one text (the settings'
``"brave,tavily"``), else as a ``list`` or ``tuple`` (a ``str`` is a ``Sequence``, refused).
"""

import datetime
import inspect
import os
import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

import aiohttp
import pytest
from pydantic import BaseModel, SecretStr, ValidationError

from websearch_core import client
from websearch_core.browser import HeadlessBrowser
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


_TEXT: dict[type[BaseModel], dict[str, Any]] = {
    Settings: {
        "providers": "brave,tavily",
        "exclude": "brave",
        "sign_in_gateways": "codex,google_oauth",
    },
    SearchParams: {"include_domains": "example.org", "exclude_domains": "example.org"},
}
"""One text for each sequence field, to ask the model whether it reads a text there."""


def _reads_text(model: type[BaseModel], name: str) -> bool:
    given = {"query": "q"} if model is SearchParams else {}
    try:
        model(**given, **{name: _TEXT[model][name]})
    except ValidationError:
        return False
    return True


def _as_given(annotation: Any, model: type[BaseModel], name: str) -> Any:
    """The type a call accepts for a field stored as ``annotation`` (see the module docstring)."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _as_given(args[0], model, name)
    if origin in (Union, types.UnionType):
        return _union(_as_given(arg, model, name) for arg in args)
    if origin is dict:
        return Mapping[_as_given(args[0], model, name), _as_given(args[1], model, name)]  # type: ignore[misc]
    if origin is tuple and args[1:] == (Ellipsis,):
        item = _as_given(args[0], model, name)
        if _reads_text(model, name):
            return Sequence[item]  # type: ignore[valid-type]
        return list[item] | tuple[item, ...]  # type: ignore[valid-type]
    widened: dict[Any, Any] = {
        Path: str | os.PathLike[str],
        SecretStr: str | SecretStr,
        datetime.date: datetime.date | str,
    }
    if annotation in widened:
        return widened[annotation]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation | Mapping[str, object]
    return annotation


def _union(members: Any) -> Any:
    flat: list[Any] = []
    for member in members:
        for part in (
            get_args(member) if get_origin(member) in (Union, types.UnionType) else (member,)
        ):
            if part not in flat:
                flat.append(part)
    return Union[tuple(flat)]  # noqa: UP007  (built at run time)


def _members(annotation: Any) -> set[Any]:
    """A union's members (order does not matter to a type checker), or the type alone."""
    if get_origin(annotation) in (Union, types.UnionType):
        return set(get_args(annotation))
    return {annotation}


_NAMES = {"aiohttp": aiohttp, "HeadlessBrowser": HeadlessBrowser}
"""What ``client`` imports for type checking only, to read its annotations here."""


def _hints(typed: Any) -> dict[str, Any]:
    return get_type_hints(typed, globalns=vars(client), localns=_NAMES)


@pytest.mark.parametrize(
    ("typed", "model"),
    [(SettingsOverrides, Settings), (SearchOptions, SearchParams)],
    ids=["SettingsOverrides", "SearchOptions"],
)
def test_each_keyword_is_typed_as_its_field_accepts(typed: Any, model: type[BaseModel]) -> None:
    mismatched = {
        name: (hint, _as_given(model.model_fields[name].annotation, model, name))
        for name, hint in _hints(typed).items()
        if _members(hint) != _members(_as_given(model.model_fields[name].annotation, model, name))
    }
    assert not mismatched, "keyword: (typed, what the field accepts)"


@pytest.mark.parametrize(
    ("typed", "method"),
    [
        (FetchOptions, WebSearch.fetch),
        (FetchManyOptions, WebSearch.fetch_many),
        (WebSearchOptions, WebSearch.__init__),
    ],
    ids=["FetchOptions", "FetchManyOptions", "WebSearchOptions"],
)
def test_each_keyword_is_typed_as_its_argument(typed: Any, method: Callable[..., object]) -> None:
    arguments = _hints(method)
    own = {name: hint for name, hint in _hints(typed).items() if name in arguments}
    assert own == {name: arguments[name] for name in own}
    # WebSearch takes the settings through **overrides: typed by the test above.
    settings = _keys(SettingsOverrides) if typed is WebSearchOptions else set()
    assert _keys(typed) - set(own) == settings
