"""A credential store that cannot be read: the error its lookups raise, and what it costs.

The store holds keys and sign-ins for some providers only. When its file cannot be read
(not JSON, not UTF-8, not an object, a directory, no permission) the lookups that reach it
fail, and nothing else should: the spec's availability probes "swallow lookup errors and
report false", and a failing provider never loses the answer another could give. So the
auto chain goes on without the providers whose lookup needed the store, and the answer
(or the failure text) says which file, what is wrong with it and how to put it right,
in the words of this one error.
"""

from collections.abc import Sequence

from .cli_status import PROG
from .errors import ConfigurationError

__all__ = ["NEEDS_STORE", "UnreadableStoreError", "with_store_problem"]

_PASSED = "providers whose key or sign-in would come from it were passed over"
"""What :meth:`UnreadableStoreError.advice` says was left out because of the file."""
NEEDS_STORE = "not available: its key or sign-in would come from the unreadable credential store"
"""The providers table's row for a provider the store keeps out (the file and the fix are
said once, in a warning beside the table, and in the row's ``advice``:
:meth:`UnreadableStoreError.repair`)."""
_FIX_OR_REMOVE = "fix the file, or remove it and"
"""How every fix starts: the file's own repair first, then what storing anew takes."""
_FIX = (
    f"{_FIX_OR_REMOVE} store the keys again with '{PROG} auth set <provider>' (sign-ins with "
    f"'{PROG} auth import gemini-cli', or from Python with CredentialStore.set_oauth)"
)
"""How :meth:`UnreadableStoreError.advice` ends: how to put the file right. Which of its
keys and sign-ins a provider looked up is said in its row's :meth:`~UnreadableStoreError.
repair` (:func:`~websearch_core.store_restore.restore_advice`): the file held some of them."""


class UnreadableStoreError(ConfigurationError):
    """The credential store's file cannot be read; the message names it and the problem.

    A :class:`ConfigurationError` still, so a provider forced by the user, ``websearch
    auth`` and every caller that caught the old error see it as before. The message holds
    the path and the reason only, never a byte of the file's content.
    """

    def advice(self, keyed: Sequence[str] = ()) -> str:
        """The message, then what was left out because of it and how to fix it.

        Said in a search's notes, its WARNING, the failure text when nothing answered and
        after ``websearch providers``' table.

        Args:
            keyed: The labels of providers that ran on a key from elsewhere though a
                sign-in they send before it may be in the file (Gemini's, Perplexity's):
                which was meant cannot be known, so the user is told which was used.
        """
        return f"{self}; {_PASSED}{_sign_ins_unread(keyed)}; {_FIX}"

    def repair(self, keyed: Sequence[str] = (), restore: str | None = None) -> str:
        """The message, then how to fix the file: the advice of one provider's row.

        ``provider_status()`` rows of the providers the file keeps out carry it, where
        they read only "not available", and so does a ready row that runs on a key while
        its sign-in may be in the file (``keyed``, as for :meth:`advice`); the file was
        named beside the table alone.

        Args:
            keyed: As for :meth:`advice`.
            restore: How to store again what the row's provider looked up in the file
                (:func:`~websearch_core.store_restore.restore_advice`): codex's row was
                told to store a key with ``websearch auth set``, which codex never reads.
                ``None``: the whole file's way (every key and sign-in).
        """
        fix = _FIX if restore is None else f"{_FIX_OR_REMOVE} {restore}"
        return f"{self}{_sign_ins_unread(keyed)}; {fix}"


def _sign_ins_unread(keyed: Sequence[str]) -> str:
    """``; Gemini used its key, not a sign-in the file may hold``, or ``""`` for none."""
    if not keyed:
        return ""
    if len(keyed) == 1:
        return f"; {keyed[0]} used its key, not a sign-in the file may hold"
    names = f"{', '.join(keyed[:-1])} and {keyed[-1]}"
    return f"; {names} used their keys, not a sign-in the file may hold"


def with_store_problem(message: str, problem: str | None) -> str:
    """``message`` (a failure's text, unchanged), then the unreadable store's advice.

    When nothing answered, the providers the store would have given a key are among the
    ones that could have: the text ends with why they were left out, as ``No web search
    provider configured.`` is followed by its reason.

    Example:
        >>> with_store_problem("No web search provider configured.", "credential store x is bad")
        'No web search provider configured. Credential store x is bad.'
    """
    if problem is None:
        return message
    ended = message if message.endswith((".", "!", "?")) else f"{message}."
    return f"{ended} {problem[:1].upper()}{problem[1:]}."
