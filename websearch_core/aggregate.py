"""Merging several engines' results into one consensus list (pure functions, no I/O).

Used by the Public Web aggregate (:mod:`websearch_core.providers.public`), which fans a
query out to every credential-free engine and hands each engine's ranked sources here.

* **Canonical key** (:func:`canonical_key`): the host, lower-cased and without ``www.``
  (a non-default port is kept), then the path without one trailing slash (an empty path
  is ``/``), then the query without tracking parameters (:func:`is_tracking_param`) and
  with the remaining parameters sorted by name. The scheme and the fragment are ignored.
  A URL that cannot be parsed (no scheme, no host, a bad port) is its own key.
* **Votes:** engines that serve the same upstream index (:attr:`EngineResult.index`:
  DuckDuckGo, Bing and Yahoo serve ``bing``; Startpage, Ecosia and Google serve ``google``)
  count as one vote, so a Bing result echoed by two Bing front-ends is not "consensus".
* **Ranking** (:func:`merge_results`): more votes first, then the best 1-based rank any
  engine gave the URL, then first-seen order, with engines visited in priority order (the
  order of the input, never completion order).
* **Fields:** the title and URL come from the best-ranked occurrence (the earlier engine
  on a tie), except that an ``https`` URL replaces an ``http`` one when both were seen;
  the longest snippet wins, measured in UTF-16 units as the reference measures it;
  ``published_date``, ``age_seconds`` and ``author`` are each kept from the first
  occurrence that had them. :attr:`SearchSource.engines` records every engine that
  returned the URL and its rank, in priority order.

Beyond the spec: the spec's key keeps the whole query, so ``?utm_source=x`` splits one page
into two; here tracking parameters are dropped from the key (the URL shown is untouched),
and the spec counts every engine as a vote where here an upstream index counts once.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

from .domain_names import ascii_host
from .models import SearchSource, SourceRank
from .utf16_text import utf16_len

__all__ = [
    "TRACKING_PARAMS",
    "TRACKING_PREFIXES",
    "EngineResult",
    "canonical_key",
    "is_tracking_param",
    "merge_results",
]

TRACKING_PREFIXES: tuple[str, ...] = ("utm_", "pk_", "mtm_")
"""Query-parameter name prefixes that only track (Google Analytics, Matomo/Piwik)."""

TRACKING_PARAMS: frozenset[str] = frozenset(
    {
        "_ga", "_gl", "_hsenc", "_hsmi", "dclid", "fbclid", "gbraid", "gclid", "gclsrc",
        "igshid", "li_fat_id", "mc_cid", "mc_eid", "mkt_tok", "msclkid", "oly_anon_id",
        "oly_enc_id", "rb_clickid", "ref_src", "s_cid", "srsltid", "ttclid", "twclid",
        "vero_id", "wbraid", "wickedid", "yclid",
    }
)  # fmt: skip
"""Exact query-parameter names (lower case) that identify a click or campaign, not a page."""

_DEFAULT_PORTS = {"http": 80, "https": 443}
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_SPACE = re.compile(r"\s")
_ENCODED_SLASH = re.compile("%2F", re.IGNORECASE)
_PATH_SAFE = "/:@!$&'()*+,;=~"
"""What stays literal in a canonical path (RFC 3986's pchar and ``/``); the rest is encoded."""
_LITERAL_PATH = re.compile(r"[A-Za-z0-9_.\-/:@!$&'()*+,;=~]*")
"""A path already in its one spelling: no escapes, nothing to encode (the usual case)."""


@dataclass(frozen=True, slots=True)
class EngineResult:
    """One engine's successful answer: its ranked sources and the index it serves.

    Attributes:
        engine: The engine's provider id (``duckduckgo``).
        sources: Its sources, best first.
        index: The upstream index it serves (``bing``); ``None`` counts as its own index.
    """

    engine: str
    sources: Sequence[SearchSource]
    index: str | None = None

    @property
    def vote(self) -> str:
        """What this engine's vote is counted under: its index, else its own id."""
        return self.index or f"engine:{self.engine}"


def is_tracking_param(name: str) -> bool:
    """Whether a query parameter only tracks the click (``utm_source``, ``gclid``, ...).

    Example:
        >>> is_tracking_param("UTM_Campaign"), is_tracking_param("q")
        (True, False)
    """
    lowered = name.lower()
    return lowered in TRACKING_PARAMS or lowered.startswith(TRACKING_PREFIXES)


def canonical_key(url: str) -> str:
    """The key under which two URLs count as the same page.

    Example:
        >>> canonical_key("https://WWW.Example.org/docs/?utm_source=x&b=2&a=1#top")
        'example.org/docs?a=1&b=2'
        >>> canonical_key("http://example.org")
        'example.org/'
        >>> canonical_key("https://café.example/Café") == canonical_key(
        ...     "https://xn--caf-dma.example/Caf%c3%a9")
        True
    """
    text = url.strip()
    if not _SCHEME.match(text):
        return url
    try:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return url
    if not host or _SPACE.search(host):
        return url
    if not host.isascii():
        host = ascii_host(host)  # the form the domain filters compare in
    host = host.removeprefix("www.")
    if port is not None and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host = f"{host}:{port}"
    path = _canonical_path(parts.path) if parts.path else "/"
    if path != "/" and path.endswith("/"):
        path = path[:-1]
    return f"{host}{path}{_canonical_query(parts.query)}"


def _canonical_path(path: str) -> str:
    """One spelling of a path: ``/Caf%C3%A9``, ``/Café`` and ``/Caf%c3%a9`` are the same page.

    Every escape is decoded and the result encoded again, except an encoded ``/``, which
    is a different path than a literal one.
    """
    if _LITERAL_PATH.fullmatch(path):
        return path
    return "%2F".join(
        quote(unquote(piece), safe=_PATH_SAFE) for piece in _ENCODED_SLASH.split(path)
    )


def _canonical_query(query: str) -> str:
    if not query:
        return ""
    pairs = [
        (name, value)
        for name, value in parse_qsl(query, keep_blank_values=True)
        if not is_tracking_param(name)
    ]
    if not pairs:
        return ""
    pairs.sort(key=lambda pair: pair[0])  # stable: repeated names keep their order
    return f"?{urlencode(pairs)}"


@dataclass(slots=True)
class _Merged:
    """A URL being merged: the best occurrence so far and what every engine said."""

    source: SearchSource
    best_rank: int
    order: int
    votes: set[str] = field(default_factory=set)
    ranks: list[SourceRank] = field(default_factory=list)
    engines_seen: set[str] = field(default_factory=set)
    https_url: str | None = None


def merge_results(results: Iterable[EngineResult], limit: int) -> list[SearchSource]:
    """Merge engines' ranked sources into one consensus list of at most ``limit``.

    Args:
        results: Each successful engine's answer, in engine priority order.
        limit: How many merged sources to return.

    Returns:
        The merged sources, most-agreed first, each with its :attr:`SearchSource.engines`.
    """
    merged: dict[str, _Merged] = {}
    for result in results:
        for position, source in enumerate(result.sources):
            _add(merged, result, position + 1, source)
    ranked = sorted(merged.values(), key=lambda m: (-len(m.votes), m.best_rank, m.order))
    return [_finish(entry) for entry in ranked[: max(0, limit)]]


def _add(merged: dict[str, _Merged], result: EngineResult, rank: int, source: SearchSource) -> None:
    key = canonical_key(source.url)
    entry = merged.get(key)
    if entry is None:
        entry = _Merged(source=source, best_rank=rank, order=len(merged))
        merged[key] = entry
    else:
        entry.source = _combine(entry, source, rank)
        entry.best_rank = min(entry.best_rank, rank)
    if entry.https_url is None and source.url.lower().startswith("https://"):
        entry.https_url = source.url
    if result.engine not in entry.engines_seen:  # an engine listing a page twice: first rank
        entry.engines_seen.add(result.engine)
        entry.ranks.append(SourceRank(engine=result.engine, rank=rank))
    entry.votes.add(result.vote)


def _combine(entry: _Merged, source: SearchSource, rank: int) -> SearchSource:
    current = entry.source
    update: dict[str, object] = {}
    if rank < entry.best_rank:
        update["url"] = source.url
        if source.title.strip() or not current.title.strip():
            update["title"] = source.title
    elif not current.title.strip() and source.title.strip():
        update["title"] = source.title
    if _length(source.snippet) > _length(current.snippet):
        update["snippet"] = source.snippet
    if current.published_date is None and source.published_date is not None:
        update["published_date"] = source.published_date
    if current.age_seconds is None and source.age_seconds is not None:
        update["age_seconds"] = source.age_seconds
    if current.author is None and source.author is not None:
        update["author"] = source.author
    return current.model_copy(update=update) if update else current


def _length(snippet: str | None) -> int:
    """A snippet's length as the reference compares it: UTF-16 units, as JavaScript counts.

    An emoji is two units, so four emoji outweigh seven letters there; counting code points
    kept the other engine's snippet. Surrounding blanks still count for nothing.
    """
    return utf16_len(snippet.strip()) if snippet else 0


def _finish(entry: _Merged) -> SearchSource:
    update: dict[str, object] = {"engines": tuple(entry.ranks)}
    url = entry.source.url
    if entry.https_url is not None and not url.lower().startswith("https://"):
        update["url"] = entry.https_url
    return entry.source.model_copy(update=update)
