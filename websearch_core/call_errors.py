"""One error class for an adapter's method called with arguments it does not take.

LlamaIndex's ``retrieve`` is wrapped in an instrumentation span that binds the call's
arguments before the method runs, so a call it could not bind surfaced in the span's bare
words (``missing a required argument: 'str_or_query_bundle'``, ``too many positional
arguments``, ``got an unexpected keyword argument 'k'``), naming neither the method nor
what it takes. Such a call is now refused by the adapter itself, naming both, with a
:class:`CallTypeError`: a ``TypeError`` as Python's own (``except TypeError`` still catches
it) that is also a :class:`~websearch_core.errors.WebSearchError`, as every other error of
the retriever is.
"""

from .errors import WebSearchError

__all__ = ["CallTypeError"]


class CallTypeError(WebSearchError, TypeError):
    """A method was called with arguments it does not take; the message names it and them.

    A ``TypeError`` as Python's own for the same call, and a
    :class:`~websearch_core.errors.WebSearchError` as everything else the adapters raise.
    """
