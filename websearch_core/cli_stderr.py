"""Standard error whose reader went away: the command's message is dropped, its status kept.

``websearch "$q" 2>&1 | head -1`` (or a log reader that quits) closes the pipe the
command's messages go to. Python then raised ``BrokenPipeError`` from ``print``, either
mid-handler or while reporting a refusal, and once more flushing ``sys.stderr`` at exit,
which ends the process with status 120: the README's exit statuses (1 for a failed search,
2 for invalid input) were lost, and with them what a script tests. A message nobody can
read any more is not a failure of the command, so here it is dropped and every later
write, the interpreter's last flush included, goes to ``/dev/null``.
"""

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any

__all__ = ["quiet_stderr"]


class _ReaderMayLeave:
    """A stream that swallows ``BrokenPipeError`` and sends what follows to ``/dev/null``."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text``, or drop it once the reader has closed the pipe."""
        try:
            written: int = self._stream.write(text)
        except BrokenPipeError:
            _silence(self._stream)
            return len(text)
        return written

    def flush(self) -> None:
        """Flush the wrapped stream, dropping what it held if the reader has gone."""
        try:
            self._stream.flush()
        except BrokenPipeError:
            _silence(self._stream)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence(stream: Any) -> None:
    """Point ``stream``'s descriptor at ``/dev/null``, so its buffered text flushes there.

    A stream without a real descriptor (captured output) is left as it is.
    """
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)
    with contextlib.suppress(OSError, ValueError):
        stream.flush()  # the text left in its buffer, now written to /dev/null


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Within the block, a write to stderr whose reader went away is dropped quietly."""
    stream = sys.stderr
    sys.stderr = _ReaderMayLeave(stream)
    try:
        yield
    finally:
        sys.stderr = stream
