"""Each provider's filter declaration agrees with what it sends upstream, and the model is
told how to write filters."""

from pathlib import Path

import pytest

from websearch_core.filters import ALL_FILTERS, FIELD_FILTERS, tokenize
from websearch_core.filters.query import DIRECTIVE_ARGUMENTS
from websearch_core.filters.table import README_TABLE_END, README_TABLE_START, registry_table
from websearch_core.prompts import TOOL_DESCRIPTION
from websearch_core.providers import PROVIDER_REGISTRY, get_provider
from websearch_core.tool_schema import ToolArguments


@pytest.mark.parametrize("provider_id", list(PROVIDER_REGISTRY))
def test_a_native_filter_is_a_field_the_provider_sends(provider_id: str) -> None:
    info = get_provider(provider_id).info
    for support in (info.filters, *(s for _, s in info.mode_filters)):
        assert support.native <= FIELD_FILTERS & info.honours


@pytest.mark.parametrize("provider_id", list(PROVIDER_REGISTRY))
def test_every_filter_field_it_sends_is_declared(provider_id: str) -> None:
    # A field in honours that the declaration leaves out would be checked locally (or
    # reported ignored) although the upstream already applied it.
    info = get_provider(provider_id).info
    assert FIELD_FILTERS & info.honours <= info.filters.native | info.filters.query


@pytest.mark.parametrize("provider_id", list(PROVIDER_REGISTRY))
def test_declared_names_are_filters(provider_id: str) -> None:
    support = get_provider(provider_id).info.filters
    assert support.native | support.query <= set(ALL_FILTERS)


def test_yahoo_has_no_year_so_year_is_checked_locally() -> None:
    support = get_provider("yahoo").info.filters
    assert support.way("recency") == "native"
    assert "year" not in support.recency


def test_the_tool_description_teaches_every_directive_the_parser_reads() -> None:
    examples = (
        "site:example.com",
        "-site:example.com",
        "after:2025-01-01",
        "before:2025-06-30",
        '"exact phrase"',
        "-term",
        "OR",
        "filetype:pdf",
        "inurl:docs",
        "intitle:faq",
    )
    for example in examples:
        assert example in TOOL_DESCRIPTION
    kinds = {token.kind for token in tokenize(" ".join(examples))}
    assert kinds == {
        "site",
        "exclude_site",
        "after",
        "before",
        "phrase",
        "exclude_term",
        "or",
        "filetype",
        "in_url",
        "in_title",
    }
    query_help = ToolArguments.model_json_schema()["properties"]["query"]["description"]
    assert "site:" in query_help and "after:YYYY-MM-DD" in query_help


def test_every_directive_a_refused_argument_is_told_is_one_the_parser_reads() -> None:
    """``site: not an argument (write site:<domain> in the query)`` names a real directive."""
    samples = {
        "<domain>": "example.com",
        "<YYYY-MM-DD>": "2025-01-01",
        "<extension>": "pdf",
        "<code>": "de",
    }
    kinds = set()
    for directive in set(DIRECTIVE_ARGUMENTS.values()):
        written = directive
        for placeholder, value in samples.items():
            written = written.replace(placeholder, value)
        (token,) = tokenize(written)
        kinds.add(token.kind)
    assert kinds == {"site", "exclude_site", "after", "before", "filetype", "lang"}
    assert all(name.isidentifier() and name.islower() for name in DIRECTIVE_ARGUMENTS)
    assert not DIRECTIVE_ARGUMENTS.keys() & ToolArguments.model_fields.keys()


def test_the_readme_table_is_the_registry_s() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    start = readme.index(README_TABLE_START) + len(README_TABLE_START)
    end = readme.index(README_TABLE_END)
    assert readme[start:end].strip() == registry_table()
