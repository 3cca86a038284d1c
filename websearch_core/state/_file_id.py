"""Which file a SQLite store opened at its path: the identity its journals are written for.

Why: ``websearch providers reset --all`` moves a damaged state file aside by renaming it,
and a process that opened it before keeps its connection to the renamed file. What that
process could not write (behind another process's lock) it journaled beside the *path*,
so the next store merged the old file's counts and cache entries into the fresh one. A
journal now names the file it was written for (device and inode, as ``os.stat`` gives
them: a rename keeps both, a new file at the path has others), and a store merges only
those of the file it has open (:func:`._journal.claim_journals`).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["FileId", "OpenedFile", "file_id"]

FileId = tuple[int, int]
"""A file's device and inode number."""


def file_id(path: Path) -> FileId | None:
    """The identity of the file at ``path`` now; ``None`` when it cannot be read."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino)


class OpenedFile:
    """The identity of the file a store's connection opened (``None`` until it opens one).

    One object for the store's life, which its exit-time finalizer holds too: the file
    is opened (and opened again after a damaged one's connection was dropped) after the
    finalizer was made.
    """

    def __init__(self) -> None:
        self.id: FileId | None = None

    def opened(self, path: Path) -> None:
        """A connection to ``path`` was just opened: remember which file it is."""
        self.id = file_id(path)

    def still_at(self, path: Path) -> bool:
        """Whether ``path`` still names that file (``True`` when either is not known)."""
        if self.id is None:
            return True
        now = file_id(path)
        return now is None or now == self.id
