"""Checking results against the filters locally, for what the provider could not enforce.

Domains are read from each result's URL, so they can always be checked (and always are:
Brave answered ``site:github.com`` with builtin.com and wikipedia.org among github.com).
Dates are checked when a result carries one; ``inurl:`` and ``intitle:`` (and their
negations) on the URL and title. Phrases and excluded terms can only be looked for in the
title and snippet, the text we have; a result without a snippet is checked on
its title alone. A result that cannot be checked (no date, no snippet) is kept rather than
dropped on a guess, and the filter is reported as partly ignored. A URL that is a
provider's redirect (Gemini's grounding sources, :mod:`.redirects`) names neither the page's
host nor its path: its host is read where the provider names it, and what that cannot
judge is kept and reported the same way.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Final, TypeAlias
from urllib.parse import SplitResult, urlsplit

from ..domain_names import ascii_host
from ..models import FilterName, Recency, SearchCitation, SearchSource
from .merge import RequestedFilters
from .redirects import is_redirect, redirected_host

__all__ = [
    "DATE_FILTERS",
    "Dropped",
    "PostResult",
    "Unchecked",
    "drop_counts",
    "failed_checks",
    "kept_citations",
    "post_filter",
    "published_at",
]

DATE_FILTERS: Final[frozenset[FilterName]] = frozenset({"date_after", "date_before", "recency"})
_RECENCY_SPAN: Final[dict[Recency, timedelta]] = {
    "day": timedelta(days=1),
    "week": timedelta(days=7),
    "month": timedelta(days=31),
    "year": timedelta(days=366),
}
"""Generous spans (a month of 31 days): a provider's own rounding should not lose results."""
Dropped: TypeAlias = tuple[tuple[FilterName, int], ...]
"""Filters that dropped results, each with how many, in the order filters are listed."""
Unchecked: TypeAlias = FilterName | tuple[FilterName, str]
"""A filter some kept result could not be checked for: every value of it (its name), or
one value (``("include_domains", "weather.gov/forecast")``) where the others were."""
_ISO_DAY: Final = re.compile(r"^\s*(\d{4}-\d{2}-\d{2})")


@dataclass(frozen=True, slots=True)
class PostResult:
    """The results that passed, and which filters met results they could not check."""

    sources: tuple[SearchSource, ...]
    unchecked: frozenset[Unchecked]

    def checked_all(self, name: FilterName, value: str) -> bool:
        """Whether filter ``name``'s ``value`` was checked on every result kept."""
        return name not in self.unchecked and (name, value) not in self.unchecked


def published_at(source: SearchSource, now: datetime) -> datetime | None:
    """When ``source`` was published, from its age or an ISO date; ``None`` when unknown."""
    if source.age_seconds is not None:
        try:
            return now - timedelta(seconds=source.age_seconds)
        except OverflowError:  # 0001-01-01T00:00+14:00: an age past the calendar's edge
            return None
    if source.published_date:
        match = _ISO_DAY.match(source.published_date)
        if match is not None:
            try:
                return datetime.combine(date.fromisoformat(match[1]), datetime.min.time(), UTC)
            except ValueError:
                return None
    return None


def _host_in(host: str, domains: Iterable[str]) -> bool:
    return any(host == domain or host.endswith(f".{domain}") for domain in domains)


def _on_wanted_site(host: str, path: str, wanted: RequestedFilters) -> bool:
    """Whether a URL's ``host`` and ``path`` are on one of the sites asked for.

    A site typed with a path (``site:github.com/anthropics``) also wants the URL's path to
    start with it, case aside, as the reference's ``matchesSite`` (6.6).
    """
    with_path = {host for host, _ in wanted.site_paths}
    whole = [domain for domain in wanted.include_domains if domain not in with_path]
    if _host_in(host, whole):
        return True
    lowered = path.lower()
    return any(
        _host_in(host, (site,)) and lowered.startswith(prefix) for site, prefix in wanted.site_paths
    )


def _on_unwanted_site(host: str, path: str, wanted: RequestedFilters) -> bool:
    """Whether a URL is on a site excluded whole, or under a path excluded.

    ``-site:github.com/foo`` drops ``github.com/foo/x`` only, as reference 6.6 matches it.
    """
    if _host_in(host, wanted.exclude_domains):
        return True
    lowered = path.lower()
    return any(
        _host_in(host, (site,)) and lowered.startswith(prefix)
        for site, prefix in wanted.exclude_site_paths
    )


def _text(source: SearchSource) -> str:
    return " ".join(f"{source.title} {source.snippet or ''}".casefold().split())


def _contains_term(text: str, term: str) -> bool:
    pattern = rf"(?<!\w){re.escape(' '.join(term.casefold().split()))}(?!\w)"
    return re.search(pattern, text) is not None


