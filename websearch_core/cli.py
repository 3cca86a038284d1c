"""The ``websearch`` command: search from a shell, manage stored keys, list providers.

Usage::

    websearch QUERY... [--recency day|week|month|year] [--limit N]
                       [--provider ID | --prefer ID] [--language TAG] [--country CC]
                       [--site DOMAIN]... [--exclude-site DOMAIN]... [--after DATE] [--before DATE]
                       [--timeout SECONDS] [--deadline SECONDS] [--no-cache]
                       [--refresh-hook ENTRY=MODULE:FUNCTION]... [--content] [--json] [--verbose]
    websearch --version
    websearch auth set PROVIDER [--json]   # reads the key from stdin, or prompts unechoed
    websearch auth list [--json]      # ids with a stored key or sign-in (never the secrets)
    websearch auth remove PROVIDER [--oauth] [--json]
    websearch auth list -v            # -v (any auth action): which store file, reads, writes
    websearch auth import gemini-cli [PATH]   # store the Gemini CLI's sign-in (never shown)
    websearch providers [--json]      # each provider: can it run now (or why not), usage, budget
    websearch providers reset brave   # clear a provider's cooldown, quota mark and counters
    websearch providers reset --all   # every provider; moves a damaged state file aside
    websearch fetch URL [--markdown | --json]   # a page's main content (content/cli_fetch.py)
                    [--timeout SECONDS] [--no-cache] [--no-browser] [--allow-private]

A first argument of ``auth``, ``fetch`` or ``providers`` selects that command, as it does after
options alone (``websearch -v fetch URL`` is ``websearch fetch -v URL``; an option the command
does not take is refused, see :mod:`.cli_dispatch`); anything else is a query
(``websearch -- auth`` searches for the word "auth").

Exit status: ``0`` on success; ``1`` when every provider failed (the error text goes to
stderr), there was nothing to remove, or the output could not be written (a full disk);
``2`` for invalid input or configuration (one line naming the option, variable or file),
no provider configured (the spec's ``No web search provider configured.``) included, as
when each provider chosen lacks its key and nothing else is left to ask;
``130`` after Ctrl-C. A reader that stops early
(``websearch ... | head``) is not an error.

``--provider ID`` *forces* a provider: it alone is asked, and its failure is the answer (no
fallback); only when it cannot run at all (no key or endpoint, or a credential that cannot be
sent) does the auto chain answer, after a line saying why. ``--prefer ID`` means what the
``provider`` setting and ``WEBSEARCH_PROVIDER`` mean: try it first, then fall back to the
auto chain.
"""

import argparse
import contextlib
import getpass
import itertools
import logging
import os
import sys
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TextIO

from pydantic import ValidationError
from pydantic_core import ErrorDetails, InitErrorDetails

from . import __version__
from .browser import INSTALL_HINT
from .call_secrets import settings_secrets, settings_words
from .clauses import join_clauses
from .cli_auth_json import (
    AUTH_JSON_HELP,
    import_answer,
    list_answer,
    refusal_fields,
    remove_answer,
    set_answer,
)
from .cli_crash import SearchCrashed, crash_report
from .cli_dispatch import CommandLineError, CommandParser, OptionNotTaken, split_command
from .cli_exit_help import EXIT_HELP, SEARCH_EXIT_HELP
from .cli_output import (
    OutputFailedError,
    failure_lines,
    guarded_stdout,
    json_text,
    search_json,
    tolerate_unencodable_output,
)
from .cli_parser import OneValueOnly
from .cli_refusals import asks_for_json, refuse
from .cli_status import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, PROG, bug, fail
from .cli_stderr import quiet_stderr
from .cli_wrap import say
from .client import WebSearch
from .command_words import command_word_note
from .content.cli_fetch import fetch_parser
from .content.enrich import DEFAULT_CONTENT_SOURCES
from .credentials import Credentials, CredentialStore, TokenRefresher
from .env_names import report_unknown_variables
from .env_values import env_value
from .errors import ConfigurationError
from .format import NO_PROVIDER_MESSAGE
from .key_names import (
    key_variables,
    left_out,
    oauth_entries,
    report_misnamed_key_variables,
    self_refreshing_entries,
)
from .loop_run import run_to_end
from .models import Attempt, SearchParams, SearchToolResult
from .oauth_import import IMPORT_SOURCES, ImportSource, read_sign_in
from .option_names import OTHER_OPTION_NAMES
from .orchestration.plan import FELL_BACK
from .provider_credentials import SignedIn, signed_in
from .provider_ids import (
    KEY_IDS,
    closest_id,
    did_you_mean,
    listed_ids,
    unknown_one_provider_message,
    unknown_provider_message,
)
from .providers import PROVIDER_REGISTRY, get_provider
from .providers_action import RESET, providers_action, reset_needs_a_provider
from .refresh_hooks import HOOK_FORM, RefreshHookError, load_refresh_hooks
from .search_flags import SEARCH_FLAGS
from .sent_secret import starts_with_assignment
from .settings import CREDENTIALS_FILE_ENV, Settings
from .settings_conflicts import settings_conflicts
from .settings_errors import configuration_errors
from .settings_limits import DEFAULT_DEADLINE_SECONDS, DEFAULT_TIMEOUTS_BY_KIND
from .status import (
    PLAIN_ONLY,
    ProviderStatus,
    ResetOutcome,
    credential_store_advice,
    reset_state,
    state_problem,
    status_record,
)
from .tool_errors import validator_message
from .used_counts import used_counts_line, used_counts_scope

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "main"]

_log = logging.getLogger(__name__)
"""The command's own log lines (``-v``), under the library's logger like every other."""

_COMMAND_HELP: tuple[tuple[str, str, str], ...] = (
    ("auth", "auth set|list|remove|import [PROVIDER]", "manage stored API keys and sign-ins"),
    ("providers", "providers [reset ID | reset --all]", "list providers and their status"),
    ("fetch", "fetch URL [--markdown | --json]", "a page's main content"),
)
"""Each command besides search: its name, its usage after ``websearch``, what it does. The
search help lists them from here, so a command cannot exist without being listed."""
_COMMANDS = frozenset(name for name, _, _ in _COMMAND_HELP)
_HELP_WIDTH = 79
"""The column the search help's own paragraphs end by, as its hand-broken lines do."""
_SEARCH_FLAGS = SEARCH_FLAGS
"""Field names to the option that sets them, so a validation error names both."""


def _where(field: str, option: str | None) -> str:
    """How an error names what was given: ``<field> (<option>)``, or the field alone.

    One form for every option of the search command, whether it sets a setting
    (``provider (--prefer)``) or a search parameter (``provider (--provider)``,
    ``limit (--limit)``): ``--provider`` said ``--provider:`` where ``--prefer`` said
    ``provider (--prefer):`` of the same unknown id.
    """
    return f"{field} ({option})" if option and option != field else field


_SETTINGS_FLAGS: Mapping[str, str] = {
    field: _where(field, option)
    for field, option in (
        ("timeout_seconds", "--timeout"),
        ("deadline_seconds", "--deadline"),
        ("provider", "--prefer"),
    )
}
"""Settings the search command sets from an option, named by that option in errors."""


class _UsageError(Exception):
    """Bad input found after parsing; reported with exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``websearch`` command.

    Args:
        argv: The arguments after the program name; ``sys.argv[1:]`` by default.

    Returns:
        The exit status: 0 success, 1 every provider failed (or the output could not be
        written, ``auth remove`` found nothing, ``fetch`` failed, or a bug in any command:
        :mod:`websearch_core.cli_crash`), 2 invalid input, 130 interrupted.
    """
    try:
        tolerate_unencodable_output()
        with guarded_stdout(), quiet_stderr():
            return _command(list(sys.argv[1:] if argv is None else argv))
    except Exception as error:  # a bug setting up the output: masked as any other is
        return _crashed(error)


