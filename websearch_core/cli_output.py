r"""What the ``websearch`` command writes, readable whatever the terminal's encoding.

Results hold any character the web has (``Ünïcødé``, emoji, CJK). A terminal or pipe whose
encoding cannot write them (``PYTHONIOENCODING=ascii``, a Latin-1 console) made ``print``
raise ``UnicodeEncodeError`` and the command end in a traceback; here such characters are
written as escapes instead, and JSON uses its own ``\uXXXX`` escapes, so it stays exact.
An output that cannot be written at all (a full disk) is told apart from other I/O errors
(:func:`guarded_stdout`), so the command can say so in one line.
"""

import codecs
import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any

__all__ = ["OutputFailedError", "guarded_stdout", "json_text", "tolerate_unencodable_output"]


class OutputFailedError(Exception):
    """Standard output could not be written; the message is the system's reason.

    Not an ``OSError``: argparse swallows those when it prints ``--help``, and a handler
    catching ``OSError`` for a file of its own must not take this for its file's.
    """


class _GuardedOutput:
    """A stream that raises :class:`OutputFailedError` where the wrapped one raised ``OSError``.

    A reader closing the pipe stays a ``BrokenPipeError``: that is not a failure.
    """

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` to the wrapped stream."""
        try:
            written: int = self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputFailedError(error.strerror or str(error)) from error
        return written

    def flush(self) -> None:
        """Flush the wrapped stream."""
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputFailedError(error.strerror or str(error)) from error

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """Within the block, a failed write to stdout raises :class:`OutputFailedError`.

    ``websearch ... > out.txt`` on a full disk ended in an ``OSError`` traceback from
    ``print``, indistinguishable from any other I/O error by the time it reached the
    command's top level.
    """
    stream = sys.stdout
    sys.stdout = _GuardedOutput(stream)
    try:
        yield
    finally:
        sys.stdout = stream


def _writes_unicode(stream: Any) -> bool:
    """Whether ``stream``'s encoding can write every character (a UTF codec)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True  # a captured or in-memory stream holds str
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


def tolerate_unencodable_output() -> None:
    """Write what stdout and stderr cannot encode as backslash escapes, not a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and not _writes_unicode(stream):
            reconfigure(errors="backslashreplace")


def json_text(data: Any) -> str:
    r"""``data`` as indented JSON, with ``\uXXXX`` escapes where stdout cannot write a character.

    Example:
        >>> print(json_text({"title": "Café"}))  # doctest: +SKIP
        {
          "title": "Caf\u00e9"
        }
    """
    return json.dumps(data, indent=2, ensure_ascii=not _writes_unicode(sys.stdout))
