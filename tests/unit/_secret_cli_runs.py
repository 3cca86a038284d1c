"""``websearch`` run in a subprocess whose outputs are checked to hold no secret.

The ``auth`` commands' JSON tests store a key and a Gemini CLI sign-in and read every
answer: each run's stdout and stderr are searched for the key and the tokens before the
test reads what it asserts, so no test of a shape can pass while a secret shows.
"""

import subprocess
from collections.abc import Sequence

from tests.websearch_process import run_websearch

__all__ = ["websearch_showing_none"]


def websearch_showing_none(
    args: list[str], env: dict[str, str], secrets: Sequence[object], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """``websearch <args>`` fed ``stdin``: its end, once no secret is in either output."""
    done = run_websearch(args, env=env, stdin=stdin)
    for secret in secrets:
        assert str(secret) not in done.stdout + done.stderr
    return done
