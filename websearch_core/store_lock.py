"""One writer at a time for a file that is read, changed and written back whole.

``websearch auth set brave`` and ``websearch auth set tavily`` run at the same time (two
terminals, a setup script that stores keys in parallel) each read the credential store,
added their key and wrote the file back: the second rename replaced the first writer's
file, and one key was lost without a word. A lock held from the read to the rename makes
the second writer read what the first wrote.

The lock is :mod:`filelock`'s (a lock file beside the target, ``flock`` on POSIX and
``msvcrt`` on Windows): the package says it runs on any OS, and the locking calls differ.
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import ConfigurationError

__all__ = ["LOCK_WAIT_SECONDS", "exclusive"]

LOCK_WAIT_SECONDS = 10.0
"""How long a writer waits for another to finish: a store write takes milliseconds, so a
lock held this long belongs to a process that is stuck, and the error says so."""


@contextmanager
def exclusive(target: Path, name: str) -> Iterator[None]:
    """Hold the lock of ``target`` (the file ``<target>.lock``, mode 0600) inside.

    Args:
        target: The file written; its directory must exist.
        name: What the file is called in an error, e.g. ``credential store /p/c.json``.

    Raises:
        ConfigurationError: Another process held the lock for :data:`LOCK_WAIT_SECONDS`.
        OSError: The lock file cannot be created (a directory the user may not write
            to), as writing the target itself would fail; the caller names it.
    """
    from filelock import FileLock, Timeout  # only when writing: every program imports us

    path = target.with_name(f"{target.name}.lock")
    # Made here first, so a directory no file can be made in fails at once, as the write
    # would: the lock's own open reads such a failure as "held" and waits its full time.
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    lock = FileLock(path, timeout=LOCK_WAIT_SECONDS, mode=0o600)
    try:
        lock.acquire()
    except Timeout:
        raise ConfigurationError(
            f"{name} is being written by another process (its lock {lock.lock_file} was "
            f"held for {LOCK_WAIT_SECONDS:g} s); try again"
        ) from None
    try:
        yield
    finally:
        lock.release()
