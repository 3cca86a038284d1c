"""What a user can see of a search, gathered, and the shapes of a key to look for in it.

Shared by the key-leak conformance tests: each drives a failure, then asks
:func:`shapes_seen` which shapes of the key reached any of the channels collected here.
"""

import base64
import json
import logging
import pathlib
import sqlite3
import traceback
from collections.abc import Iterable
from urllib.parse import quote, quote_plus

__all__ = ["everything_logged", "failure_texts", "library_logs", "shapes_seen", "stored_texts"]

RUN_LENGTH = 12
"""The run of a key's characters that counts as a leak, wherever in the key it starts:
the redactor's own ``RUN_LENGTH``, written out so the audit states the rule itself."""
SIMULATOR_LOGGERS = ("aiohttp.access", "aiohttp.server")
"""The loopback server's own loggers: they write the path the client asked for (a
redirect's key in its query string), and belong to the test's server, not the library."""


def everything_logged(record: logging.LogRecord) -> str:
    """A record's message, every attribute (``extra`` fields a JSON handler writes out
    among them) and its traceback: what any handler may print, not only the message."""
    logged = [record.getMessage(), *map(repr, vars(record).values())]
    if record.exc_info:
        logged.extend(traceback.format_exception(*record.exc_info))
    return "\n".join(logged)


def library_logs(records: Iterable[logging.LogRecord]) -> list[str]:
    """:func:`everything_logged` of each record but the simulator server's own."""
    return [everything_logged(r) for r in records if not r.name.startswith(SIMULATOR_LOGGERS)]


def failure_texts(error: BaseException) -> list[str]:
    """What a caller's ``except`` block may print of ``error``.

    Its traceback with the whole ``__cause__``/``__context__`` chain, its ``str`` and
    ``repr``, and the same of each failure it carries (``AllProvidersFailedError``).
    """
    seen = [str(error), repr(error), *traceback.format_exception(error)]
    for failure in getattr(error, "failures", ()):
        seen.extend([str(failure), repr(failure), *traceback.format_exception(failure)])
    return seen


def stored_texts(directory: pathlib.Path) -> list[str]:
    """Every file under ``directory`` as text, and each SQLite database dumped as SQL."""
    seen: list[str] = []
    for path in sorted(directory.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        seen.append(data.decode("latin-1"))
        if data.startswith(b"SQLite format 3"):
            connection = sqlite3.connect(path)
            try:
                seen.extend(connection.iterdump())
            finally:
                connection.close()
    return seen


def _shapes(key: str) -> set[str]:
    """The key as sent and as an upstream may echo it: URL-encoded, base64 (as in a Basic
    header), JSON-escaped, and every run of :data:`RUN_LENGTH` of its characters."""
    raw = key.encode()
    shapes = {key, quote(key, safe=""), quote_plus(key), json.dumps(key)[1:-1]}
    for encoded in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
        shapes.add(encoded.decode().rstrip("="))
    shapes.update(key[start : start + RUN_LENGTH] for start in range(len(key) - RUN_LENGTH + 1))
    return shapes


def shapes_seen(key: str, seen: Iterable[str]) -> list[str]:
    """The shapes of ``key`` found, case aside, in any of ``seen`` (none: nothing leaked)."""
    text = "\n".join(seen).lower()
    return sorted(shape for shape in _shapes(key) if shape.lower() in text)
