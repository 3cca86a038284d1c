"""Ctrl-C at ``websearch auth set``'s hidden prompt ends on a line of its own.

The prompt echoes nothing, not even Ctrl-C's line end, so the command's ``websearch:
interrupted`` was printed on the prompt's line: ``API key for brave (input hidden):
websearch: interrupted``. Run in a real pseudo-terminal, as a user meets it.
"""

import os
import select
import sys
from pathlib import Path

import pytest

from tests.websearch_process import WEBSEARCH
from websearch_core.cli_status import EXIT_INTERRUPTED

pty = pytest.importorskip("pty")

PROMPT = b"API key for brave (input hidden): "


def _read_until(fd: int, wanted: bytes, seen: bytearray) -> None:
    """Read from ``fd`` into ``seen`` until ``wanted`` is in it or the other end closes."""
    while wanted not in seen:
        ready, _, _ = select.select([fd], [], [], 60)
        if not ready:
            pytest.fail(f"no {wanted!r} within 60 s; read {bytes(seen)!r}")
        try:
            chunk = os.read(fd, 1024)
        except OSError:  # the child closed the terminal
            return
        if not chunk:
            return
        seen += chunk


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")
def test_ctrl_c_at_the_key_prompt_ends_the_prompt_line() -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the terminal
        try:
            os.execv(sys.executable, [*WEBSEARCH, "auth", "set", "brave"])
        finally:
            os._exit(127)  # never back into the test run
    seen = bytearray()
    _read_until(fd, PROMPT, seen)
    os.write(fd, b"\x03")  # Ctrl-C, as the terminal sends it
    _read_until(fd, b"interrupted\r\n", seen)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == EXIT_INTERRUPTED
    assert PROMPT + b"\r\nwebsearch: interrupted\r\n" in seen
    assert not Path(os.environ["WEBSEARCH_CREDENTIALS_FILE"]).exists()
