"""Search filters that work on every provider, and the record of how each was applied.

Directives typed in the query (:mod:`.query`) and the caller's parameters merge into one
set (:mod:`.merge`); each provider declares what it can do with each filter
(:class:`~.support.FilterSupport` on its ``ProviderInfo``); the plan (:mod:`.plan`)
rewrites the query and parameters it is sent and checks locally (:mod:`.post`) what it
could not enforce. :func:`ignored_note` is the one line a model reads about what was not
applied.
"""

from .merge import RequestedFilters, requested_filters
from .note import ignored_note
from .plan import FilterPlan, apply_plan, plan_filters, unmatched_filters
from .post import post_filter
from .query import Token, tokenize
from .support import (
    ALL_FILTERS,
    FIELD_FILTERS,
    QUERY_OPERATORS,
    SCRAPER_OPERATORS,
    TERM_OPERATORS,
    TEXT_OPERATORS,
    URL_TITLE_OPERATORS,
    FilterSupport,
)

__all__ = [
    "ALL_FILTERS",
    "FIELD_FILTERS",
    "QUERY_OPERATORS",
    "SCRAPER_OPERATORS",
    "TERM_OPERATORS",
    "TEXT_OPERATORS",
    "URL_TITLE_OPERATORS",
    "FilterPlan",
    "FilterSupport",
    "RequestedFilters",
    "Token",
    "apply_plan",
    "ignored_note",
    "plan_filters",
    "post_filter",
    "requested_filters",
    "tokenize",
    "unmatched_filters",
]
