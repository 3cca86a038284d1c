"""The text a model reads, and the failure texts, exactly as ``spec/web_search.md`` lays out.

Everything here is pure: a response in, a string out. Lengths are counted in UTF-16 code
units, as the spec's reference implementation counts them, so a truncated line is the same
length there and here even with emoji.
"""

from collections.abc import Iterable, Sequence

from .clauses import join_clauses
from .errors import OAuthTokenError, SearchProviderError
from .filters.note import ignored_note
from .models import SearchCitation, SearchResponse, SearchSource
from .providers import PROVIDER_REGISTRY, get_provider
from .utf16_text import ELLIPSIS, truncate_text, utf16_len, whole_words

__all__ = [
    "ELLIPSIS",
    "LONE_HOST_HINTS",
    "LOOPBACK_HINT",
    "NOT_CONNECTED_HINT",
    "NO_PROVIDER_MESSAGE",
    "OFFLINE_HINT",
    "OFFLINE_HINTS",
    "PAGE_LOOPBACK_HINT",
    "PROXY_DOWN_HINT",
    "format_age",
    "format_count",
    "format_failures",
    "format_for_llm",
    "format_no_content",
    "format_no_match",
    "format_not_configured",
    "format_provider_failure",
    "page_unreached_hint",
    "truncate_text",
    "utf16_len",
    "whole_words",
    "with_lone_host_hint",
    "with_offline_hint",
]

NO_PROVIDER_MESSAGE = "No web search provider configured."
_SET_THE_PROXY = "or set the proxy it must use (HTTPS_PROXY or WEBSEARCH_PROXY)"
_WHAT_TO_CHECK = {
    "dns": f"check its network connection and DNS, {_SET_THE_PROXY}",
    "connect": f"check its connection and any firewall or sign-in page, {_SET_THE_PROXY}",
    "proxy": "check the proxy that WEBSEARCH_PROXY or HTTPS_PROXY names is running, or unset it",
    "loopback": (
        "start the server meant to answer there (a gateway; the simulator serves on new "
        "ports each time it starts), or remove the base URLs that point there "
        "(WEBSEARCH_<ID>_BASE_URL, [base_urls])"
    ),
}
"""What to check for each way nothing was reached (``HostNotReachedError.cause``): one
wording for a search's hint and a page fetch's, which differ only in what they conclude.
``loopback`` is a refusal at this machine's own address (:func:`~websearch_core.orchestration.
offline.hint_cause`): no network stands between, so nothing listens where a base URL points."""
OFFLINE_HINT = (
    "Not one provider's host name could be resolved, so this machine looks offline: "
    f"{_WHAT_TO_CHECK['dns']}."
)
"""Said after the failure text when every provider asked failed to resolve its host name.

Each provider's own text names only its host, so a machine without DNS reads as a list of
broken providers; the hint says what they have in common and what to check.
"""
NOT_CONNECTED_HINT = (
    "Not one provider's host accepted a connection, so this machine's network looks "
    f"blocked: {_WHAT_TO_CHECK['connect']}."
)
"""Said when every provider asked refused the connection or had no route to it."""
PROXY_DOWN_HINT = (
    "Not one provider could be reached through the proxy, so it looks down: "
    f"{_WHAT_TO_CHECK['proxy']}."
)
"""The proxy hint when what set the proxy is not known (a session's own, or several)."""
_PROXY_NAMED_DOWN_HINT = (
    "Not one provider could be reached through the proxy, so it looks down: check the proxy "
    "that {source} names is running, or unset it."
)
"""The proxy hint naming the variable or setting in use (:func:`with_offline_hint`)."""
"""Said when the proxy this machine is set to use refused every provider's connection."""
LOOPBACK_HINT = (
    "Not one provider's host accepted a connection, and each was a loopback address (this "
    f"machine), where nothing listens: {_WHAT_TO_CHECK['loopback']}."
)
"""Said when every provider asked was refused at a loopback address: a stopped simulator's
pasted variables, not a blocked network (:data:`NOT_CONNECTED_HINT` sent users to check
their firewall)."""
_OFFLINE_HINTS = {
    "dns": OFFLINE_HINT,
    "connect": NOT_CONNECTED_HINT,
    "proxy": PROXY_DOWN_HINT,
    "loopback": LOOPBACK_HINT,
}
"""The hint for each way nothing was reached (``HostNotReachedError.cause``)."""
OFFLINE_HINTS = tuple(_OFFLINE_HINTS.values())
"""Every hint a search's failure text may end with (the command sets it on its own line)."""
_FETCH_LEADS = {
    "dns": "If the host name is right, this machine looks offline",
    "connect": "If the address is right, this machine's network looks blocked",
    "proxy": "The proxy looks down",
    "loopback": "Nothing listens at that loopback address (this machine)",
}
"""What one host not reached suggests, a page's or a search's lone provider's: unlike a
search's two providers or more, one host may be a mistyped URL or a server that is down,
so the hint says so before the machine's network."""
PAGE_LOOPBACK_HINT = (
    f"{_FETCH_LEADS['loopback']}: start the server meant to answer there, or check the URL's port."
)
"""Said after a page at a loopback address refused the connection (``websearch fetch
http://127.0.0.1:8000/`` with no server, or one on another port): the search's loopback hint
names base URLs, which a page has none of, and the blocked-network one sent a user whose
network works to check a firewall."""
LONE_HOST_HINTS = (
    *(f"{lead}: {_WHAT_TO_CHECK[cause]}." for cause, lead in _FETCH_LEADS.items()),
    PAGE_LOOPBACK_HINT,
)
"""Every one-host hint (:func:`page_unreached_hint`): the command sets it on its own line."""
SNIPPET_LIMIT = 240
QUERY_LIMIT = 120
MAX_SEARCH_QUERIES = 3
_MINUTE = 60
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR
_WEEK = 7 * _DAY
_MONTH = 30 * _DAY
"""A month in :func:`format_age` is 30 days (the ages it prints are rough by design)."""


