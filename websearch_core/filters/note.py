"""The one line a model reads when a filter it asked for could not be applied."""

from typing import Final

from ..models import AppliedFilter, FilterName, SearchResponse

__all__ = ["ignored_note"]

_ONE_VALUE: Final[frozenset[FilterName]] = frozenset({"language", "country", "recency"})
"""Filters a search applies with one value: another value of one, not applied, gave way."""


def ignored_note(response: SearchResponse) -> str | None:
    """``Filters not applied: language=de.``, or ``None`` when every filter was applied.

    A filter checked locally but met by results it could not check (no date, no snippet)
    reads as ``date_after=2025-01-01 (some results unchecked)``: the model should not take
    those results on trust. Merged from engines some of which ignored it outright, it
    names them: ``language=af (not applied by duckduckgo)``.

    Examples:
        >>> from websearch_core.models import AppliedFilter
        >>> ignored_note(SearchResponse(provider="bing", filters=(
        ...     AppliedFilter(name="language", value="de", applied=("ignored",)),
        ... )))
        'Filters not applied: language=de.'
        >>> ignored_note(SearchResponse(provider="bing", filters=(
        ...     AppliedFilter(name="language", value="fr", applied=("native",)),
        ...     AppliedFilter(name="language", value="de", applied=("ignored",)),
        ... )))
        'Filters not applied: language=de (language=fr used instead).'
        >>> ignored_note(SearchResponse(provider="brave", filters=(
        ...     AppliedFilter(name="language", value="fr", applied=("ignored",)),
        ...     AppliedFilter(name="language", value="de", applied=("ignored",)),
        ... )))
        'Filters not applied: language=fr, language=de (language=fr used instead).'
        >>> ignored_note(SearchResponse(provider="public", filters=(
        ...     AppliedFilter(name="language", value="af", applied=("native", "ignored"),
        ...         unapplied_by=("duckduckgo", "bing")),
        ... )))
        'Filters not applied: language=af (not applied by duckduckgo, bing).'
    """
    parts = []
    for item in response.filters:
        if "ignored" not in item.applied:
            continue
        partly = " (some results unchecked)" if len(item.applied) > 1 else ""
        if item.unapplied_by:
            partly = f" (not applied by {', '.join(item.unapplied_by)})"
        used = _used_instead(item, response.filters)
        instead = f" ({item.name}={used} used instead)" if used else ""
        parts.append(f"{item.name}={item.value}{partly}{instead}")
    return f"Filters not applied: {', '.join(parts)}." if parts else None


def _used_instead(item: AppliedFilter, record: tuple[AppliedFilter, ...]) -> str | None:
    """The value applied in place of ``item``'s, for a filter that takes one value.

    A ``lang:de`` typed in the query gives way to a ``language`` passed (a program's
    setting over a model's guess); the model reads that its directive was dropped, and
    for what, rather than wondering why the results are not in German.

    The value chosen is the filter's first record (:func:`~.plan.apply_plan` lists the
    values that gave way after it), whether the provider then applied it or not: when
    Brave refuses the language chosen (422) both records read ignored, and the note still
    says which one the ``lang:`` gave way to.
    """
    if item.name not in _ONE_VALUE:
        return None
    for other in record:
        if other is item:
            return None
        if other.name == item.name and other.value != item.value:
            return other.value
    return None
