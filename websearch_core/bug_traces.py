"""What leaves the library of a provider's bug: its type, its masked text and its lines.

A provider's code that raises something other than a provider error (a ``KeyError`` on a
body of an unexpected shape, ``json.JSONDecodeError`` on a page) has a bug: the chain logs
it with its traceback, and the search's failure names it as its cause, so it can be found
and fixed. The bug's own exception holds more than that: its attributes
(``JSONDecodeError.doc`` is the whole body, which a gateway's page may fill with the
request it refused, key and all), the exceptions chained to it, and its frames' locals
(the request loop's flow and the response quoting the key), which an error tracker
records from a log record's ``exc_info`` (Sentry's ``include_local_variables``, Rich's
``tracebacks_show_locals``). A :class:`ProviderBug` is handed out in its place: the text
already masked (:func:`~websearch_core.orchestration.attempt.scrub_error`), the type's
name in a note, and the same traceback lines with every frame's locals cleared.
"""

import traceback

__all__ = ["ProviderBug", "bug_trace"]


class ProviderBug(Exception):
    """A provider's bug as handed out: its text, its type in a note, its lines, nothing held."""


def bug_trace(error: BaseException) -> ProviderBug:
    """``error`` (a bug, already masked) as a :class:`ProviderBug` to log or chain.

    The traceback starts below the frame that caught ``error`` (that frame is still
    running, so its locals, ``error`` among them, cannot be cleared); the frames under
    it have returned, and their locals are cleared in place, so the bug's own exception
    no longer reaches them either. Its text is ``str(error)`` (the type's name when
    empty), as the failure's message says it.

    Example:
        >>> shown = bug_trace(KeyError("results"))
        >>> str(shown), shown.__notes__
        ("'results'", ['raised as builtins.KeyError, a bug of the provider'])
    """
    kind = type(error)
    shown = ProviderBug(str(error) or kind.__name__)
    shown.add_note(f"raised as {kind.__module__}.{kind.__qualname__}, a bug of the provider")
    below = error.__traceback__.tb_next if error.__traceback__ is not None else None
    if below is not None:
        traceback.clear_frames(below)
    return shown.with_traceback(below)
