"""The ``websearch`` command's name, exit statuses and one-line failure report.

Kept apart from :mod:`.cli`, which imports the whole client, so the console script's entry
(:mod:`websearch_core.__main__`) and the ``fetch`` command can report in the same words
without that import.
"""

import sys

from .cli_wrap import say

__all__ = [
    "BUG_LINE",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "PROG",
    "REPORT_FAILED",
    "bug",
    "fail",
]

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


BUG_LINE = f"{PROG}: internal error (a bug, not a provider's failure; keys masked below):"
"""The line before a bug's masked report (:mod:`.cli_crash`), in every command alike."""
REPORT_FAILED = (
    "(the report of this bug failed in turn; nothing of it is shown, so that no key is)\n"
)
"""The report of a bug whose report could not be made (its own bug, or the report's module
failing to import): fixed, so it holds nothing either error could have quoted. Here, not
in :mod:`.cli_crash`, so the entry can print it when that module is what broke."""


def bug(report: str) -> int:
    """Print :data:`BUG_LINE` and a bug's ``report`` (already masked) to stderr; exit 1.

    The one place a bug is said, for a bug in a command (:mod:`.cli`) and for one while
    the command was being imported (:mod:`websearch_core.__main__`).
    """
    say(BUG_LINE)
    sys.stderr.write(report)
    return EXIT_FAILED
