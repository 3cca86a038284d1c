"""Each provider's filter declaration agrees with what it sends upstream."""

import pytest

from websearch_core.filters import ALL_FILTERS, FIELD_FILTERS
from websearch_core.providers import PROVIDER_REGISTRY, get_provider


@pytest.mark.parametrize("provider_id", list(PROVIDER_REGISTRY))
def test_a_native_filter_is_a_field_the_provider_sends(provider_id: str) -> None:
    info = get_provider(provider_id).info
    assert info.filters.native <= FIELD_FILTERS & info.honours


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