def format_count(label: str, count: int) -> str:
    """``1 source``, ``2 sources``."""
    return f"{count} {label}{'' if count == 1 else 's'}"


def format_age(seconds: int | None) -> str:
    """Render an age in seconds as ``5mo ago``, ``2w ago``, ``3d ago``, ``4h ago`` or ``9m ago``.

    Zero or missing gives an empty string; under a minute, or a future date, gives
    ``just now``.
    """
    if not seconds:
        return ""
    # Floor division by each unit's length in seconds gives what dividing by 60, 60, 24
    # in turn would (floor division composes for positive divisors); the first unit with
    # a whole one wins, largest first, without computing the smaller ones.
    if seconds >= _MONTH:
        return f"{seconds // _MONTH}mo ago"
    if seconds >= _WEEK:
        return f"{seconds // _WEEK}w ago"
    if seconds >= _DAY:
        return f"{seconds // _DAY}d ago"
    if seconds >= _HOUR:
        return f"{seconds // _HOUR}h ago"
    if seconds >= _MINUTE:
        return f"{seconds // _MINUTE}m ago"
    return "just now"


def format_for_llm(response: SearchResponse, notes: Sequence[str] = ()) -> str:
    """Render a response as the one text block the model reads.

    Args:
        response: A response with renderable content.
        notes: Lines to print first as ``Note: ...`` (for example a relaxed constraint).

    Returns:
        Answer, numbered sources, citations, related questions and search queries, joined
        by newlines in the spec's exact layout.
    """
    parts: list[str] = [f"Note: {note}" for note in notes]
    sources = response.sources
    if response.answer:
        parts.append(response.answer)
        if sources:
            parts.append("\n## Sources")
            parts.append(format_count("source", len(sources)))
    parts.extend(_source_lines(sources))
    ignored = ignored_note(response) if response.filters else None
    if ignored:  # only then does the text leave the spec's layout, by this one line
        parts.append(ignored)
    if response.citations:
        parts.append("\n## Citations")
        parts.append(format_count("citation", len(response.citations)))
        parts.extend(_citation_lines(response.citations))
    if response.related_questions:
        parts.append("\n## Related")
        asked = len(response.related_questions) + response.related_questions_left_out
        parts.append(format_count("question", asked))
        parts.extend(f"- {question}" for question in response.related_questions)
    if response.search_queries:
        ran = len(response.search_queries) + response.search_queries_left_out
        parts.append(f"Search queries: {ran}")
        parts.extend(
            f"- {truncate_text(query, QUERY_LIMIT)}"
            for query in response.search_queries[:MAX_SEARCH_QUERIES]
        )
    return "\n".join(parts)


