"""One set of filters from the query's directives and the caller's parameters.

A program may pass ``include_domains`` while the model writes ``site:`` in the same query;
both are the caller's wish, so both count: domains, phrases and terms are joined, and
of two date bounds the narrower wins. A search has one language: a ``language`` passed
wins over a ``lang:`` typed in the query (the program's setting is deliberate, the model's
directive a guess), and of several ``lang:`` the first typed counts; the others are kept
(:attr:`RequestedFilters.dropped_languages`) so the model is told they were not applied.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from ..models import FilterName, Recency, SearchParams
from .groups import or_groups
from .query import Token, TokenKind, date_bounds, tokenize

__all__ = ["RequestedFilters", "requested_filters"]


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


@dataclass(frozen=True, slots=True)
class RequestedFilters:
    """Every filter one search asked for, wherever it was written."""

    tokens: tuple[Token, ...]
    include_domains: tuple[str, ...] = ()
    exclude_domains: tuple[str, ...] = ()
    date_after: date | None = None
    date_before: date | None = None
    recency: Recency | None = None
    language: str | None = None
    country: str | None = None
    phrase: tuple[str, ...] = ()
    exclude_terms: tuple[str, ...] = ()
    alternatives: tuple[str, ...] = ()
    """Each ``OR`` group of words (``a OR b``): sent as one where ``OR`` is read, else
    recorded ignored, as its members go flat (``a b``) and no check here can restore it."""
    filetype: tuple[str, ...] = ()
    exclude_filetype: tuple[str, ...] = ()
    """Each file type kept out (``-filetype:pdf``, ``NOT filetype:pdf``)."""
    in_url: tuple[str, ...] = ()
    exclude_in_url: tuple[str, ...] = ()
    in_title: tuple[str, ...] = ()
    exclude_in_title: tuple[str, ...] = ()
    in_text: tuple[str, ...] = ()
    exclude_in_text: tuple[str, ...] = ()
    site_paths: tuple[tuple[str, str], ...] = ()
    """``(host, path)`` for each site typed with a path (``site:github.com/anthropics``)
    whose host is not also wanted whole: a local check of that host wants the path too."""
    dropped_languages: tuple[str, ...] = ()
    """Each ``lang:`` typed that gave way to :attr:`language` (a ``language`` passed, or
    the first ``lang:``): not a filter applied, so no entry, but recorded as ignored."""
    exclude_site_paths: tuple[tuple[str, str], ...] = ()
    """``(host, path)`` for each ``-site:`` typed with a path (``-site:github.com/foo``)
    whose host is not also excluded whole: only the URLs under the path are unwanted, so
    the host stays out of ``exclude_domains``, the list a native parameter is sent."""

    def entries(self) -> tuple[tuple[FilterName, str], ...]:
        """``(name, value)`` for each filter asked for, one entry per domain, phrase, term.

        A site typed with a path is one entry with its path (``github.com/anthropics``),
        as asked, rather than its host.
        """
        found: list[tuple[FilterName, str]] = []
        if self.site_paths:
            paths: dict[str, list[str]] = {}
            for host, path in self.site_paths:
                paths.setdefault(host, []).append(f"{host}{path}")
            for domain in self.include_domains:
                found.extend(("include_domains", value) for value in paths.get(domain, [domain]))
        else:
            found.extend(("include_domains", domain) for domain in self.include_domains)
        found.extend(("exclude_domains", domain) for domain in self.exclude_domains)
        found.extend(("exclude_domains", f"{h}{p}") for h, p in self.exclude_site_paths)
        if self.date_after is not None:
            found.append(("date_after", self.date_after.isoformat()))
        if self.date_before is not None:
            found.append(("date_before", self.date_before.isoformat()))
        if self.recency is not None:
            found.append(("recency", self.recency))
        if self.language is not None:
            found.append(("language", self.language))
        if self.country is not None:
            found.append(("country", self.country))
        found.extend(("phrase", phrase) for phrase in self.phrase)
        found.extend(("exclude_terms", term) for term in self.exclude_terms)
        found.extend(("alternatives", group) for group in self.alternatives)
        found.extend(("filetype", extension) for extension in self.filetype)
        found.extend(("exclude_filetype", extension) for extension in self.exclude_filetype)
        found.extend(("in_url", words) for words in self.in_url)
        found.extend(("exclude_in_url", words) for words in self.exclude_in_url)
        found.extend(("in_title", words) for words in self.in_title)
        found.extend(("exclude_in_title", words) for words in self.exclude_in_title)
        found.extend(("in_text", words) for words in self.in_text)
        found.extend(("exclude_in_text", words) for words in self.exclude_in_text)
        return tuple(found)

    def __bool__(self) -> bool:
        return bool(self.entries())


def requested_filters(params: SearchParams) -> RequestedFilters:
    """Merge the directives in ``params.query`` with ``params``' filter fields.

    Examples:
        >>> merged = requested_filters(
        ...     SearchParams(query="site:github.com laravel", include_domains=("php.net",))
        ... )
        >>> merged.include_domains
        ('php.net', 'github.com')
    """
    tokens = tokenize(params.query)

    def typed(kind: TokenKind) -> list[str]:
        return [token.value for token in tokens if token.kind == kind]

    date_after, date_before = date_bounds(tokens, params.date_after, params.date_before)
    language = params.language or next(iter(typed("lang")), None)
    sites = [token for token in tokens if token.kind == "site"]
    whole = {*params.include_domains, *(site.value for site in sites if not site.path)}
    unwanted = [token for token in tokens if token.kind == "exclude_site"]
    unwanted_whole = (*params.exclude_domains, *(t.value for t in unwanted if not t.path))
    return RequestedFilters(
        tokens=tokens,
        include_domains=_unique((*params.include_domains, *typed("site"))),
        site_paths=tuple(
            dict.fromkeys((s.value, s.path) for s in sites if s.path and s.value not in whole)
        ),
        exclude_domains=_unique(unwanted_whole),
        exclude_site_paths=tuple(
            dict.fromkeys(
                (t.value, t.path) for t in unwanted if t.path and t.value not in unwanted_whole
            )
        ),
        date_after=date_after,
        date_before=date_before,
        recency=params.recency,
        language=language,
        dropped_languages=_unique(tag for tag in typed("lang") if tag != language),
        country=params.country,
        phrase=_unique(typed("phrase")),
        exclude_terms=_unique(typed("exclude_term")),
        alternatives=or_groups(tokens),
        filetype=_unique(typed("filetype")),
        exclude_filetype=_unique(typed("exclude_filetype")),
        in_url=_unique(typed("in_url")),
        exclude_in_url=_unique(typed("exclude_in_url")),
        in_title=_unique(typed("in_title")),
        exclude_in_title=_unique(typed("exclude_in_title")),
        in_text=_unique(typed("in_text")),
        exclude_in_text=_unique(typed("exclude_in_text")),
    )
