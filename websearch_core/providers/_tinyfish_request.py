"""The TinyFish query string, as pure functions: counts, paging, time and locale fields.

Kept apart from :mod:`websearch_core.providers.tinyfish`, which states the wire facts
these functions follow and holds the paging hook.
"""

import re
from collections.abc import Mapping
from typing import Final

from ..models import Recency, SearchParams
from .base import clamp_count

__all__ = ["DEFAULT_RESULTS", "MAX_RESULTS", "locale", "page_size", "query_params", "wanted_count"]

DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 20
PAGE_SIZE: Final = 10
"""TinyFish returns at most ten results per page."""

_RECENCY_MINUTES: Final[Mapping[Recency, int]] = {
    "day": 1440,
    "week": 10080,
    "month": 43200,
    "year": 525600,
}
_LANGUAGE_TAG: Final = re.compile(r"^([a-z]{2})(?:[-_]([a-z]{2}))?(?:[-_]|$)")


def wanted_count(params: SearchParams) -> int:
    """``N``: ``num_search_results`` or ``limit``, default 10, clamped to 1..20."""
    return clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)


def page_size(params: SearchParams) -> int:
    """The ``num_results`` sent with every page: ``min(N, 10)``."""
    return min(wanted_count(params), PAGE_SIZE)


def locale(params: SearchParams) -> tuple[str | None, str | None]:
    """``(location, language)`` for ``params``.

    Example:
        >>> locale(SearchParams(query="x", language="pt-BR"))
        ('BR', 'pt')
        >>> locale(SearchParams(query="x", country="de", language="zh-Hans"))
        ('DE', 'zh')
    """
    location = params.country.upper() if params.country else None
    language: str | None = None
    if params.language:
        match = _LANGUAGE_TAG.match(params.language.lower())
        if match:
            language = match.group(1)
            if location is None and match.group(2):
                location = match.group(2).upper()
    return location, language


def query_params(params: SearchParams, page: int) -> list[tuple[str, str]]:
    """The query string TinyFish receives for ``params`` and ``page`` (pure).

    Domain lists go out twice: the filter plan has written them into ``params.query`` as
    ``site:`` / ``-site:``, the form TinyFish's reference documents, and they are sent as
    ``include_domains`` / ``exclude_domains`` too, the parameters the behaviour reference's
    client sends (not in TinyFish's docs; a server that does not know them ignores them).
    Nothing was tried live, so neither form alone is trusted: the results are checked
    locally either way (``query + post``).

    Example:
        >>> query_params(SearchParams(query="x", recency="day", limit=3), 0)
        [('query', 'x'), ('recency_minutes', '1440'), ('num_results', '3'), ('page', '0')]
    """
    query: list[tuple[str, str]] = [("query", params.query)]
    if params.date_after is not None or params.date_before is not None:
        if params.date_after is not None:
            query.append(("after_date", params.date_after.isoformat()))
        if params.date_before is not None:
            query.append(("before_date", params.date_before.isoformat()))
    elif params.recency is not None:
        query.append(("recency_minutes", str(_RECENCY_MINUTES[params.recency])))
    if params.include_domains:
        query.append(("include_domains", ",".join(params.include_domains)))
    if params.exclude_domains:
        query.append(("exclude_domains", ",".join(params.exclude_domains)))
    location, language = locale(params)
    if location is not None:
        query.append(("location", location))
    if language is not None:
        query.append(("language", language))
    query.append(("num_results", str(page_size(params))))
    query.append(("page", str(page)))
    return query
