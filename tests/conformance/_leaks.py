"""What a user can see of a search, gathered, and the shapes of a key to look for in it.

Shared by the key-leak conformance tests: each drives a failure, then asks
:func:`shapes_seen` which shapes of the key reached any of the channels collected here.
"""

import base64
import html
import json
import logging
import pathlib
import re
import sqlite3
import traceback
import types
from collections.abc import Iterable
from urllib.parse import quote, quote_plus, unquote

__all__ = [
    "base64_cores",
    "echo_forms_seen",
    "everything_logged",
    "failure_texts",
    "library_logs",
    "reachable_texts",
    "shapes_seen",
    "stored_texts",
]

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


_ENDS = r"(?:\.{2,}|\u2026|\*{2,})"
"""The marks a provider writes between a key's ends when it shows them (``...``, ``…``)."""


def base64_cores(key: str) -> set[str]:
    """The base64 characters that depend on ``key``'s bytes alone, at each byte alignment.

    Inside a longer base64 text (``user:key`` in a Basic header, a JSON body encoded whole)
    the key starts at a byte offset of 0, 1 or 2 modulo 3, and each gives other characters:
    the ones whose six bits all come from the key are the same whatever surrounds it.
    """
    raw = key.encode()
    cores: set[str] = set()
    for shift in range(3):
        start, end = -(-8 * shift // 6), (8 * shift + 8 * len(raw)) // 6
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            cores.add(encode(b"\0" * shift + raw).decode()[start:end])
    return cores


def _decoded(text: str) -> list[str]:
    """``text`` and its readings with HTML entities, ``%XX`` and ``\\uXXXX`` decoded."""
    unicode = re.sub(r"\\u([0-9a-fA-F]{4})", lambda found: chr(int(found[1], 16)), text)
    views = [text, html.unescape(text), unquote(text), unicode]
    views.append(html.unescape(unquote(unicode.replace("&amp;", "&"))))
    return views


def echo_forms_seen(key: str, seen: Iterable[str]) -> list[str]:
    """What of ``key`` shows in ``seen`` in any form an echo may take (none: nothing leaked).

    :func:`shapes_seen` of each text decoded (entities, percent-encoding, JSON escapes),
    the key's :func:`base64_cores`, and its first and last six characters around an
    ellipsis (``sk-SEN...5b41d8``): 12 characters of the key, as a run of 12 would be.
    """
    texts = list(seen)
    found = shapes_seen(key, (view for text in texts for view in _decoded(text)))
    joined = "\n".join(texts)
    found += sorted(core for core in base64_cores(key) if core in joined)
    ends = re.compile(re.escape(key[:6]) + _ENDS + re.escape(key[-6:]), re.IGNORECASE)
    found += [match.group() for match in ends.finditer(joined)]
    return found


LIBRARY_PACKAGES = ("websearch_core", "langchain_websearch", "llamaindex_websearch")
"""The library's packages: their frames' locals are ours to keep free of keys."""
_LEAVES = (str, bytes, bytearray)
_SKIPPED = (int, float, bool, type(None), type, types.ModuleType, types.FunctionType)


def reachable_texts(error: BaseException) -> list[str]:
    """Every text reachable from ``error`` that a caller, a logger or a tracker reads.

    :func:`failure_texts`, then a walk of the objects it carries: ``args``,
    ``__notes__``, ``__cause__``/``__context__``, the attributes of each error and of
    what they hold (an aiohttp ``request_info`` with its headers and URL among them), as
    text and as ``repr``; and the locals of every frame of each error's traceback as an
    error tracker (Sentry's ``include_local_variables``) records them: containers
    walked, any other object by its ``repr``.
    """
    seen = failure_texts(error)
    visited: set[int] = set()
    _walk(error, seen, visited, depth=0)
    return seen


def _walk(value: object, seen: list[str], visited: set[int], *, depth: int) -> None:
    """Add the texts of ``value`` and of what it holds to ``seen`` (see reachable_texts)."""
    if id(value) in visited or depth > 8 or isinstance(value, _SKIPPED):
        return
    visited.add(id(value))
    if isinstance(value, _LEAVES):
        seen.append(value if isinstance(value, str) else bytes(value).decode("latin-1"))
        return
    seen.append(_safe_repr(value))
    if isinstance(value, BaseException):
        _walk_error(value, seen, visited, depth=depth)
    for part in _parts(value):
        _walk(part, seen, visited, depth=depth + 1)


def _walk_error(error: BaseException, seen: list[str], visited: set[int], *, depth: int) -> None:
    """An error's own texts, what it chains and carries, and its library frames' locals."""
    seen.extend([str(error), *traceback.format_exception(error)])
    parts = [error.args, getattr(error, "__notes__", None), error.__cause__, error.__context__]
    for part in parts:
        _walk(part, seen, visited, depth=depth + 1)
    _frames(error.__traceback__, seen, visited)


def _parts(value: object) -> list[object]:
    """What ``value`` holds: a container's keys and items, else its attributes' values."""
    if isinstance(value, dict):
        return [*value.keys(), *value.values()]
    if isinstance(value, list | tuple | set | frozenset):
        return list(value)
    parts: list[object] = []
    items = getattr(value, "items", None)
    if callable(items) and type(value).__module__.startswith(("multidict", "yarl")):
        parts.append(dict(items()))
    for name in _attribute_names(value):
        try:
            parts.append(getattr(value, name))
        except Exception:  # a property that fails on this object: nothing to read there
            continue
    return parts


def _attribute_names(value: object) -> set[str]:
    """The names of ``value``'s instance attributes: its ``__dict__`` and every slot."""
    names = set(getattr(value, "__dict__", {}) or {})
    for klass in type(value).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names.update((slots,) if isinstance(slots, str) else slots)
    return {name for name in names if name not in {"__weakref__", "__dict__"}}


def _frames(tb: types.TracebackType | None, seen: list[str], visited: set[int]) -> None:
    """Each library frame's locals as a tracker records them: containers, then reprs.

    The test's own frames are left out: what a caller keeps in its locals (the keys it
    passed) is the caller's to hide.
    """
    while tb is not None:
        if _is_library(tb.tb_frame.f_code.co_filename):
            for local in tb.tb_frame.f_locals.values():
                _tracked(local, seen, visited, depth=0)
        tb = tb.tb_next


def _is_library(filename: str) -> bool:
    """Whether ``filename`` is a module of the library (not a test, not a dependency)."""
    parts = pathlib.Path(filename).parts
    return any(part in LIBRARY_PACKAGES for part in parts[-4:-1])


def _tracked(value: object, seen: list[str], visited: set[int], *, depth: int) -> None:
    """``value`` as a tracker serialises a local: a container's items, else its repr."""
    if depth > 8:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _tracked(key, seen, visited, depth=depth + 1)
            _tracked(item, seen, visited, depth=depth + 1)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            _tracked(item, seen, visited, depth=depth + 1)
    elif isinstance(value, BaseException):
        _walk(value, seen, visited, depth=0)
    else:
        seen.append(_safe_repr(value))


def _safe_repr(value: object) -> str:
    """``repr(value)``, or nothing when its ``repr`` fails (as a tracker's does)."""
    try:
        return repr(value)
    except Exception:
        return ""
