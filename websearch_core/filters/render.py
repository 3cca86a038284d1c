"""The query text one provider is sent, written the way the behaviour reference writes it.

The reference (``formatQuery``, section 6.3) writes the words first, in the order typed,
then the directives the provider reads, always in one order: sites, ``inurl:``,
``intitle:``, ``intext:``, file types, then the dates. An ``OR`` group goes as
``(a OR b)`` to a provider that reads ``OR``, and as its members, listed flat, to one
that does not (a search API would look for the word "OR"). Several sites or file types
are one group too, since a page has one site and one type (see :func:`_any_of`). What
the provider reads neither way leaves the text; a phrase keeps its words, and a directive
an HTML engine is sent as a word (``FilterSupport.demoted``) keeps its value, as does a
site with a path there (6.4: ``site:github.com/anthropics`` is the word
``github.com/anthropics``, since an engine's ``site:`` takes a host).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from ..models import FilterName, FilterWay
from .groups import TERMS, beside_directive, grouped
from .merge import RequestedFilters
from .query import Token

__all__ = ["QueryStyle", "checked_only", "render_query", "site_operators", "sites_sent"]

_OPERATORS: Final[Mapping[FilterName, str]] = {
    "in_url": "inurl:",
    "exclude_in_url": "-inurl:",
    "in_title": "intitle:",
    "exclude_in_title": "-intitle:",
    "in_text": "intext:",
    "exclude_in_text": "-intext:",
}
"""The words-in filters in the reference's order, each with the operator it is sent as."""


@dataclass(frozen=True, slots=True)
class QueryStyle:
    """What one provider reads in its query text, for :func:`render_query`."""

    ways: Mapping[FilterName, tuple[FilterWay, ...]]
    """How it applies each filter asked for; ``query`` means it reads it in the text."""
    self_written: frozenset[str] = frozenset()
    """Fields it writes into its own syntax (Google's ``site:``): not written here."""
    demoted: frozenset[FilterName] = frozenset()
    """Filters whose values it is sent as plain words (an HTML engine's ``inurl:``)."""
    reads_or: bool = True
    """Whether ``OR`` groups alternatives for it (the reference's ``or`` flag;
    ``FilterSupport.groups_alternatives``)."""

    def reads(self, name: FilterName) -> bool:
        """Whether the filter ``name`` goes out in the text (and is not self-written)."""
        return "query" in self.ways.get(name, ()) and name not in self.self_written


def _demotes_path_sites(demoted: frozenset[FilterName]) -> bool:
    """Whether an engine is sent a site with a path as a word.

    These are the reference's HTML engines and SearXNG (``formatScraperQuery``, 6.4), the
    same that are sent a wanted ``inurl:`` as a word.
    """
    return "in_url" in demoted


def _words_only(wanted: RequestedFilters, demoted: frozenset[FilterName]) -> frozenset[str]:
    """The hosts of path sites an engine gets only as words, with no ``site:`` (pure).

    An engine that demotes a site with a path (:func:`_demotes_path_sites`) is sent it as a
    word, as reference 6.4 does, while no other site goes as ``site:``. Beside a site on
    another host it gets the host in the ``site:`` group too: ``site:a.org/x OR
    site:b.org`` sent as ``a.org/x site:b.org`` asked the engine for b.org alone, so the
    pages under a.org/x never came and the search was narrowed to one of the two sites.

    Examples:
        >>> from websearch_core.models import SearchParams
        >>> from .merge import requested_filters
        >>> def held(query: str) -> list[str]:
        ...     wanted = requested_filters(SearchParams(query=query))
        ...     return sorted(_words_only(wanted, frozenset({"in_url"})))
        >>> held("rust site:a.org/x"), held("rust site:a.org/x OR site:b.org")
        (['a.org'], [])
    """
    if not wanted.site_paths or not _demotes_path_sites(demoted):
        return frozenset()
    with_path = frozenset(host for host, _ in wanted.site_paths)
    if any(domain not in with_path for domain in wanted.include_domains):
        return frozenset()
    return with_path


