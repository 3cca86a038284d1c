"""The Parallel ``/v1/search`` request body and its filter declaration, as pure functions.

Kept apart from :mod:`websearch_core.providers.parallel`, which states the wire facts these
functions follow and holds the provider. The declaration lives here, beside the body,
because both read the same rule (:meth:`FilterSupport.sent_domains`): a domain list is in
the body exactly when the filter record calls it ``native``.
"""

from datetime import date
from typing import Any, Final

from ..filters import TERM_OPERATORS, FilterSupport
from ..js_trim import trim
from ..models import SearchParams
from ._common import recency_start
from ._parallel_parse import DEFAULT_RESULTS
from .base import clamp_count

__all__ = [
    "FILTERS",
    "MAX_CHARS_PER_RESULT",
    "MAX_DOMAINS",
    "MAX_KEYWORD_QUERY_CHARS",
    "MAX_OBJECTIVE_CHARS",
    "MAX_RESULTS",
    "SEARCH_MODE",
    "TURBO_LANGUAGES",
    "after_date",
    "keyword_query",
    "request_body",
    "search_mode",
    "source_policy",
]

SEARCH_MODE: Final = "turbo"
"""The cheapest and fastest of ``turbo`` / ``basic`` / ``advanced`` ($1 per 1,000 requests
against $5 for the other two); an unset mode means ``advanced``."""
MULTILINGUAL_MODE: Final = "basic"
"""The mode for a query in any other language: Parallel's ``turbo`` reads only English and
Japanese queries and points at ``basic`` (the successor of the retired ``fast``) for others."""
TURBO_LANGUAGES: Final = frozenset({"en", "ja"})
"""Primary language subtags ``turbo`` serves."""
MAX_RESULTS: Final = 40
MAX_CHARS_PER_RESULT: Final = 10_000
MAX_KEYWORD_QUERY_CHARS: Final = 200
"""Each ``search_queries`` entry takes at most 200 characters (and at most five entries)."""
MAX_OBJECTIVE_CHARS: Final = 5_000
"""``objective`` takes at most 5,000 characters: more than any query we accept."""
MAX_DOMAINS: Final = 200
"""``include_domains`` and ``exclude_domains`` together take at most 200 entries; only one
list is ever sent (:data:`FILTERS` has ``one_domain_list``), so that list's limit is 200."""

FILTERS: Final = FilterSupport(
    native=frozenset({"include_domains", "exclude_domains", "date_after", "recency", "country"}),
    domain_limit=MAX_DOMAINS,
    one_domain_list=True,
    query=TERM_OPERATORS,
    unpromised=TERM_OPERATORS,
)
"""Quotes and ``-term`` stay in the objective and keyword queries (the behaviour
reference's ``{phrases,negation,or}``), and are checked on the results.
``source_policy``: one domain list (Parallel ignores ``exclude_domains`` whenever
``include_domains`` is set) and ``after_date``, which carries ``date_after`` and ``recency``
alike. There is no end date, so ``date_before`` is only checked on the results.
``country`` goes as ``advanced_settings.location``."""


def keyword_query(query: str) -> str:
    """``query`` as a ``search_queries`` entry: itself, or cut to 200 characters between words.

    Parallel refuses a longer entry. The whole query still reaches Parallel as the
    ``objective``, so cutting the keyword form loses nothing the search is told; cutting
    between words keeps every keyword that is sent whole. A first word longer than the
    limit is cut where the limit falls. A query that is cut loses its outer whitespace (the
    field rule's, :func:`~websearch_core.js_trim.trim`: a BOM too, which a cut keyword form
    kept first) and has its inner whitespace collapsed to single spaces.

    Examples:
        >>> keyword_query("rust async")
        'rust async'
        >>> keyword_query("word " * 50) == " ".join(["word"] * 40)
        True
        >>> len(keyword_query("x" * 300))
        200
    """
    if len(query) <= MAX_KEYWORD_QUERY_CHARS:
        return query
    text = trim(query)  # never blank: a query is validated non-blank by the same whitespace
    if len(text) <= MAX_KEYWORD_QUERY_CHARS:
        return text
    window = text[: MAX_KEYWORD_QUERY_CHARS + 1]
    words = window.split()
    if not window[-1].isspace() and len(words) > 1:
        words.pop()  # the limit falls inside this word: send the words before it
    return " ".join(words)[:MAX_KEYWORD_QUERY_CHARS]


