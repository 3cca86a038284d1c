"""The ``websearch`` command's name, exit statuses and one-line failure report.

Kept apart from :mod:`.cli`, which imports the whole client, so the console script's entry
(:mod:`websearch_core.__main__`) and the ``fetch`` command can report in the same words
without that import.
"""

from .cli_wrap import say

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "PROG", "fail"]

PROG = "websearch"
EXIT_OK = 0
"""The search succeeded, or the command did what it was asked."""
EXIT_FAILED = 1
"""Every provider failed, or there was nothing to remove."""
EXIT_USAGE = 2
"""Invalid arguments, settings or configuration."""
EXIT_INTERRUPTED = 130
"""Ctrl-C: the shells' status for a program ended by SIGINT (128 + 2)."""


def fail(message: str, status: int = EXIT_USAGE) -> int:
    """Print ``websearch: <message>`` to stderr and give back ``status`` to exit with.

    At a terminal the message is wrapped to its width (:mod:`.cli_wrap`); elsewhere it is
    the one line it always was.
    """
    say(f"{PROG}: {message}")
    return status
