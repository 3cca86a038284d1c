"""A refusal under ``--json``: the same words on stdout as JSON, beside the line on stderr.

A refused input (an empty query, ``--limit 0``, an unknown provider, ``fetch example.com``)
exits 2 with one line on stderr and used to print nothing on stdout, where a failed search
or fetch prints ``"failed": true`` there. A script that builds the command from data (a
model's query) and reads ``websearch --json ... | jq .error`` then had no document to read
and no reason to log. Here the refusal is that document: ``{"error": ..., "failed": true}``
(a fetch's with its ``url``), the error the stderr line's words without the program's name.
"""

from collections.abc import Mapping, Sequence

from .cli_output import json_text
from .cli_status import EXIT_USAGE, fail

__all__ = ["asks_for_json", "refuse"]

_JSON_FLAG = "--json"


def asks_for_json(args: Sequence[str]) -> bool:
    """Whether ``args`` hold ``--json`` as an option (before any ``--``), read or not.

    Read from the words themselves, so a command line that argparse refuses (``--limit``
    with no value beside ``--json``) is answered as JSON too: the script asked for it.
    """
    options = args[: args.index("--")] if "--" in args else args
    return _JSON_FLAG in options


def refuse(
    message: str,
    *,
    as_json: bool,
    status: int = EXIT_USAGE,
    fields: Mapping[str, object] | None = None,
) -> int:
    """Say ``message`` on stderr (:func:`fail`) and, when ``as_json``, as JSON on stdout.

    Args:
        message: The refusal's words, without the program's name.
        as_json: Whether the command was asked for ``--json``.
        status: The exit status to give back (invalid input: 2).
        fields: What the JSON holds before ``error`` (a fetch's ``url``).

    Returns:
        ``status``.
    """
    if as_json:
        print(json_text({**(fields or {}), "error": message, "failed": True}))
    return fail(message, status)