def _command(args: list[str]) -> int:
    """:func:`main` once stdout is guarded: parse, run the handler, report its errors."""
    # Ctrl-C can come at any moment, the lazy imports of parsing included.
    as_json = asks_for_json(args)  # a refusal is then JSON on stdout too (cli_refusals)
    fields: dict[str, object] | None = None  # what a refusal's JSON holds before "error"
    try:
        others = {name: _PARSERS[name] for name in _COMMANDS}
        try:
            named, parser, command_args = split_command(args, _search_parser(), others)
            fields = _refusal_fields(named, None)
            namespace = parser.parse_command(command_args)
        except CommandLineError as error:  # one line naming the option, as for a setting
            return refuse(str(error), as_json=as_json, fields=_line_fields(error, fields))
        except SystemExit as exit_:  # --help and --version print, then exit
            return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
        command = named or "search"
        fields = _refusal_fields(named, namespace)
        if named is None and "--" not in command_args:  # after --, the word is meant
            # Said by the search once its settings are accepted: with a bad variable
            # nothing is searched, and the line would only stand before that error.
            namespace.command_word_note = command_word_note(namespace.query, _COMMANDS)
        handler: Callable[[argparse.Namespace], int] = namespace.handler
        report_unknown_variables(_warn)  # before the library could log them where none sees
        report_misnamed_key_variables(_has_key, _warn)  # before the client says it too
        verbose = getattr(namespace, "verbose", False)
        # `providers` reports an unusable store in its own words (with the repair hint).
        with _quiet_library_logging(verbose=verbose, state_warnings=command != "providers"):
            with configuration_errors():  # a bad variable or file: one line naming it
                status = handler(namespace)
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
            return status
    except ValidationError as error:
        return refuse(_describe_validation_error(error), as_json=as_json, fields=fields)
    except (ConfigurationError, _UsageError) as error:
        return refuse(" ".join(str(error).split()), as_json=as_json, fields=fields)
    except BrokenPipeError:
        return _reader_went_away()
    except OutputFailedError as error:
        _drop_further_output()
        return fail(f"cannot write the output: {error}", EXIT_FAILED)
    except KeyboardInterrupt:
        return fail("interrupted", EXIT_INTERRUPTED)
    except Exception as error:  # a bug: in a search (reported there) or anywhere else
        return _crashed(error)


def _line_fields(
    error: CommandLineError, fields: dict[str, object] | None
) -> dict[str, object] | None:
    """A refused command line's JSON fields: ``fields``, or those of the command named first.

    An option written before ``auth`` that it does not take is refused before the command
    is known to :func:`_command`; the refusal still has ``auth``'s shape.
    """
    if isinstance(error, OptionNotTaken):
        return _refusal_fields(error.command, None, given=error.argument)
    return fields


def _refusal_fields(
    named: str | None, namespace: argparse.Namespace | None, *, given: str | None = None
) -> dict[str, object] | None:
    """What a refusal's JSON holds before ``error``: for ``auth``, the id it was about.

    Every ``auth`` refusal names its ``provider`` (null before the command line is read),
    as ``auth remove``'s did; other commands' refusals are as they were. ``given`` is the
    id as written when the line was refused before it was read (an option before
    ``auth``): ``websearch --no-cache auth set brave --json`` named no ``provider``.
    """
    if named != "auth":
        return None
    if namespace is None:
        return refusal_fields(given.strip().lower() if given is not None else None)
    return refusal_fields(_auth_id(namespace))


def _auth_id(namespace: argparse.Namespace) -> str | None:
    """The id an ``auth`` action was given, as it reads it (trimmed, lower case), if any.

    ``auth remove``'s refusal named its ``provider`` and ``auth set``'s did not: a script
    reading refusals had to know which action it ran. ``import``'s source is its entry.
    """
    given = getattr(namespace, "provider", None) or getattr(namespace, "source", None)
    return given.strip().lower() if isinstance(given, str) else None


def _crashed(error: Exception) -> int:
    """Print a bug's masked report (:mod:`websearch_core.cli_crash`) after one line; exit 1.

    A search's bug comes as :class:`SearchCrashed`, its report masked by the client's
    secrets too; a bug elsewhere (the command's output, another command) by what the
    settings, the store and the key variables hold.
    """
    report = error.report if isinstance(error, SearchCrashed) else crash_report(error, ())
    return bug(report)


def _has_key(key_id: str, env_vars: tuple[str, ...]) -> bool:
    """Whether ``key_id`` has a key from any source, as a search would find it.

    Asked only of an id whose key looks set under a name nothing reads. Settings that
    cannot be read count as a key: the command names what is wrong with them instead. An
    id the settings leave out needs none: its key is not missed.
    """
    try:
        settings = Settings()
        if left_out(key_id, settings.exclude, settings.providers):
            return True
        store = CredentialStore(settings.resolved_credentials_file())
        found = Credentials(configured=settings.api_keys, store=store).api_key(key_id, env_vars)
    except (ConfigurationError, ValidationError, OSError):
        return True
    return found is not None


def _warn(sentence: str) -> None:
    say(f"{PROG}: warning: {sentence}")


def _reader_went_away() -> int:
    """The reader closed the pipe (``| head -1``): what it read is what it wanted."""
    _drop_further_output()
    return EXIT_OK


def _drop_further_output() -> None:
    """Send later writes, the interpreter's final flush included, to ``/dev/null``.

    Python would otherwise report the broken pipe, or the full disk, once more on exit.
    """
    with contextlib.suppress(OSError, ValueError):  # no real descriptor (captured output)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


# --- search -------------------------------------------------------------------------------


class _QueryParser(CommandParser):
    """The search command's parser: a query word that looks like an option gets a hint.

    ``websearch rust -site:pinterest.com`` (the exclusion syntax the README teaches) reads
    to argparse as an unknown option; the refusal says how to write it instead, where a
    ``--word`` gets the option probably meant.
    """

    def parse_command(self, args: Sequence[str]) -> argparse.Namespace:
        """As every command's, refusing first another tool's name for an option.

        ``--count`` would otherwise be read as an abbreviation of ``--country``
        (:data:`~websearch_core.option_names.OTHER_OPTION_NAMES`).
        """
        for word in itertools.takewhile(lambda word: word != "--", args):
            name = word.split("=", 1)[0]
            if name in OTHER_OPTION_NAMES and name not in self.options:
                raise CommandLineError(self.unexpected([name]))
        try:
            return super().parse_command(args)
        except CommandLineError as missing:
            if not str(missing).startswith(_QUERY_USAGE):
                raise
            unknown = self._unknown_words(args)
            if not unknown:
                raise
            raise CommandLineError(self.unexpected(unknown)) from None

    def _unknown_words(self, args: Sequence[str]) -> list[str]:
        """The words no option takes in ``args``, read as if a query had been given too.

        argparse checks for a missing query before it lists what it could not read, so
        ``websearch -python`` (a one-word query written as an option) said ``query:
        required, not given``, untrue to a user who typed one: the word's own line (quote
        it, or put ``--`` before it) is what they need. The placeholder goes first, where
        no option can take it as its value.
        """
        with contextlib.suppress(CommandLineError):
            return list(self.parse_known_args(["query", *args])[1])
        return []

    def unknown_option_hint(self, name: str) -> str | None:
        """For ``-word``: quote the whole query, or put ``--`` before it.

        For another tool's name of an option (``--max-results``), the option meant.
        """
        if name.startswith("--"):
            meant = OTHER_OPTION_NAMES.get(name)
            if meant is None:
                return None
            return f" ({PROG} --help lists its options); did you mean {meant}?"
        return (
            "; to exclude a term or site, quote the whole query "
            f"({PROG} '... {name}') or put -- before it"
        )

    def unexpected_word_hint(self, word: str) -> str | None:
        """For a query word after an option: the query's words go together."""
        return f"; the query's words go together, or quote the whole query ({PROG} '... {word}')"


def _providers_instead(first: str, second: str) -> str:
    """What to write for two providers given to ``--provider`` or ``--prefer``, which take one.

    The setting that takes a list is the way to ask several, in the order given.
    """
    listed = ",".join(given.strip() for given in (first, second))
    return (
        f"it takes one provider; to ask them in turn, set WEBSEARCH_PROVIDERS={listed} "
        "(the providers setting)"
    )


_QUERY_USAGE = (
    f"query: required, not given: write the words to search for, as in {PROG} python asyncio "
    f"timeout ({PROG} providers lists the providers that can answer)"
)
"""What ``websearch`` alone says: argparse's ``query: required, not given`` told a first
user neither what a query is written as nor where to see what is set up."""


