"""What a provider can do with each filter, declared as data on its ``ProviderInfo``.

Kept apart from the planning code so :mod:`websearch_core.providers.base` can import it
without pulling in anything that imports the providers.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, get_args

from ..models import FilterName, FilterWay, Recency

__all__ = [
    "ALL_FILTERS",
    "ALL_RECENCIES",
    "FIELD_FILTERS",
    "QUERY_OPERATORS",
    "SCRAPER_OPERATORS",
    "TERM_OPERATORS",
    "TEXT_OPERATORS",
    "URL_TITLE_OPERATORS",
    "Carries",
    "FilterSupport",
]

Carries = Callable[[str | None, str | None], bool]
"""Whether a provider's native parameter carries a search's language (or country), given
the ``(language, country)`` pair it would be sent: the request builder's own mapping, asked
before the request is built."""

ALL_FILTERS: Final[tuple[FilterName, ...]] = get_args(FilterName)
"""Every filter name, in the order provenance lists them."""
FIELD_FILTERS: Final[frozenset[FilterName]] = frozenset(
    {
        "include_domains",
        "exclude_domains",
        "date_after",
        "date_before",
        "recency",
        "language",
        "country",
    }
)
"""Filters that are also :class:`~websearch_core.models.SearchParams` fields."""
ALL_RECENCIES: Final[frozenset[Recency]] = frozenset(get_args(Recency))
URL_TITLE_OPERATORS: Final[frozenset[FilterName]] = frozenset(
    {"in_url", "exclude_in_url", "in_title", "exclude_in_title"}
)
"""``inurl:``, ``-inurl:``, ``intitle:``, ``-intitle:``: the behaviour reference's ``inUrl``
and ``inTitle`` flags (section 6.5), which more providers read than ``intext:``."""
TEXT_OPERATORS: Final[frozenset[FilterName]] = frozenset({"in_text", "exclude_in_text"})
"""``intext:`` / ``-intext:``: the reference's ``inText`` flag, sent only with its full
Google syntax (Gemini, OpenAI, Kagi, Firecrawl, Brave and the HTML engines)."""
_BOX_OPERATORS: Final[frozenset[FilterName]] = frozenset(
    {
        "include_domains",
        "exclude_domains",
        "phrase",
        "exclude_terms",
        "filetype",
        "exclude_filetype",
    }
)
QUERY_OPERATORS: Final[frozenset[FilterName]] = (
    _BOX_OPERATORS | URL_TITLE_OPERATORS | TEXT_OPERATORS
)
"""What a web search engine's query box understands (``site:``, ``-site:``, quotes,
``-term``, ``filetype:``, ``-filetype:``, ``inurl:``, ``intitle:``, ``intext:`` and their negations;
``OR`` travels with the phrases)."""
SCRAPER_OPERATORS: Final[frozenset[FilterName]] = QUERY_OPERATORS - frozenset({"in_url"})
"""What an HTML engine is sent as operators: the reference's ``formatScraperQuery`` (section
6.4) sends a wanted ``inurl:`` as a plain word (see ``FilterSupport.demoted``)."""
TERM_OPERATORS: Final[frozenset[FilterName]] = frozenset({"phrase", "exclude_terms"})
"""A quoted phrase and a ``-term``: what even a search API with no other operator is sent
in the query as typed (the behaviour reference's ``phrases`` and ``negation``), since taking
the quotes off asks for the words anywhere and taking ``-term`` off asks for the term."""
_DATE_DIRECTIVES: Final[frozenset[FilterName]] = frozenset({"date_after", "date_before"})
_SURE_FROM_URL: Final[frozenset[FilterName]] = URL_TITLE_OPERATORS | {
    "include_domains",
    "exclude_domains",
    "exclude_filetype",
}
"""What an answer engine's sources are checked on: what their URLs tell for sure (the
host; a type the path names; an ``inurl:`` word) and the title each is given (where it
is not its URL or a redirect's site), where their snippets are not judged."""
_UNTRUSTED: Final[frozenset[FilterName]] = URL_TITLE_OPERATORS | {"exclude_filetype"}
"""Operators an answer engine is sent and its docs never promise to keep: checked too."""


@dataclass(frozen=True, slots=True)
class FilterSupport:
    """How one provider applies each filter; what is in neither set is checked locally.

    ``native`` filters go out as an API parameter (the field must be in ``honours``).
    ``query`` filters are understood in the query text: either the provider writes the
    field into its own syntax (the field is in ``honours``, as Google's ``site:``) or the
    directive is left in, or written into, the text it is sent.
    """

    native: frozenset[FilterName] = frozenset()
    query: frozenset[FilterName] = frozenset()
    recency: frozenset[Recency] = ALL_RECENCIES
    """The recency values the native parameter has (Yahoo has no ``year``)."""
    checked: frozenset[FilterName] | None = None
    """The filters its results may be checked on here (``None``: every filter). What is
    neither sent nor checkable is ignored."""
    domain_limit: int | None = None
    """The most domains one list of the native parameter takes (xAI: 5); ``None``: any
    number. A longer list is applied as if the provider had no such parameter."""
    one_domain_list: bool = False
    """The native parameter takes included or excluded domains, never both in one request
    (xAI): with both, the included go out and the excluded are applied as if the provider
    had no such parameter."""
    query_fallback: frozenset[FilterName] = frozenset()
    """Native filters the provider also reads in the query text: a value the parameter
    cannot carry (see ``domain_limit``, ``one_domain_list``) is applied there instead."""
    unpromised: frozenset[FilterName] = frozenset()
    """Query filters left in the text the provider is sent but not among the operators its
    docs say it reads (Firecrawl's ``filetype:``): its results are checked here too, as the
    domains always are, rather than trusted."""
    reads_or: bool = True
    """Whether its query text reads ``OR`` between alternatives: the behaviour reference's
    ``or`` flag (section 6.5), off for Z.AI, Kimi, Exa, TinyFish, Jina, Tavily, Synthetic
    and Mojeek, which are sent an ``OR`` group's members flat."""
    two_letter_language: bool = False
    """The native language parameter takes ISO 639-1 codes only (Perplexity, TinyFish,
    Brave, DuckDuckGo's region): a three-letter code goes as its two-letter twin (``deu``:
    ``de``); one with none (``haw``) is not sent and is recorded as ignored, rather than as
    applied by a parameter that never carried it."""
    carries_language: Carries | None = None
    """Whether the native language parameter carries the (two-letter) tag beside that
    country; ``None``: any tag goes out as it is. Brave's ``search_lang`` list has no ``af``
    and DuckDuckGo's ``kl`` fell back to ``us-en``: a tag mapped to nothing or to the
    default is not sent and is recorded as ignored. The request builder maps with the
    same function, so the record and the wire cannot disagree."""
    carries_country: Carries | None = None
    """The same for the native country parameter (DuckDuckGo lists no Kenyan region)."""
    countries: frozenset[str] | None = None
    """The ISO 3166-1 alpha-2 codes (lower case) the native country parameter's docs list;
    ``None``: no documented list, any code goes. A code off the list is not sent and is
    recorded not applied, rather than ``native`` for a request that only carried it (Brave's
    37: another is a 422 and a resend). Languages have no such list: the one provider with
    a closed documented set (Brave's ``search_lang``) judges it in ``carries_language``, and
    Google's ``hl`` takes its 150-odd interface languages, Hawaiian among them."""
    demoted: frozenset[FilterName] = frozenset()
    """Filters whose values the provider is sent as plain words rather than as operators,
    and checked here: the HTML engines' wanted ``inurl:`` (the reference's
    ``formatScraperQuery``), which their engines read unevenly, yet whose words still say
    what is wanted."""

    @classmethod
    def language_model(
        cls,
        native: frozenset[FilterName] = frozenset(),
        *,
        domain_limit: int | None = None,
        one_domain_list: bool = False,
        google_syntax: bool = False,
        two_letter_language: bool = False,
    ) -> "FilterSupport":
        """An answer engine's support: a language model reads the question as it is written.

        Phrases, ``-term``, ``site:``, ``filetype:`` and the date directives stay in the
        question (a date given as a field is written into it), since the model that
        searches reads them; taking them out changed what was asked ("-langchain" was
        lost). Only what a source's URL tells for sure is checked on the sources (and
        citations) afterwards: the domains, and a file type kept out (its docs promise no
        ``-filetype:``, and a PDF it cited for ``-filetype:pdf`` was kept unseen). The
        answer is written from the sources, so dropping them on a date or a phrase would
        leave an answer without the pages it came from; and a wanted ``filetype:`` would
        drop every URL naming no type, Gemini's grounding redirects all of them, where
        ``-filetype:pdf`` drops only a URL ending ``.pdf``. A recency the API cannot send
        is ignored.
        A native domain list the API cannot carry (``domain_limit``, ``one_domain_list``)
        is written into the question as ``site:`` / ``-site:``, as if it had no parameter.
        ``inurl:`` and ``intitle:`` stay too, and are checked on the sources as the
        reference's post-filter checks them (6.6): trusted, a source without the word
        asked was kept under a record saying the engine applied it (a source whose title
        is no page title is kept and the check recorded as not made on it, see
        :mod:`~websearch_core.filters.post`); ``intext:`` only with ``google_syntax`` (the
        behaviour reference sends it to Gemini and OpenAI, not to Perplexity, Anthropic or
        xAI), else it is taken out and ignored.
        """
        written = (QUERY_OPERATORS - TEXT_OPERATORS) | _DATE_DIRECTIVES
        if google_syntax:
            written |= TEXT_OPERATORS
        return cls(
            native=native,
            query=written - native,
            checked=_SURE_FROM_URL,
            unpromised=_UNTRUSTED - native,
            domain_limit=domain_limit,
            one_domain_list=one_domain_list,
            query_fallback=written & native,
            two_letter_language=two_letter_language,
        )

    @classmethod
    def query_only(
        cls, operators: frozenset[FilterName] = QUERY_OPERATORS - TEXT_OPERATORS
    ) -> "FilterSupport":
        """A search API with no filter parameter, sent ``operators`` in its query as typed.

        Its docs promise none of them, so its results are still checked here for each
        (``unpromised``), and it reads no ``OR`` (the behaviour reference's rows without the
        ``or`` flag: Z.AI, Kimi, Synthetic): an ``OR`` group goes as its members, several
        sites one by one. The default is the reference's
        ``{phrases,negation,site,inTitle,inUrl,filetype}`` (Z.AI and Kimi): ``intext:``
        leaves the query.
        """
        return cls(query=operators, unpromised=operators, reads_or=False)

    def sent_domains(self, include: Sequence[str], exclude: Sequence[str]) -> frozenset[FilterName]:
        """The domain filters whose lists this search's native parameter carries (pure).

        The plan and the provider's request builder both ask this, so what the record calls
        ``native`` is what was sent. A list goes out when the filter is native, the list is
        not empty and within ``domain_limit``; with ``one_domain_list``, the excluded list
        only when the included one does not go.

        Examples:
            >>> xai = FilterSupport(native=frozenset({"include_domains", "exclude_domains"}),
            ...     domain_limit=2, one_domain_list=True)
            >>> sorted(xai.sent_domains(["a.com"], ["b.com"]))
            ['include_domains']
            >>> sorted(xai.sent_domains(["a.com", "b.com", "c.com"], ["d.com"]))
            ['exclude_domains']
        """

        def fits(name: FilterName, domains: Sequence[str]) -> bool:
            limit = self.domain_limit
            return (
                name in self.native and bool(domains) and (limit is None or len(domains) <= limit)
            )

        sent: set[FilterName] = set()
        if fits("include_domains", include):
            sent.add("include_domains")
        if fits("exclude_domains", exclude) and not (self.one_domain_list and sent):
            sent.add("exclude_domains")
        return frozenset(sent)

    def groups_alternatives(self) -> bool:
        """Whether ``OR`` groups go out as ``(a OR b)``: it reads ``OR`` and query operators.

        A provider sent no phrase or ``-term`` in its text reads no operator at all.
        """
        return self.reads_or and bool(self.query & TERM_OPERATORS)

    def checks(self, name: FilterName) -> bool:
        """Whether results may be checked here for filter ``name``."""
        return self.checked is None or name in self.checked

    def __post_init__(self) -> None:
        both = self.native & self.query
        if both:
            raise ValueError(f"a filter is either native or query, not both: {sorted(both)}")
        if not self.query_fallback <= self.native:
            raise ValueError("only a native filter has a query fallback")
        if not self.unpromised <= self.query:
            raise ValueError("only a query filter can be unpromised")
        if self.demoted & (self.native | self.query):
            raise ValueError("a demoted filter is sent as words, not as a parameter or operator")

    def way(self, name: FilterName) -> FilterWay | None:
        """``native``, ``query`` or ``None`` (only a local check, or nothing, is left)."""
        if name in self.native:
            return "native"
        if name in self.query:
            return "query"
        return None
