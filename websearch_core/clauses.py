"""Failure texts and notes joined into one line with ``; ``, each without its own full stop.

Many texts this package writes are whole sentences (``Public Web returned no renderable
search content.``, ``... the request uncounted.``) and many lines are several of them joined
with ``; ``: the chain's ``All web search providers failed: <id>: <text>; ...``, an attempt's
detail of a failure and its "uncounted" note, a fan-out's engines. Joined as they were,
they read ``...content.; tavily: ...``. Here each clause but the last gives up its final
full stop, so the line reads as one sentence; the last keeps its own, as a single text
keeps it when it stands alone.
"""

from collections.abc import Iterable

__all__ = ["CLAUSE_SEPARATOR", "join_clauses"]

CLAUSE_SEPARATOR = "; "
"""What stands between two clauses (the spec's ``<provider/error>; ...``)."""


def join_clauses(clauses: Iterable[str | None]) -> str:
    """``clauses`` joined with ``; ``, every one but the last without its final full stop.

    Empty and ``None`` clauses are left out, so a caller may pass optional parts as they
    are. An ellipsis (``...``) is not a full stop and stays, as does a last clause's stop.

    Args:
        clauses: The texts in the order they are read.

    Returns:
        The joined line; ``""`` when no clause has text.

    Example:
        >>> join_clauses(["Public Web found nothing.", None, "tavily: down."])
        'Public Web found nothing; tavily: down.'
        >>> join_clauses(["failed: the page said wait...", "bing: slow"])
        'failed: the page said wait...; bing: slow'
    """
    kept = [clause for clause in clauses if clause]
    if not kept:
        return ""
    leading = [_without_stop(clause) for clause in kept[:-1]]
    return CLAUSE_SEPARATOR.join([*leading, kept[-1]])


def _without_stop(clause: str) -> str:
    """``clause`` without one final full stop; an ellipsis is kept whole."""
    if clause.endswith(".") and not clause.endswith(".."):
        return clause[:-1]
    return clause
