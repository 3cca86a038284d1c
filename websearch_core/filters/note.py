"""The one line a model reads when a filter it asked for could not be applied."""

from ..models import SearchResponse

__all__ = ["ignored_note"]


def ignored_note(response: SearchResponse) -> str | None:
    """``Filters not applied: language=de.``, or ``None`` when every filter was applied.

    A filter checked locally but met by results it could not check (no date, no snippet)
    reads as ``date_after=2025-01-01 (some results unchecked)``: the model should not take
    those results on trust.

    Examples:
        >>> from websearch_core.models import AppliedFilter
        >>> ignored_note(SearchResponse(provider="bing", filters=(
        ...     AppliedFilter(name="language", value="de", applied=("ignored",)),
        ... )))
        'Filters not applied: language=de.'
    """
    parts = []
    for item in response.filters:
        if "ignored" not in item.applied:
            continue
        partly = " (some results unchecked)" if len(item.applied) > 1 else ""
        parts.append(f"{item.name}={item.value}{partly}")
    return f"Filters not applied: {', '.join(parts)}." if parts else None
