"""What ``websearch`` prints of a bug in a search: Python's traceback, every secret masked.

A search answers a provider's failure as text; an error no layer below the command
expected (a bug in the core, a library's error on a value it met) left the command as
Python's own traceback, with the message of every error in its chain: an
``int('<key>')`` or a ``KeyError('<key>')`` on the way put the key on stderr, where a
user pastes it into a bug report. The command's search raises :class:`SearchCrashed`
in its place, its report (:func:`crash_report`) the same traceback with every secret of
the client and of the key variables masked, and prints that. What a search is expected
to raise (invalid input, a bad setting, an interrupt) passes through unchanged.
"""

import os
import traceback
from collections.abc import Iterable, Mapping

from .key_variable_names import KEY_VARIABLES
from .redaction import Redactor

__all__ = ["SearchCrashed", "crash_report", "variable_secrets"]


class SearchCrashed(Exception):
    """A search ended in an error nothing below the command expected, with its report.

    Raised in place of that error, with no cause or context: its messages are what the
    report masks, so nothing reachable from this one holds them.

    Attributes:
        report: The error's traceback as Python prints it, every secret masked.
    """

    def __init__(self, report: str) -> None:
        super().__init__(report)
        self.report = report


def variable_secrets(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The values of the key variables set in ``environ`` (``BRAVE_API_KEY``...).

    A key read from one is among the client's secrets once handed out; a bug may meet it
    before that (reading the variables is the first thing a search does).

    Example:
        >>> variable_secrets({"BRAVE_API_KEY": "k-0123", "HOME": "/home/u", "EXA_API_KEY": " "})
        ('k-0123',)
    """
    return tuple(
        value for name, value in environ.items() if name.lower() in KEY_VARIABLES and value.strip()
    )


def crash_report(error: BaseException, secrets: Iterable[str]) -> str:
    """``error``'s traceback as Python prints it, with ``secrets`` and the key variables masked.

    Args:
        error: The error no layer below the command expected.
        secrets: The client's secrets handed out by then; the values of the key variables
            set in this process are added (:func:`variable_secrets`).
    """
    shown = "".join(traceback.format_exception(error))
    return Redactor([*secrets, *variable_secrets(os.environ)])(shown)
