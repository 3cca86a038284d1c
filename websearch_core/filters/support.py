"""What a provider can do with each filter, declared as data on its ``ProviderInfo``.

Kept apart from the planning code so :mod:`websearch_core.providers.base` can import it
without pulling in anything that imports the providers.
"""

from dataclasses import dataclass
from typing import Final, get_args

from ..models import FilterName, FilterWay, Recency

__all__ = ["ALL_FILTERS", "ALL_RECENCIES", "FIELD_FILTERS", "QUERY_OPERATORS", "FilterSupport"]

ALL_FILTERS: Final[tuple[FilterName, ...]] = get_args(FilterName)
"""Every filter name, in the order provenance lists them."""
FIELD_FILTERS: Final[frozenset[FilterName]] = frozenset(
    {
        "include_domains",
        "exclude_domains",
        "date_after",
        "date_before",
        "recency",
        "language",
        "country",
    }
)
"""Filters that are also :class:`~websearch_core.models.SearchParams` fields."""
ALL_RECENCIES: Final[frozenset[Recency]] = frozenset(get_args(Recency))
QUERY_OPERATORS: Final[frozenset[FilterName]] = frozenset(
    {"include_domains", "exclude_domains", "phrase", "exclude_terms", "filetype"}
)
"""What a web search engine's query box understands (``site:``, ``-site:``, quotes,
``-term``, ``filetype:``; ``OR`` travels with the phrases)."""


@dataclass(frozen=True, slots=True)
class FilterSupport:
    """How one provider applies each filter; what is in neither set is checked locally.

    ``native`` filters go out as an API parameter (the field must be in ``honours``).
    ``query`` filters are understood in the query text: either the provider writes the
    field into its own syntax (the field is in ``honours``, as Google's ``site:``) or the
    directive is left in, or written into, the text it is sent.
    """

    native: frozenset[FilterName] = frozenset()
    query: frozenset[FilterName] = frozenset()
    recency: frozenset[Recency] = ALL_RECENCIES
    """The recency values the native parameter has (Yahoo has no ``year``)."""

    def __post_init__(self) -> None:
        both = self.native & self.query
        if both:
            raise ValueError(f"a filter is either native or query, not both: {sorted(both)}")

    def way(self, name: FilterName) -> FilterWay | None:
        """``native``, ``query`` or ``None`` (only a local check, or nothing, is left)."""
        if name in self.native:
            return "native"
        if name in self.query:
            return "query"
        return None
