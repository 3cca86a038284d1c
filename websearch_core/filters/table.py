"""The README's provider x filter table, generated from the providers' declarations.

A hand-kept table drifts from the code; this one is rebuilt from each ``ProviderInfo`` and
a test compares it with the README, so the table users read is the one the code obeys.
``python -m websearch_core.docs`` writes it into the README (``--check`` reports a stale
one), as it does the provider table.
"""

from collections.abc import Iterable

from ..models import FilterName, FilterWay
from .plan import ways_for
from .support import ALL_FILTERS, ALL_RECENCIES, FilterSupport

__all__ = [
    "README_TABLE_END",
    "README_TABLE_START",
    "filter_cell",
    "filter_table",
    "registry_table",
]

README_TABLE_START = "<!-- filter-table:start (generated: python -m websearch_core.docs) -->"
README_TABLE_END = "<!-- filter-table:end -->"


def _words(ways: tuple[FilterWay, ...]) -> str:
    return " + ".join(ways)


def _uncarried(name: FilterName, support: FilterSupport) -> str | None:
    """When a native domain list does not go out (``over 5``, ``with include_domains``)."""
    if support.way(name) != "native" or name not in ("include_domains", "exclude_domains"):
        return None
    when = [f"over {support.domain_limit}"] if support.domain_limit is not None else []
    if name == "exclude_domains" and support.one_domain_list:
        when.append("with include_domains")
    return " or ".join(when) or None


def filter_cell(name: FilterName, support: FilterSupport) -> str:
    """One cell: ``native``, ``query + post``, ``post``, ``ignored``, and any exception.

    The exceptions are recency values the parameter lacks and domain lists it cannot carry.

    Examples:
        >>> filter_cell("recency", FilterSupport(native=frozenset({"recency"}),
        ...     recency=frozenset({"day", "week", "month"})))
        'native (year: post)'
        >>> filter_cell("exclude_domains", FilterSupport.language_model(
        ...     frozenset({"include_domains", "exclude_domains"}), domain_limit=5,
        ...     one_domain_list=True))
        'native + post (over 5 or with include_domains: query + post)'
    """
    cell = _words(ways_for(name, support))
    missing = sorted(ALL_RECENCIES - support.recency)
    if name == "recency" and support.way(name) and missing:
        cell = f"{cell} ({', '.join(missing)}: {_words(ways_for(name, FilterSupport()))})"
    when = _uncarried(name, support)
    if when is not None:
        cell = f"{cell} ({when}: {_words(ways_for(name, support, carried=False))})"
    return cell


def filter_table(providers: Iterable[tuple[str, FilterSupport]]) -> str:
    """A Markdown table: one row per ``(provider id, support)``, one column per filter."""
    header = ["provider", *ALL_FILTERS]
    lines = [
        "| " + " | ".join(header) + " |",
        "| " + " | ".join("---" for _ in header) + " |",
    ]
    for provider_id, support in providers:
        cells = [provider_id, *(filter_cell(name, support) for name in ALL_FILTERS)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def registry_table() -> str:
    """The table for every registered provider, in registry order.

    A provider with modes that apply filters differently has a row per mode after its
    own (``gemini (OAuth)``), its own row being its default mode's.
    """
    from ..providers import PROVIDER_REGISTRY, get_provider

    def rows() -> Iterable[tuple[str, FilterSupport]]:
        for pid in PROVIDER_REGISTRY:
            info = get_provider(pid).info
            yield pid, info.filters
            yield from ((f"{pid} ({mode})", support) for mode, support in info.mode_filters)

    return filter_table(rows())


if __name__ == "__main__":
    import argparse

    # It took no options but ignored them: "--check" printed the table and passed. The
    # README check is websearch_core.docs's, which keeps the provider table too.
    argparse.ArgumentParser(
        prog="python -m websearch_core.filters.table",
        description=(
            "Print the filter table, markers included. To write it into the README, or "
            "check the README's (--check), run: python -m websearch_core.docs"
        ),
    ).parse_args()
    print(README_TABLE_START)
    print(registry_table())
    print(README_TABLE_END)