def after_date(params: SearchParams, today: date) -> date | None:
    """The ``after_date`` for ``params``: the later of ``date_after`` and the recency start.

    Both filters ask for pages from a start date on; the later start satisfies both, so
    each is applied by Parallel and the filter record's ``native`` is true for both.

    Example:
        >>> after_date(SearchParams(query="x", recency="day", date_after=date(2025, 5, 5)),
        ...     date(2026, 3, 1))
        datetime.date(2026, 2, 28)
    """
    starts = [params.date_after] if params.date_after is not None else []
    if params.recency is not None:
        starts.append(recency_start(today, params.recency))
    return max(starts, default=None)


def source_policy(params: SearchParams, today: date) -> dict[str, Any] | None:
    """The ``source_policy`` object for ``params``, or ``None`` when nothing restricts sources.

    Example:
        >>> source_policy(SearchParams(query="x", recency="week"), date(2026, 1, 8))
        {'after_date': '2026-01-01'}
    """
    policy: dict[str, Any] = {}
    sent = FILTERS.sent_domains(params.include_domains, params.exclude_domains)
    if "include_domains" in sent:
        policy["include_domains"] = list(params.include_domains)
    elif "exclude_domains" in sent:
        policy["exclude_domains"] = list(params.exclude_domains)
    start = after_date(params, today)
    if start is not None:
        policy["after_date"] = start.isoformat()
    return policy or None


def _is_kana(char: str) -> bool:
    """Whether ``char`` is Hiragana or Katakana (full or half width): only Japanese uses them."""
    return (
        "\u3040" <= char <= "\u30ff"
        or "\u31f0" <= char <= "\u31ff"
        or ("\uff66" <= char <= "\uff9d")
    )


def _is_han(char: str) -> bool:
    """Whether ``char`` is a CJK ideograph (or 々 〆 〇), shared by Japanese and Chinese."""
    return (
        "\u4e00" <= char <= "\u9fff"
        or "\u3400" <= char <= "\u4dbf"
        or ("\u3005" <= char <= "\u3007")
    )


def _is_fullwidth_latin(char: str) -> bool:
    """Whether ``char`` is a full-width Latin letter, as Japanese text writes ``ＡＩ``."""
    return "\uff21" <= char <= "\uff3a" or "\uff41" <= char <= "\uff5a"


def search_mode(params: SearchParams) -> str:
    """``turbo`` for a query in English or Japanese, ``basic`` for any other language.

    Turbo answers other languages poorly, and the agent's queries come in any language, so
    the mode is chosen per query. The ``language`` the caller names decides when given (its
    primary subtag); otherwise the query's letters do: only ASCII letters read as English,
    and letters that are kana and CJK ideographs, with at least one kana (Chinese has none),
    read as Japanese. A query in another language written in plain ASCII letters (German
    without umlauts, say) still goes to ``turbo``: the letters cannot tell it apart.

    Examples:
        >>> search_mode(SearchParams(query="solid state batteries"))
        'turbo'
        >>> search_mode(SearchParams(query="東京の天気"))
        'turbo'
        >>> search_mode(SearchParams(query="ＡＩ規制のニュース"))
        'turbo'
        >>> search_mode(SearchParams(query="北京天气"))
        'basic'
        >>> search_mode(SearchParams(query="élections municipales"))
        'basic'
        >>> search_mode(SearchParams(query="kommunalwahl", language="de"))
        'basic'
    """
    if params.language is not None:
        primary = params.language.split("-", 1)[0].lower()
        return SEARCH_MODE if primary in TURBO_LANGUAGES else MULTILINGUAL_MODE
    query = params.query
    if query.isascii():
        return SEARCH_MODE
    letters = [char for char in query if char.isalpha() and not char.isascii()]
    if not letters:  # dashes, quotes, emoji: nothing but English letters
        return SEARCH_MODE
    japanese = any(_is_kana(char) for char in letters) and all(
        _is_kana(char) or _is_han(char) or _is_fullwidth_latin(char) for char in letters
    )
    return SEARCH_MODE if japanese else MULTILINGUAL_MODE


def request_body(params: SearchParams, today: date) -> dict[str, Any]:
    """The JSON body ``POST /v1/search`` receives for ``params`` (pure).

    Example:
        >>> sorted(request_body(SearchParams(query="x"), date(2026, 1, 1)))
        ['advanced_settings', 'mode', 'objective', 'search_queries']
    """
    settings: dict[str, Any] = {
        "max_results": clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS),
        "excerpt_settings": {"max_chars_per_result": MAX_CHARS_PER_RESULT},
    }
    policy = source_policy(params, today)
    if policy is not None:
        settings["source_policy"] = policy
    if params.country is not None:
        # ISO 3166-1 alpha-2, written lower case as Parallel's examples write it ("us").
        settings["location"] = params.country.lower()
    return {
        "search_queries": [keyword_query(params.query)],
        "objective": params.query,
        "mode": search_mode(params),
        "advanced_settings": settings,
    }
