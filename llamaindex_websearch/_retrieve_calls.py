"""What a ``WebSearchRetriever.retrieve`` call was given, read before LlamaIndex reads it.

``BaseRetriever.retrieve`` (and ``aretrieve``) hand the query to an instrumentation event
first, a pydantic model of its own: ``retrieve(["a", "b"])`` or ``retrieve(5)`` was refused
as ``2 validation errors for RetrievalStartEvent`` (``str_or_query_bundle.QueryBundle
...``), and ``retrieve(b"q")`` passed that model (pydantic reads bytes as text in lax mode)
and failed as ``AttributeError: 'bytes' object has no attribute 'query_str'``. LangChain's
retriever refuses each as ``1 validation error for WebSearchRetriever``, ``query: Input
should be a valid string``; the LlamaIndex one now says the same, in the same class. A
call that gives something besides the query and ``k`` (``retrieve(query="q")``,
``retrieve("q", 3)``, ``retrieve("q", recency="day")``, ``retrieve()``) is refused naming
the method, what it takes, and where a retriever option goes
(:class:`~websearch_core.call_errors.CallTypeError`). ``k`` for one call is the
retriever's own keyword, as LangChain's retriever takes it with each call.
"""

from collections.abc import Collection, Mapping
from typing import Any, Final

from llama_index.core.schema import QueryBundle
from pydantic import ValidationError

from websearch_core.call_errors import CallTypeError
from websearch_core.models import SearchParams
from websearch_core.tool_errors import renamed_arguments

__all__ = ["NO_QUERY", "called_query"]


class _NoQuery:
    """The default of ``retrieve``'s query: a call that gave none (``None`` is a wrong one)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<no query>"


NO_QUERY: Final[Any] = _NoQuery()
"""What ``retrieve()`` sees when no query was given."""

_QUERY_NAMES = frozenset({"query", "query_str", "query_bundle", "str_or_query_bundle", "input"})
"""Keywords a caller writes for the query itself: given by position in LlamaIndex."""


def called_query(
    owner: str,
    query: object,
    args: tuple[object, ...],
    kwargs: Mapping[str, object],
    built_with: Collection[str],
) -> str | QueryBundle:
    """The query of a ``retrieve``/``aretrieve`` call, the call refused when it is not one.

    Args:
        owner: The method as its caller wrote it (``WebSearchRetriever.retrieve``).
        query: The first positional argument (:data:`NO_QUERY` when none was given).
        args: Any further positional arguments.
        kwargs: The keywords given (their values are never shown, their types only).
        built_with: The retriever's options given only when built (``recency``...).

    Returns:
        The query, as given: a text or a ``QueryBundle``.

    Raises:
        CallTypeError: No query, more than the query, or a keyword (a ``TypeError``).
        pydantic.ValidationError: The query is neither a text nor a ``QueryBundle``: the
            same error, titled ``WebSearchRetriever``, as LangChain's retriever raises.
    """
    retriever = owner.partition(".")[0]
    method = owner.rpartition(".")[2]
    example = f'{method}("what to search for")'
    listed = ", ".join(sorted(built_with))
    if kwargs:
        name = next(iter(kwargs))
        if name in _QUERY_NAMES:
            instead = f"give the query by position alone: {example}"
        elif name in built_with:
            instead = (
                f"{name} is an option of the retriever, given when it is built: "
                f"{retriever}({name}=...)"
            )
        else:
            instead = (
                f'it takes the query and k= ({method}("what to search for", k=3)); the '
                f"retriever's other options ({listed}) are given when it is built"
            )
        raise CallTypeError(f"{owner}() got an unexpected keyword argument {name!r}; {instead}")
    if args:
        kinds = ", ".join(type(arg).__name__ for arg in args)
        raise CallTypeError(
            f"{owner}() takes the query by position and k by name, got {len(args)} more "
            f"positional argument{'s' if len(args) > 1 else ''} ({kinds}): "
            f'{method}("what to search for", k=3); the retriever\'s other options '
            f"({listed}) are given when it is built: {retriever}(recency=...)"
        )
    if query is NO_QUERY:
        raise CallTypeError(f"{owner}() needs the query, a text or a QueryBundle: {example}")
    if isinstance(query, str | QueryBundle):
        return query
    try:  # the search's own check of its query, which takes text alone: it refuses this
        SearchParams.model_validate({"query": query})
    except ValidationError as error:
        raise renamed_arguments(error, {}, retriever) from None
    raise AssertionError(f"SearchParams took a {type(query).__name__} as its query")
