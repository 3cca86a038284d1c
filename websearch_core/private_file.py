"""A file of secrets that other users may read or change, said once per process.

The credential store is written with mode 0600, but a copy (``cp`` to a new machine, a
dotfiles checkout, an archive unpacked with the default umask) leaves it 0644, readable by
every user of the machine, and it was used without a word. ``ssh`` refuses such a key
file; refusing here would stop every search of a user whose keys worked yesterday, so it is
a warning naming the file and the fix, logged once per file and process (the auto chain
looks the store up for every provider on every search). It names the mode, never a value.
"""

import logging
import os
import stat
from pathlib import Path

from .said_once import first_time

__all__ = ["warn_if_open"]

logger = logging.getLogger("websearch_core.credentials")


def warn_if_open(path: Path, status: os.stat_result, what: str) -> None:
    """Log a warning when ``path`` (whose ``stat`` is ``status``) is open to other users.

    Group or other read or write permission counts, as it does for ``ssh``. Nothing is
    checked where file modes do not say who may read a file (Windows).

    Args:
        path: The file as the user named it (a symbolic link is named, its target's mode
            is ``status``).
        status: Its ``os.stat`` (links followed).
        what: What it is, e.g. ``credential store``.
    """
    if os.name != "posix" or not status.st_mode & 0o077:
        return
    name = str(path)
    if not first_time(("open to others", name)):
        return
    readable, writable = status.st_mode & 0o044, status.st_mode & 0o022
    open_to = " and ".join(w for w, on in (("read", readable), ("changed", writable)) if on)
    logger.warning(
        "%s %s can be %s by other users (mode %04o); make it yours alone with: chmod 600 %s",
        what,
        name,
        open_to,
        stat.S_IMODE(status.st_mode),
        name,
    )
