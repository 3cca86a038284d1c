"""Per provider: what it is sent, what is checked here, and the record of both.

For each filter the best way available wins: an API parameter (``native``), the
provider's query syntax (``query``), a local check of the results (``post``), else
``ignored``. A directive the provider does not understand leaves the query text it is
sent, so ``after:2025-01-01`` never becomes two keywords.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Final

from ..language_tags import two_letter_tag
from ..models import (
    AppliedFilter,
    FilterName,
    FilterWay,
    Recency,
    SearchParams,
    SearchResponse,
    SearchSource,
)
from .cited import cited_answer, cited_citations
from .merge import RequestedFilters, requested_filters
from .post import Dropped, drop_counts, kept_citations, post_filter
from .query import Token, is_negated_filetype
from .render import QueryStyle, checked_only, render_query, sites_sent
from .support import ALL_FILTERS, FilterSupport

if TYPE_CHECKING:
    from ..providers.base import ProviderInfo

__all__ = [
    "OVERFETCH_FACTOR",
    "FilterPlan",
    "apply_plan",
    "engines_record",
    "locally_kept",
    "plan_filters",
    "unmatched_filters",
    "ways_for",
]

OVERFETCH_FACTOR: Final = 3
"""How many times the caller's count to ask for when only a local check applies a filter,
so the limit is still met after results are dropped (never past the provider's maximum)."""
ALWAYS_CHECKED: Final[frozenset[FilterName]] = frozenset({"include_domains", "exclude_domains"})
"""Checked locally even when applied upstream: a URL is exact, and engines do leak."""
UNCHECKABLE: Final[frozenset[FilterName]] = frozenset(
    {"language", "country", "in_text", "exclude_in_text"}
)
"""Nothing in a result tells its language or audience reliably, nor holds its whole text
(the reference never checks ``intext:`` either)."""
_APPLYING_WAYS: Final[tuple[FilterWay, ...]] = ("native", "query", "post")


@dataclass(frozen=True, slots=True)
class FilterPlan:
    """How one provider applies one search's filters."""

    wanted: RequestedFilters
    params: SearchParams
    """What the provider is sent: the rewritten query, merged fields, a larger count."""
    ways: Mapping[FilterName, tuple[FilterWay, ...]]
    checks: frozenset[FilterName]
    """The filters checked locally on the results."""
    result_cap: int | None
    """The caller's count when more was asked upstream; ``None`` leaves the cap alone."""
    checked_only: frozenset[tuple[FilterName, str]] = frozenset()
    """``(filter, value)`` sent as no operator or parameter, only checked here (a site
    with a path sent to an HTML engine as a word): recorded as ``post`` alone."""
    numbered_answer: bool = False
    """The provider's answer numbers its sources with ``[n]`` markers, renumbered here
    when a check drops a source (``ProviderInfo.answer_numbers_sources``)."""
    linked_answer: bool = False
    """The provider's answer links its sources' pages, a dropped source's link taken out
    here (``ProviderInfo.answer_links_sources``)."""


def ways_for(
    name: FilterName,
    support: FilterSupport,
    recency: Recency | None = None,
    *,
    carried: bool = True,
) -> tuple[FilterWay, ...]:
    """How a provider with ``support`` applies filter ``name`` (before any result is seen).

    Args:
        name: The filter.
        support: The provider's declaration.
        recency: The recency asked for, when there is one (a parameter may lack a value).
        carried: False when this search's value does not fit the native parameter (more
            domains than it takes, or both domain lists where it takes one): the filter is
            then applied as if there were no parameter, in the query text when the provider
            reads it there (``query_fallback``), else by the local check.

    Examples:
        >>> ways_for("include_domains", FilterSupport(query=frozenset({"include_domains"})))
        ('query', 'post')
        >>> ways_for("filetype", FilterSupport(query=frozenset({"filetype"}),
        ...     unpromised=frozenset({"filetype"})))  # sent, and checked: not in its docs
        ('query', 'post')
        >>> ways_for("language", FilterSupport())
        ('ignored',)
        >>> ways_for("recency", FilterSupport.language_model())  # an answer engine
        ('ignored',)
    """
    if name == "alternatives":
        # Sent as ``(a OR b)`` or flat as ``a b``; no check here tells which word a page
        # was found for, so a group sent flat is not applied, and the answer says so.
        return ("query",) if support.groups_alternatives() else ("ignored",)
    way = support.way(name)
    if name == "recency" and recency is not None and recency not in support.recency:
        way = None  # the provider's parameter lacks this value (Yahoo has no year)
    if way == "native" and not carried:
        way = "query" if name in support.query_fallback else None
    checkable = name not in UNCHECKABLE and support.checks(name)
    if way is not None:
        verified = name in ALWAYS_CHECKED or (way == "query" and name in support.unpromised)
        return (way, "post") if verified and checkable else (way,)
    return ("post",) if checkable else ("ignored",)


def _language_sent(language: str | None, support: FilterSupport) -> str | None:
    """The language the provider's parameter is sent for ``language``, or ``None``.

    Any tag as it is, unless the parameter takes two-letter codes only
    (``FilterSupport.two_letter_language``): then ``deu`` goes as ``de``, and ``haw``,
    with no two-letter code, does not go (recorded ignored).
    """
    if not language or not support.two_letter_language:
        return language
    return two_letter_tag(language)


def _locale_sent(wanted: RequestedFilters, support: FilterSupport) -> tuple[str | None, str | None]:
    """The ``(language, country)`` the provider is sent; ``None`` for what it cannot carry.

    What its parameters cannot carry is recorded ignored, not ``native``.

    The country is asked first, with the language: a pair its parameter lacks (DuckDuckGo
    has no ``ke-de``) keeps the language rather than losing both to the default region.
    """
    language = _language_sent(wanted.language, support)
    country = wanted.country
    if country and not _listed(country, support.countries):
        country = None
    if country and support.carries_country and not support.carries_country(language, country):
        country = None
    if language and support.carries_language and not support.carries_language(language, country):
        language = None
    return language, country


def _listed(country: str, documented: frozenset[str] | None) -> bool:
    """Whether ``country`` is on a provider's documented list (pure).

    ``None`` (no documented list) takes any code.

    Examples:
        >>> _listed("GR", frozenset({"gr", "us"})), _listed("KE", frozenset({"us"}))
        (True, False)
        >>> _listed("KE", None)
        True
    """
    return documented is None or country.lower() in documented


def _ways(
    wanted: RequestedFilters, support: FilterSupport, locale: tuple[str | None, str | None]
) -> dict[FilterName, tuple[FilterWay, ...]]:
    sent = support.sent_domains(wanted.include_domains, wanted.exclude_domains)
    domains: set[FilterName] = {"include_domains", "exclude_domains"}
    unsent = domains - sent
    language, country = locale
    if wanted.language and language is None:
        unsent.add("language")
    if wanted.country and country is None:
        unsent.add("country")
    return {
        name: ways_for(name, support, wanted.recency, carried=name not in unsent)
        for name, _ in wanted.entries()
    }


_MAY_HOLD_DIRECTIVE: Final = re.compile(r'[:"\u201c\u201d]|(?:^|\s)[-+!|&]|\b(?:OR|AND|NOT)\b')
"""What every directive and operator contains; a query without any skips the tokenizer
(most queries)."""
_DIRECTIVE_CHARACTERS: Final = frozenset(':"\u201c\u201d-+!|&')
"""Every character :data:`_MAY_HOLD_DIRECTIVE` can match on but its three words: a query
holding none of them and none of the words cannot match it (:func:`_may_hold_directive`)."""


def _may_hold_directive(query: str) -> bool:
    """Whether ``query`` may hold a directive or operator: :data:`_MAY_HOLD_DIRECTIVE`'s test.

    Asked of every search's query. Most hold none of the characters any match needs, nor
    ``OR``, ``AND`` or ``NOT``: a set test and three substring tests answer them for a fifth
    of the pattern's search (0.9 against 4.5 us at load 10); the others are searched.
    """
    if (
        _DIRECTIVE_CHARACTERS.isdisjoint(query)
        and "OR" not in query
        and "AND" not in query
        and "NOT" not in query
    ):
        return False
    return _MAY_HOLD_DIRECTIVE.search(query) is not None


def _rewritten(token: Token) -> bool:
    """Whether ``token`` goes out other than typed, though it asks for no filter.

    An ``OR`` or ``AND``, or a word a ``NOT`` / ``!`` was read into (``-filetype:pdf``).
    """
    return token.kind in ("or", "and") or (token.kind == "text" and is_negated_filetype(token))


_NOTHING_WANTED: Final = RequestedFilters(tokens=())
"""What a search without directives or filter fields asks for (frozen, so shared)."""
_NO_CHECKS: Final[frozenset[FilterName]] = frozenset()
"""A plan's ``checks`` when nothing is checked: shared, as each ``frozenset()`` is a new
object (no empty singleton since Python 3.10) the plan would hold through the request."""


def _has_filter_fields(params: SearchParams) -> bool:
    return bool(
        params.include_domains
        or params.exclude_domains
        or params.date_after
        or params.date_before
        or params.recency
        or params.language
        or params.country
    )


def plan_filters(
    params: SearchParams, info: "ProviderInfo", support: FilterSupport | None = None
) -> FilterPlan:
    """Decide how ``info``'s provider applies the filters ``params`` asks for.

    Args:
        params: The caller's search; its query may hold directives.
        info: The provider's facts: ``filters`` (its declared support) and ``honours``.
        support: The support of the mode this search runs in, when the provider has
            modes (``SearchProvider.filter_support``); default: ``info.filters``.

    Returns:
        The plan; with no filters asked, its ``params`` is ``params`` itself.
    """
    if not _may_hold_directive(params.query) and not _has_filter_fields(params):
        return FilterPlan(_NOTHING_WANTED, params, {}, _NO_CHECKS, None)
    wanted = requested_filters(params)
    if not wanted and not any(_rewritten(token) for token in wanted.tokens):
        return FilterPlan(wanted, params, {}, _NO_CHECKS, None)
    # An OR or AND alone asks for no filter, yet is written per provider: OR as a group,
    # or flat; AND never (every word is wanted anyway, and an API would look for "AND").
    # So is a ``NOT filetype:pdf``: sent as typed, an engine reads ``filetype:pdf``.
    chosen = info.filters if support is None else support
    language, country = _locale_sent(wanted, chosen)
    ways = _ways(wanted, chosen, (language, country))
    checks = frozenset(name for name, applied in ways.items() if "post" in applied)
    # A native field whose value the parameter cannot carry is written into the text.
    style = QueryStyle(ways, info.written_by_itself, chosen.demoted, chosen.groups_alternatives())
    update: dict[str, object] = {
        "query": render_query(wanted, style) or params.query,
        "include_domains": sites_sent(wanted, chosen.demoted),
        "exclude_domains": wanted.exclude_domains,
        "date_after": wanted.date_after,
        "date_before": wanted.date_before,
        # A ``lang:`` directive's, when none was passed; in two letters where the
        # parameter takes only those, none where it has none (recorded ignored).
        "language": language,
        "country": country,
    }
    result_cap: int | None = None
    post_only = any(applied == ("post",) for applied in ways.values())
    wanted_count = params.result_count or info.default_results
    if post_only and wanted_count and info.max_results:
        asked = min(info.max_results, wanted_count * OVERFETCH_FACTOR)
        if asked > wanted_count:
            update["num_search_results"] = asked
            result_cap = wanted_count
    # model_copy does not validate: every value came from a validated field or the parser.
    return FilterPlan(
        wanted,
        params.model_copy(update=update),
        ways,
        checks,
        result_cap,
        checked_only(wanted, style)
        if wanted.site_paths or wanted.exclude_site_paths
        else frozenset(),
        info.answer_numbers_sources,
        info.answer_links_sources,
    )


def apply_plan(
    plan: FilterPlan, response: SearchResponse, *, now: datetime | None = None
) -> SearchResponse:
    """``response`` with its sources checked locally and the filters' record attached.

    When every source fails the checks, everything the provider made of them goes too.
    """
    if not plan.ways:
        return response
    checked = post_filter(response.sources, plan.wanted, plan.checks, now=now)
    # What the provider itself recorded: a filter it had to drop (Brave's 422 on a language
    # it does not take) is ignored, whatever the plan meant to do with it upstream; one
    # that only part of its results met (an aggregate's engine that ignored it) is partly so.
    # Each value as recorded (an aggregate's engines record ``site:a.org`` and ``site:b.org``
    # apart), else the filter's last record (a provider's own holds the value it sent,
    # Brave's ``de`` for a ``deu`` asked).
    upstream: dict[FilterName | tuple[FilterName, str], AppliedFilter]
    upstream = {f.name: f for f in response.filters}
    upstream.update({(f.name, f.value): f for f in response.filters})

    def ways(name: FilterName, value: str) -> tuple[FilterWay, ...]:
        found = upstream.get((name, value)) or upstream.get(name)
        recorded = found.applied if found is not None else ()
        if recorded == ("ignored",):
            return ("ignored",)
        planned = ("post",) if (name, value) in plan.checked_only else plan.ways[name]
        if any(way != "ignored" for way in recorded):
            # An aggregate's engines applied it their own ways (Bing in its query, Mojeek
            # by its check): those are what happened, with the aggregate's own check.
            own = ("post",) if name in plan.checks else ()
            planned = tuple(w for w in _APPLYING_WAYS if w in recorded or w in own)
        unchecked = not checked.checked_all(name, value)
        if ("ignored" in recorded or unchecked) and "ignored" not in planned:
            return (*planned, "ignored")
        return planned

    def entry(name: FilterName, value: str) -> AppliedFilter:
        applied = ways(name, value)
        partly = len(applied) > 1 and "ignored" in applied
        # The engines of an aggregate that ignored it outright, named in the note.
        found = upstream.get((name, value)) or upstream.get(name)
        by = found.unapplied_by if partly and found is not None else ()
        return AppliedFilter(name=name, value=value, applied=applied, unapplied_by=by)

    record = (
        *(entry(name, value) for name, value in plan.wanted.entries()),
        # A ``lang:`` that gave way to the language used: asked for, and not applied.
        *(
            AppliedFilter(name="language", value=tag, applied=("ignored",))
            for tag in plan.wanted.dropped_languages
        ),
    )
    # A citation is a URL the answer names: checked as the sources are, on its URL.
    citations = kept_citations(response.citations, plan.wanted, plan.checks, response.sources)
    update: dict[str, object] = {"sources": checked.sources, "filters": record}
    cites = plan.numbered_answer or plan.linked_answer
    if cites and len(checked.sources) < len(response.sources):
        places = _kept_at(response.sources, checked.sources)
        if response.answer:
            update["answer"] = cited_answer(
                response.answer,
                response.sources,
                places,
                numbers=plan.numbered_answer,
                links=plan.linked_answer,
            )
        # The answer's marks of a source dropped went: its citation goes with them, though
        # a check of no URL (a date's) dropped it.
        citations = cited_citations(citations, response.sources, places)
    update["citations"] = citations
    if response.sources and not checked.sources:
        # What the engine made of the pages just dropped (an answer engine's text, Tavily's
        # answer, Kagi's summary, their citations, the follow-up questions and searches)
        # would pass, kept alone, for an answer from the domains or dates asked for. With
        # it gone the attempt ends as "no results matching the filters" and the chain goes
        # on to a provider that keeps to them.
        update.update(answer=None, citations=(), related_questions=(), search_queries=())
        update.update(related_questions_left_out=0, search_queries_left_out=0)
    return response.model_copy(update=update)


def _kept_at(before: Sequence[SearchSource], kept: Sequence[SearchSource]) -> set[int]:
    """The 1-based places in ``before`` of the ``kept`` sources (:func:`~.cited.cited_answer`).

    ``kept`` are the very objects of ``before`` that passed, so their places are found by
    identity, a URL given twice included.
    """
    passed = {id(source) for source in kept}
    return {n for n, source in enumerate(before, start=1) if id(source) in passed}


def unmatched_filters(
    plan: FilterPlan, found: Sequence[SearchSource], *, now: datetime | None = None
) -> Dropped:
    """The filters ``plan`` checks locally that dropped some of ``found``, and how many.

    What an error names when every result found was dropped: only the filters that
    dropped something (:func:`~.post.drop_counts`, each judged alone), in the order
    filters are listed (:data:`~.support.ALL_FILTERS`), each with the number of results
    it dropped. Naming every filter checked told a caller whose results were all on
    ``site:github.com`` to loosen the site as well as the date; the counts say which of
    two filters named dropped most.

    Args:
        plan: The provider's plan for this search.
        found: The results as the provider returned them, before the checks.
        now: The reference time for ages and ``recency`` (default: the current UTC time).
    """
    counts = drop_counts(found, plan.wanted, plan.checks, now=now)
    return tuple((name, counts[name]) for name in ALL_FILTERS if name in counts)


def locally_kept(
    params: SearchParams, info: "ProviderInfo", sources: Sequence[SearchSource]
) -> tuple[tuple[SearchSource, ...], Dropped]:
    """What of ``sources`` survives the local checks ``info``'s provider makes, and why not.

    An aggregate judges by it, before its own answer is checked, whether its engines
    found anything it will keep: Public Web checks the merged results for the filters it
    applies itself, and results an engine passed on unchecked may all fail there.

    Args:
        params: The search as the provider is sent it (its plan's ``params``).
        info: The provider's facts.
        sources: The results to judge.

    Returns:
        The sources kept, in order, and, when none is kept, the filters that dropped them
        with how many each (:func:`unmatched_filters`; empty otherwise, and when nothing
        was checked).
    """
    plan = plan_filters(params, info)
    if not plan.checks or not sources:
        return tuple(sources), ()
    kept = post_filter(sources, plan.wanted, plan.checks).sources
    return kept, () if kept else unmatched_filters(plan, sources)


def engines_record(
    records: Sequence[tuple[str, Sequence[AppliedFilter]]],
) -> tuple[AppliedFilter, ...]:
    """One record for results merged from several engines' answers (the Public Web fan-out).

    A filter every engine ignored is ignored; one that some engine ignored, or applied
    with results it could not check, holds only for part of the merge: its record is
    every way the engines used, then ``ignored`` (:func:`apply_plan` reads it as partly
    applied), and ``unapplied_by`` names the engines that ignored it outright. A filter
    every engine applied is recorded with the ways they used: the aggregate's plan says
    only that it passed the filter on, so it claimed ``filetype: query`` where Mojeek's
    share was checked here (``query``, ``post``). Without this the aggregate would claim
    its own plan (``language: native``) for results from engines that never saw the
    filter, and the model could not tell which.

    Args:
        records: Each contributing engine's id and ``SearchResponse.filters``.

    Example:
        >>> record = engines_record([
        ...     ("google", (AppliedFilter(name="language", value="af", applied=("native",)),)),
        ...     ("duckduckgo", (AppliedFilter(name="language", value="af",
        ...         applied=("ignored",)),)),
        ... ])[0]
        >>> record.applied, record.unapplied_by
        (('native', 'ignored'), ('duckduckgo',))
    """
    merged: dict[tuple[FilterName, str], list[tuple[str, tuple[FilterWay, ...]]]] = {}
    for engine, record in records:
        for item in record:
            # Each value apart: merged by name, ``site:a.org site:b.org`` came out as one
            # record of ``a.org`` holding both values' ways, which the aggregate's record
            # then lent to every value of the filter.
            merged.setdefault((item.name, item.value), []).append((engine, item.applied))
    result = []
    for (name, value), applied in merged.items():
        used = {way for _, ways in applied for way in ways}
        if "ignored" not in used:
            ways = tuple(way for way in _APPLYING_WAYS if way in used)
            result.append(AppliedFilter(name=name, value=value, applied=ways))
            continue
        partly: tuple[FilterWay, ...] = ()
        unapplied: tuple[str, ...] = ()
        if len(applied) < len(records) or used != {"ignored"}:
            partly = tuple(way for way in _APPLYING_WAYS if way in used)
            unapplied = tuple(engine for engine, ways in applied if ways == ("ignored",))
        result.append(
            AppliedFilter(
                name=name, value=value, applied=(*partly, "ignored"), unapplied_by=unapplied
            )
        )
    return tuple(result)