def _seconds_text(seconds: float) -> str:
    """``55.0`` as ``55``: a default in the help as a user would write it."""
    return str(int(seconds)) if seconds.is_integer() else f"{seconds:g}"


def _timeout_span() -> str:
    """The per-provider defaults' range (``15-60``), read from the defaults by kind.

    The help said ``15-60 s`` by hand; written from :data:`DEFAULT_TIMEOUTS_BY_KIND` it
    follows a kind's default when that changes.
    """
    low, high = min(DEFAULT_TIMEOUTS_BY_KIND.values()), max(DEFAULT_TIMEOUTS_BY_KIND.values())
    return f"{_seconds_text(low)}-{_seconds_text(high)}"


def _search_parser() -> CommandParser:
    width = max(len(usage) for _, usage, _ in _COMMAND_HELP)  # the summaries in one column
    parser = _QueryParser(
        prog=PROG,
        fields={option: field for field, option in _SEARCH_FLAGS.items()}
        | {"--prefer": "provider"},
        description="Search the web through the first configured provider that answers.",
        when_missing=_QUERY_USAGE,
        epilog=(
            "other commands:\n"
            + "".join(
                f"  websearch {usage:<{width}}   {summary}\n" for _, usage, summary in _COMMAND_HELP
            )
            + "\n--provider forces: only that provider is asked, and its failure is the answer;\n"
            "if it cannot run at all, the auto chain answers after a line saying why.\n"
            "--prefer (like the provider setting and WEBSEARCH_PROVIDER) tries it first,\n"
            "then falls back to the auto chain.\n\n"
            + textwrap.fill(SEARCH_EXIT_HELP, width=_HELP_WIDTH)
            + "\n"
            "Options written before a command are that command's (websearch -v fetch URL\n"
            "is websearch fetch -v URL); one the command does not take is refused.\n"
            'To search for the word "auth", "fetch" or "providers", write: websearch -- auth'
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("query", nargs="+", help="the search query (words are joined by spaces)")
    parser.add_argument(
        "--recency",
        choices=("day", "week", "month", "year"),
        help="only results from the last day, week, month or year (where the provider can)",
    )
    # --limit, --timeout and --deadline are read as text and checked where their settings
    # and parameters are, so a bad one is named as a bad WEBSEARCH_* variable is
    # (`limit (--limit): Input should be a valid integer`), not in argparse's own words.
    parser.add_argument("--limit", metavar="N", help="maximum number of results (1-100)")
    choice = parser.add_mutually_exclusive_group()
    parser.record(
        choice.add_argument(
            "--provider",
            metavar="ID",
            action=OneValueOnly,
            instead=_providers_instead,
            help=(
                "force this provider: only it is asked, with no fallback when it fails "
                "(if it cannot run at all, the auto chain is used and the reason printed)"
            ),
        )
    )
    parser.record(
        choice.add_argument(
            "--prefer",
            metavar="ID",
            action=OneValueOnly,
            instead=_providers_instead,
            help=(
                "try this provider first, then fall back to the auto chain (if it cannot "
                "run at all, the reason is printed)"
            ),
        )
    )
    parser.add_argument(
        "--language",
        metavar="TAG",
        help="results in this language, a BCP 47 tag such as en or pt-BR (where honoured)",
    )
    parser.add_argument(
        "--country",
        metavar="CC",
        help="results for this country, a two-letter code such as us or de (where honoured)",
    )
    parser.add_argument(
        "--site",
        action="append",
        default=[],
        metavar="DOMAIN",
        help="only results from this site (repeatable; same as site:DOMAIN in the query)",
    )
    parser.add_argument(
        "--exclude-site",
        action="append",
        default=[],
        metavar="DOMAIN",
        help="no results from this site (repeatable; same as -site:DOMAIN in the query)",
    )
    parser.add_argument(
        "--after", metavar="DATE", help="only results published on or after DATE (YYYY-MM-DD)"
    )
    parser.add_argument(
        "--before", metavar="DATE", help="only results published on or before DATE (YYYY-MM-DD)"
    )
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        help=f"time for each provider (default: by kind, {_timeout_span()} s)",
    )
    parser.add_argument(
        "--deadline",
        metavar="SECONDS",
        help=(
            "time for the whole search, every fallback included "
            f"(default {_seconds_text(DEFAULT_DEADLINE_SECONDS)})"
        ),
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="ask the providers even if a cached answer exists"
    )
    parser.add_argument(
        "--refresh-hook",
        action="append",
        default=[],
        metavar=HOOK_FORM,
        help=(
            "renew an expired sign-in stored under ENTRY (codex, anthropic, perplexity...) "
            "with this async function, as WebSearch(oauth_refreshers=...) does in Python "
            "(repeatable; MODULE must be importable, e.g. on PYTHONPATH)"
        ),
    )
    parser.add_argument(
        "--content",
        action="store_true",
        help=(
            f"also fetch the top {DEFAULT_CONTENT_SOURCES} results' pages and print their "
            "main text, within the deadline"
        ),
    )
    parser.add_argument("--json", action="store_true", help="print the structured response as JSON")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="log each provider attempt to stderr"
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}", help="print the version"
    )
    parser.set_defaults(handler=_search, command_word_note=None)
    return parser


def _search(args: argparse.Namespace) -> int:
    overrides: dict[str, Any] = {}
    if args.timeout is not None:
        overrides["timeout_seconds"] = args.timeout
    if args.deadline is not None:
        overrides["deadline_seconds"] = args.deadline
    if args.prefer is not None:
        overrides["provider"] = _known_provider(args.prefer, _SETTINGS_FLAGS["provider"])
    with configuration_errors({field: _SETTINGS_FLAGS[field] for field in overrides}):
        settings = Settings(**overrides)
    refreshers = _refresh_hooks(args.refresh_hook, settings.refresh_hooks)
    params = SearchParams(
        query=" ".join(args.query),
        recency=args.recency,
        limit=_whole_number(args.limit),
        provider=(
            _known_provider(args.provider, _where("provider", _SEARCH_FLAGS["provider"]))
            if args.provider
            else None
        ),
        language=args.language,
        country=args.country,
        include_domains=tuple(args.site),
        exclude_domains=tuple(args.exclude_site),
        date_after=args.after,
        date_before=args.before,
    )
    if args.command_word_note is not None:  # the search will run: the word is searched
        say(args.command_word_note)
    result = run_to_end(
        _run_search(
            settings,
            params,
            use_cache=not args.no_cache,
            include_content=args.content,
            refreshers=refreshers,
        )
    )
    if args.json:
        print(json_text(search_json(result)))
    if result.is_error:
        # The chain lists why a forced provider did not run before what the fallback did.
        failure = "\n".join(failure_lines(result))
        if args.json:  # beside the JSON, exactly as it always was
            print(failure, file=sys.stderr)
        else:  # wrapped to the width of a terminal; unchanged into a pipe or file
            say(failure)
        if result.error is not None and result.error.startswith(NO_PROVIDER_MESSAGE):
            # Not a provider's failure: nothing was set up to ask, which the settings
            # decide, so it exits as the other configuration errors do.
            print(f"{PROG}: '{PROG} providers' shows which can run, and why not", file=sys.stderr)
            return EXIT_USAGE
        return EXIT_FAILED
    _say_what_gave_way(params, result.response.attempts, settings)
    if not args.json:
        print(result.text)
        _say_notes(result)
    return EXIT_OK


def _say_notes(result: SearchToolResult) -> None:
    """An answer's notes on stderr, each the text does not already hold, after the text.

    The notes are structured data the model's text leaves out (the spec's layout): a merge
    some of Public Web's engines did not answer printed as if whole, who failed said in
    ``--json`` alone. On stderr, so stdout stays the text a tool returns; a note the text
    holds already (a page ``--content`` could not fetch) is not said twice.
    """
    for note in result.response.notes:
        if note not in result.text:
            say(f"{PROG}: note: {note}")


