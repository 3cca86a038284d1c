"""The ``websearch`` command's messages to a person, wrapped to the width of their terminal.

A provider's failure line runs to some 180 characters (``  google: Google browser search
failed: ..., so headless Chromium was not tried``), and a terminal breaks such a line at its
edge, mid-word, with the next line starting at column 0, so a narrow window reads as a block
of broken words. When standard error is a terminal, each line is wrapped between words to the
terminal's width instead, its continuation indented under its own start, so each provider's
text still reads as one item. Anything else (a pipe, a file, a captured stream) gets the text
exactly as before, so scripts and logs that read it are unchanged; so does ``--json``, which
does not print through here.

Kept out of :mod:`.cli`, as :mod:`.cli_status` is, so the console script's entry can report
through it without importing the client.
"""

import os
import sys
import textwrap
from typing import Any, TextIO

__all__ = ["MIN_WIDTH", "for_terminal", "say", "terminal_width"]

MIN_WIDTH = 40
"""Below this many columns wrapping would leave a word or two a line: the text is left as is."""
_CONTINUATION = "  "
"""Added to a line's own indent for the lines it wraps onto."""


def terminal_width(stream: Any) -> int | None:
    """The columns ``stream`` shows, or ``None`` when it is not a terminal.

    ``COLUMNS``, when it holds a positive number, wins over what the terminal reports, as
    for ``ls`` and Python's own ``shutil.get_terminal_size``; the terminal is asked through
    ``stream`` itself, since standard error may be a terminal while standard output is a pipe.
    """
    isatty = getattr(stream, "isatty", None)
    try:
        if isatty is None or not isatty():
            return None
    except ValueError:  # a closed stream
        return None
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return None


def for_terminal(text: str, stream: Any) -> str:
    """``text`` wrapped between words to ``stream``'s width; unchanged unless it is a terminal.

    Each line is wrapped on its own, its continuation lines indented two spaces deeper than
    it. Words longer than a line (a URL, a path) are never cut, and hyphenated words are not
    split, so what a user copies from the message still works. One column is left free: a
    line that fills the last one makes some terminals add a blank line after it.

    Args:
        text: The message, one or more lines.
        stream: Where it is written (``sys.stderr``).

    Example:
        >>> for_terminal("websearch: a message", object())  # not a terminal: as it is
        'websearch: a message'
    """
    width = terminal_width(stream)
    if width is None or width < MIN_WIDTH:
        return text
    wrapped: list[str] = []
    for line in text.split("\n"):
        indent = line[: len(line) - len(line.lstrip(" "))]
        wrapped.extend(
            textwrap.wrap(
                line,
                width=width - 1,
                subsequent_indent=indent + _CONTINUATION,
                break_long_words=False,
                break_on_hyphens=False,
                drop_whitespace=True,
            )
            or [line]
        )
    return "\n".join(wrapped)


def say(text: str, stream: TextIO | None = None) -> None:
    """Print ``text`` to ``stream`` (standard error), wrapped when that is a terminal."""
    target = sys.stderr if stream is None else stream
    print(for_terminal(text, target), file=target)
