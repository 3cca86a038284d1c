"""The result cache's key: which requests share one, in this process and in any other."""

import os
import subprocess
import sys
from datetime import date
from typing import Any

import pytest

from websearch_core.cache import cache_key
from websearch_core.models import SearchParams

SCOPE = "brave,tavily|0123456789abcdef|"

SET_FIELDS: dict[str, Any] = {
    "recency": "week",
    "limit": 7,
    "max_tokens": 300,
    "temperature": 0.0,
    "num_search_results": 12,
    "country": "DE",
    "language": "pt-BR",
    "date_after": date(2024, 1, 2),
    "date_before": date(2024, 3, 4),
    "include_domains": ("a.example",),
    "exclude_domains": ("b.example",),
    "provider": "brave",
}
"""A value other than the default for every field but the query."""


def test_every_field_but_the_query_is_named_here() -> None:
    # A field added to SearchParams must be added above, or the next test proves nothing of it.
    assert set(SET_FIELDS) == set(SearchParams.model_fields) - {"query"}


@pytest.mark.parametrize("name", sorted(SET_FIELDS))
def test_each_field_set_makes_a_different_key(name: str) -> None:
    plain = cache_key(SearchParams(query="python"), SCOPE)
    changed = cache_key(SearchParams(query="python", **{name: SET_FIELDS[name]}), SCOPE)
    assert changed != plain


def test_a_field_given_its_default_is_the_request_without_it() -> None:
    assert cache_key(SearchParams(query="q", limit=None, include_domains=()), SCOPE) == (
        cache_key(SearchParams(query="q"), SCOPE)
    )


def test_values_are_told_apart_from_each_other_and_from_the_scope() -> None:
    keys = {
        cache_key(SearchParams(query="b\nc"), "a"),
        cache_key(SearchParams(query="c"), "a\nb"),
        cache_key(SearchParams(query="q", include_domains=("a.example", "b.example")), SCOPE),
        cache_key(SearchParams(query="q", include_domains=("b.example", "a.example")), SCOPE),
        cache_key(SearchParams(query="q", include_domains=("a.example",)), SCOPE),
        cache_key(SearchParams(query="q", exclude_domains=("a.example",)), SCOPE),
        cache_key(SearchParams(query="q", limit=3), SCOPE),
        cache_key(SearchParams(query="q", num_search_results=3), SCOPE),
        cache_key(SearchParams(query="q"), SCOPE + "x"),
    }
    assert len(keys) == 9


def test_a_subclass_field_set_makes_a_different_key() -> None:
    class Tagged(SearchParams):
        tag: str | None = None

    plain = cache_key(SearchParams(query="q"), SCOPE)
    assert cache_key(Tagged(query="q"), SCOPE) == plain
    assert cache_key(Tagged(query="q", tag="t"), SCOPE) != plain


def test_another_process_builds_the_same_key() -> None:
    # Processes share one store: the key must not depend on anything of this process
    # (string hashing is salted per process; PYTHONHASHSEED differs below).
    params = SearchParams(query="Café  OR Straße", **SET_FIELDS)
    program = (
        "import sys, datetime\n"
        "from websearch_core.cache import cache_key\n"
        "from websearch_core.models import SearchParams\n"
        f"params = SearchParams.model_validate_json({params.model_dump_json()!r})\n"
        f"sys.stdout.write(cache_key(params, {SCOPE!r}))\n"
    )
    keys = {
        subprocess.run(
            [sys.executable, "-c", program],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert keys == {cache_key(params, SCOPE)}


def test_the_key_is_printable_and_fixed_length() -> None:
    key = cache_key(SearchParams(query="Straße\tCafé ☕"), "scope\nwith a line break")
    assert key.isprintable() and len(key) == 64