def _whole_number(text: str | None) -> int | str | None:
    """``--limit``'s text as the number it is, else as given, for the parameters to refuse.

    ``SearchParams`` takes no text for a number, and names what it refuses as ``limit``:
    ``--limit 5`` reaches it as ``5``, ``--limit five`` as the text it cannot take.
    """
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def _known_provider(given: str, where: str) -> str:
    """``given`` as the provider id it names (trimmed, lower case), checked here.

    Left to the chain, ``--provider bravo`` was refused without naming the option, and
    both options echoed the id lower-cased (``brave_api_key`` for ``BRAVE_API_KEY``) with no
    suggestion for a key's variable name; the text now has the option, the id as typed and
    the id meant.

    Raises:
        _UsageError: No provider has the id.
    """
    provider_id = given.strip().lower()
    if provider_id in ("", "auto") or provider_id in PROVIDER_REGISTRY:
        return provider_id
    message = unknown_one_provider_message(given.strip(), aliases=key_variables())
    raise _UsageError(f"{where}: {message}")


def _forced_but_unavailable(forced: str | None, attempts: Sequence[Attempt]) -> str | None:
    """Why ``--provider`` could not run (the chain then fell back), or ``None``."""
    skipped = next((a for a in attempts if a.provider == forced and a.outcome == "skipped"), None)
    if forced is None or skipped is None or not skipped.detail:
        return None
    return f"--provider {forced}: {skipped.detail.removesuffix(FELL_BACK)}"


def _say_what_gave_way(
    params: SearchParams, attempts: Sequence[Attempt], settings: Settings
) -> None:
    """After an answer, on stderr: a chosen provider that could not run, contradictions.

    A failure's text says these already; an answer from another provider would hide them.
    """
    unavailable = _forced_but_unavailable(params.provider, attempts)
    if unavailable:
        say(f"{PROG}: {unavailable}; the auto chain answered instead")
    passed_over = None if params.provider else _preferred_but_unavailable(attempts)
    if passed_over:
        _warn(f"{passed_over}; the auto chain answered instead")
    for conflict in settings_conflicts(settings):
        _warn(f"the settings contradict: {conflict}")


def _preferred_but_unavailable(attempts: Sequence[Attempt]) -> str | None:
    """Why the preferred provider (``--prefer``, ``provider``) could not run, or ``None``.

    The auto chain answered in its place, as the spec has it; without this line an answer
    from DuckDuckGo was all a user with ``provider = "brave"`` and no key would see.
    """
    for attempt in attempts:
        detail = attempt.detail or ""
        if attempt.outcome == "skipped" and " was preferred but cannot run (" in detail:
            return detail.removesuffix(FELL_BACK)
    return None


def _refresh_hooks(
    specs: Sequence[str], configured: Mapping[str, str]
) -> dict[str, TokenRefresher]:
    """The refresh hooks by entry, imported before anything is searched.

    ``--refresh-hook`` first; the ``refresh_hooks`` setting's (a variable, the config
    file) for the entries no flag names, so a flag replaces one for a single command.

    Raises:
        _UsageError: A flag's hook cannot be used (the text says why).
        ConfigurationError: A configured one cannot be used: the text names the variable
            or the config file's entry, and why.
    """
    if not specs and not configured:
        return {}  # the entries come from every provider's module: not imported for nothing
    entries = oauth_entries()
    hooks: dict[str, TokenRefresher] = {}
    if specs:
        try:
            hooks = load_refresh_hooks(specs, entries)
        except RefreshHookError as error:
            raise _UsageError(f"--refresh-hook: {error}") from None
    for entry, target in configured.items():
        if entry in hooks:
            continue
        try:
            hooks |= load_refresh_hooks([f"{entry}={target}"], entries)
        except RefreshHookError as error:
            refused = InitErrorDetails(
                type="value_error", loc=("refresh_hooks", entry), input=target, ctx={"error": error}
            )
            with configuration_errors():  # names where the setting came from
                raise ValidationError.from_exception_data("Settings", [refused]) from None
    return hooks


async def _run_search(
    settings: Settings,
    params: SearchParams,
    *,
    use_cache: bool,
    include_content: bool,
    refreshers: Mapping[str, TokenRefresher],
) -> SearchToolResult:
    async with WebSearch(settings, oauth_refreshers=refreshers) as web_search:
        try:
            return await web_search.run(
                params, use_cache=use_cache, include_content=include_content
            )
        except (ValidationError, ConfigurationError):  # invalid input, a bad setting
            raise
        except Exception as error:  # a bug: its messages may quote a key (cli_crash)
            used = web_search.settings
            secrets = (
                *web_search.credentials.secrets(),
                *settings_secrets(used, unread_words=False),
            )
            report = crash_report(error, secrets, settings_words(used))
        raise SearchCrashed(report)  # out of the handler: the error is no context of it


# --- auth ---------------------------------------------------------------------------------


def _auth_parser() -> CommandParser:
    parser = CommandParser(
        prog=f"{PROG} auth",
        description=(
            "Manage API keys and OAuth sign-ins in the local credential store (a JSON file "
            "readable by you only): credentials.json beside the config file that "
            f"'{PROG} providers' names, or the file {CREDENTIALS_FILE_ENV} names. Keys "
            "in code, the environment or the config file take precedence over it."
        ),
        epilog=EXIT_HELP["auth"],
    )
    # -v as for the other commands: `websearch -v auth list` was refused. It may come
    # before the action (`auth -v list`) or after it (`auth list -v`).
    parser.add_argument("-v", "--verbose", action="store_true", help=_AUTH_VERBOSE_HELP)
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    set_parser = actions.add_parser(
        "set",
        epilog=EXIT_HELP["auth set"],
        when_missing=_set_usage,
        help="store a provider's API key",
        description=(
            "Store a provider's API key. The key is read from standard input when it is not "
            'a terminal (echo "$KEY" | websearch auth set brave); otherwise you are '
            "prompted for it without echo."
        ),
    )
    set_parser.add_argument(
        "provider", help=f"provider id, e.g. brave ('{PROG} auth set' alone lists them)"
    )
    set_parser.add_argument("--json", action="store_true", help=AUTH_JSON_HELP["set"])
    _verbose_option(set_parser)
    set_parser.set_defaults(handler=_auth_set)
    list_parser = actions.add_parser(
        "list",
        epilog=EXIT_HELP["auth list"],
        help="list the ids with a stored API key or OAuth sign-in",
        description=(
            "List the ids the credential store holds an API key or an OAuth sign-in under "
            "(brave, gemini-cli, ...), one a line. The keys and tokens are never shown."
        ),
    )
    list_parser.add_argument("--json", action="store_true", help=AUTH_JSON_HELP["list"])
    _verbose_option(list_parser)
    list_parser.set_defaults(handler=_auth_list)
    remove_parser = actions.add_parser(
        "remove",
        epilog=EXIT_HELP["auth remove"],
        when_missing=_remove_usage,
        help="forget a stored API key (or with --oauth a sign-in)",
        description=(
            "Forget the API key stored for a provider; with --oauth, forget the stored OAuth "
            "sign-in instead (the other one is kept). Keys set in the environment or the "
            "config file are not touched. Exits 1 when nothing was stored under the id."
        ),
    )
    remove_parser.add_argument(
        "provider", help=f"provider id, e.g. brave ('{PROG} auth list' lists those stored)"
    )
    remove_parser.add_argument(
        "--oauth",
        action="store_true",
        help="forget the stored OAuth token instead (an entry such as gemini or gemini-cli)",
    )
    remove_parser.add_argument("--json", action="store_true", help=AUTH_JSON_HELP["remove"])
    _verbose_option(remove_parser)
    remove_parser.set_defaults(handler=_auth_remove)
    sources = sorted(IMPORT_SOURCES)
    import_parser = actions.add_parser(
        "import",
        epilog=EXIT_HELP["auth import"],
        when_missing=_import_usage(sources),
        help="store another tool's OAuth sign-in (e.g. the Gemini CLI's)",
        description=(
            "Copy another tool's OAuth sign-in into the credential store under its entry: "
            "gemini-cli reads the Gemini CLI's ~/.gemini/oauth_creds.json (or PATH). The "
            "token is never shown. It lasts about an hour; searches renew it from its "
            "refresh token at Google's token endpoint and store the new one. When Google "
            "refuses that (signed out, access revoked), sign in with the Gemini CLI again "
            "and import once more. A Gemini CLI keeping its sign-in in the keychain writes "
            "no file to import."
        ),
    )
    # Named by its choices, as the usage line names it: "required: source" named nothing
    # the user could type. Checked by _import_source, not by argparse's choices, so that a
    # sign-in that cannot be imported (codex) is told where it is stored instead.
    import_parser.add_argument("source", metavar=f"{{{','.join(sources)}}}", help="whose sign-in")
    import_parser.add_argument("path", nargs="?", help="the file, if not in its usual place")
    import_parser.add_argument("--json", action="store_true", help=AUTH_JSON_HELP["import"])
    _verbose_option(import_parser)
    import_parser.set_defaults(handler=_auth_import)
    return parser


