"""A first call reads its config file's deadlines before building, off its thread, bounded.

A tool given no ``Settings`` reads its settings, the config file among them, when its
first call builds its client. A ``deadline_seconds = 3`` written in that file is the
deadline its user expects every call to end by, the first one too; but it was known only
once the build had read the file, so the build's imports were bounded by the default 55 s
(:mod:`~websearch_core.build_deadline`). So the call reads the file's two deadline entries
first, on the import thread (:mod:`~websearch_core.import_jobs`), and its build's imports
then end by what the file says.

Reading the file needs ``platformdirs`` (where the default file lives) and ``tomllib``,
then the disk, any of which can be slow; the read is bounded by the deadline the call has
without the file (given, the environment's, else the default). A file on a disk that
does not answer ends the call by then, saying which file; the read goes on, and the next
call waits for the same read, by its own deadline. What the read found (the file's bytes,
:class:`~websearch_core.config_read.ConfigRead`) is handed to the settings the build makes,
which read the disk no more: their own read, right after, had no limit, and ran on the loop
for an async call.

A file that cannot be used (missing, not TOML, unreadable) gives no entries here: the
build's settings say what is wrong with it, from the same read; so for a path the disk
would not even look at (a name too long, a permission above it): the settings looked
again, unbounded, and a bare ``OSError`` escaped them. A loop's build after the first
takes the file's bytes read before when its stamp says it is unchanged
(:func:`~websearch_core.config_read.read_config`): read once per process unless edited.
"""

import functools
import importlib
import sys
from collections.abc import Hashable
from pathlib import Path

from .build_deadline import BuildImportsOutlastedError
from .config_read import ConfigRead, read_config
from .deadline import Deadline
from .env_values import setting_variable
from .errors import ConfigurationError
from .import_jobs import imported, imported_sync
from .settings import CONFIG_FILE_ENV, chosen_config_file

__all__ = [
    "deadline_entries",
    "read_config_file",
    "read_config_file_sync",
    "written_deadlines",
]

_ENTRIES = ("deadline_seconds", "timeout_seconds")
"""The file's entries a call's deadline is worked out from (a fetch's takes the sooner)."""
_READERS = ("platformdirs", "tomllib")
"""What reading the file imports, in the order the read imports them."""
Found = tuple[ConfigRead | None, dict[str, object]]
"""A read (``None``: no file could be chosen) and its deadline entries."""
_answers: dict[Hashable, Found] = {}
"""The last read and its entries, by what was read (:func:`_key`): every caller finds them."""
_reading: dict[Hashable, str] = {}
"""The file each read is reading (its path), named when a caller's deadline passes."""


def written_deadlines(config_file: object) -> dict[str, object]:
    """The chosen config file's ``deadline_seconds`` and ``timeout_seconds``, as written.

    Args:
        config_file: The ``config_file=`` option given, or ``None`` (the variable's file,
            else the default one).

    Returns:
        The entries the file has; none when it has neither, or cannot be used (the
        build then reads it and says why).
    """
    return deadline_entries(_file_read(config_file))


def deadline_entries(read: ConfigRead | None) -> dict[str, object]:
    """``read``'s deadline entries as written; none when it is no file that can be used."""
    if read is None or not read.is_file:
        return {}
    try:
        data = read.document()
    except (OSError, ValueError):  # TOML's and UTF-8's errors are ValueErrors
        return {}
    return {name: data[name] for name in _ENTRIES if name in data}


def _chosen(config_file: object) -> Path | None:
    """The file the settings will read (its readers imported first); ``None``: none can be."""
    for name in _READERS:
        importlib.import_module(name)
    try:
        path, _chosen_by = chosen_config_file(config_file)
    except ConfigurationError:  # the build says it
        return None
    return path


def _file_read(config_file: object, key: Hashable | None = None) -> ConfigRead | None:
    """The chosen file as the disk answers; ``None`` when none can be chosen.

    Args:
        config_file: As :func:`written_deadlines` takes it.
        key: The read's key, under which the path being read is kept for the error, and
            whose last read is taken again when the file is unchanged.
    """
    path = _chosen(config_file)
    if path is None:
        return None
    if key is None:
        return read_config(path)
    _reading[key] = str(path)
    return read_config(path, kept=_answers.get(key, (None, {}))[0])


async def read_config_file(config_file: object, seconds: float, within: Deadline) -> Found:
    """The config file read on the import thread, waited for until ``within`` ends.

    Returns:
        The read, which the build's settings are handed
        (:func:`~websearch_core.config_read.handing`), and its deadline entries (parsed
        on that thread too: :func:`deadline_entries`).

    Args:
        config_file: As :func:`written_deadlines` takes it.
        seconds: The call's deadline as known without the file, for the error.
        within: That deadline, counted from the call's start.

    Raises:
        BuildImportsOutlastedError: ``within`` passed first; the read goes on for the next.
    """
    key = _key(config_file)
    try:
        await imported(functools.partial(_read, key, config_file), key, within.remaining())
    except TimeoutError:
        raise _outlasted(key, seconds) from None
    return _answers.get(key, (None, {}))


def read_config_file_sync(config_file: object, seconds: float, within: Deadline) -> Found:
    """:func:`read_config_file` for a synchronous call: its thread waits, the read runs apart.

    Raises:
        BuildImportsOutlastedError: ``within`` passed first; the read goes on for the next.
    """
    key = _key(config_file)
    try:
        imported_sync(functools.partial(_read, key, config_file), key, within.remaining())
    except TimeoutError:
        raise _outlasted(key, seconds) from None
    return _answers.get(key, (None, {}))


def _key(config_file: object) -> Hashable:
    """What a read reads: callers naming the same file the same way join one read."""
    return ("config file deadlines", repr(config_file), setting_variable(CONFIG_FILE_ENV))


def _read(key: Hashable, config_file: object) -> None:
    """The read on the import thread; its answer is kept for every caller waiting on it."""
    _reading.pop(key, None)
    read = _file_read(config_file, key)
    kept = _answers.get(key)
    if kept is None or kept[0] is not read:  # an unchanged file's entries are known
        _answers[key] = (read, deadline_entries(read))


def _outlasted(key: Hashable, seconds: float) -> BuildImportsOutlastedError:
    """The error for a read ``seconds`` outlasted: the module it imports, else the file."""
    for name in _READERS:
        if name not in sys.modules:
            return BuildImportsOutlastedError(seconds, name)
    reading = _reading.get(key, "(its place not yet known)")
    return BuildImportsOutlastedError(seconds, _READERS[-1], reading=reading)