def _passes_dates(
    published: datetime, wanted: RequestedFilters, checks: frozenset[FilterName], now: datetime
) -> bool:
    day = published.date()
    if "date_after" in checks and wanted.date_after and day < wanted.date_after:
        return False
    if "date_before" in checks and wanted.date_before and day > wanted.date_before:
        return False
    return not (
        "recency" in checks
        and wanted.recency is not None
        and published < now - _RECENCY_SPAN[wanted.recency]
    )


def _passes_words_in(
    source: SearchSource, wanted: RequestedFilters, checks: frozenset[FilterName]
) -> bool:
    """Whether ``source`` meets ``inurl:`` / ``intitle:`` and their negations.

    Each value is looked for case-insensitively in the URL or the title: every wanted one
    and no unwanted one, as the reference checks them.
    """
    url = source.url.casefold()
    title = source.title.casefold()
    return (
        ("in_url" not in checks or all(v.casefold() in url for v in wanted.in_url))
        and (
            "exclude_in_url" not in checks
            or not any(v.casefold() in url for v in wanted.exclude_in_url)
        )
        and ("in_title" not in checks or all(v.casefold() in title for v in wanted.in_title))
        and (
            "exclude_in_title" not in checks
            or not any(v.casefold() in title for v in wanted.exclude_in_title)
        )
    )


def _passes_file_types(path: str, wanted: RequestedFilters, checks: frozenset[FilterName]) -> bool:
    """Whether a URL's ``path`` ends in a wanted extension and in none kept out.

    The type a URL names is all a result tells of it (reference 6.6, ``filetypes`` and
    ``excludedFiletypes``): a PDF served from ``/r.PDF`` is a PDF, case aside.
    """
    path = path.casefold()
    wanted_types = (f".{extension}" for extension in wanted.filetype)
    if "filetype" in checks and wanted.filetype and not any(map(path.endswith, wanted_types)):
        return False
    return "exclude_filetype" not in checks or not any(
        path.endswith(f".{extension}") for extension in wanted.exclude_filetype
    )


def _passes(
    source: SearchSource,
    wanted: RequestedFilters,
    checks: frozenset[FilterName],
    unchecked: set[Unchecked],
) -> bool:
    parts = urlsplit(source.url)
    redirected = is_redirect(parts)
    if checks & _TITLE_CHECKS and (redirected or _titled_by_address(source, parts)):
        checks = _without_title_checks(wanted, checks, unchecked)
    if redirected:
        if not _passes_redirected(source, wanted, checks, unchecked):
            return False
        if not _passes_words_in(source, wanted, checks - _PATH_CHECKS):
            return False
    elif not _passes_url(parts, source, wanted, checks):
        return False
    if "phrase" in checks or "exclude_terms" in checks:
        text = _text(source)
        if "exclude_terms" in checks and any(
            _contains_term(text, term) for term in wanted.exclude_terms
        ):
            return False
        if not source.snippet:  # the title alone proves a term present, never absent
            unchecked.update(checks & {"phrase", "exclude_terms"})
        elif "phrase" in checks and not all(_contains_term(text, p) for p in wanted.phrase):
            return False
    return True


def _passes_url(
    parts: SplitResult,
    source: SearchSource,
    wanted: RequestedFilters,
    checks: frozenset[FilterName],
) -> bool:
    """The URL checks of a result whose URL is the page's own (``parts``, split)."""
    host = ascii_host((parts.hostname or "").removeprefix("www."))  # as the filter holds it
    if (
        "include_domains" in checks
        and wanted.include_domains
        and not _on_wanted_site(host, parts.path, wanted)
    ):
        return False
    if "exclude_domains" in checks and _on_unwanted_site(host, parts.path, wanted):
        return False
    return _passes_file_types(parts.path, wanted, checks) and _passes_words_in(
        source, wanted, checks
    )


_TITLE_CHECKS: Final[frozenset[FilterName]] = frozenset({"in_title", "exclude_in_title"})


def _titled_by_address(source: SearchSource, parts: SplitResult) -> bool:
    """Whether ``source``'s title is its own URL or host, standing in for a page title.

    Perplexity titles a source by its URL when it sends no ``search_results`` (both
    captures); Gemini titles every grounding source by its site's domain.
    """
    title = source.title.strip().lower()
    if title == source.url.lower():
        return True
    host = (parts.hostname or "").removeprefix("www.")
    return bool(host) and title.removeprefix("www.") == host


