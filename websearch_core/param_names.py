"""The names other search APIs give a search parameter, and the parameter they mean here.

``run("q", count=5)`` (Brave's and Bing's name for the result count) was answered ``count:
not a search parameter; did you mean country?``, and ``timelimit="w"`` (the duckduckgo_search
package's) ``did you mean limit?``: spelling alone picks a wrong field for names a user
brings from another API. Such a name is answered with the parameter it means; any other
unknown name keeps the nearest spelling (:func:`~websearch_core.meant_names.meant`).

The same names given when a tool is built (``WebSearchTool(count=5)``, ``max_results=5``)
were refused as ``unexpected keyword argument`` alone, or with ``did you mean
fence_results?``: :func:`built_with_argument` says the argument meant and where it goes.
"""

from collections.abc import Collection, Mapping

__all__ = ["OTHER_API_NAMES", "built_with_argument", "param_meant"]

OTHER_API_NAMES: Mapping[str, str] = {
    # The number of results.
    "count": "limit",  # Brave, Bing
    "num": "limit",  # Serper, Google Custom Search
    "num_results": "limit",  # Exa, LangChain's DuckDuckGo results
    "max_results": "limit",  # Tavily, duckduckgo_search
    "top_k": "limit",
    "k": "limit",  # LangChain's retrievers (search_kwargs={"k": 5})
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


def built_with_argument(name: str, takes: Collection[str], calls: Collection[str]) -> str | None:
    """What to say of a search argument given to a tool or retriever as it is built.

    ``WebSearchTool(count=5)`` meant the number of results, which the model gives with
    each call (``limit``); no setting holds a default for it. A retriever has it as ``k``.

    Args:
        name: The keyword given, not taken (``count``).
        takes: The keywords the tool or retriever takes when built (``k`` for a retriever).
        calls: The arguments each call takes (the tool's ``query``, ``limit``, ...).

    Returns:
        ``did you mean k?`` when built with it under another name, ``limit is an argument
        of each search ...`` when each call takes it, or ``None`` for a name no search
        argument has (the nearest spelling is named then).

    Example:
        >>> built_with_argument("max_results", ["k", "recency"], [])
        'did you mean k?'
        >>> print(built_with_argument("count", ["api_keys"], ["query", "limit"]))
        ... # doctest: +NORMALIZE_WHITESPACE
        count means limit here, an argument of each search, given with the query
        ({"query": "...", "limit": ...}) and not when the tool is built
    """
    given = name.strip().lower()
    meant = OTHER_API_NAMES.get(given, given)
    if meant == "limit" and "k" in takes:
        meant = "k"
    if meant in takes:  # itself taken: an option passed on to where it is (api_keys)
        return None if meant == given else f"did you mean {meant}?"
    if meant not in calls:
        return None
    named = f"{meant} is" if meant == given else f"{name} means {meant} here,"
    return (
        f'{named} an argument of each search, given with the query ({{"query": "...", '
        f'"{meant}": ...}}) and not when the tool is built'
    )
