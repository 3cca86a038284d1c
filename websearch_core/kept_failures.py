"""What a failure kept past its turn may hold: its text, never what it was reading.

A provider's failure outlives the attempt that raised it: the chain keeps it in
:attr:`~websearch_core.orchestration.chain.ChainOutcome.failures` (``ChainRunner.run``'s
result, exported from :mod:`websearch_core.orchestration`), the Public Web fan-out in
its error's ``failures`` and ``outcomes`` (one per engine), and the client raises them
inside ``AllProvidersFailedError``. Kept as raised, a failure still reaches the request
it failed on: its traceback's frames hold the request loop's flow and the response
(whose body may quote the request, key and all, or a proxy's credentials), an error
chained to it holds aiohttp's request headers, and a provider's bug (a ``KeyError``, a
``json.JSONDecodeError`` whose ``doc`` is the whole body) holds whatever it read. An
error tracker or a walk of the objects reads all of it. :func:`kept_failure` is what is
kept instead, the same at every place a failure is kept.
"""

from .bug_traces import ProviderBug, bug_trace
from .errors import SearchProviderError, WebSearchError

__all__ = ["detach", "kept_failure"]


def detach(error: BaseException) -> None:
    """Drop what ``error`` holds besides its own text: chained errors and its frames.

    The library's errors are built outside any ``except`` block (no ``__context__``)
    from texts already masked; their traceback is what still leads to the request.
    """
    error.__context__ = None
    error.__cause__ = None
    error.__traceback__ = None


def kept_failure(
    provider_id: str,
    error: BaseException,
    *,
    bug: ProviderBug | None = None,
    message: str | None = None,
) -> BaseException:
    """``error`` as a failure may be kept: one of ours detached, a bug as a provider error.

    Args:
        provider_id: The provider (or engine) whose attempt raised ``error``.
        error: What it raised, its text already masked
            (:func:`~websearch_core.orchestration.attempt.scrub_error`).
        bug: The bug's :func:`~websearch_core.bug_traces.bug_trace` when the caller made
            one already (to log it): the kept error names the same one as its cause.
        message: A bug's text as kept (default: its own, or its type's name when empty,
            as the client's raised failure says it).

    Returns:
        ``error`` itself, detached, when it is one of the library's errors; else a
        :class:`~websearch_core.errors.SearchProviderError` of ``provider_id`` with the
        bug's text, caused by its trace (the type and lines, no locals, nothing it held).

    Example:
        >>> kept = kept_failure("brave", KeyError("results"))
        >>> kept.provider, kept.message, kept.__cause__.__notes__
        ('brave', "'results'", ['raised as builtins.KeyError, a bug of the provider'])
    """
    if isinstance(error, WebSearchError):
        detach(error)
        return error
    text = (str(error) or type(error).__name__) if message is None else message
    kept = SearchProviderError(provider_id, text)
    kept.__cause__ = bug if bug is not None else bug_trace(error)
    return kept
