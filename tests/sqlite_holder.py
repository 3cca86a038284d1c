"""Another process holding a SQLite file's lock, for tests of a state store that must wait.

:func:`held_by_another_process` starts a Python process that takes ``BEGIN EXCLUSIVE`` on
the file and keeps it until the test lets go, as a process stuck mid-transaction would
(a frozen agent, a backup tool, an editor browsing the file). Under WAL that is the write
lock; on a file not in WAL yet (never opened by a store) it keeps readers out too.
"""

import contextlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from tests.fault_release import SelfRelease

_HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin (or dies)
conn.execute("ROLLBACK")
"""


class HeldLock:
    """The holding process; :meth:`release` lets go of the lock before the block ends."""

    def __init__(self, path: Path) -> None:
        self._releasing = threading.Lock()  # a SelfRelease's timer and the block's end
        self._process = subprocess.Popen(
            [sys.executable, "-c", _HOLDER, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if line.strip() != "held":
            self._process.kill()
            raise RuntimeError(f"the lock holder did not take the lock on {path}")

    def stdin_fd(self) -> int:
        """The holder's stdin, for a process forked meanwhile to close.

        A forked child keeps a copy of it: until it closes that, :meth:`release` closing
        the test's own copy ends nothing, and the holder keeps the lock until the child
        ends (or :meth:`release` gives up on it, 10 s later).
        """
        assert self._process.stdin is not None
        return self._process.stdin.fileno()

    def release(self) -> None:
        """Roll back and end the holding process (no-op once done)."""
        with self._releasing:
            process = self._process
            assert process.stdin is not None and process.stdout is not None
            if process.poll() is None:
                process.stdin.close()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            process.stdin.close()
            process.stdout.close()


@contextlib.contextmanager
def held_by_another_process(path: Path, release: SelfRelease | None = None) -> Iterator[HeldLock]:
    """Hold ``path``'s lock in another process for the block (or until released).

    Args:
        path: The SQLite file.
        release: Lets the lock go by itself once its time is up, even mid-block, so a
            store call stuck behind it ends (see :mod:`tests.fault_release`).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    held = HeldLock(path)
    if release is not None:
        release.arm(held.release)
    try:
        yield held
    finally:
        if release is not None:
            release.disarm()
        held.release()
