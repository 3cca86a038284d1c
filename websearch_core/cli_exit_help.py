"""What each ``websearch`` subcommand exits with, as its ``--help`` epilog says it.

``websearch --help`` gave the exit statuses of every command in one line, and the
subcommands' own ``--help`` gave none: a script calling ``websearch fetch`` or
``websearch auth remove`` had to guess which failures are 1 and which are 2. Each text
here was found by driving the command in a fresh process (success, nothing stored, bad
input, a page not fetched, a closed or full stdout) and is held by
``tests/unit/test_cli_subcommand_exit_statuses.py``, which runs each case it names; a
bug's status 1 in each by ``tests/conformance/test_cli_bug_status_each_command.py``.

Kept as data apart from the parsers, so the statuses of all commands read side by side.
"""

__all__ = ["BUG_REPORT", "EXIT_HELP", "SEARCH_EXIT_HELP"]

BUG_REPORT = (
    "one internal error line, then its traceback with keys masked, or a fixed line if "
    "that report failed too"
)
"""What a bug in any command prints before it exits 1, in every help's own words.

``websearch --help`` gave status 1 to a bug, each subcommand's help did not, though a bug
in each exits 1 the same way (:mod:`.cli_crash`); one text, so no help words it apart."""
_BUG = f"or a bug ({BUG_REPORT})"

_READER_GONE = (
    "A reader that stops reading (| head -1) is no failure: the status is the command's own."
)
_OUTPUT_FAILED = "its output could not be written (a full disk; one line says so)"

SEARCH_EXIT_HELP = (
    "exit status: 0 success, 1 every provider failed (or the output could not be written, "
    "auth remove found nothing stored, fetch could not fetch the page, or a bug in any "
    f"command: {BUG_REPORT}), 2 invalid input or configuration (one line naming the "
    "option, variable or config file; also when no provider is configured), 130 "
    "interrupted (Ctrl-C)."
)
"""The search's statuses, which ``websearch --help`` gives for every command at once."""

EXIT_HELP: dict[str, str] = {
    "auth": (
        "exit status: 0 done, 1 auth remove found nothing stored, "
        f"{_OUTPUT_FAILED} {_BUG}, 2 invalid input (no action, an unknown one, an unknown "
        "provider id, a file that cannot be imported). Each action's --help gives its "
        "own. " + _READER_GONE
    ),
    "auth set": (
        "exit status: 0 the key is stored, 1 the key is stored but "
        f"{_OUTPUT_FAILED}, {_BUG}, 2 invalid input and nothing stored (no provider, an unknown "
        "id, a provider that takes no key, an empty key), 130 interrupted (Ctrl-C at the "
        "prompt; nothing stored). " + _READER_GONE
    ),
    "auth list": (
        "exit status: 0 listed, also when nothing is stored (stderr says so), 1 "
        f"{_OUTPUT_FAILED} {_BUG}. " + _READER_GONE
    ),
    "auth remove": (
        "exit status: 0 removed, 1 nothing was stored under the id (or "
        f"{_OUTPUT_FAILED}, {_BUG}), 2 an unknown provider id or no id. " + _READER_GONE
    ),
    "auth import": (
        "exit status: 0 the sign-in is stored, 1 it is stored but "
        f"{_OUTPUT_FAILED}, {_BUG}, 2 nothing stored: an unknown source, the file missing, not "
        "JSON or without its token. " + _READER_GONE
    ),
    "providers": (
        "exit status: 0 listed or reset, 1 "
        f"{_OUTPUT_FAILED} {_BUG}, 2 invalid input (reset without an id or --all, an unknown "
        "provider id, an argument too many, a bad setting such as "
        "WEBSEARCH_STATE_BACKEND). " + _READER_GONE
    ),
    "fetch": (
        "exit status: 0 the content is printed (a page without readable text prints "
        "nothing and a warning, still 0), 1 the page could not be fetched (an HTTP "
        "error, no connection, a loopback or private address without --allow-private) "
        f"or {_OUTPUT_FAILED}, {_BUG}, 2 invalid input (a URL without http(s)://, a bad "
        "--timeout, --markdown with --json), 130 interrupted (Ctrl-C). " + _READER_GONE
    ),
}
"""Each command's epilog, keyed by the words after ``websearch``."""