def _without_title_checks(
    wanted: RequestedFilters, checks: frozenset[FilterName], unchecked: set[Unchecked]
) -> frozenset[FilterName]:
    """``checks`` less ``intitle:`` and ``-intitle:``, for a result with no page title.

    A source titled by its own URL or host (Perplexity's, when it sends no
    ``search_results``; a provider's stand-in for a missing title) or by the site a
    redirect leads to (Gemini's ``weather.gov``) holds no words of the page's title:
    ``intitle:`` judged on it read the URL or the site's name, and dropped or kept the
    page on that. It is kept, and each such filter asked for is added to ``unchecked``.
    """
    unchecked.update(name for name in checks & _TITLE_CHECKS if getattr(wanted, name))
    return checks - _TITLE_CHECKS


_PATH_CHECKS: Final[frozenset[FilterName]] = frozenset(
    {"filetype", "exclude_filetype", "in_url", "exclude_in_url"}
)
"""The checks a page's URL answers beyond its host: none of them on a redirect's URL."""


def _passes_redirected(
    source: SearchSource,
    wanted: RequestedFilters,
    checks: frozenset[FilterName],
    unchecked: set[Unchecked],
) -> bool:
    """The URL checks of a result whose URL is a provider's redirect (:mod:`.redirects`).

    Only the host its provider named is known, in its ``domain`` or else its title
    (:func:`.redirects.redirected_host`), and only once a site is asked for: the page's
    path, and with it a file type, a path site or an ``inurl:`` word, is not. What cannot
    be judged keeps the result and is recorded as not checked on it, as a result with no
    date is: dropping it dropped an answer for a host never read.
    """
    unknown: set[Unchecked] = {
        name
        for name in checks & _PATH_CHECKS
        if getattr(wanted, name)  # each of these filters is a field of the same name
    }
    wants_site = "include_domains" in checks and bool(wanted.include_domains)
    shuns_site = "exclude_domains" in checks and bool(
        wanted.exclude_domains or wanted.exclude_site_paths
    )
    if wants_site or shuns_site:
        host = redirected_host(source.title, source.domain)
        if host is None:
            unknown.update(_site_filters(wants_site, shuns_site))
        elif not _passes_named_host(host, wanted, wants_site, shuns_site, unknown):
            return False
    unchecked.update(unknown)
    return True


def _site_filters(wanted: bool, shunned: bool) -> set[FilterName]:
    """``include_domains`` if a site is ``wanted``, ``exclude_domains`` if one is ``shunned``."""
    names: set[FilterName] = {"include_domains"} if wanted else set()
    return names | {"exclude_domains"} if shunned else names


def _passes_named_host(
    host: str,
    wanted: RequestedFilters,
    wants_site: bool,
    shuns_site: bool,
    unknown: set[Unchecked],
) -> bool:
    """Whether a redirect's named ``host`` is on a site wanted and on none kept out.

    A site asked with a path (``site:a.org/docs``) on the host named cannot be decided
    without the page's path: the result is kept and that value (the filter's other values
    were decided on the host) added to ``unknown``.
    """
    if wants_site:
        with_path = {site for site, _ in wanted.site_paths}
        whole = [domain for domain in wanted.include_domains if domain not in with_path]
        if not _host_in(host, whole):
            if not _host_in(host, with_path):
                return False
            unknown.update(_path_values("include_domains", host, wanted.site_paths))
    if shuns_site:
        if _host_in(host, wanted.exclude_domains):
            return False
        unknown.update(_path_values("exclude_domains", host, wanted.exclude_site_paths))
    return True


def _path_values(
    name: FilterName, host: str, site_paths: Iterable[tuple[str, str]]
) -> set[Unchecked]:
    """``(name, value)`` for each path site on ``host``, valued as the record lists it."""
    return {(name, f"{site}{path}") for site, path in site_paths if _host_in(host, (site,))}


def post_filter(
    sources: Sequence[SearchSource],
    wanted: RequestedFilters,
    checks: frozenset[FilterName],
    *,
    now: datetime | None = None,
) -> PostResult:
    """Keep the sources that pass every filter named in ``checks``.

    Args:
        sources: The provider's results, in its order (kept).
        wanted: The merged filters.
        checks: Which filters to check here.
        now: The reference time for ages and ``recency`` (default: the current UTC time).

    Returns:
        The passing sources, and the filters some kept source could not be checked for.
    """
    moment = now or datetime.now(UTC)
    asked = {
        "recency": wanted.recency is not None,
        "date_after": wanted.date_after is not None,
        "date_before": wanted.date_before is not None,
    }
    date_checks = frozenset(name for name in checks & DATE_FILTERS if asked[name])
    kept: list[SearchSource] = []
    unchecked: set[Unchecked] = set()
    for source in sources:
        maybe: set[Unchecked] = set()
        if not _passes(source, wanted, checks, maybe):
            continue
        if date_checks:
            published = published_at(source, moment)
            if published is None:
                maybe.update(date_checks)
            elif not _passes_dates(published, wanted, date_checks, moment):
                continue
        unchecked.update(maybe)
        kept.append(source)
    return PostResult(tuple(kept), frozenset(unchecked))


