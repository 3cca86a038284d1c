"""``python -m websearch_core``, and the ``websearch`` console script's entry.

The command's modules take a few tenths of a second to import. Started from
:mod:`websearch_core.cli` directly, a Ctrl-C in that time ends in a traceback from the
import machinery; started here, where nothing of the client is imported yet, it ends as an
interrupt during a search does: one ``websearch: interrupted`` line and exit status 130.

A bug met while importing the command (a module raising as it loads, a broken install)
was Python's own traceback, where a bug once the command runs is one ``internal error``
line and its traceback with every key masked, as ``websearch --help`` says of any command.
No module's import reads a key variable (a test holds that), but the report masks what it
masks for any bug, so the two cannot differ in what they show: it is made here the same
way, and when the report's own module will not load, its fixed line stands in.
"""

import sys

from .cli_status import EXIT_INTERRUPTED, REPORT_FAILED, bug, fail

__all__ = ["main"]


def main() -> int:
    """Import the command and run it on ``sys.argv``; the exit status to leave with."""
    try:
        from .cli import main as run_command
    except KeyboardInterrupt:
        return fail("interrupted", EXIT_INTERRUPTED)
    except Exception as error:  # a bug on the way in: said as a bug in the command is
        return _import_bug(error)
    return run_command()


def _import_bug(error: Exception) -> int:
    """Report a bug met while importing the command, masked, or the fixed line; exit 1."""
    try:
        from .cli_crash import crash_report
    except Exception:  # the report's own module is what broke: nothing of it is shown
        return bug(REPORT_FAILED)
    return bug(crash_report(error, ()))


if __name__ == "__main__":
    sys.exit(main())