def _set_usage() -> str:
    """What ``auth set`` takes, and how to call it, for ``auth set`` alone.

    It said ``provider: required, not given``, naming no provider, where ``auth`` and
    ``auth import`` alone list what they take. Only the ids whose key some provider reads
    are listed (a keyless engine's is refused); finding them imports every provider's
    module, so it is asked for only when the id is missing.
    """
    ids = listed_ids(_key_taking_ids())
    return (
        f"auth set needs a provider, the id its API key is stored under: {ids}; write "
        f"{PROG} auth set brave and paste the key when asked, or "
        f"{PROG} auth set brave < brave-key.txt"
    )


def _key_taking_ids() -> tuple[str, ...]:
    """The ids ``auth set`` stores a key under: those some provider reads a key from.

    A keyless engine's id (duckduckgo) or a sign-in-only one (codex) is refused there, so
    listing it as known sent a user to an id that is then refused. Finding them imports
    every provider's module: asked only when an id is missing or unknown.
    """
    takes_a_key = set(key_variables().values())
    return tuple(provider_id for provider_id in KEY_IDS if provider_id in takes_a_key)


def _remove_usage() -> str:
    """What ``auth remove`` takes, and how to call it, for ``auth remove`` alone.

    It said ``provider: required, not given``, naming no id, where ``auth set`` alone lists
    the ids it takes. What can be removed is what the store holds, so those ids are listed,
    keys and sign-ins apart (a sign-in is removed with ``--oauth``). A store or settings
    that cannot be read leave the list to ``auth list``, which names what is wrong.
    """
    start = "auth remove needs a provider, the id an API key or sign-in is stored under"
    try:
        store = _credential_store()
        stored = store.providers()
        keys = [provider_id for provider_id in stored if store.get(provider_id) is not None]
        sign_ins = [pid for pid in stored if store.get_oauth(pid) is not None]
    except (ConfigurationError, ValidationError, OSError):
        return f"{start}; {PROG} auth list lists them"
    if not keys and not sign_ins:
        return f"{start}, and the credential store {store.path} holds none: nothing to remove"
    held = [f"API keys for {', '.join(keys)}"] if keys else []
    if sign_ins:
        held.append(f"OAuth sign-ins for {', '.join(sign_ins)} (with --oauth)")
    calls = [f"{PROG} auth remove {keys[0]}"] if keys else []
    if sign_ins:
        calls.append(f"{PROG} auth remove {sign_ins[0]} --oauth")
    return f"{start}: the credential store holds {'; '.join(held)}; write {', or '.join(calls)}"


def _import_usage(sources: Sequence[str]) -> str:
    """What ``auth import`` copies from, and how to call it, for ``auth import`` alone."""
    read = ", ".join(
        f"{source} (the {IMPORT_SOURCES[source].label}'s {IMPORT_SOURCES[source].default_path})"
        for source in sources
    )
    return (
        f"auth import needs a source, the tool whose OAuth sign-in it copies into the "
        f"credential store: {read}; write {PROG} auth import {sources[0]}, or "
        f"{PROG} auth import {sources[0]} PATH for a file elsewhere"
    )


_AUTH_VERBOSE_HELP = (
    "log to stderr which credential store file is used and why, and what is read from and "
    "written to it (paths and counts, never a key)"
)


def _verbose_option(parser: CommandParser) -> None:
    """``-v`` after an auth action too; left unset when not given, so ``auth -v list`` holds.

    A subcommand's default would overwrite the ``True`` its parent set.
    """
    parser.add_argument(
        "-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help=_AUTH_VERBOSE_HELP
    )


def _credential_store(settings: Settings | None = None) -> CredentialStore:
    """The store the auth commands use, logged with where its path comes from (``-v``)."""
    settings = Settings() if settings is None else settings
    path = settings.resolved_credentials_file()
    if env_value(CREDENTIALS_FILE_ENV) is not None:
        origin = f"set by {CREDENTIALS_FILE_ENV}"
    elif settings.credentials_file is not None:
        origin = f"set by credentials_file in {settings.resolved_config_file()}"
    else:
        origin = f"beside the config file {settings.resolved_config_file()}"
    missing = "" if path.exists() else "; no such file yet"
    _log.info("credential store: %s (%s%s)", path, origin, missing)
    return CredentialStore(path)


def _auth_set(args: argparse.Namespace) -> int:
    # KEY_IDS, not the providers alone: openrouter (the key Perplexity falls back to) is
    # stored like any other, and the list named every id but it.
    provider_id = _stored_id(args.provider, KEY_IDS, stored=(), listed=_key_taking_ids)
    if provider_id in PROVIDER_REGISTRY:  # a key-only id (openrouter) is read by a provider
        _check_takes_a_key(provider_id)
    piped = _stdin_is_piped()
    key = _read_secret(f"API key for {provider_id} (input hidden): ")
    if not key:
        raise _UsageError(_no_key_given(provider_id, piped=piped))
    if len(key.splitlines()) == 1 and starts_with_assignment(key):
        raise _UsageError(_env_line_key(provider_id))
    if any(character.isspace() for character in key):
        raise _UsageError(_spaced_key(provider_id, key))
    settings = Settings()
    store = _credential_store(settings)
    store.set(provider_id, key)
    shadow = _key_used_instead(provider_id, settings)
    said = f"Stored an API key for {provider_id} in {store.path}"
    _say_or_json(said, set_answer(provider_id, store.path, shadow), as_json=args.json)
    if shadow is not None:
        _warn(f"{shadow} holds a key for {provider_id} too, and it is used before the stored one")
    refused = _refused_sign_in_before_key(provider_id, store)
    if refused is not None:
        _warn(
            f"the stored {refused.name} (entry {refused.entry}) was refused for good and is sent "
            f"before this key, so {provider_id} searches still fail on it; "
            f"{refused.sign_in_again}, or forget it with "
            f"`{PROG} auth remove {refused.entry} --oauth`"
        )
    return EXIT_OK


def _refused_sign_in_before_key(provider_id: str, store: CredentialStore) -> SignedIn | None:
    """The stored sign-in ``provider_id`` sends instead of a key, when its renewal was refused.

    A user whose sign-in was refused for good stored a key to get searching again; where
    the sign-in wins over the key (Gemini's), every search still failed on the sign-in and
    nothing said so. The key is stored all the same (it is used once the sign-in is gone);
    the refusal belongs to the sign-in, so only a new sign-in or its removal clears it. A
    provider that goes on to its next credential (Perplexity) searches with the key.
    """
    if provider_id not in PROVIDER_REGISTRY:
        return None
    provider = get_provider(provider_id)
    if provider.tries_every_credential:
        return None
    found = Credentials(store=store)
    kinds = provider.credential_kinds
    first = next(iter(signed_in(kinds, provider.info, found, every=False)), None)
    if first is None or not first.first or not found.oauth_refused(first.entry):
        return None
    return first


def _key_used_instead(provider_id: str, settings: Settings) -> str | None:
    """Where a key that outranks the store comes from (a variable, the config file), if any.

    A key stored to replace a bad one changed nothing while ``BRAVE_API_KEY`` still held
    the bad one, and nothing said so: the searches failed on as before. Names only.
    """
    env_vars = get_provider(provider_id).info.env_vars if provider_id in PROVIDER_REGISTRY else ()
    for name in env_vars:
        if os.environ.get(name, "").strip():
            return name
    configured = settings.api_keys.get(provider_id)
    if configured is not None and configured.get_secret_value().strip():
        return (
            f"the api_keys setting ([api_keys] in {settings.resolved_config_file()}, "
            "or WEBSEARCH_API_KEYS)"
        )
    return None


