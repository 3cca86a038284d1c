"""The Brave query string, as pure functions: count, freshness window, locale codes.

Kept apart from :mod:`websearch_core.providers.brave`, which states the wire facts these
functions follow and holds the hooks.
"""

from datetime import date
from typing import Final

from ..errors import SearchProviderError
from ..format import utf16_len
from ..models import SearchParams
from .base import clamp_count

__all__ = [
    "DEFAULT_RESULTS",
    "MAX_QUERY_LENGTH",
    "MAX_QUERY_WORDS",
    "MAX_RESULTS",
    "SEARCH_COUNTRIES",
    "brave_search_lang",
    "carries_language",
    "freshness",
    "query_params",
]

PROVIDER_ID: Final = "brave"
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 20
MAX_QUERY_LENGTH: Final = 400
"""In UTF-16 code units, as the spec's JavaScript counts them. Brave's API reference: "Maximum
of 400 characters and 50 words in the query" (the behaviour reference's 500 is older)."""
MAX_QUERY_WORDS: Final = 50
"""Words, as runs of text between whitespace (Brave's API reference, beside the length)."""
_SHORTEST_OVER_WORDS: Final = 2 * MAX_QUERY_WORDS + 1
"""The fewest characters a query of more than :data:`MAX_QUERY_WORDS` words can have."""

_RECENCY: Final = {"day": "pd", "week": "pw", "month": "pm", "year": "py"}
_EPOCH: Final = date(1970, 1, 1)
_SEARCH_LANGS: Final = frozenset(
    {
        "ar", "eu", "bn", "bg", "ca", "zh-hans", "zh-hant", "hr", "cs", "da", "nl", "en",
        "en-gb", "et", "fi", "fr", "gl", "de", "el", "gu", "he", "hi", "hu", "is", "it",
        "jp", "kn", "ko", "lv", "lt", "ms", "ml", "mr", "nb", "pl", "pt-br", "pt-pt", "pa",
        "ro", "ru", "sr", "sk", "sl", "es", "sv", "ta", "te", "th", "tr", "uk", "vi",
    }
)  # fmt: skip
"""Brave's documented ``search_lang`` codes."""
SEARCH_COUNTRIES: Final = frozenset(
    {
        "ar", "au", "at", "be", "br", "ca", "cl", "dk", "fi", "fr", "de", "gr", "hk", "in",
        "id", "it", "jp", "kr", "my", "mx", "nl", "nz", "no", "cn", "pl", "pt", "ph", "ru",
        "sa", "za", "es", "se", "ch", "tw", "tr", "gb", "us",
    }
)  # fmt: skip
"""Brave's documented ``country`` codes (its "Country Codes" table, less ``ALL``), lower
case. Any other answers 422 and costs a resend without it, so it is not sent at all."""
_LANG_ALIASES: Final = {"ja": "jp", "no": "nb", "nn": "nb", "iw": "he"}
_TRADITIONAL_CHINESE: Final = frozenset({"hant", "tw", "hk", "mo"})


def freshness(params: SearchParams, today: date) -> str | None:
    """Brave's ``freshness`` value for ``params``, or ``None`` for no time filter.

    Args:
        params: The request; ``date_after`` / ``date_before`` win over ``recency``.
        today: Today's date in UTC, the open end of a ``date_after``-only range.

    Example:
        >>> freshness(SearchParams(query="x", recency="week"), date(2026, 1, 1))
        'pw'
        >>> freshness(SearchParams(query="x", date_after=date(2025, 3, 1)), date(2026, 1, 1))
        '2025-03-01to2026-01-01'
    """
    if params.date_after is not None or params.date_before is not None:
        start = params.date_after or _EPOCH
        end = params.date_before or today
        return f"{start.isoformat()}to{end.isoformat()}"
    if params.recency is not None:
        return _RECENCY[params.recency]
    return None


def brave_search_lang(language: str) -> str | None:
    """Brave's ``search_lang`` code for a BCP 47 tag, or ``None`` when Brave has none.

    Example:
        >>> brave_search_lang("pt-BR"), brave_search_lang("ja"), brave_search_lang("en-US")
        ('pt-br', 'jp', 'en')
    """
    primary, *subtags = language.lower().split("-")
    if primary == "zh":
        return "zh-hant" if _TRADITIONAL_CHINESE.intersection(subtags) else "zh-hans"
    if primary == "pt":
        return "pt-br" if "br" in subtags else "pt-pt"
    if primary == "en" and "gb" in subtags:
        return "en-gb"
    code = _LANG_ALIASES.get(primary, primary)
    return code if code in _SEARCH_LANGS else None


def carries_language(language: str | None, country: str | None) -> bool:
    """Whether ``search_lang`` carries ``language``: the plan records it applied only then.

    Asks :func:`brave_search_lang`, which :func:`query_params` sends, so no second list
    can drift from the first (``af`` was recorded applied, yet never sent).

    Example:
        >>> carries_language("pt-BR", None), carries_language("af", "ZA")
        (True, False)
    """
    return language is not None and brave_search_lang(language) is not None


def _too_long(query: str) -> bool:
    """Whether ``query`` is over :data:`MAX_QUERY_LENGTH` UTF-16 code units.

    A character is one or two units, so a query of at most half the limit in characters
    always fits and one of more than the limit never does; only the queries between are
    encoded to be counted (the encoding and its codec lookup were most of building the
    query string).
    """
    length = len(query)
    if length * 2 <= MAX_QUERY_LENGTH:
        return False
    return length > MAX_QUERY_LENGTH or utf16_len(query) > MAX_QUERY_LENGTH


def _too_many_words(query: str) -> bool:
    """Whether ``query`` has more than :data:`MAX_QUERY_WORDS` words (a short one never does)."""
    return len(query) >= _SHORTEST_OVER_WORDS and len(query.split()) > MAX_QUERY_WORDS


def query_params(params: SearchParams, today: date) -> list[tuple[str, str]]:
    """The query string Brave receives for ``params`` (pure).

    Raises:
        SearchProviderError: The query is longer than Brave accepts (status 400), in
            characters or in words: no request is spent on a query Brave does not take.
    """
    if _too_long(params.query):
        raise SearchProviderError(
            PROVIDER_ID, f"Brave search queries cannot exceed {MAX_QUERY_LENGTH} characters", 400
        )
    if _too_many_words(params.query):
        raise SearchProviderError(
            PROVIDER_ID, f"Brave search queries cannot exceed {MAX_QUERY_WORDS} words", 400
        )
    count = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
    query: list[tuple[str, str]] = [
        ("q", params.query),
        ("count", str(count)),
        ("extra_snippets", "true"),
        ("text_decorations", "false"),
        ("safesearch", "moderate"),
    ]
    window = freshness(params, today)
    if window is not None:
        query.append(("freshness", window))
    if params.country is not None:
        query.append(("country", params.country.upper()))
    if params.language is not None:
        search_lang = brave_search_lang(params.language)
        if search_lang is not None:
            query.append(("search_lang", search_lang))
    return query