URL_CHECKS: Final[frozenset[FilterName]] = frozenset(
    {
        "include_domains",
        "exclude_domains",
        "filetype",
        "exclude_filetype",
        "in_url",
        "exclude_in_url",
    }
)
"""The checks a URL alone answers: all a citation is judged on (its text is a passage)."""


def kept_citations(
    citations: Sequence[SearchCitation],
    wanted: RequestedFilters,
    checks: frozenset[FilterName],
    sources: Sequence[SearchSource] = (),
) -> tuple[SearchCitation, ...]:
    """The ``citations`` whose URL passes the URL checks of ``checks``, in order.

    An answer engine's citations are listed in the answer the model reads, each with its
    URL: a PDF cited for ``-filetype:pdf``, or a page of a site kept out, stayed there after
    the same URL was dropped from the sources, under a record saying it was checked. A
    citation of one of ``sources`` (the provider's, before the checks) is judged with the
    ``domain`` that source was given, as the source itself was: a Gemini citation carries
    only the redirect and its title.

    Example:
        >>> from .merge import RequestedFilters
        >>> wanted = RequestedFilters(tokens=(), exclude_filetype=("pdf",))
        >>> cited = [SearchCitation(url="https://a.org/r.PDF"),
        ...          SearchCitation(url="https://a.org/x")]
        >>> [c.url for c in kept_citations(cited, wanted, frozenset({"exclude_filetype"}))]
        ['https://a.org/x']
    """
    url_checks = checks & URL_CHECKS
    if not url_checks or not citations:
        return tuple(citations)
    scratch: set[Unchecked] = set()
    domains = {source.url: source.domain for source in sources if source.domain}
    return tuple(
        citation
        for citation in citations
        if _passes(
            SearchSource(title=citation.title, url=citation.url, domain=domains.get(citation.url)),
            wanted,
            url_checks,
            scratch,
        )
    )


def drop_counts(
    sources: Sequence[SearchSource],
    wanted: RequestedFilters,
    checks: frozenset[FilterName],
    *,
    now: datetime | None = None,
) -> dict[FilterName, int]:
    """How many of ``sources`` each filter of ``checks`` drops, each judged on its own.

    When every result is dropped the error names the filters to loosen and how many
    results each dropped: a filter every result met (``site:github.com`` on github.com
    pages dropped for their dates) dropped nothing and is left out, since naming it sent
    the caller to loosen the wrong one; and of two filters named, the count says which
    one loosening would bring back most. Each filter is judged alone, so a source failing
    two counts for both (either alone would still drop it). A source that cannot be
    checked (no date, no snippet) is kept by the check, so it counts for none. Only the
    error path asks, so :func:`post_filter`'s one pass stays as it is.

    Args:
        sources: The results as found, before any check.
        wanted: The merged filters.
        checks: The filters checked here.
        now: The reference time for ages and ``recency`` (default: the current UTC time).

    Returns:
        Each filter that dropped some source, with how many; a filter dropping none is
        not a key.

    Example:
        >>> from .merge import RequestedFilters
        >>> wanted = RequestedFilters(tokens=(), include_domains=("github.com",),
        ...                           filetype=("pdf",))
        >>> drop_counts([SearchSource(title="t", url="https://github.com/a"),
        ...              SearchSource(title="t", url="https://gitlab.com/b")],
        ...             wanted, frozenset({"include_domains", "filetype"}))
        {'filetype': 2, 'include_domains': 1}
    """
    moment = now or datetime.now(UTC)
    counts: dict[FilterName, int] = {}
    scratch: set[Unchecked] = set()
    for name in sorted(checks):
        alone = frozenset({name})
        dropped = 0
        for source in sources:
            if name in DATE_FILTERS:
                published = published_at(source, moment)
                dropped += published is not None and not _passes_dates(
                    published, wanted, alone, moment
                )
            else:
                dropped += not _passes(source, wanted, alone, scratch)
        if dropped:
            counts[name] = dropped
    return counts


def failed_checks(
    sources: Sequence[SearchSource],
    wanted: RequestedFilters,
    checks: frozenset[FilterName],
    *,
    now: datetime | None = None,
) -> frozenset[FilterName]:
    """The filters of ``checks`` that some source fails, each judged on its own.

    :func:`drop_counts` without the counts.

    Example:
        >>> from .merge import RequestedFilters
        >>> wanted = RequestedFilters(tokens=(), include_domains=("github.com",),
        ...                           filetype=("pdf",))
        >>> sorted(failed_checks([SearchSource(title="t", url="https://github.com/a")],
        ...                      wanted, frozenset({"include_domains", "filetype"})))
        ['filetype']
    """
    return frozenset(drop_counts(sources, wanted, checks, now=now))
