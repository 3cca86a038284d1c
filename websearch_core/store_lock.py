"""One writer at a time for a file that is read, changed and written back whole.

``websearch auth set brave`` and ``websearch auth set tavily`` run at the same time (two
terminals, a setup script that stores keys in parallel) each read the credential store,
added their key and wrote the file back: the second rename replaced the first writer's
file, and one key was lost without a word. A lock held from the read to the rename makes
the second writer read what the first wrote.

An OAuth refresh holds the same lock while it asks the token endpoint (:func:`exclusive_for`):
two threads or processes meeting one expired sign-in each refreshed it, and the lock makes
the second read the token the first stored instead. It waits without blocking the event
loop, and no longer than the caller's time left.

The lock is :mod:`filelock`'s (a lock file beside the target, ``flock`` on POSIX and
``msvcrt`` on Windows): the package says it runs on any OS, and the locking calls differ.
"""

import os
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from .errors import ConfigurationError

__all__ = ["LOCK_WAIT_SECONDS", "LockHeldError", "exclusive", "exclusive_for", "lock_path"]

LOCK_WAIT_SECONDS = 10.0
"""How long a writer waits for another to finish: a store write takes milliseconds, so a
lock held this long belongs to a process that is stuck, and the error says so."""


class LockHeldError(Exception):
    """Another thread or process held the lock for the whole wait.

    Args:
        lock_file: The lock file's path.
        waited: How long the wait lasted, in seconds.
    """

    def __init__(self, lock_file: str, waited: float) -> None:
        super().__init__(f"{lock_file} was held for {waited:g} s")
        self.lock_file = lock_file
        self.waited = waited


def lock_path(target: Path) -> Path:
    """The lock file of ``target``, made now (mode 0600) if missing.

    Made here first, so a directory no file can be made in fails at once (``OSError``), as
    a write would: the lock's own open reads such a failure as "held" and waits its full
    time.
    """
    path = target.with_name(f"{target.name}.lock")
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    return path


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

    lock = FileLock(lock_path(target), timeout=LOCK_WAIT_SECONDS, mode=0o600)
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


@asynccontextmanager
async def exclusive_for(
    target: Path, seconds: float, *, begun: float | None = None
) -> AsyncIterator[None]:
    """Hold the lock of ``target`` inside, waiting at most ``seconds`` for it on the loop.

    The lock :func:`exclusive` takes, so a writer and this exclude each other, in threads
    of one process as in processes (``flock`` locks one open file, not one process). The
    wait polls without blocking the event loop: other searches of the loop go on.

    The wait ends ``seconds`` after ``begun``, whatever came before it: a process's first
    refresh imports filelock's asynchronous lock here (some thirty modules), and that time
    was added after a wait its caller had sized to end just before the search's attempt
    did. On a loaded machine the attempt's hard stop then came first, and the search
    failed as a plain timeout ("OpenAI search timed out after 1s") instead of saying the
    lock was held.

    Args:
        target: The file the holder reads and writes; its directory must exist.
        seconds: The longest wait (``0``: one try).
        begun: ``time.monotonic()`` when the caller's wait began (default: now).

    Raises:
        LockHeldError: The lock stayed held for ``seconds``.
        OSError: The lock file cannot be created.
    """
    ends = (time.monotonic() if begun is None else begun) + max(0.0, seconds)
    from filelock import AsyncFileLock, Timeout  # only when refreshing, as in exclusive()

    wait = max(0.0, ends - time.monotonic())
    lock = AsyncFileLock(lock_path(target), timeout=wait, mode=0o600, run_in_executor=False)
    try:
        await lock.acquire()
    except Timeout:
        raise LockHeldError(str(lock.lock_file), max(0.0, seconds)) from None
    try:
        yield
    finally:
        await lock.release()
