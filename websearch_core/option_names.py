"""The names other search tools give the search command's options, and the option meant.

``websearch --count 5 python`` (Brave's and Bing's name for the result count) was read by
argparse as an abbreviation of ``--country`` and refused with ``country must be a
two-letter ISO 3166-1 code ..., got '5'``; ``--max-results 5`` and ``--num 5`` got no
option at all, and ``--since 2024-01-01`` ``did you mean --site?``. Such a name is refused
naming the option that does its job (the options' counterpart of
:data:`~websearch_core.param_names.OTHER_API_NAMES`), before argparse can take it for an
abbreviation of another.
"""

from collections.abc import Mapping

__all__ = ["OTHER_OPTION_NAMES"]

OTHER_OPTION_NAMES: Mapping[str, str] = {
    # The number of results.
    "--count": "--limit",  # Brave, Bing (and a prefix of --country)
    "--num": "--limit",  # Serper, Google Custom Search
    "--num-results": "--limit",
    "--max-results": "--limit",  # Tavily, ddgs
    "--results": "--limit",
    # Publication dates and recency.
    "--since": "--after",
    "--from-date": "--after",
    "--until": "--before",
    "--to-date": "--before",
    "--freshness": "--recency",  # Brave, Bing
    "--time-range": "--recency",  # Tavily
    "--timelimit": "--recency",  # ddgs
    # Where, and who answers.
    "--region": "--country",  # ddgs
    "--engine": "--prefer",
    "--backend": "--prefer",  # ddgs
    "--format": "--json",
}
"""Each option name another search tool or API uses, to the search command's option for it."""
