"""``websearch`` run as a user runs it: a fresh interpreter, its outputs read as text.

Many tests prove what the command does from outside: its exit status, what it printed,
that no secret shows. Each used to write the same ``subprocess.run`` call with its own
keywords; this module is that call once, so every such run feeds the same input (nothing,
unless a test gives some: never the terminal pytest was started from), reads text and is
bounded by a timeout. Runs that need a process to signal, or bytes, start
:data:`WEBSEARCH` themselves.
"""

import subprocess
import sys
from collections.abc import Mapping, Sequence

__all__ = ["WEBSEARCH", "run_websearch"]

WEBSEARCH = (sys.executable, "-m", "websearch_core")
"""The command line of ``websearch`` in this interpreter (the tree under test, not a PATH's)."""


def run_websearch(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    stdin: str | None = None,
    timeout: float = 120,
    prefix: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """``websearch <args>`` to its end: its status, stdout and stderr.

    Args:
        args: The command's arguments.
        env: The whole environment (the test's own when ``None``).
        stdin: Text fed to the command; ``None`` feeds an empty input.
        timeout: Seconds before the run counts as hung (``subprocess.TimeoutExpired``).
        prefix: A command the run goes through (``unshare -rn``, say).
    """
    return subprocess.run(
        [*prefix, *WEBSEARCH, *args],
        env=env,
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