def _check_takes_a_key(provider_id: str) -> None:
    """Refuse to store a key no provider code would ever read (a keyless engine's).

    Raises:
        _UsageError: The provider reads no API key; the message says what it needs instead.
    """
    refusal = _takes_no_key(provider_id)
    if refusal is not None:
        raise _UsageError(refusal)


def _takes_no_key(provider_id: str) -> str | None:
    """Why no key can be stored for ``provider_id`` and what it needs instead; else ``None``."""
    info = get_provider(provider_id).info
    if info.env_vars:
        return None
    if info.setup_hint:
        needs = f"configure it instead: {info.setup_hint}"
    elif info.credential_free:
        needs = "it needs no key"
    else:
        needs = "it signs in with a stored OAuth token, not a key"
    return f"{provider_id} takes no API key ({needs}); nothing stored"


_BOM = "\ufeff"
"""The byte order mark a key file saved as "UTF-8 with BOM" (Notepad, PowerShell's UTF8
encoding) starts with: it marks the stream, it is not part of the key."""


def _stdin_is_piped() -> bool:
    """Whether standard input is a pipe or a file, read for a key instead of a prompt."""
    stdin: TextIO | None = sys.stdin
    return stdin is not None and not stdin.isatty()


def _no_key_given(provider_id: str, *, piped: bool) -> str:
    """The refusal of an empty key, saying how to give one when standard input was empty.

    The quick start's ``echo "$KEY" | websearch auth set brave``, copied with ``KEY``
    unset, pipes in an empty line: "no API key given" alone left a first-time user
    wondering why the key they meant was not read.
    """
    if not piped:
        return f"no API key given for {provider_id}; nothing stored"
    return (
        f"no API key given for {provider_id}: standard input was empty (an unset variable "
        f"piped in?); pipe the key itself ({PROG} auth set {provider_id} < key.txt), or run "
        "the command at a terminal to type it; nothing stored"
    )


def _env_line_key(provider_id: str) -> str:
    """The refusal of a ``.env`` line given as a key, saying to give the key alone.

    ``grep BRAVE .env | websearch auth set brave`` was refused for a leading ``NAME=`` with
    no way out, and ``export BRAVE_API_KEY=...`` (a README line, copied) for "a space" and
    "copy the key again in one piece": the key was whole, the line around it was the fault.
    """
    return (
        f"refusing to store an API key for {provider_id} given as a variable's line "
        f"(NAME=... or export NAME=...): give the key alone, without its name "
        f"({PROG} auth set {provider_id} < key.txt, or paste it at the prompt); nothing stored"
    )


def _spaced_key(provider_id: str, key: str) -> str:
    """The refusal of a key with a space or a line break inside, saying which and what to do.

    It read "an API key is one line without spaces" alone, naming neither the provider nor
    what was wrong: a whole ``.env`` file or a key in two pieces was piped in (the prompt
    reads one line only), or a space crept into a pasted key. Never a byte of the key.
    """
    lines = len(key.splitlines())
    if lines > 1:
        flaw = f"spans {lines} lines"
        fix = f"pipe a file holding the key alone ({PROG} auth set {provider_id} < key.txt)"
    else:
        flaw = "contains a space"
        fix = "copy the key again in one piece"
    return (
        f"refusing to store an API key for {provider_id} that {flaw}: an API key is one line "
        f"without spaces; {fix}; nothing stored"
    )


def _read_secret(prompt: str) -> str:
    stdin: TextIO | None = sys.stdin
    if stdin is not None and not stdin.isatty():
        # Left in, the mark was stored as the key's first character, invisible in every
        # listing, and every search with the key then failed as an authorization error.
        return stdin.read().removeprefix(_BOM).strip()
    try:
        return getpass.getpass(prompt).strip()
    except EOFError:
        return ""
    except KeyboardInterrupt:
        # Input is not echoed, Ctrl-C's line end neither: "websearch: interrupted" was
        # printed on the prompt's line, after "(input hidden): ".
        if sys.stderr is not None and sys.stderr.isatty():
            print(file=sys.stderr)
        raise


def _auth_list(args: argparse.Namespace) -> int:
    """The ids the store holds a key or sign-in under, one a line, or with ``--json`` which.

    ``auth remove`` took ``--json`` and ``auth list`` refused it, so a script had to read
    lines and could not tell a key from a sign-in without trying to remove one. The JSON
    says what each id holds, as true or false: secrets never appear.
    """
    store = _credential_store()
    providers = store.providers()
    if not providers:
        print(f"No stored API keys or sign-ins in {store.path}", file=sys.stderr)
    if args.json:
        held = {
            provider_id: (
                store.get(provider_id) is not None,
                store.get_oauth(provider_id) is not None,
            )
            for provider_id in providers
        }
        print(json_text(list_answer(store.path, held)))
        return EXIT_OK
    for provider_id in providers:
        print(provider_id)
    return EXIT_OK


def _auth_remove(args: argparse.Namespace) -> int:
    """Forget the API key ``auth set`` stored, or with ``--oauth`` the stored OAuth token.

    It used to forget the provider's whole entry, an OAuth token that a login flow outside
    this package stored included (which no command here can store again), while saying it
    removed the API key. A token is forgotten only when asked by name: one that cannot be
    sent (a control character in it) is named with this command as its way out.
    """
    store = _credential_store()
    known = oauth_entries() if args.oauth else KEY_IDS
    provider_id = _stored_id(args.provider, known, stored=store.providers(), oauth=args.oauth)
    answer = refusal_fields(provider_id)
    if args.oauth:
        if not store.remove(provider_id, "oauth"):
            meant = _stored_id_meant(provider_id, store, oauth=True)
            missing = f"no stored OAuth token for {provider_id}{meant}"
            return refuse(missing, as_json=args.json, status=EXIT_FAILED, fields=answer)
        said = f"Removed the stored OAuth token for {provider_id}"
        done = remove_answer(provider_id, oauth=True, oauth_kept=False)
        return _say_or_json(said, done, as_json=args.json)
    removed = store.remove(provider_id, "api_key")
    kept = " (its stored OAuth token is kept)" if store.get_oauth(provider_id) else ""
    if not removed:
        meant = "" if kept else _stored_id_meant(provider_id, store, oauth=False)
        missing = f"no stored API key for {provider_id}{kept}{meant}"
        return refuse(missing, as_json=args.json, status=EXIT_FAILED, fields=answer)
    said = f"Removed the stored API key for {provider_id}{kept}"
    done = remove_answer(provider_id, oauth=False, oauth_kept=bool(kept))
    return _say_or_json(said, done, as_json=args.json)


def _say_or_json(said: str, answer: Mapping[str, object], *, as_json: bool) -> int:
    """Say what an auth action did: ``said`` for a person, or the JSON ``--json`` asks.

    ``auth remove brave --json`` was refused as an unknown option (in JSON, as every
    refusal under ``--json`` is), so a script managing keys had no document to read for the
    one action that can find nothing to do; ``auth set`` answers the same way.
    """
    if as_json:
        print(json_text(dict(answer)))
    else:
        print(said)
    return EXIT_OK


def _auth_import(args: argparse.Namespace) -> int:
    """Store another tool's sign-in file as our OAuth entry, never showing the token.

    There was no way to store an OAuth token but code; a Gemini CLI user had to copy
    their token by hand. What is stored, and when it expires, is said; a token already
    expired is stored too: one with a refresh token the next search renews (said so), one
    without gets a warning saying how to get a fresh one.
    """
    source = _import_source(args.source)
    file, token = read_sign_in(source, args.path)
    store = _credential_store()
    store.set_oauth(source.entry, token)
    refresh = "with" if token.refresh_token else "without"
    expired = token.is_expired(skew=0)
    said = (
        f"Stored the {source.label} sign-in from {file} as {source.entry} in {store.path}"
        f" ({refresh} a refresh token{_expiry(token.expires_at)})"
    )
    answer = import_answer(
        source.entry,
        store.path,
        file,
        refresh_token=bool(token.refresh_token),
        expires_at=token.expires_at,
        expired=expired,
    )
    _say_or_json(said, answer, as_json=args.json)
    if not expired:
        return EXIT_OK
    if token.refresh_token and source.entry in self_refreshing_entries():
        # Under --json, stdout is the document alone; "expired" and "refresh_token" say it.
        renews = "The token has expired; the next search renews it from the refresh token."
        print(renews, file=sys.stderr if args.json else sys.stdout)
    else:
        _warn(
            f"the token in {file} has expired: {source.sign_in_hint} (it renews the file),"
            f" then import again, or pass a refresh hook for {source.entry}"
        )
    return EXIT_OK


