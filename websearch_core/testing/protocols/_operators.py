"""The query operators a simulated engine applies to its own results, as the real one does.

A real engine asked ``laravel site:github.com`` answers with github.com pages, and one
that reads ``filetype:`` (DuckDuckGo, Bing, Google and the engines serving their indexes)
answers ``filetype:pdf`` with PDFs; Mojeek reads no ``filetype:`` and treats it as words.
A simulator that served every result whatever the query said tested the core's filter
checks against answers no real engine gives: a ``filetype:`` the core trusts an engine
with came back with HTML pages. The search APIs are no different: Brave's, Kagi's and
TinyFish's query reads ``site:``, Serper's goes to Google, Tavily takes
``include_domains``, Perplexity ``search_domain_filter`` and the answer engines' search
tools their own lists (:class:`DomainLists`, where a request carries them). Each
protocol declares what it reads as data (``operators = Operators(...)``); the simulator
applies it to the results it serves unless a test turns it off
(:attr:`~websearch_core.testing.simulator.SimulatedProvider.honour_operators`, for an
upstream that leaks).

The query is read here on its own terms, not with the core's parser, so a test cannot
pass because both sides misread a directive the same way.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from ..simulator import RecordedRequest

__all__ = ["DomainLists", "Operators", "QueryConstraints", "constraints_in"]

_OPERATOR: Final = re.compile(r"^(?P<neg>-?)(?P<key>site|filetype):(?P<value>\S+)$", re.IGNORECASE)


class _Linked(Protocol):
    @property
    def url(self) -> str: ...


_Result = TypeVar("_Result", bound=_Linked)


def _site(value: str) -> tuple[str, str]:
    """``(host, path prefix)`` of a ``site:`` value, as an engine compares it."""
    text = value.strip().lower()
    text = text.split("://", 1)[-1]
    host, _, path = text.partition("/")
    return host.removeprefix("www."), f"/{path}" if path else ""


def _on_site(url: str, site: tuple[str, str]) -> bool:
    parts = urlsplit(url)
    host = (parts.hostname or "").removeprefix("www.")
    domain, prefix = site
    on_host = host == domain or host.endswith(f".{domain}")
    return on_host and parts.path.lower().startswith(prefix)


def _of_type(url: str, extensions: Sequence[str]) -> bool:
    path = urlsplit(url).path.lower()
    return any(path.endswith(f".{extension}") for extension in extensions)


@dataclass(frozen=True, slots=True)
class QueryConstraints:
    """The ``site:`` and ``filetype:`` operators written in one query, any of each kind."""

    sites: tuple[tuple[str, str], ...] = ()
    excluded_sites: tuple[tuple[str, str], ...] = ()
    filetypes: tuple[str, ...] = ()
    excluded_filetypes: tuple[str, ...] = ()


def constraints_in(query: str) -> QueryConstraints:
    """The operators in ``query``; brackets and ``OR`` between them are read as any-of.

    Example:
        >>> constraints_in("(site:github.com OR site:www.php.net) -filetype:.PDF rust")
        QueryConstraints(sites=(('github.com', ''), ('php.net', '')), excluded_sites=(), \
filetypes=(), excluded_filetypes=('pdf',))
    """
    sites: list[tuple[str, str]] = []
    excluded_sites: list[tuple[str, str]] = []
    filetypes: list[str] = []
    excluded_filetypes: list[str] = []
    for word in query.replace("(", " ").replace(")", " ").split():
        match = _OPERATOR.match(word)
        if match is None:
            continue
        negated, key, value = bool(match["neg"]), match["key"].lower(), match["value"]
        if key == "site":
            (excluded_sites if negated else sites).append(_site(value))
        else:
            (excluded_filetypes if negated else filetypes).append(value.lower().lstrip("."))
    return QueryConstraints(
        tuple(sites), tuple(excluded_sites), tuple(filetypes), tuple(excluded_filetypes)
    )


_PICK: Final = re.compile(r"^(?P<key>[^\[\]]+)\[(?P<field>[^=\]]+)=(?P<value>[^\]]*)\]$")
"""A path step ``tools[type=web_search]``: in the list at ``tools``, the first object whose
``type`` is ``web_search`` (an answer engine's search tool among the request's tools)."""


def _step(value: Any, key: str) -> Any:
    """One step of a dotted path: an object's key, or ``key[field=value]`` into a list."""
    if not isinstance(value, dict):
        return None
    pick = _PICK.match(key)
    if pick is None:
        return value.get(key)
    items = value.get(pick["key"])
    if not isinstance(items, list):
        return None
    wanted = pick["value"]
    found = (i for i in items if isinstance(i, dict) and i.get(pick["field"]) == wanted)
    return next(found, None)


