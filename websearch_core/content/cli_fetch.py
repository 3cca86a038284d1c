"""``websearch fetch URL``: a page's main content from the shell.

Usage::

    websearch fetch URL [--markdown | --json] [--timeout SECONDS] [--no-cache]
                        [--no-browser] [--allow-private] [-v]

Prints the page's plain text (``--markdown``: its Markdown; ``--json``: every field of
:class:`~websearch_core.content.PageContent`). Exit status ``0`` on success, ``1`` when the
page could not be fetched or was refused (one line on stderr saying why), ``2`` for
invalid options or a URL that is not an absolute http(s) URL (``example.com``: it says what
to write instead). With ``--json`` a page not fetched (status ``1``) or refused as written
(``2``) also prints ``{"url", "error", "failed": true}`` on stdout, as a failed search's
``--json`` does. A host not
reached (its name unresolved, the connection refused, the proxy down) is followed, on a
line of its own, by a search's hint of what to check. A page fetched without readable text
(an empty or script-only page) prints nothing (``--json`` its fields) and a warning on
stderr saying so, with status 0.
"""

import argparse
import sys
from urllib.parse import urlsplit

from pydantic import TypeAdapter, ValidationError

from ..cli_dispatch import CommandParser
from ..cli_exit_help import EXIT_HELP
from ..cli_output import json_text
from ..cli_refusals import refuse
from ..cli_status import EXIT_FAILED, EXIT_OK, PROG, fail
from ..client import WebSearch
from ..format import page_unreached_hint
from ..loop_run import run_to_end
from ..loopback import is_loopback
from ..settings import Settings
from ..settings_errors import given_text
from .errors import FetchError, FetchFailedError, FetchRefusedError
from .fetch_call import MAX_FETCH_SECONDS
from .metadata import ALLOWED_NETWORKS_ADVICE
from .models import PageContent
from .safety import check_url_form
from .service import checked_fetch_seconds
from .tool_text import NO_READABLE_TEXT

__all__ = ["fetch_parser"]


def fetch_parser() -> CommandParser:
    """The ``fetch`` command's parser; the handler is set as ``handler``."""
    parser = CommandParser(
        prog=f"{PROG} fetch",
        fields={"--timeout": "timeout_seconds"},
        description="Fetch a web page, PDF, text file or JSON/XML/CSV file and print its content.",
        epilog=EXIT_HELP["fetch"],
    )
    parser.add_argument("url", metavar="URL", help="the page's http(s) URL")
    output = parser.add_mutually_exclusive_group()
    parser.record(
        output.add_argument("--markdown", action="store_true", help="print Markdown, not text")
    )
    parser.record(
        output.add_argument("--json", action="store_true", help="print all fields as JSON")
    )
    # Read as text and checked by _fetch, so a bad one is named as the search command
    # names its options (`timeout_seconds (--timeout): ...`), not in argparse's words.
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        help=(
            "deadline for the whole fetch (default: the sooner of the deadline_seconds and "
            f"timeout_seconds settings; at most {MAX_FETCH_SECONDS:g})"
        ),
    )
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    parser.add_argument(
        "--no-browser", action="store_true", help="never render the page in headless Chromium"
    )
    parser.add_argument(
        "--allow-private",
        action="store_true",
        help="also fetch loopback and private addresses (like WEBSEARCH_FETCH_ALLOW_PRIVATE=1)",
    )
    # -v as for a search: `websearch fetch -v URL` was refused as an unrecognised argument.
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens to stderr")
    parser.set_defaults(handler=_fetch)
    return parser


_TIMEOUT = "timeout_seconds (--timeout)"
"""How a bad ``--timeout`` is named: the parameter it sets, then the option."""
_NUMBER = TypeAdapter(float)
"""Reads a number from text as the settings do (``inf`` included; the range is checked)."""


