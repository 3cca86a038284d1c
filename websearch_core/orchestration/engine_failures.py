"""Why each engine of a fan-out failed, in a few words: ``bing: rate limited (HTTP 429)``.

When every credential-free engine fails, the aggregate's error lists them all. Each
engine's own sentence carries advice (``... configure a credentialed provider such as
Brave ...``) that, repeated seven times, made the line run past a screen, and the mark the
failure leaves keeps only its first 300 characters: ``websearch providers`` and the next
searches named one or two engines and cut off mid-word. Here each engine gets a few words
saying what kind of failure it was, so the whole list fits; each engine's full sentence
is still logged (``websearch --verbose``). An engine skipped for its mark says when the
mark ends with the whole date, as its own sentence does, when the list fits with it; only
a list that would not shortens each end within a day to its time of day.
"""

from collections.abc import Sequence

from ..clauses import join_clauses
from ..errors import (
    AuthorizationError,
    BrowserLoadError,
    ChallengeError,
    DeadlineExceededError,
    EmptyResponseError,
    HostNotFoundError,
    ProviderConnectionError,
    ProviderTimeoutError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from .ledger import ProviderSkippedError

__all__ = ["CUT_OFF", "brief_failure", "engines_failed_text"]

CUT_OFF = "cut off at the deadline"
"""What an engine still running when the fan-out stopped waiting did: it did not fail."""

_OWN_WORDS_LIMIT = 80
"""The most of an unclassified error's own message a summary keeps."""

_KINDS: tuple[tuple[type[SearchProviderError], str, bool], ...] = (
    (ChallengeError, "blocked by a bot challenge", False),  # its 429 is ours
    (QuotaExhaustedError, "out of quota", True),
    (RateLimitedError, "rate limited", True),
    (AuthorizationError, "blocked the request", True),
    (ProviderTimeoutError, "timed out", False),
    (DeadlineExceededError, "out of time", False),
    (HostNotFoundError, "host not found", False),
    (ProviderConnectionError, "could not connect", False),
    (BrowserLoadError, "the browser could not load the page", False),
    (EmptyResponseError, "found nothing", False),
    (ResponseParseError, "returned a page it could not read", False),
)
"""Error classes, most specific first, what each says of an engine, and whether its status
can be one a server sent. A connection that failed, a timeout, a page the browser could not
load, an empty or unreadable answer carry a status of ours for the chain's bookkeeping (503,
504, 204, 502): shown, it
read as the server's (``ecosia: could not connect (HTTP 503)``, when no HTTP answer came)."""


def brief_failure(error: BaseException, *, dated: bool = True) -> str:
    """What became of one engine, in a few words, with its HTTP status when there is one.

    Args:
        error: Why the engine gave nothing.
        dated: A skipped engine's hold ends with its whole date (else, within a day, its
            time of day alone).

    Example:
        >>> brief_failure(RateLimitedError("bing", "Bing HTML error (429)", 429))
        'rate limited (HTTP 429)'
        >>> brief_failure(SearchProviderError("yahoo", "Yahoo HTML error (503)", 503))
        'failed (HTTP 503)'
        >>> brief_failure(ProviderConnectionError("ecosia", "connection reset", 503))
        'could not connect'
    """
    if isinstance(error, ProviderSkippedError):
        brief = (error.dated_brief if dated else None) or error.brief
        return f"{brief}, not asked" if brief else error.message
    status = getattr(error, "status", None)
    http = f" (HTTP {status})" if isinstance(status, int) and 400 <= status < 600 else ""
    for kind, words, server_status in _KINDS:
        if isinstance(error, kind):
            return f"{words}{http}" if server_status else words
    if http:
        return f"failed{http}"
    own = error.message if isinstance(error, SearchProviderError) else str(error)
    own = " ".join(own.split())
    if len(own) > _OWN_WORDS_LIMIT:
        own = own[: _OWN_WORDS_LIMIT - 3].rstrip() + "..."
    return f"failed: {own}" if own else "failed"


def engines_failed_text(
    failures: Sequence[tuple[str, BaseException | None]], *, room: int | None = None
) -> str:
    """Every engine and why it failed, engines failing alike named together, in order.

    ``None`` in place of an error is an engine that was cut off (:data:`CUT_OFF`).

    Args:
        failures: Each engine's id and error, in order.
        room: The most characters the text may take (what a mark keeps of it, after its
            prefix); only when the text with each hold's whole end date would not fit are
            the ends within a day shortened to their time of day. ``None``: no bound.

    Example:
        >>> wall = ChallengeError("duckduckgo", "wall")
        >>> slow = RateLimitedError("bing", "slow down")
        >>> engines_failed_text([("duckduckgo", wall), ("bing", slow), ("google", wall)])
        'duckduckgo, google: blocked by a bot challenge; bing: rate limited (HTTP 429)'
    """
    text = _grouped(failures, dated=True)
    if room is not None and len(text) > room:
        return _grouped(failures, dated=False)
    return text


def _grouped(failures: Sequence[tuple[str, BaseException | None]], *, dated: bool) -> str:
    """The engines failing alike named together, in order of their first failure."""
    grouped: dict[str, list[str]] = {}
    for engine_id, error in failures:
        why = CUT_OFF if error is None else brief_failure(error, dated=dated)
        grouped.setdefault(why, []).append(engine_id)
    return join_clauses(f"{', '.join(ids)}: {why}" for why, ids in grouped.items())
