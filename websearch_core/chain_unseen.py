"""What the auto chain says of providers it passed over for keys it could not read.

A ``Credentials`` given an ``environ`` of its own reads that mapping in place of
``os.environ`` (:mod:`~websearch_core.environ_given`). Stop 52 (signins5) made every text
that names a provider as not set up say when its key is set in ``os.environ`` alone: the
forced, preferred and explicit refusals and the status rows. The auto chain names no
provider it passes over, so it passed such a provider in silence: the search was answered
by another, or failed with the others' texts, and the user who had set ``BRAVE_API_KEY``
read nothing of it. The plan now keeps one sentence for all of them
(:func:`passed_over_note`), which the outcome says once: after the answer's notes, or at
the end of the failure text (:func:`with_passed_over`). Never a value. Pure.
"""

from collections.abc import Sequence
from typing import Final

from .credentials import Credentials
from .models import SearchResponse
from .note_bound import notes_update

__all__ = ["PASSED_OVER_HEAD", "passed_over_note", "with_passed_over", "with_plans_note"]

PASSED_OVER_HEAD: Final = "The auto chain passed over "
"""How the note begins: how a cached answer's stored note is told from its others."""


def _listed(labels: Sequence[str]) -> str:
    """``Brave``, ``Brave and Tavily``, ``Brave, Exa and Tavily``."""
    if len(labels) == 1:
        return labels[0]
    return f"{', '.join(labels[:-1])} and {labels[-1]}"


def passed_over_note(
    passed: Sequence[tuple[str, Sequence[str]]], credentials: Credentials
) -> str | None:
    """The sentence for the auto chain's providers passed over with their keys unread.

    Args:
        passed: Each provider passed over (its label) with the variables it reads a
            credential from; those with none of them set in ``os.environ`` alone are
            left out.
        credentials: The resolver the plan asked, whose ``environ`` was read.

    Returns:
        ``The auto chain passed over Brave, whose key it did not find.`` followed by the
        clause naming where the variables are set and how to give them
        (:meth:`~websearch_core.credentials.Credentials.unseen_clause`); ``None`` when no
        provider passed over has a variable so set.
    """
    labels: list[str] = []
    names: list[str] = []
    for label, variables in passed:
        if credentials.unseen_clause(variables):
            labels.append(label)
            names.extend(variables)
    if not labels:
        return None
    keys = "key" if len(labels) == 1 else "keys"
    whose = f"{PASSED_OVER_HEAD}{_listed(labels)}, whose {keys} it did not find."
    return whose + credentials.unseen_clause(names)


def with_passed_over(message: str, note: str | None) -> str:
    """``message`` (a failure's text, unchanged), then the plan's note when it has one.

    Example:
        >>> with_passed_over("All web search providers failed: x", "The auto chain ...")
        'All web search providers failed: x. The auto chain ...'
        >>> with_passed_over("No web search provider configured.", None)
        'No web search provider configured.'
    """
    if note is None:
        return message
    ended = message if message.endswith((".", "!", "?")) else f"{message}."
    return f"{ended} {note}"


def with_plans_note(response: SearchResponse, note: str | None) -> SearchResponse:
    """A cached answer saying what this search's plan says of providers passed over.

    A ``WebSearch`` whose ``credentials`` were given an ``environ`` of their own meets the
    note as the chain's users do, but a cache hit is answered without the chain: the
    answer said what the plan of the search that stored it said. A key set in
    ``os.environ`` since went unnamed (the hit had no note), and one since removed was
    still named (the hit kept its old one). The stored note is dropped and this plan's
    (``None``: none) added, within the notes' bound.

    Example:
        >>> stored = SearchResponse(provider="tavily", notes=(PASSED_OVER_HEAD + "Brave.",))
        >>> with_plans_note(stored, None).notes
        ()
    """
    kept = tuple(line for line in response.notes if not line.startswith(PASSED_OVER_HEAD))
    if kept != response.notes:
        response = response.model_copy(update={"notes": kept})
    if note is None:
        return response
    return response.model_copy(update=notes_update(response, (note,)))
