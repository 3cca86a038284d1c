"""What ``websearch`` prints of a bug in a search: Python's traceback, every secret masked.

A search answers a provider's failure as text; an error no layer below the command
expected (a bug in the core, a library's error on a value it met) left the command as
Python's own traceback, with the message of every error in its chain: an
``int('<key>')`` or a ``KeyError('<key>')`` on the way put the key on stderr, where a
user pastes it into a bug report. The command's search raises :class:`SearchCrashed`
in its place, its report (:func:`crash_report`) the same traceback with every secret of
the client and of the key variables masked, and prints that. What a search is expected
to raise (invalid input, a bad setting, an interrupt) passes through unchanged.

A bug may quote a key the search never handed out, and may come after the search (in
the command's output) or in another command: every report masks what this process could
know without a search too (:func:`configured_secrets`): the keys of the settings (the
config file's, the environment's), their other credentials, and every credential store
entry, read or not.

The report fails closed: a bug in making it (its mask, its reading of the settings or
the variables) would otherwise leave the command as Python's traceback of that second
error, chained to the first, whose message the report was to mask. Such a report is
:data:`REPORT_FAILED` instead, a fixed text: nothing of either error, so no key.
"""

import os
import traceback
from collections.abc import Iterable, Mapping

from .cli_status import REPORT_FAILED
from .key_variable_names import KEY_VARIABLES
from .redaction import Redactor

__all__ = [
    "REPORT_FAILED",
    "SearchCrashed",
    "configured_secrets",
    "configured_words",
    "crash_report",
    "variable_secrets",
]


class SearchCrashed(Exception):
    """A search ended in an error nothing below the command expected, with its report.

    Raised in place of that error, with no cause or context: its messages are what the
    report masks, so nothing reachable from this one holds them.

    Attributes:
        report: The error's traceback as Python prints it, every secret masked.
    """

    def __init__(self, report: str) -> None:
        super().__init__(report)
        self.report = report


def variable_secrets(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The values of the key variables set in ``environ`` (``BRAVE_API_KEY``...).

    A key read from one is among the client's secrets once handed out; a bug may meet it
    before that (reading the variables is the first thing a search does).

    Example:
        >>> variable_secrets({"BRAVE_API_KEY": "k-0123", "HOME": "/home/u", "EXA_API_KEY": " "})
        ('k-0123',)
    """
    return tuple(
        value for name, value in environ.items() if name.lower() in KEY_VARIABLES and value.strip()
    )


def configured_secrets() -> tuple[str, ...]:
    """Every credential the settings and the credential store hold, none handed out yet.

    Read afresh for the report: the keys of the settings (from the config file or the
    environment, by provider), their other credentials (SearXNG's, the proxy's password,
    a key in a URL: ``call_secrets.settings_secrets``), and each store entry's key and
    sign-in tokens. A part that cannot be read (the bug may be in reading it) adds
    nothing: the report is printed all the same.
    """
    return _configured()[0]


def configured_words() -> tuple[str, ...]:
    """The settings' failure-only words (``call_secrets.settings_words``), read afresh.

    A word in a URL's query that is a key only where a request is quoted, or a setting's
    word with its name or in quotes: masked whole, as a failure masks it, not as a key.
    """
    return _configured()[1]


def _configured() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """:func:`configured_secrets` and :func:`configured_words`, from one reading."""
    from .call_secrets import settings_secrets, settings_words
    from .credentials import CredentialStore
    from .settings import Settings

    found: list[str] = []
    words: tuple[str, ...] = ()
    try:
        settings = Settings()
        found += [key.get_secret_value() for key in settings.api_keys.values()]
        found += settings_secrets(settings, unread_words=False)
        words = settings_words(settings)
        store = CredentialStore(settings.resolved_credentials_file())
        for provider in store.providers():
            token = store.get_oauth(provider)
            held = (
                store.get(provider),
                *((token.access_token, token.refresh_token) if token else ()),
            )
            found += [value for value in held if value]
    except Exception:  # a report must outlive a broken setting or store
        pass
    return tuple(found), words


def crash_report(
    error: BaseException, secrets: Iterable[str], failure_only: Iterable[str] = ()
) -> str:
    """``error``'s traceback as Python prints it, every secret this process knows masked.

    Args:
        error: The error no layer below the command expected.
        secrets: The client's secrets handed out by then (none outside a search); the
            values of the key variables set in this process (:func:`variable_secrets`)
            and :func:`configured_secrets` are added.
        failure_only: The client's settings' words (``call_secrets.settings_words``),
            masked whole as a failure masks them; :func:`configured_words` are added. Read
            as keys, a compact pair (``"engines":"hunterxyzw"``) was a token, its first 8
            characters masked in every line quoting that setting (``{***google"}``).

    Returns:
        The masked traceback, or :data:`REPORT_FAILED` when making it raised: the one
        place the report's own bug is caught, so no caller prints that bug's traceback.
    """
    try:
        shown = "".join(traceback.format_exception(error))
        strong, words = _configured()
        known = [*secrets, *variable_secrets(os.environ), *strong]
        return Redactor(known, [*failure_only, *words])(shown)
    except Exception:  # fail closed: the second error may quote what the first did
        return REPORT_FAILED
