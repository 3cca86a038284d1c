"""The config file as one answer from the disk, which a first call reads once and hands on.

A tool given no ``Settings`` reads its config file's deadlines before it builds, on the
import thread and bounded by its deadline (:mod:`~websearch_core.config_deadlines`); the
settings the build then makes read the same file again, on the call's own thread (the
event loop, for an async call) and with no limit: a disk that answered the first read and
then hung held the call for as long as it hung. So what the disk said (the file's state and
its bytes, or the error reading them) is kept as a :class:`ConfigRead`, and the build is
handed it (:func:`handing`): settings made inside that ``with`` for the same path take it
rather than touch the disk again. Both readers then also read the same text, not two
versions of a file edited in between.

Settings made anywhere else (a ``WebSearch`` or ``Settings`` made directly, by the user)
read the file themselves, on the thread that makes them, when made: a constructor has no
call's deadline to end by (a search's deadline counts from the search's start), and its
errors are raised where it is called. The hand-over lives in a context variable, reset when
the build ends, so a later ``Settings()`` on the same thread reads the disk afresh.

A path the disk will not even look at (a name too long, a permission on a directory above
it) is a read too, state ``"unreachable"`` with the disk's error: the bounded read handed
nothing for it, so the settings looked again, unbounded, and their ``OSError`` escaped as
a bug (``websearch`` printed a traceback). Now one look, and one error naming the file.

A tool builds a client on each loop it is called on, each build reading the file by its
call's deadline: the bytes of a file read before are kept with the file's stamp (device,
inode, size, modification and change times), and a read that finds the same stamp takes
them instead of opening the file again: the file is read once per process unless it
changes (one ``stat`` a loop tells; an edit keeping all five, within one tick of a coarse
clock and at the same size, would be missed until the next).
"""

import contextlib
import contextvars
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from .edited_text import utf8_text

__all__ = ["ConfigRead", "config_document", "handed_read", "handing", "read_config"]

State = Literal["file", "missing", "directory", "dangling link", "not a file", "unreachable"]
"""What is at the config file's path: a file, nothing, something a file cannot be read from,
or what the disk would not look at (``unreachable``: its error kept)."""

Stamp = tuple[int, int, int, int, int]
"""A file's device, inode, size, and modification and change times (ns): what tells an edit."""

_PROBLEMS: dict[State, str] = {
    "missing": "does not exist",
    "directory": "is a directory, not a file",
    "dangling link": "is a symbolic link to a file that does not exist",
    "not a file": "is not a file",
}
"""What the settings say of a path that holds no file (after ``config file <path>``)."""


@dataclass(frozen=True, slots=True)
class ConfigRead:
    """What the disk answered for the config file's path, read once.

    Args:
        path: The file's path, as the settings chose it.
        state: What is there.
        raw: The file's bytes, when it is a file that could be read.
        error: Why a file's bytes could not be read (raised again by :meth:`document`), or
            why the path could not be looked at (``unreachable``).
        stamp: The read file's :data:`Stamp`, when its bytes were read.
    """

    path: Path
    state: State
    raw: bytes | None = None
    error: OSError | None = None
    stamp: Stamp | None = None

    @property
    def is_file(self) -> bool:
        """Whether a file is there (read or not)."""
        return self.state == "file"

    @property
    def problem(self) -> str:
        """What the settings say of a path holding no file; empty for a file."""
        if self.state == "unreachable":
            return f"cannot be read: {_reason(self.error)}"
        return _PROBLEMS.get(self.state, "")

    def document(self) -> dict[str, Any]:
        """The file's TOML document (:func:`config_document` of its bytes).

        Raises:
            OSError: The bytes could not be read.
            SavedAsUtf16Error: It is UTF-16 text.
            UnicodeDecodeError: It is not UTF-8.
            tomllib.TOMLDecodeError: It is not TOML.
        """
        if self.error is not None:
            raise self.error
        return config_document(self.raw or b"")


def read_config(path: Path, kept: ConfigRead | None = None) -> ConfigRead:
    """Ask the disk what is at ``path``, and read its bytes when it is a file.

    Only the state and the bytes: what they mean is the settings' to say. Never raises:
    a path the disk will not look at is the state ``unreachable``, its error kept.

    Args:
        path: The config file's path.
        kept: An earlier read of ``path``: returned as it is when the file's stamp is
            unchanged (the file is not opened again).
    """
    try:
        if kept is not None and _unchanged(path, kept):
            return kept
        return _looked_at(path)
    except OSError as error:  # not "no such file": is_file and exists answer those
        return ConfigRead(path, "unreachable", error=error)


def _unchanged(path: Path, kept: ConfigRead) -> bool:
    """Whether ``kept`` read ``path``'s file as it still is (by its stamp).

    Raises:
        OSError: The path could not be looked at.
    """
    if kept.path != path or kept.stamp is None:
        return False
    return _stamp(path.stat()) == kept.stamp


def _looked_at(path: Path) -> ConfigRead:
    """:func:`read_config` without a kept read.

    Raises:
        OSError: The path could not be looked at, as ``Path.is_file`` raises it.
    """
    if path.is_file():
        try:
            with path.open(mode="rb") as file:
                stamp = _stamp(os.fstat(file.fileno()))  # of the bytes read, not a later file
                return ConfigRead(path, "file", raw=file.read(), stamp=stamp)
        except OSError as error:
            return ConfigRead(path, "file", error=error)
    if not path.exists():
        return ConfigRead(path, "dangling link" if path.is_symlink() else "missing")
    return ConfigRead(path, "directory" if path.is_dir() else "not a file")


def _stamp(status: os.stat_result) -> Stamp:
    return (
        status.st_dev,
        status.st_ino,
        status.st_size,
        status.st_mtime_ns,
        status.st_ctime_ns,
    )


def _reason(error: OSError | None) -> str:
    """The disk's words for ``error`` (its ``strerror``), else its kind."""
    if error is None:
        return "unknown reason"
    return error.strerror or type(error).__name__


def config_document(raw: bytes) -> dict[str, Any]:
    """The TOML document in a config file's bytes, past a byte order mark.

    tomllib refuses a leading byte order mark, so a config file saved as "UTF-8 with
    BOM" was reported ``not valid TOML: Invalid statement (at line 1, column 1)``,
    pointing at nothing the user could see.

    Raises:
        SavedAsUtf16Error: It is UTF-16 text (a byte order mark, or NUL bytes).
        UnicodeDecodeError: It is not UTF-8 (the byte counted from the file's start).
        tomllib.TOMLDecodeError: It is not TOML.
    """
    import tomllib  # as pydantic-settings does: only when a file is read

    data: dict[str, Any] = tomllib.loads(utf8_text(raw))
    return data


_handed: contextvars.ContextVar[ConfigRead | None] = contextvars.ContextVar(
    "websearch_config_read", default=None
)
"""The read handed to the settings a build makes (:func:`handing`); ``None`` elsewhere."""


@contextlib.contextmanager
def handing(read: ConfigRead | None) -> Iterator[None]:
    """Within it, settings made for ``read``'s path take ``read`` instead of the disk.

    Args:
        read: What the call's bounded read found; ``None`` hands nothing (the settings
            read the disk, as anywhere).
    """
    if read is None:
        yield
        return
    token = _handed.set(read)
    try:
        yield
    finally:
        _handed.reset(token)


def handed_read(path: Path) -> ConfigRead | None:
    """The read handed over for ``path`` (:func:`handing`), or ``None``: read the disk."""
    read = _handed.get()
    return read if read is not None and read.path == path else None