def _json_at(request: "RecordedRequest", path: str) -> Any:
    """The value at dotted ``path`` of ``request``'s JSON body; ``None`` when absent.

    Example:
        >>> from websearch_core.testing.simulator import RecordedRequest
        >>> body = b'{"tools": [{"type": "x"}, {"type": "web_search", "filters": {"a": [1]}}]}'
        >>> _json_at(RecordedRequest("POST", "/", (), {}, body), "tools[type=web_search].filters.a")
        [1]
    """
    try:
        value: Any = request.json()
    except ValueError:
        return None
    for key in path.split("."):
        value = _step(value, key)
    return value


@dataclass(frozen=True, slots=True)
class DomainLists:
    """Where a search API's request carries its own domain lists, as its docs describe.

    Paths are dotted keys into the JSON body (``advanced_settings.source_policy.
    include_domains``), a step ``key[field=value]`` picking an object out of a list (an
    answer engine's search tool: ``tools[type=web_search].filters.allowed_domains``),
    query-string keys when ``in_query_string``, or header names when ``in_header`` (Jina's
    ``X-Site``). A list is a JSON array of domains, or one string joined by ``separator``
    (one domain when there is none).
    """

    include: str
    """The included domains: only pages on them (or their subdomains) are served."""
    exclude: str | None = None
    """The excluded domains: their pages are not served."""
    minus_excludes: bool = False
    """One list for both, an entry starting with ``-`` excluded (Perplexity's
    ``search_domain_filter``); ``exclude`` is then unused."""
    include_wins: bool = False
    """With both lists sent, only the included one applies (Parallel's source policy)."""
    in_query_string: bool = False
    in_header: bool = False
    separator: str | None = None

    def _listed(self, request: "RecordedRequest", path: str | None) -> list[str]:
        if path is None:
            return []
        value: Any
        if self.in_header:
            value = request.header(path)
        elif self.in_query_string:
            value = request.query_dict().get(path)
        else:
            value = _json_at(request, path)
        if isinstance(value, str):
            value = value.split(self.separator) if self.separator else [value]
        if not isinstance(value, list):
            return []
        return [item.strip() for item in value if isinstance(item, str) and item.strip()]

    def read(self, request: "RecordedRequest") -> QueryConstraints:
        """The domains ``request`` asks for, as the sites a query's operators would name."""
        include = self._listed(request, self.include)
        exclude = self._listed(request, self.exclude)
        if self.minus_excludes:
            exclude = [item[1:] for item in include if item.startswith("-")]
            include = [item for item in include if not item.startswith("-")]
        if self.include_wins and include:
            exclude = []
        return QueryConstraints(
            sites=tuple(_site(d) for d in include),
            excluded_sites=tuple(_site(d) for d in exclude),
        )


@dataclass(frozen=True, slots=True)
class Operators:
    """Which operators one engine applies, and where its request carries the query text."""

    site: bool = False
    """``site:`` and ``-site:``: only pages on (or off) the site are served."""
    filetype: bool = False
    """``filetype:`` and ``-filetype:``: only files of (or not of) the type are served."""
    field: str = "q"
    """The query-string, form or JSON-body field holding the query (Yahoo's ``p``, Kagi's
    ``query``)."""
    domains: DomainLists | None = None
    """The API's own domain lists, applied as ``site:`` / ``-site:`` would be."""

    def query_in(self, request: "RecordedRequest") -> str:
        """The query text ``request`` sent, from the URL or, for a post, the form or JSON."""
        value = request.query_dict().get(self.field)
        if value is None and request.method == "POST" and request.body:
            if request.body.lstrip().startswith(b"{"):
                found = _json_at(request, self.field)
                value = found if isinstance(found, str) else None
            else:
                value = dict(request.form()).get(self.field)
        return value or ""

    def _wanted(self, request: "RecordedRequest") -> QueryConstraints:
        """The query's operators this engine reads, and its domain lists, together."""
        written = constraints_in(self.query_in(request))
        listed = self.domains.read(request) if self.domains is not None else QueryConstraints()
        return QueryConstraints(
            sites=(written.sites if self.site else ()) + listed.sites,
            excluded_sites=(written.excluded_sites if self.site else ()) + listed.excluded_sites,
            filetypes=written.filetypes if self.filetype else (),
            excluded_filetypes=written.excluded_filetypes if self.filetype else (),
        )

    def select(self, request: "RecordedRequest", results: Sequence[_Result]) -> list[_Result]:
        """``results`` the engine serves for ``request``'s query, in order."""
        wanted = self._wanted(request)

        def served(result: _Result) -> bool:
            url = result.url
            if wanted.sites and not any(_on_site(url, s) for s in wanted.sites):
                return False
            if any(_on_site(url, s) for s in wanted.excluded_sites):
                return False
            if wanted.filetypes and not _of_type(url, wanted.filetypes):
                return False
            return not (wanted.excluded_filetypes and _of_type(url, wanted.excluded_filetypes))

        return [result for result in results if served(result)]
