"""The model-facing arguments of ``web_search``, defined once for every framework adapter.

The LangChain and LlamaIndex adapters both show a model the same six arguments with the
same bounds and descriptions; they subclass :class:`ToolArguments` (their own class name
becomes the schema's title), so a description or bound changed here changes every
adapter at once. Plain pydantic: no framework is imported.
"""

from collections.abc import Mapping
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from .models import (
    MAX_QUERY_LENGTH,
    Recency,
    SearchParams,
    refuse_blank_query,
    refuse_unsendable_query,
)
from .tool_json_arguments import unpacked_arguments

__all__ = ["ToolArguments", "tool_search_params"]


class ToolArguments(BaseModel):
    """The arguments a model may give ``web_search`` (bounds as in ``SearchParams``).

    Unknown arguments are refused, not dropped: a model that invents ``site`` or
    ``date_after`` must hear that they do not exist (the query's ``site:`` and ``after:``
    do that job), rather than read unfiltered results as filtered ones.
    """

    model_config = ConfigDict(extra="forbid")

    query: str = Field(
        min_length=1,
        max_length=MAX_QUERY_LENGTH,
        strict=True,
        description=(
            "What to search for: keywords or a natural-language question; include the names, "
            "versions and dates that matter. Constraints go in the query as people type them "
            '(site:, -site:, after:YYYY-MM-DD, before:YYYY-MM-DD, "exact phrase", -term, OR, '
            "filetype:, inurl:, intitle:, intext:); each provider applies them as well as it "
            "can."
        ),
    )
    recency: Recency | None = Field(
        default=None,
        description=(
            "Only return results from the last day, week, month or year. Set it only when "
            "the user asks for recent or time-bound results; otherwise leave it unset."
        ),
    )
    limit: int | None = Field(
        default=None,
        ge=1,
        le=100,
        strict=True,
        description="Maximum number of results to return (1-100). Leave unset for the default.",
    )
    max_tokens: int | None = Field(
        default=None,
        ge=1,
        le=200_000,
        strict=True,
        description=(
            "Token cap for a written answer, used only by providers that write one. "
            "Usually leave unset."
        ),
    )
    temperature: float | None = Field(
        default=None,
        ge=0.0,
        le=2.0,
        strict=True,
        description=(
            "Sampling temperature (0-2) for providers that write an answer. Usually leave unset."
        ),
    )
    num_search_results: int | None = Field(
        default=None,
        ge=1,
        le=100,
        strict=True,
        description=(
            "How many results the provider should search through (1-100); most providers "
            "treat it like limit. Usually leave unset."
        ),
    )

    _query_not_blank = field_validator("query", mode="before")(refuse_blank_query)
    """``""`` and ``"  "`` refused in the same words as :class:`SearchParams` refuses them."""
    _query_sendable = field_validator("query", mode="before")(refuse_unsendable_query)
    """A control character or a lone surrogate, refused as :class:`SearchParams` does."""

    @model_validator(mode="before")
    @classmethod
    def _arguments_in_query(cls, data: Any) -> Any:
        """A ``query`` that is the whole input as one JSON object, checked as those arguments.

        So ``query='{"query": "x", "limit": 0}'`` is refused on ``limit`` as the same
        arguments given one by one are, and an argument given both ways is named
        (:mod:`websearch_core.tool_json_arguments`); the adapters search with the same
        reading.
        """
        return unpacked_arguments(data) if isinstance(data, Mapping) else data


def tool_search_params(
    query: str,
    recency: Recency | None = None,
    limit: int | None = None,
    max_tokens: int | None = None,
    temperature: float | None = None,
    num_search_results: int | None = None,
) -> SearchParams:
    """The :class:`~websearch_core.SearchParams` for one tool call's arguments.

    The adapters' tool functions take the arguments one by one (their frameworks call them
    with keywords); this keeps the mapping to the request in one place.

    Raises:
        pydantic.ValidationError: An argument is out of range; the error names it.

    Example:
        >>> tool_search_params("rust async", limit=5).limit
        5
    """
    return SearchParams(
        query=query,
        recency=recency,
        limit=limit,
        max_tokens=max_tokens,
        temperature=temperature,
        num_search_results=num_search_results,
    )