def _source_lines(sources: Sequence[SearchSource]) -> list[str]:
    lines: list[str] = []
    for index, source in enumerate(sources, start=1):
        age = format_age(source.age_seconds) or source.published_date
        age_part = f" ({age})" if age else ""
        lines.append(f"[{index}] {source.title}{age_part}\n    {source.url}")
        if source.snippet:
            lines.append(f"    {truncate_text(source.snippet, SNIPPET_LIMIT)}")
    return lines


def _citation_lines(citations: Sequence[SearchCitation]) -> list[str]:
    lines: list[str] = []
    for index, citation in enumerate(citations, start=1):
        lines.append(f"[{index}] {citation.title or citation.url}\n    {citation.url}")
        if citation.cited_text:
            lines.append(f"    {truncate_text(citation.cited_text, SNIPPET_LIMIT)}")
    return lines


def format_provider_failure(error: BaseException, label: str) -> str:
    """Normalise one provider's error into the sentence the model reads.

    Args:
        error: What the provider raised.
        label: The provider's display label (``OpenAI`` for ``codex``).

    Returns:
        The Anthropic 404 text, the ``<Label> authorization failed`` text for 401/403
        (Z.AI keeps its own message; a keyless engine has no key to check, so its 401/403
        says it blocked the request; an OAuth token that could not be refreshed keeps its
        own, as no server refused it), or the error's own message.
    """
    if isinstance(error, SearchProviderError):
        if isinstance(error, OAuthTokenError):
            return error.message  # refused here, before or instead of a request: say why
        if error.provider == "anthropic" and error.status == 404:
            return "Anthropic web search returned 404 (model or endpoint not found)."
        if error.status in (401, 403) and _is_keyless(error.provider):
            return (
                f"{label} blocked the request ({error.status}); it needs no API key, so the "
                "engine is refusing automated searches from this address. Try another "
                "provider or retry later."
            )
        if error.status in (401, 403) and error.provider != "zai":
            return f"{label} authorization failed ({error.status}). Check API key or base URL."
        return error.message
    message = str(error)
    return message if message else f"Unknown error from {label}"


def format_no_content(label: str, notes: Iterable[str] = ()) -> str:
    """The error text of an answer with nothing a model can read (the spec's 204).

    What the answer's notes say (which engines of Public Web or SearXNG did not answer,
    and why) follows the text as the reason, each note one sentence. One place for it:
    the chain raises it for an empty answer, and Public Web for one whose engines held
    back for the last resort (:mod:`websearch_core.orchestration.last_resort`) leave it
    empty, so both read alike.

    Example:
        >>> format_no_content("Bing")
        'Bing returned no renderable search content.'
    """
    return f"{label} returned no renderable search content.{_reasons(notes)}"


def format_no_match(
    label: str, dropped: Iterable[tuple[str, int]], notes: Iterable[str] = ()
) -> str:
    """The error text of an answer whose results all failed a local filter check.

    Said apart from an empty answer, so the caller knows to loosen the filters rather
    than try again; each filter with how many results it dropped (judged alone, so a
    result failing two counts for both), so the caller loosens the one that dropped most
    rather than guessing. The notes follow as :func:`format_no_content`'s do: Public Web
    holding an engine back for the last resort says which.

    Example:
        >>> format_no_match("Bing", [("include_domains", 7), ("date_after", 1)])
        'Bing returned no results matching the filters (include_domains dropped 7, \
date_after dropped 1).'
    """
    names = ", ".join(f"{name} dropped {count}" for name, count in dropped)
    return f"{label} returned no results matching the filters ({names}).{_reasons(notes)}"


def _reasons(notes: Iterable[str]) -> str:
    """Each note as one more sentence after an error's text."""
    return "".join(f" {note.rstrip('.')}." for note in notes)


def _is_keyless(provider_id: str) -> bool:
    """A credential-free scraper or the Public Web aggregate of them."""
    if provider_id not in PROVIDER_REGISTRY:
        return False
    return get_provider(provider_id).info.kind in ("scraper", "aggregate")


def format_failures(failures: Iterable[tuple[str, str]]) -> str:
    """Join ``(provider id, formatted error)`` pairs into the spec's final message.

    One failure gives its own text; several give ``All web search providers failed:
    id: text; id: text`` in attempt order, each text but the last without its final full
    stop (:func:`~websearch_core.clauses.join_clauses`), so that the line does not read
    ``...content.; tavily: ...``.

    Example:
        >>> format_failures([("public", "Public Web found nothing."), ("tavily", "Down.")])
        'All web search providers failed: public: Public Web found nothing; tavily: Down.'
    """
    items = list(failures)
    if not items:
        return NO_PROVIDER_MESSAGE
    if len(items) == 1:
        return items[0][1]
    joined = join_clauses(f"{provider}: {text}" for provider, text in items)
    return f"All web search providers failed: {joined}"


