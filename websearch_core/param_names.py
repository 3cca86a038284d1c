"""The names other search APIs give a search parameter, and the parameter they mean here.

``run("q", count=5)`` (Brave's and Bing's name for the result count) was answered ``count:
not a search parameter; did you mean country?``, and ``timelimit="w"`` (the duckduckgo_search
package's) ``did you mean limit?``: spelling alone picks a wrong field for names a user
brings from another API. Such a name is answered with the parameter it means; any other
unknown name keeps the nearest spelling (:func:`~websearch_core.meant_names.meant`).
"""

from collections.abc import Mapping

__all__ = ["OTHER_API_NAMES", "param_meant"]

OTHER_API_NAMES: Mapping[str, str] = {
    # The number of results.
    "count": "limit",  # Brave, Bing
    "num": "limit",  # Serper, Google Custom Search
    "num_results": "limit",  # Exa, LangChain's DuckDuckGo results
    "max_results": "limit",  # Tavily, duckduckgo_search
    "top_k": "limit",
    # How recent.
    "freshness": "recency",  # Brave, Bing
    "time_range": "recency",  # Tavily
    "timelimit": "recency",  # duckduckgo_search
    "search_recency_filter": "recency",  # Perplexity
    # Where and in which language.
    "gl": "country",  # Serper, Google
    "region": "country",  # duckduckgo_search
    "hl": "language",  # Serper, Google
    "search_lang": "language",  # Brave
    # Which sites.
    "site": "include_domains",
    "search_domain_filter": "include_domains",  # Perplexity
    # Publication dates.
    "start_published_date": "date_after",  # Exa
    "end_published_date": "date_before",  # Exa
    "start_date": "date_after",
    "end_date": "date_before",
}
"""Each name another search API (or a common Python wrapper of one) gives a parameter, lower
case, to the parameter of :class:`~websearch_core.models.SearchParams` that does its job."""


def param_meant(location: tuple[str | int, ...]) -> str | None:
    """The whole refusal of a parameter named as another API names it, else ``None``.

    Args:
        location: Where pydantic found the unknown name: ``("count",)``.

    Example:
        >>> param_meant(("count",))
        'not a search parameter; did you mean limit?'
        >>> param_meant(("limt",)) is None
        True
    """
    meant = OTHER_API_NAMES.get(str(location[-1]).lower()) if len(location) == 1 else None
    return None if meant is None else f"not a search parameter; did you mean {meant}?"