def _import_source(given: str) -> ImportSource:
    """The sign-in source ``given`` names, or a refusal that says what can be imported.

    ``websearch providers`` says codex needs "a ChatGPT OAuth token stored for codex", so
    ``websearch auth import codex`` is what a user tries next; argparse answered
    ``{gemini-cli}: 'codex' is not one of gemini-cli``, naming its metavar and not where
    such a sign-in comes from.

    Raises:
        _UsageError: ``given`` is no import source; the text names those there are, the one
            probably meant, and for a sign-in only a program can store, how it stores it.
    """
    source = IMPORT_SOURCES.get(given)
    if source is not None:
        return source
    known = tuple(IMPORT_SOURCES)
    text = f"{given}: no sign-in to import by that name (known: {', '.join(known)})"
    if given in oauth_entries():
        text += (
            f"; the {given} sign-in is stored from Python with CredentialStore.set_oauth (see "
            '"Answer engines that sign in with OAuth" in the README)'
        )
    raise _UsageError(f"{text}; nothing stored{did_you_mean([given], known)}")


def _expiry(expires_at: float | None) -> str:
    """``, expires 2026-12-04 17:35 UTC`` for a known expiry, else nothing."""
    if expires_at is None:
        return ""
    try:
        moment = datetime.fromtimestamp(expires_at, UTC)
    except (OverflowError, OSError, ValueError):  # a date no calendar holds
        return ""
    return f", expires {moment:%Y-%m-%d %H:%M} UTC"


def _stored_id(
    given: str,
    known: Sequence[str],
    *,
    stored: Sequence[str],
    oauth: bool = False,
    listed: Callable[[], Sequence[str]] | None = None,
) -> str:
    """``given`` as the credential-store id it names (trimmed, lower case), checked.

    ``auth remove brav`` exited 1, as if there were merely nothing to remove, while
    ``auth set BRAVE_API_KEY`` exited 2: an id nothing is or can be stored under is
    invalid input for both. An id already in the store (one a program stored) is valid.

    Args:
        given: The id as typed; an error echoes it so.
        known: The ids the command takes: every key's id, or every OAuth entry.
        stored: The ids the store holds.
        oauth: ``known`` are OAuth entries, which the error then names as such.
        listed: The ids the error lists and suggests from, when not all of ``known``
            (``auth set``: those a key is read for); asked only for the error.

    Raises:
        _UsageError: Neither ``known`` nor ``stored`` has the id; the text suggests the id
            meant, a key's variable name (``BRAVE_API_KEY``) included.
    """
    provider_id = given.strip().lower()
    if provider_id in known or provider_id in stored:
        return provider_id
    ids = tuple(known if listed is None else listed())
    if not oauth:
        aliases = key_variables()
        message = unknown_provider_message(given.strip(), known=ids, aliases=aliases)
        raise _UsageError(message + _meant_unlisted(given, ids, known, aliases))
    meant = did_you_mean([given], ids)
    raise _UsageError(f"no OAuth entry {given.strip()} (known: {', '.join(ids)}){meant}")


def _meant_unlisted(
    given: str, listed: Sequence[str], known: Sequence[str], aliases: Mapping[str, str]
) -> str:
    """``; did you mean duckduckgo? duckduckgo takes no API key (...)`` for an unlisted id.

    ``auth set duckduckgoo`` listed the ids a key is stored for, none near the typo, and
    suggested nothing: the id meant was a keyless engine's. Said only when no listed id
    is near, with why ``auth set`` takes no key for it.
    """
    if closest_id(given, tuple(listed), aliases) is not None:
        return ""  # the message suggests it already
    close = closest_id(given, tuple(known), aliases)
    if close is None or close not in PROVIDER_REGISTRY:
        return ""
    return f"; did you mean {close}? {_takes_no_key(close) or ''}".rstrip()


def _stored_id_meant(given: str, store: CredentialStore, *, oauth: bool) -> str:
    """``; did you mean brave?`` when ``given`` is a typo or the variable of a stored id.

    ``auth remove brav`` or ``auth remove BRAVE_API_KEY`` said only that nothing was
    stored under that name, though the key meant was. Only ids with what the command
    would remove (a key, or with ``--oauth`` a token) are suggested.
    """
    stored = tuple(
        pid
        for pid in store.providers()
        if (store.get_oauth(pid) if oauth else store.get(pid)) is not None
    )
    return did_you_mean([given], stored, key_variables()) if stored else ""


# --- providers ----------------------------------------------------------------------------


def _providers_parser() -> CommandParser:
    parser = CommandParser(
        prog=f"{PROG} providers",
        description=(
            "List every registered provider in auto-chain order: whether it can run now "
            "(or why not), its requests this month and its budget. "
            f"'{PROG} providers reset ID' clears a provider's cooldown, quota mark and counters; "
            f"'{PROG} providers reset --all' clears every provider's, and moves a damaged "
            "state file aside (it is never deleted)."
        ),
        epilog=EXIT_HELP["providers"],
    )
    parser.add_argument(
        "action",
        nargs="?",
        choices=[RESET],
        type=providers_action,  # `providers brave`: said where its status is, and its reset
        help="reset one provider's marks",
    )
    parser.add_argument("provider", nargs="?", help="the provider id to reset")
    parser.add_argument(
        "--all", action="store_true", dest="all_providers", help="reset every provider"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help=(
            "print the rows as JSON (counts null while the state store is unavailable); with "
            'reset, {"provider" (null for --all), "reset": true, "moved_aside_to", '
            '"moved_aside_from", "damage"} (the damaged state file\'s new and old path and '
            "what was wrong with it, null when none was moved)"
        ),
    )
    # As for a search: `websearch -v providers` read "providers" as a query.
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="log what the library does to stderr"
    )
    parser.set_defaults(handler=_providers)
    return parser


def _providers(args: argparse.Namespace) -> int:
    if args.action == "reset" or args.all_providers:
        return _reset(args)
    web_search = WebSearch()
    statuses, problem = run_to_end(_provider_statuses(web_search))
    if problem is not None:
        print(
            f"{PROG}: warning: the state store is unavailable, so cooldowns, usage and budgets "
            f"are not shown ({problem})",
            file=sys.stderr,
        )
    # Its rows say only that they need it: the file, its problem and the fix, once.
    unreadable = credential_store_advice(web_search.credentials, statuses)
    if unreadable is not None:
        _warn(unreadable)
    preferred = web_search.settings.provider
    conflicts = settings_conflicts(web_search.settings)
    if args.json:
        rows_data = [
            {
                **status_record(status, counts_known=problem is None),
                "preferred": status.id == preferred,
            }
            for status in statuses
        ]
        data = {
            "providers": rows_data,
            "state_store_problem": problem,
            # The table's footer says whose requests USED counts; a script reads it here.
            "used_counts": used_counts_scope(
                web_search.settings.state_backend, store_available=problem is None
            ),
            "credential_store_problem": unreadable,
            "conflicts": conflicts,
            "config_file": _config_file_record(web_search.settings),
        }
        print(json_text(data))
        return EXIT_OK
    # Without the store the counts are unknown, not zero.
    unknown = "?" if problem is not None else None
    rows = [("ID", "LABEL", "KIND", "USED", "BUDGET", "STATUS")]
    for status in statuses:
        used = unknown or str(status.used_this_month)
        budget = (
            f"{unknown or status.budget_used or 0} of {status.budget}" if status.budget else "-"
        )
        reason = status.reason + (" (preferred)" if status.id == preferred else "")
        rows.append((status.id, status.label, status.kind, used, budget, reason))
    # Every column but the last (free text) is padded to its widest cell.
    widths = [max(map(len, column)) for column in zip(*rows, strict=True)][:-1]
    for *padded, last in rows:
        cells = [cell.ljust(width) for cell, width in zip(padded, widths, strict=True)]
        print("  ".join([*cells, last]))
    for conflict in conflicts:
        _warn(f"the settings contradict: {conflict}")
    counted = used_counts_line(web_search.settings.state_backend, store_available=unknown is None)
    print(f"\n{_config_file_line(web_search.settings)}")
    print(f"{counted}. Store a key with: {PROG} auth set PROVIDER")
    if any(status.available and status.browser_missing for status in statuses):
        print(
            f"{PLAIN_ONLY.capitalize()}: a page an engine is blocked on is not fetched again in "
            f"headless Chromium. {INSTALL_HINT}"
        )
    return EXIT_OK