def sites_sent(wanted: RequestedFilters, demoted: frozenset[FilterName]) -> tuple[str, ...]:
    """The hosts sent as ``site:`` (or as the provider's domain field).

    Every host, the path being checked on the results, but those of the path sites an
    engine gets as words alone (:func:`_words_only`).
    """
    held = _words_only(wanted, demoted)
    if not held:
        return wanted.include_domains
    return tuple(domain for domain in wanted.include_domains if domain not in held)


def checked_only(wanted: RequestedFilters, style: QueryStyle) -> frozenset[tuple[FilterName, str]]:
    """The site values with a path that ``style``'s provider gets no operator or field for.

    Values as :meth:`RequestedFilters.entries` lists them; only the check here applies
    them.

    A path site an HTML engine gets as a word alone (:func:`_words_only`), as its
    ``inurl:`` is; a path ``-site:`` where the text holds no ``-site:`` (a native list takes
    hosts, and a host there would drop the whole site).
    """
    values: set[tuple[FilterName, str]] = set()
    held = _words_only(wanted, style.demoted)
    values.update(("include_domains", f"{h}{p}") for h, p in wanted.site_paths if h in held)
    if not _writes_excluded_paths(style):
        values.update(("exclude_domains", f"{h}{p}") for h, p in wanted.exclude_site_paths)
    return frozenset(values)


def _writes_excluded_paths(style: QueryStyle) -> bool:
    """Whether ``-site:host/path`` goes in the text: where ``-site:`` is read there.

    Also for Google and Ecosia, which write their own ``-site:`` from the host list: a
    path is not in that list (it would exclude the whole host), so it is written here.
    """
    return "query" in style.ways.get("exclude_domains", ())


_AS_KEYWORDS: Final = frozenset({"site", "in_url", "in_title", "in_text", "filetype"})
"""The directives whose values a query of directives alone searches for (reference 6.3:
``sites, inTitle, inUrl, inText, filetypes``)."""


def _values(wanted: RequestedFilters, name: FilterName) -> tuple[str, ...]:
    """The words asked for by a words-in filter (``in_url``, ``exclude_in_text``...)."""
    values: tuple[str, ...] = getattr(wanted, name)
    return values


def _quoted(value: str) -> str:
    return f'"{value}"' if any(c.isspace() for c in value) else value


def _any_of(operator: str, values: Iterable[str], reads_or: bool) -> list[str]:
    """``(site:a OR site:b)`` for a provider that reads ``OR``, else ``site:a OR site:b``.

    The reference lists them flat for a provider without ``or``, but a page is on one
    site and of one type: ``site:a site:b`` asks an engine for nothing, while the local
    check keeps any of them; so ``OR`` stays between them, as it did before.
    """
    written = [f"{operator}{_quoted(value)}" for value in values]
    if len(written) < 2:
        return written
    return [f"({' OR '.join(written)})" if reads_or else " OR ".join(written)]


def site_operators(include: Iterable[str], exclude: Iterable[str]) -> list[str]:
    """``(site:a OR site:b)`` and ``-site:c``, for a provider that reads ``OR``.

    For one that takes domain lists in its text outside a plan (Firecrawl's ``/v1`` base).

    Example:
        >>> site_operators(["a.com", "b.org"], ["c.net"])
        ['(site:a.com OR site:b.org)', '-site:c.net']
    """
    return [*_any_of("site:", include, True), *(f"-site:{domain}" for domain in exclude)]


def _word(token: Token, style: QueryStyle) -> str | None:
    """How a word of the query goes out for ``style``; ``None`` when it leaves."""
    if token.kind == "text":
        return token.raw
    if token.kind == "phrase":
        return token.raw if style.reads("phrase") else token.value
    return token.raw if style.reads("exclude_terms") else None


def _items(tokens: tuple[Token, ...], style: QueryStyle) -> list[tuple[str, str]]:
    """Each word sent and ``OR``, in order: ``("or" | "wanted" | "unwanted", text)``."""
    items: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for index, token in enumerate(tokens):
        if token.kind == "or":
            if not beside_directive(tokens, index):
                items.append(("or", token.raw))
            continue
        if token.kind not in TERMS or (token.kind != "text" and (token.kind, token.value) in seen):
            continue  # a directive goes after the words; a phrase typed twice goes once
        seen.add((token.kind, token.value))
        word = _word(token, style)
        if word is not None:
            items.append(("unwanted" if token.kind == "exclude_term" else "wanted", word))
    return items


