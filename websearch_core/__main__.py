"""``python -m websearch_core``, and the ``websearch`` console script's entry.

The command's modules take a few tenths of a second to import. Started from
:mod:`websearch_core.cli` directly, a Ctrl-C in that time ends in a traceback from the
import machinery; started here, where nothing of the client is imported yet, it ends as an
interrupt during a search does: one ``websearch: interrupted`` line and exit status 130.
"""

import sys

from .cli_status import EXIT_INTERRUPTED, fail

__all__ = ["main"]


def main() -> int:
    """Import the command and run it on ``sys.argv``; the exit status to leave with."""
    try:
        from .cli import main as run_command
    except KeyboardInterrupt:
        return fail("interrupted", EXIT_INTERRUPTED)
    return run_command()


if __name__ == "__main__":
    sys.exit(main())