def _config_file_record(settings: Settings) -> dict[str, str | bool]:
    """:func:`_config_file_line` for ``--json``: the path, and whether a file is there to read.

    The table's footer named the file, the JSON did not: a script had no way to tell which
    file the settings came from, or that none was read.
    """
    path = settings.resolved_config_file()
    return {"path": str(path), "exists": path.is_file()}


def _config_file_line(settings: Settings) -> str:
    """Which config file the settings come from, and whether it is there.

    The README names ``~/.config/websearch-tools/config.toml``, which is Linux's place; a
    file written there on macOS (or under another name) was never read, and nothing said
    which file was: the defaults applied, silently.
    """
    path = settings.resolved_config_file()
    if path.is_file():
        return f"Config file: {path}"
    return f"Config file: {path} (no such file, so none is read)"


def _reset(args: argparse.Namespace) -> int:
    """Clear one provider's marks and counters, or every one's; with ``--json``, say so in JSON.

    ``providers reset brave --json`` took the option (it is the listing's) and answered in
    prose, its refusals on stderr alone: a script that asked for JSON read text it could not
    parse. It answers as ``auth remove --json`` does: what was done to which id.
    """
    if args.action != "reset":
        return refuse("--all goes with reset: websearch providers reset --all", as_json=args.json)
    if args.all_providers and args.provider:
        # Both given were told "needs a provider id or --all", which both had been.
        return refuse(
            f"providers reset takes a provider id or --all, not both: "
            f"{PROG} providers reset {args.provider}, or {PROG} providers reset --all",
            as_json=args.json,
        )
    if not args.all_providers and not args.provider:
        return refuse(reset_needs_a_provider(), as_json=args.json)
    provider_id = args.provider.strip().lower() if args.provider else None
    if provider_id is not None and provider_id not in PROVIDER_REGISTRY:
        return refuse(unknown_provider_message(args.provider.strip()), as_json=args.json)
    outcome = run_to_end(_reset_provider(WebSearch(), provider_id))
    if outcome.error is not None:
        problem = f"could not reset the state: {outcome.error}"
        return refuse(problem, as_json=args.json, status=EXIT_FAILED)
    if outcome.moved_to is not None:
        said = (
            f"The state file was damaged; moved it aside to {outcome.moved_to}\n"
            "Every provider starts again with no cooldowns, quota marks or usage counters."
        )
    elif provider_id is None:
        said = "All providers: cooldowns, quota marks and usage counters cleared"
    else:
        said = f"{provider_id}: cooldowns, quota marks and usage counters cleared"
    answer = {"provider": provider_id, "reset": True, **_moved_aside(outcome)}
    return _say_or_json(said, answer, as_json=args.json)


def _moved_aside(outcome: ResetOutcome) -> dict[str, str | None]:
    """What ``reset --json`` says of a damaged state file moved aside (all null if none was).

    It named only where the file went: a script could not tell which file was damaged
    (the store's own path, where a fresh one now starts) nor why, both of which the
    store knew and the person reading the prose line could work out from the path.
    """
    return {
        "moved_aside_to": None if outcome.moved_to is None else str(outcome.moved_to),
        "moved_aside_from": None if outcome.moved_from is None else str(outcome.moved_from),
        "damage": outcome.damage,
    }


async def _reset_provider(web_search: WebSearch, provider_id: str | None) -> ResetOutcome:
    async with web_search:
        return await reset_state(await web_search.state(), provider_id)


async def _provider_statuses(web_search: WebSearch) -> tuple[list[ProviderStatus], str | None]:
    async with web_search:
        # The problem first: a silent store is then waited for once, not again per row.
        problem = await state_problem(await web_search.state())
        return await web_search.provider_status(), problem


# --- shared -------------------------------------------------------------------------------

_PARSERS: Mapping[str, Callable[[], CommandParser]] = {
    "search": _search_parser,
    "auth": _auth_parser,
    "fetch": fetch_parser,
    "providers": _providers_parser,
}


def _describe_validation_error(error: ValidationError) -> str:
    """Each invalid field as ``<field> (<option>): <problem>``, joined into one line.

    The form a bad setting has (``timeout_seconds (--timeout): ...``,
    ``WEBSEARCH_TIMEOUT_SECONDS: ...``, ``config file ... (timeout_seconds): ...``, see
    :func:`~websearch_core.settings_errors.describe_settings_error`): a parameter's began
    ``invalid``, and two bad ones took two lines where two bad settings take one.
    """
    parts = []
    for detail in error.errors():
        field = ".".join(str(part) for part in detail["loc"]) or "input"
        where = _where(field, _SEARCH_FLAGS.get(field))
        problem = validator_message(detail["msg"], field)
        parts.append(f"{where}: {problem}{_given(field, detail)}")
    return join_clauses(parts) or " ".join(str(error).split())


def _given(field: str, detail: ErrorDetails) -> str:
    """``, got 'five'``: the text an option was given, where pydantic's words leave it out.

    ``--limit five`` read ``limit (--limit): Input should be a valid integer``, leaving the
    user to find what was typed; a parameter's own check (``--country usa``) says ``got
    'usa'`` already, as the text it read. A search parameter is typed on the command line,
    never a secret; the query (which may be long, and is the search itself) is not repeated;
    nor is a text the check's own words give already (a date's, which keeps pydantic's type).
    """
    given = detail["input"]
    if field == "query" or detail["type"] == "value_error" or not isinstance(given, str):
        return ""
    if f"got {given!r}" in detail["msg"]:
        return ""
    return f", got {given!r}"


_DOCUMENT_LIBRARIES = ("pypdf", "trafilatura", "readability", "htmldate", "courlan")
"""The libraries ``fetch`` reads pages with, whose warnings say again what its error says.

``websearch fetch`` of a PDF it cannot read printed pypdf's own records above its line
(``invalid pdf header: b'<html'``, ``EOF marker not found``): Python's last-resort handler
prints any warning of a logger with no handler. They go where the core's records go.
"""


@contextlib.contextmanager
def _quiet_library_logging(*, verbose: bool, state_warnings: bool = True) -> Iterator[None]:
    """Route the core's log records to stderr with ``--verbose``, else its warnings that matter.

    The document libraries' records (:data:`_DOCUMENT_LIBRARIES`) go the same way.

    Without a handler Python's last-resort handler would print every provider warning,
    which duplicates the failure text the command prints itself. Three kinds of warning are
    another matter, as nothing else in a command's output says them: the state store's
    (``state_warnings``; a store that cannot be used means budgets and cooldowns are not in
    force), the credential store's (one other users can read) and a key shaped like another
    provider's (:mod:`~websearch_core.key_shapes`), which an answered search never shows.
    """
    logger = logging.getLogger("websearch_core")
    documents = [logging.getLogger(name) for name in _DOCUMENT_LIBRARIES]
    handler: logging.Handler
    loud: list[logging.Logger] = []
    if verbose:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(f"{PROG}: %(message)s"))
    else:
        handler = logging.NullHandler()
        loud.append(logging.getLogger("websearch_core.credentials"))
        loud.append(logging.getLogger("websearch_core.key_shapes"))  # a key's wrong home
        if state_warnings:
            loud.append(logging.getLogger("websearch_core.state"))
    warnings_handler = logging.StreamHandler(sys.stderr)
    warnings_handler.setLevel(logging.WARNING)
    warnings_handler.setFormatter(logging.Formatter(f"{PROG}: warning: %(message)s"))
    for named in loud:
        named.addHandler(warnings_handler)
    previous_level = logger.level
    logger.addHandler(handler)
    for library in documents:
        library.addHandler(handler)
    if verbose:
        logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous_level)
        for library in documents:
            library.removeHandler(handler)
        for named in loud:
            named.removeHandler(warnings_handler)


if __name__ == "__main__":  # python -m websearch_core.cli, as python -m websearch_core
    sys.exit(main())