def with_offline_hint(message: str, cause: str = "dns", proxy_source: str | None = None) -> str:
    """``message`` (the spec's text first, unchanged), then the hint for ``cause``.

    ``cause`` is how no provider was reached: ``dns`` (:data:`OFFLINE_HINT`), ``connect``
    (:data:`NOT_CONNECTED_HINT`) or ``proxy``. The proxy's hint names ``proxy_source``,
    the variable or setting it came from (``HTTP_PROXY``, ``the proxy setting``), when
    known: naming both variables sent a user with ``HTTP_PROXY`` set to check the two it
    did not use. Unknown, it is :data:`PROXY_DOWN_HINT`.

    Example:
        >>> with_offline_hint("All web search providers failed: a: x; b: y").endswith(
        ...     "(HTTPS_PROXY or WEBSEARCH_PROXY).")
        True
        >>> with_offline_hint("a", "proxy", "HTTP_PROXY").endswith(
        ...     "the proxy that HTTP_PROXY names is running, or unset it.")
        True
    """
    ended = message if message.endswith((".", "!", "?")) else f"{message}."
    if cause == "proxy" and proxy_source is not None:
        return f"{ended} {_PROXY_NAMED_DOWN_HINT.format(source=proxy_source)}"
    return f"{ended} {_OFFLINE_HINTS[cause]}"


def with_lone_host_hint(message: str, cause: str) -> str:
    """``message`` (the spec's text first, unchanged), then the one-host hint for ``cause``.

    For a search whose one provider asked reached no host (a forced provider offline):
    the words of :func:`page_unreached_hint`, which allow for a wrong host, since one
    failure cannot prove this machine offline the way two providers' do
    (:func:`with_offline_hint`).

    Example:
        >>> said = "Brave search failed: the connection failed (x): no DNS"
        >>> with_lone_host_hint(said, "dns").removeprefix(said)[:30]
        '. If the host name is right, t'
    """
    ended = message if message.endswith((".", "!", "?")) else f"{message}."
    return f"{ended} {page_unreached_hint(cause)}"


def page_unreached_hint(cause: str, *, loopback: bool = False) -> str:
    """The hint after a page fetch that reached no host, for ``cause`` (as a search's).

    ``cause`` is ``dns``, ``connect`` or ``proxy``
    (:attr:`~websearch_core.content.errors.FetchFailedError.unreached`). What to check is
    the search hint's; the lead allows for the URL being wrong, as one host may be.
    ``loopback`` says the host was this machine's own: a connection refused there is no
    blocked network but a server not running (:data:`PAGE_LOOPBACK_HINT`).

    Example:
        >>> page_unreached_hint("dns")[:50]
        'If the host name is right, this machine looks offl'
        >>> page_unreached_hint("connect", loopback=True)[:40]
        'Nothing listens at that loopback address'
    """
    if loopback and cause == "connect":
        return PAGE_LOOPBACK_HINT
    return f"{_FETCH_LEADS[cause]}: {_WHAT_TO_CHECK[cause]}."


def format_not_configured(failures: Iterable[tuple[str, str]]) -> str:
    """The spec's no-provider text, then why each chosen provider could not run.

    For a chain whose providers all lack their setup, so that none was asked (a listed
    or forced provider without its key): ``All web search providers failed`` would say
    they were asked, and the text alone would hide what to set. One reason follows the
    spec's text as it is; several are each led by their provider's id. It ends with one
    full stop.

    Example:
        >>> format_not_configured([("brave", "Set BRAVE_API_KEY."), ("kimi", "Set KIMI_KEY")])
        'No web search provider configured. brave: Set BRAVE_API_KEY; kimi: Set KIMI_KEY.'
    """
    reasons = [(provider, text.removesuffix(".")) for provider, text in failures]
    if not reasons:
        return NO_PROVIDER_MESSAGE
    if len(reasons) == 1:
        return f"{NO_PROVIDER_MESSAGE} {reasons[0][1]}."
    joined = join_clauses(f"{provider}: {text}" for provider, text in reasons)
    return f"{NO_PROVIDER_MESSAGE} {joined}."
