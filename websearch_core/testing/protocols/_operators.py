"""The query operators a simulated engine applies to its own results, as the real one does.

A real engine asked ``laravel site:github.com`` answers with github.com pages, and one
that reads ``filetype:`` (DuckDuckGo, Bing, Google and the engines serving their indexes)
answers ``filetype:pdf`` with PDFs; Mojeek reads no ``filetype:`` and treats it as words.
A simulator that served every result whatever the query said tested the core's filter
checks against answers no real engine gives: a ``filetype:`` the core trusts an engine
with came back with HTML pages. Each engine's protocol declares what it reads as data
(``operators = Operators(...)``); the simulator applies it to the results it serves
unless a test turns it off (:attr:`~websearch_core.testing.simulator.SimulatedProvider.
honour_operators`, for an upstream that leaks).

The query is read here on its own terms, not with the core's parser, so a test cannot
pass because both sides misread a directive the same way.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol, TypeVar
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from ..simulator import RecordedRequest

__all__ = ["Operators", "QueryConstraints", "constraints_in"]

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


@dataclass(frozen=True, slots=True)
class Operators:
    """Which operators one engine applies, and where its request carries the query text."""

    site: bool = False
    """``site:`` and ``-site:``: only pages on (or off) the site are served."""
    filetype: bool = False
    """``filetype:`` and ``-filetype:``: only files of (or not of) the type are served."""
    field: str = "q"
    """The query-string or form field holding the query (Yahoo's ``p``)."""

    def query_in(self, request: "RecordedRequest") -> str:
        """The query text ``request`` sent, from the URL or, for a form post, the body."""
        value = request.query_dict().get(self.field)
        if value is None and request.method == "POST" and request.body:
            value = dict(request.form()).get(self.field)
        return value or ""

    def select(self, request: "RecordedRequest", results: Sequence[_Result]) -> list[_Result]:
        """``results`` the engine serves for ``request``'s query, in order."""
        wanted = constraints_in(self.query_in(request))

        def served(result: _Result) -> bool:
            url = result.url
            if self.site:
                if wanted.sites and not any(_on_site(url, s) for s in wanted.sites):
                    return False
                if any(_on_site(url, s) for s in wanted.excluded_sites):
                    return False
            if self.filetype:
                if wanted.filetypes and not _of_type(url, wanted.filetypes):
                    return False
                if wanted.excluded_filetypes and _of_type(url, wanted.excluded_filetypes):
                    return False
            return True

        return [result for result in results if served(result)]
