"""An answer's ``[n]`` markers, renumbered after the sources they count were filtered.

Perplexity writes its answer with markers that number its ``citations`` in order
(``...844,000 from authoritative U.S. data sources.[2][3][5][7]`` in
``fixtures/perplexity/chat_completions_sonar_citations.json``), and its sources are those
URLs in that order, so ``[2]`` is the second source. The answer is printed above the
sources, each numbered ``[n]`` as shown: once a filter drops one, every later marker named
the source after the one it meant, and a marker of the source dropped named a source the
filter kept. The other answer engines' captures write no such markers (Gemini's supports
name chunk indices beside the text; OpenAI, Kimi and OpenRouter link a URL in the text;
Anthropic, xAI and Z.AI cite in blocks or annotations), so this is declared per provider
(``ProviderInfo.answer_numbers_sources``).
"""

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Final

__all__ = ["as_sources", "cut_to", "renumbered"]

_MARKER: Final = re.compile(r"\[(\d{1,4})\](?!\()")
"""``[n]`` as an answer cites with it; not a Markdown link's text (``[1](https://...)``)."""


def renumbered(answer: str, count: int, kept: Collection[int]) -> str:
    """``answer`` with each marker naming the source it meant as the sources now stand.

    Args:
        answer: The answer as the provider wrote it.
        count: How many sources the markers numbered (the provider's, before the checks):
            a number past them is not a marker of ours (a year in brackets, an index) and
            stays as written.
        kept: The 1-based numbers, among those ``count``, of the sources the filters kept.

    Returns:
        The answer with a kept source's marker renumbered to its place among the kept,
        and a dropped source's marker taken out: it cited a page the filters refused, and
        left in place it would name whichever source now holds its number.

    Example:
        >>> renumbered("Big.[1][2] Small.[3] See a[9].", 3, {2, 3})
        'Big.[1] Small.[2] See a[9].'
    """
    return _moved(answer, count, {old: new for new, old in enumerate(sorted(kept), start=1)})


def _moved(answer: str, count: int, place: Mapping[int, int]) -> str:
    """``answer`` with each marker ``[n]`` up to ``count`` written ``[place[n]]``.

    A marker whose number ``place`` lacks is taken out; a number past ``count`` stays.
    """

    def marker(match: re.Match[str]) -> str:
        number = int(match[1])
        if not 1 <= number <= count:
            return match[0]
        new = place.get(number)
        return "" if new is None else f"[{new}]"

    return _MARKER.sub(marker, answer)


def as_sources(answer: str | None, listed: Sequence[str | None], sent: int = 0) -> str | None:
    """``answer``, whose markers number the ``listed`` entries, numbering the sources made.

    Perplexity's markers number the list it sends (``citations``; the ask stream's
    ``web_results``), and its parsers make a source of each entry once: a URL listed
    again is the source it first made, an entry with no web URL makes none. Read as
    the sources' numbers, every marker after such an entry named the source after the
    one meant. A marker of a repeated URL now names the source made of it, one of an
    entry that made no source goes.

    Args:
        answer: The answer as the provider wrote it (``None``: no answer).
        listed: Each listed entry's key as its parser de-duplicates (its URL), in order;
            ``None`` for an entry that made no source.
        sent: How many entries the provider listed, when more than ``listed`` (a parser
            reads the first 200, ``MAX_RESULT_ITEMS``): a marker of an entry past those
            read named a page no source was made of, and goes as one of an entry that
            made none. A number past every entry sent is no marker (a year in brackets)
            and stays.

    Returns:
        The answer with its markers numbering the sources, as written when they already
        did (each entry its own source).

    Example:
        >>> as_sources("A.[1] B.[2] C.[3] D.[4]", ["a", "a", None, "d"])
        'A.[1] B.[1] C. D.[2]'
        >>> as_sources("A.[1] B.[3] In [2020].", ["a", "b"], sent=3)
        'A.[1] B. In [2020].'
    """
    place: dict[int, int] = {}
    made: dict[str, int] = {}
    for number, key in enumerate(listed, start=1):
        if key is not None:
            place[number] = made.setdefault(key, len(made) + 1)
    count = max(len(listed), sent)
    if answer is None or all(place.get(n) == n for n in range(1, count + 1)):
        return answer
    return _moved(answer, count, place)


def cut_to(answer: str | None, count: int, shown: int | None) -> str | None:
    """``answer`` with the markers of sources a cut left unshown taken out.

    A ``limit`` keeps the first ``shown`` of the ``count`` sources the answer numbered
    (Perplexity's parser cuts its sources so): a marker past them cited a page the caller
    is not shown, and left in place it reads as one of the sources listed, or as a list
    cut short. It goes as a dropped source's marker goes (:func:`renumbered`).

    Args:
        answer: The answer as the provider wrote it (``None``: no answer).
        count: How many sources the markers numbered, before the cut.
        shown: How many of them are kept (``None``: no cut).

    Returns:
        The answer, with markers of ``shown + 1`` to ``count`` taken out.

    Example:
        >>> cut_to("Big.[1][3] Small.[2] See a[9].", 3, 2)
        'Big.[1] Small.[2] See a[9].'
    """
    if answer is None or shown is None or shown >= count:
        return answer
    return renumbered(answer, count, range(1, shown + 1))
