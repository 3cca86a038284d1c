"""The word after ``websearch providers``: its one action, or a provider id in its place.

``websearch providers brave`` (a newcomer asking for Brave's status) was refused as
``action: 'brave' is not one of reset``, naming neither where Brave's status is nor how to
clear its marks, the two things such a line can mean. A provider id there is refused with
both. ``websearch providers status`` (or ``stats``, ``list``, ``show``: a newcomer asking for
the listing by a name it does not need) was refused the same bare way; such a word is now
told that the listing is the command with no action. Any other word keeps the parser's
refusal of a value not in the list.
"""

import argparse

from .cli_status import PROG
from .provider_ids import SEARCH_PROVIDER_ORDER

__all__ = ["LISTING_WORDS", "RESET", "providers_action", "reset_needs_a_provider"]

RESET = "reset"
"""The one action ``websearch providers`` takes."""
LISTING_WORDS = frozenset({"status", "stats", "list", "ls", "show"})
"""Words a user puts after ``providers`` meaning the listing, which takes no action word."""


def providers_action(word: str) -> str:
    """``word`` as the action, refusing a provider id with what to write instead.

    Used as the action argument's ``type``: argparse calls it before it checks the
    choices, so a word neither the action nor an id is refused as before.

    Raises:
        argparse.ArgumentTypeError: ``word`` is a provider id, or a word meaning the
            listing (:data:`LISTING_WORDS`).

    Example:
        >>> providers_action("reset")
        'reset'
        >>> providers_action("Brave")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        argparse.ArgumentTypeError: Brave is a provider, not an action: ...
        >>> providers_action("status")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        argparse.ArgumentTypeError: status is not an action: websearch providers, with no ...
    """
    provider_id = word.strip().lower()
    if provider_id in LISTING_WORDS:
        raise argparse.ArgumentTypeError(
            f"{word} is not an action: {PROG} providers, with no action, lists every "
            f"provider's status ({PROG} providers --json for scripts); its one action is "
            f"{RESET} ({PROG} providers {RESET} PROVIDER)"
        )
    if provider_id != RESET and provider_id in SEARCH_PROVIDER_ORDER:
        raise argparse.ArgumentTypeError(
            f"{word} is a provider, not an action: {PROG} providers lists every provider's "
            f"status ({provider_id}'s on its row), and {PROG} providers reset {provider_id} "
            "clears its cooldown and counters"
        )
    return word


def reset_needs_a_provider() -> str:
    """The line for ``websearch providers reset`` given neither an id nor ``--all``.

    ``needs a provider id or --all`` alone left the form to be found in the help.
    """
    return (
        f"providers reset needs a provider id or --all: {PROG} providers reset brave (one "
        f"provider; {PROG} providers lists the ids), or {PROG} providers reset --all"
    )
