"""An answer made to cite only the sources a response still holds, however they went.

Sources leave a response in three places after the provider wrote its answer: a filter's
check (:func:`~.plan.apply_plan`), a parser's ``limit`` cut (Perplexity's, OpenAI's), and
the sanitiser's (:func:`~websearch_core.sanitize.clean_response`: past the caller's count,
past 100, or a URL it refuses). An answer that cites its sources, by number
(:mod:`.markers`) or by link (:mod:`.links`), must follow each: a marker left as written
named the source now in its place, a link pointed at a page no longer shown. This is the one
function every such place calls, told by the provider how its answer cites.

Such an answer's ``citations`` are the same pages listed (Codex's ``url_citation``, one per
link; Perplexity's ``citations``, one per source): a ``limit`` cut the sources and the
answer's marks of them, and left the list naming every page, so ``limit=1`` showed one
source beside three citations (Codex's gpt-4o-mini capture) or seven (Perplexity's). They
go with the answer's marks (:func:`cited_citations`). An answer engine that cites in
blocks without marking its text (Anthropic, xAI) keeps its list: there it is the only
word of where a sentence came from.
"""

from collections.abc import Collection, Sequence

from ..models import SearchCitation, SearchResponse, SearchSource
from .links import page_key, unlinked
from .markers import renumbered

__all__ = ["cited_answer", "cited_citations", "first_cited", "kept_places", "shown_cited"]


def cited_answer(
    answer: str,
    before: Sequence[SearchSource],
    kept: Collection[int],
    *,
    numbers: bool,
    links: bool,
) -> str | None:
    """``answer`` citing, of the sources ``before``, only those at the places ``kept``.

    ``None`` when nothing is left of it: OpenRouter's route to Perplexity answered with one
    page's URL alone, and a filter that cut that page left an empty string, which no
    caller reads as no answer.

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
    return answer if answer.strip() else None


def cited_citations(
    citations: Sequence[SearchCitation], before: Sequence[SearchSource], kept: Collection[int]
) -> tuple[SearchCitation, ...]:
    """The ``citations`` not naming a page of the sources ``before`` dropped (pure).

    A citation of a page one of the ``kept`` sources is on stays, as does one of a page
    that was never a source (none of a cut's business), as :func:`~.links.unlinked` keeps
    such links.

    Args:
        citations: The answer's citations, in order.
        before: The sources as the answer cited them, in order.
        kept: The 1-based places in ``before`` of the sources still shown.

    Example:
        >>> pages = [SearchSource(title=t, url=f"https://{t}.org/") for t in "ab"]
        >>> cited = [SearchCitation(url="https://a.org/?utm_source=openai"),
        ...          SearchCitation(url="https://b.org/#x"), SearchCitation(url="https://c.org/")]
        >>> [c.url for c in cited_citations(cited, pages, {2})]
        ['https://b.org/#x', 'https://c.org/']
    """
    shown = {page_key(source.url) for n, source in enumerate(before, start=1) if n in kept}
    gone = {page_key(source.url) for source in before} - shown
    if not gone or not citations:
        return tuple(citations)
    return tuple(citation for citation in citations if page_key(citation.url) not in gone)


def first_cited(
    answer: str | None,
    citations: Sequence[SearchCitation],
    sources: Sequence[SearchSource],
    count: int | None,
    *,
    numbers: bool,
    links: bool,
) -> tuple[str | None, tuple[SearchCitation, ...]]:
    """The answer and citations a parser's ``limit`` leaves, showing the first ``count``.

    Codex's and Perplexity's parsers cut their sources to the caller's ``limit`` (or
    ``num_search_results``); the answer's marks of those cut and their citations go with
    them (:func:`cited_answer`, :func:`cited_citations`).

    Args:
        answer: The answer as the provider wrote it (``None``: none).
        citations: Its citations.
        sources: Every source the answer cited, in order.
        count: How many of them are shown (``None`` or 0: no cut).
        numbers: ``ProviderInfo.answer_numbers_sources``.
        links: ``ProviderInfo.answer_links_sources``.

    Example:
        >>> pages = [SearchSource(title=t, url=f"https://{t}.org/") for t in "ab"]
        >>> first_cited("A.[1] B.[2]", [SearchCitation(url=p.url) for p in pages], pages, 1,
        ...             numbers=True, links=False)
        ('A.[1] B.', (SearchCitation(url='https://a.org/', title='', cited_text=None),))
    """
    if not count or count >= len(sources):
        return answer, tuple(citations)
    shown = range(1, count + 1)
    if answer and (numbers or links):
        answer = cited_answer(answer, sources, shown, numbers=numbers, links=links)
    return answer, cited_citations(citations, sources, shown)


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
        Its citations are the sanitiser's to cut: it drops a refused URL's citation as
        it drops the source, and keeps 100 as it keeps 100 sources (a caller's smaller
        count the parsers that cite have cut already, :func:`first_cited`).
    """
    answer = response.answer
    if not answer or not (numbers or links) or len(response.sources) >= len(before):
        return response
    kept = kept_places(before, response.sources)
    cited = cited_answer(answer, before, kept, numbers=numbers, links=links)
    return response if cited == answer else response.model_copy(update={"answer": cited})
