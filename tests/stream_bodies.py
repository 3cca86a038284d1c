"""Real stream captures as the bodies a test serves, read when the test serves them.

A capture is read from ``../shared/fixtures`` only when a test calls the body (so a table
of bodies at a module's top costs nothing at collection, and a missing capture skips the
one test that serves it). Two forms: an ``.sse`` capture served as recorded, and a
``.chunks.txt`` capture (one JSON object a line, as a client logged the chunks) framed
back into the SSE events they came as.
"""

from collections.abc import Callable

from tests.conftest import read_capture

__all__ = ["captured", "framed_chunks"]


def captured(path: str) -> Callable[[], str]:
    """The capture at ``path`` as recorded."""
    return lambda: read_capture(path).decode("utf-8")


def framed_chunks(path: str) -> Callable[[], str]:
    """The recorded chunks (one JSON object a line) as the SSE events they came as."""

    def body() -> str:
        lines = read_capture(path).decode("utf-8").splitlines()
        return "".join(f"data: {line}\n\n" for line in lines if line.strip())

    return body
