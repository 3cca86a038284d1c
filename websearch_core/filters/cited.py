"""An answer made to cite only the sources a response still holds, however they went.

Sources leave a response in three places after the provider wrote its answer: a filter's
check (:func:`~.plan.apply_plan`), a parser's ``limit`` cut (Perplexity's, OpenAI's), and
the sanitiser's (:func:`~websearch_core.sanitize.clean_response`: past the caller's count,
past 100, or a URL it refuses). An answer that cites its sources, by number
(:mod:`.markers`) or by link (:mod:`.links`), must follow each: a marker left as written
named the source now in its place, a link pointed at a page no longer shown. This is the one
function every such place calls, told by the provider how its answer cites.
"""

from collections.abc import Collection, Sequence

from ..models import SearchResponse, SearchSource
from .links import unlinked
from .markers import renumbered

__all__ = ["cited_answer", "kept_places", "shown_cited"]


def cited_answer(
    answer: str,
    before: Sequence[SearchSource],
    kept: Collection[int],
    *,
    numbers: bool,
    links: bool,
) -> str:
    """``answer`` citing, of the sources ``before``, only those at the places ``kept``.

    Args:
        answer: The answer, citing ``before`` as they stood.
        before: The sources the answer's markers or links were written for, in order.
        kept: The 1-based places in ``before`` of the sources still shown.
        numbers: The answer numbers its sources (``ProviderInfo.answer_numbers_sources``):
            markers renumbered to the sources kept, a dropped one's taken out.
        links: The answer links its sources (``ProviderInfo.answer_links_sources``): a
            link to a dropped source's page taken out, its words kept.

    Example:
        >>> pages = [SearchSource(title="a", url="https://a.org/"),
        ...          SearchSource(title="b", url="https://b.org/")]
        >>> cited_answer("A.[1] B.[2] ([b](https://b.org/))", pages, {1},
        ...              numbers=True, links=True)
        'A.[1] B.'
    """
    if numbers:
        answer = renumbered(answer, len(before), kept)
    if links:
        gone = [source.url for n, source in enumerate(before, start=1) if n not in kept]
        shown = [source.url for n, source in enumerate(before, start=1) if n in kept]
        answer = unlinked(answer, gone, shown)
    return answer


def kept_places(before: Sequence[SearchSource], after: Sequence[SearchSource]) -> set[int]:
    """The 1-based places in ``before`` of the sources ``after`` kept (pure).

    ``after`` is ``before`` with some taken out, in the same order, each kept one's URL as
    it was (the sanitiser drops a source whose URL it refuses, never rewrites one): each
    is matched to the first source of ``before`` left with its URL.

    Example:
        >>> pages = [SearchSource(title=t, url=f"https://{t}.org/") for t in "abc"]
        >>> sorted(kept_places(pages, [pages[0], pages[2]]))
        [1, 3]
    """
    places: set[int] = set()
    index = 0
    for source in after:
        while index < len(before) and before[index].url != source.url:
            index += 1
        if index == len(before):
            break
        index += 1
        places.add(index)
    return places


def shown_cited(
    response: SearchResponse, before: Sequence[SearchSource], *, numbers: bool, links: bool
) -> SearchResponse:
    """``response`` with its answer citing only its sources, ``before`` being those it cited.

    The sanitiser's step (:func:`~websearch_core.sanitize.clean_response`): it keeps the
    first sources its cap allows, skipping a URL it refuses, and knows nothing of answers.
    Perplexity's capture with its third citation's URL carrying a user name
    (``https://user@www.california-demographics.com/...``) lost that source there, and
    ``[5]`` then named the source shown fifth, ``[7]`` none.

    Args:
        response: The response as the sanitiser left it.
        before: Its sources as the answer cited them (after the filters' checks).
        numbers: ``ProviderInfo.answer_numbers_sources``.
        links: ``ProviderInfo.answer_links_sources``.

    Returns:
        ``response`` itself when nothing it cited went, else with its answer rewritten.
    """
    answer = response.answer
    if not answer or not (numbers or links) or len(response.sources) >= len(before):
        return response
    kept = kept_places(before, response.sources)
    cited = cited_answer(answer, before, kept, numbers=numbers, links=links)
    return response if cited == answer else response.model_copy(update={"answer": cited})