def _terms(tokens: tuple[Token, ...], style: QueryStyle) -> list[str]:
    """The words, in the order typed, with ``OR`` groups written for ``style``.

    ``OR`` joins the wanted words either side (a word or a phrase, not a ``-term``) into
    one group; one with nothing to join stays as typed where ``OR`` is read, else leaves.
    """
    words: list[str] = []
    for group in grouped(_items(tokens, style), style.reads_or):
        if len(group) > 1 and style.reads_or:
            words.append(f"({' OR '.join(group)})")
        else:
            words.extend(group)
    return words


def _directives(wanted: RequestedFilters, style: QueryStyle) -> list[str]:
    """The directives ``style`` reads in the text, in the reference's order."""
    out: list[str] = []
    if style.reads("include_domains"):
        out.extend(_any_of("site:", sites_sent(wanted, style.demoted), style.reads_or))
    if style.reads("exclude_domains"):
        out.extend(f"-site:{domain}" for domain in wanted.exclude_domains)
    if _writes_excluded_paths(style):
        out.extend(f"-site:{host}{path}" for host, path in wanted.exclude_site_paths)
    for name, operator in _OPERATORS.items():
        if style.reads(name):
            out.extend(f"{operator}{_quoted(value)}" for value in _values(wanted, name))
    if style.reads("filetype"):
        out.extend(_any_of("filetype:", wanted.filetype, style.reads_or))
    if style.reads("exclude_filetype"):
        out.extend(f"-filetype:{extension}" for extension in wanted.exclude_filetype)
    if style.reads("date_after") and wanted.date_after is not None:
        out.append(f"after:{wanted.date_after.isoformat()}")
    if style.reads("date_before") and wanted.date_before is not None:
        out.append(f"before:{wanted.date_before.isoformat()}")
    return out


def _path_site_words(tokens: tuple[Token, ...]) -> list[str]:
    """Each wanted site typed with a path, as the word an HTML engine is sent for it.

    Every one, as the reference's ``formatScraperQuery`` (6.4) demotes them: also one
    whose host is wanted whole beside it (``site:github.com/foo site:github.com`` sends
    ``github.com/foo site:github.com``), where the path no longer narrows the local check
    (:attr:`RequestedFilters.site_paths` leaves it out) but still helps the engine rank.
    """
    typed = (f"{t.value}{t.path}" for t in tokens if t.kind == "site" and t.path)
    return list(dict.fromkeys(typed))


def render_query(wanted: RequestedFilters, style: QueryStyle) -> str:
    """The query text a provider reading ``style`` is sent for ``wanted``.

    A query of directives alone keeps their values as words rather than going out blank,
    as reference 6.3 does: the wanted sites, words in a URL, title or text and file types
    (``site:github.com`` is ``github.com``); with none of them, ``""``, and the query goes
    as typed. A value kept out, a date or a language is no word to search for:
    ``-site:x.com`` sent as ``x.com`` beside Tavily's ``exclude_domains``, or ``-tutorial``
    to Exa as ``tutorial``, asked for the very pages the check then dropped.

    Examples:
        >>> from websearch_core.models import SearchParams
        >>> from .merge import requested_filters
        >>> wanted = requested_filters(SearchParams(query="site:a.org rust OR go site:b.org"))
        >>> ways = {"phrase": ("query",), "include_domains": ("query",)}
        >>> render_query(wanted, QueryStyle(ways))
        '(rust OR go) (site:a.org OR site:b.org)'
        >>> render_query(wanted, QueryStyle(ways, reads_or=False))
        'rust go site:a.org OR site:b.org'
    """
    words = _terms(wanted.tokens, style)
    if _demotes_path_sites(style.demoted) and "query" in style.ways.get("include_domains", ()):
        # Google and Ecosia write their own ``site:`` yet take the path as a word here.
        words.extend(_path_site_words(wanted.tokens))
    for name in sorted(style.demoted):
        words.extend(_values(wanted, name))
    words.extend(_directives(wanted, style))
    if words:
        return " ".join(words)
    return " ".join(
        f"{token.value}{token.path}" for token in wanted.tokens if token.kind in _AS_KEYWORDS
    )
