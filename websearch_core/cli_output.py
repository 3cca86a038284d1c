r"""What the ``websearch`` command writes, readable whatever the terminal's encoding.

Results hold any character the web has (``Ünïcødé``, emoji, CJK). A terminal or pipe whose
encoding cannot write them (``PYTHONIOENCODING=ascii``, a Latin-1 console) made ``print``
raise ``UnicodeEncodeError`` and the command end in a traceback; here such characters are
written as escapes instead, and JSON uses its own ``\uXXXX`` escapes, so it stays exact.
An output that cannot be written at all (a full disk) is told apart from other I/O errors
(:func:`guarded_stdout`), so the command can say so in one line.

A failed search is written for a person to read (:func:`failure_lines`, :func:`search_json`):
the spec fixes the tool's text, one line, but not how a command lays it out.
"""

import codecs
import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any

from .format import LONE_HOST_HINTS, OFFLINE_HINTS, format_failures
from .models import SearchToolResult

__all__ = [
    "OutputFailedError",
    "failure_lines",
    "guarded_stdout",
    "json_text",
    "search_json",
    "tolerate_unencodable_output",
]

_ALL_FAILED = "All web search providers failed:"
"""The head of the spec's message when several providers failed (:func:`format_failures`)."""
_INDENT = "  "


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


def failure_lines(result: SearchToolResult) -> list[str]:
    """A failed search's error as the command prints it: one provider a line, then the hint.

    The tool's text is the spec's single line (``All web search providers failed: id: text;
    id: text``, then the offline hint), some 1,100 characters for the seven free engines on
    a machine without a network, which a terminal wraps mid-word. Here the same words are
    laid out for a person: the head, each provider's text on its own indented line (with its
    own full stop), then what follows the list (the offline hint, what the settings
    contradict) each on a line of its own. A message of another form (one provider's error,
    ``No web search provider configured. ...``) is printed as the tool's text, with only a
    one-host hint it ends with set on a line of its own (:func:`_hint_apart`).
    """
    error = result.error or ""
    pairs = [(failure.provider, failure.error) for failure in result.failures]
    joined = format_failures(pairs)
    if len(pairs) < 2 or not error.startswith(joined) or not joined.startswith(_ALL_FAILED):
        return _hint_apart(result.text)
    lines = [f"Error: {_ALL_FAILED}"]
    lines.extend(f"{_INDENT}{provider}: {text}" for provider, text in pairs)
    rest = error[len(joined) :].removeprefix(".").strip()
    for hint in OFFLINE_HINTS:
        if rest.startswith(hint):
            lines.append(hint)
            rest = rest[len(hint) :].strip()
            break
    if rest:
        lines.append(rest)
    return lines


def _hint_apart(text: str) -> list[str]:
    """One provider's failure text, with the hint it may end with on its own line.

    As ``websearch fetch`` prints the same hint, and a search of two providers or more
    its offline hint: the advice reads apart from the provider's error. The offline hints
    are looked for too: Public Web asked alone is one provider whose engines all failed
    alike, and its hint was printed run on after its error.
    """
    for hint in (*LONE_HOST_HINTS, *OFFLINE_HINTS):
        if text.endswith(f" {hint}"):
            return [text[: -len(hint) - 1], hint]
    return [text]


def search_json(result: SearchToolResult) -> dict[str, Any]:
    """What ``websearch --json`` prints: the tool's details, and on failure what failed.

    An answer prints :meth:`~websearch_core.models.SearchToolResult.to_metadata` as it is.
    A failure's details name the last provider tried in ``response.provider`` (the spec's
    field), which reads as if it had answered; so a failure adds ``"failed": true`` and
    ``failures``, each provider's id and its text, in order, beside ``error``.
    """
    data = result.to_metadata()
    if result.is_error:
        data["failed"] = True
        data["failures"] = [failure.model_dump(mode="json") for failure in result.failures]
    return data
