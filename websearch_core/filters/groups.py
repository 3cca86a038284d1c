"""Which words of a query an ``OR`` joins into one group of alternatives.

Both the text a provider is sent (:mod:`.render`, ``(a OR b)`` or flat) and the record of
what was asked (:mod:`.merge`, the ``alternatives`` filter) read the groups from here, so
the group named in an answer's note is the group sent, or not sent, upstream.
"""

from collections.abc import Sequence

from .query import Token

__all__ = ["TERMS", "beside_directive", "grouped", "or_groups"]

TERMS = frozenset({"text", "phrase", "exclude_term"})
"""Token kinds that are words of the query rather than directives."""


def beside_directive(tokens: Sequence[Token], index: int) -> bool:
    """Whether the ``OR`` at ``index`` joins a directive.

    ``site:a OR site:b`` (typed in parentheses or not) goes as the directives' own group,
    so the ``OR`` leaves the words.
    """
    neighbours = [*tokens[max(index - 1, 0) : index], *tokens[index + 1 : index + 2]]
    return any(t.kind not in TERMS and t.kind not in ("or", "and") for t in neighbours)


def grouped(items: Sequence[tuple[str, str]], reads_or: bool) -> list[list[str]]:
    """``items`` (``("or" | "wanted" | "unwanted", text)``) as groups of words, in order.

    ``OR`` joins the wanted words either side (a word or a phrase, not a ``-term``) into
    one group; one with nothing to join stays a group of its own where ``OR`` is read,
    else leaves.
    """
    groups: list[list[str]] = []
    index = 0
    while index < len(items):
        kind, word = items[index]
        index += 1
        if kind != "or":
            groups.append([word])
            continue
        before = items[index - 2][0] if index >= 2 else None
        after = items[index] if index < len(items) else None
        if before == "wanted" and after is not None and after[0] == "wanted":
            groups[-1].append(after[1])
            index += 1
        elif reads_or:
            groups.append([word])
    return groups


def or_groups(tokens: Sequence[Token]) -> tuple[str, ...]:
    """Each group of alternatives the query asks for, as ``a OR "b c"`` (pure).

    Examples:
        >>> from .query import tokenize
        >>> or_groups(tokenize('rust OR "go lang" OR zig -c site:a.org OR site:b.org'))
        ('rust OR "go lang" OR zig',)
        >>> or_groups(tokenize("OR rust"))
        ()
    """
    items: list[tuple[str, str]] = []
    for index, token in enumerate(tokens):
        if token.kind == "or":
            if not beside_directive(tokens, index):
                items.append(("or", token.raw))
        elif token.kind in ("text", "phrase"):
            items.append(("wanted", token.raw))
        elif token.kind == "exclude_term":
            items.append(("unwanted", token.raw))
    found = (" OR ".join(group) for group in grouped(items, reads_or=False) if len(group) > 1)
    return tuple(dict.fromkeys(found))