def _seconds(text: str) -> float:
    """``--timeout``'s text as seconds.

    Raises:
        ValueError: Not a number, or not more than 0 and at most 900; the message names
            the option as a bad search option is named.
    """
    try:
        value = _NUMBER.validate_python(text)
    except ValidationError as error:  # worded as --timeout soon is for a search
        problem = f"{error.errors()[0]['msg']}{given_text(text, float)}"
        raise ValueError(f"{_TIMEOUT}: {problem}") from None
    try:
        return checked_fetch_seconds(value, name="")
    except ValueError as error:
        raise ValueError(f"{_TIMEOUT}: {error}") from None


def _fetch(args: argparse.Namespace) -> int:
    try:
        args.timeout = None if args.timeout is None else _seconds(args.timeout)
    except ValueError as error:
        return refuse(str(error), as_json=args.json, fields={"url": args.url})
    try:
        check_url_form(args.url)
    except FetchRefusedError as error:
        # Invalid input, as the README's exit statuses say: `fetch example.com` exited 1,
        # as if the page had been refused. With --json, as JSON too, as a failed fetch.
        return refuse(str(error), as_json=args.json, fields={"url": args.url})
    try:
        page = run_to_end(_run(args))
    except FetchFailedError as error:
        # A host not reached gets a search's hint (offline, blocked, the proxy down): the
        # reason alone (`the host name could not be resolved`) left a newcomer guessing.
        # On its own line, as a failed search prints its hint.
        # A refusal at this machine's own address is a server not running there (or
        # another port), not a blocked network: its hint says so.
        loopback = is_loopback(urlsplit(error.url).hostname or "")
        hint = (
            ""
            if error.unreached is None
            else f"\n{page_unreached_hint(error.unreached, loopback=loopback)}"
        )
        _failure_json(args, error)
        return fail(f"{error}{hint}", EXIT_FAILED)
    except FetchError as error:
        _failure_json(args, error)
        return fail(f"{error}{_cli_advice(error)}", EXIT_FAILED)
    if args.json:
        print(json_text(page.model_dump(mode="json")))
    elif page.text or page.markdown:
        print(page.markdown if args.markdown else page.text)
    if not (page.text or page.markdown):
        # A blank line and status 0 left the user guessing whether anything was fetched.
        print(f"{PROG}: warning: {page.url or args.url}: {NO_READABLE_TEXT}", file=sys.stderr)
    return EXIT_OK


def _cli_advice(error: FetchError) -> str:
    """A line after a refusal whose fix the command has no option for, else ``""``.

    A cloud metadata address is refused with ``list ... in allowed_networks to allow it``,
    an argument of ``fetch()`` in Python: a user of the command looked for an option that
    does not exist (``--allow-private`` does not open it either).
    """
    if isinstance(error, FetchRefusedError) and str(error).endswith(ALLOWED_NETWORKS_ADVICE):
        return (
            f"\n{PROG} fetch takes no allowed_networks, so it never fetches a cloud metadata "
            "address; from Python, fetch(url, allowed_networks=[...]) does."
        )
    return ""


def _failure_json(args: argparse.Namespace, error: FetchError) -> None:
    """With ``--json``, a page not fetched as JSON on stdout too: the URL, why, ``failed``.

    A failed fetch printed nothing on stdout, where ``websearch --json`` prints a failed
    search's details with ``"failed": true``: a script reading ``fetch --json`` through
    ``jq`` got no document to read and could only tell from the status. The same keys
    say it here; the line on stderr is unchanged.
    """
    if args.json:
        print(json_text({"url": args.url, "error": str(error), "failed": True}))


async def _run(args: argparse.Namespace) -> PageContent:
    async with WebSearch(Settings()) as web_search:
        return await web_search.fetch(
            args.url,
            timeout_seconds=args.timeout,
            use_cache=not args.no_cache,
            use_browser=not args.no_browser,
            allow_private_addresses=True if args.allow_private else None,
        )
