"""A site asked for and kept out in the same search: refused before any request.

``site:x.com -site:x.com``, or ``site:x.com`` typed by a model while the program passes
``exclude_domains=["x.com"]``, asks for pages no provider can return. Every provider of the
chain was sent it (an engine both operators, an API both lists, an answer engine the list
and the other in its question) and each failed as its own: ``All web search providers
failed: tavily: Tavily returned no renderable search content; brave: ...``, a request
spent on each and the blame on the providers, not on the filters. Refused here instead,
as ``after:`` later than ``before:`` is, naming both sides and where each was written.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from .query import Token

__all__ = ["site_conflict"]


@dataclass(frozen=True, slots=True)
class _Site:
    """One site of the search, wanted or unwanted.

    Its host, its path (``""`` for the whole host), and how the caller wrote it
    (``site:x.com`` in the query, ``include_domains x.com`` as a parameter).
    """

    host: str
    path: str
    written: str

    def within(self, other: "_Site") -> bool:
        """Whether every page of this site is also on ``other`` (as the checks match)."""
        on_host = self.host == other.host or self.host.endswith(f".{other.host}")
        return on_host and self.path.startswith(other.path)


def _sites(
    tokens: Iterable[Token], kind: str, operator: str, passed: Iterable[str], field: str
) -> list[_Site]:
    typed = [
        _Site(t.value, t.path, f"{operator}{t.value}{t.path}") for t in tokens if t.kind == kind
    ]
    return [*(_Site(domain, "", f"{field} {domain}") for domain in passed), *typed]


def site_conflict(
    tokens: Iterable[Token], include_domains: Iterable[str], exclude_domains: Iterable[str]
) -> str | None:
    """Why no page can be on a site asked for, or ``None`` when each site asked may have one.

    A wanted site wholly inside an unwanted one (the same host, a subdomain of it, or a
    path under an excluded path) is a contradiction; an unwanted part of a wanted site
    (``site:x.com -site:docs.x.com``) narrows it and is fine.

    Args:
        tokens: The query's tokens (:func:`~.query.tokenize`).
        include_domains: The ``include_domains`` passed, normalised.
        exclude_domains: The ``exclude_domains`` passed, normalised.

    Examples:
        >>> from .query import tokenize
        >>> print(site_conflict(tokenize("rust site:docs.x.com"), (), ("x.com",)))
        ... # doctest: +NORMALIZE_WHITESPACE
        query: site:docs.x.com is kept out by exclude_domains x.com, so no page can match
        it; drop one of the two
        >>> site_conflict(tokenize("rust site:x.com -site:docs.x.com"), (), ()) is None
        True
    """
    tokens = tuple(tokens)
    kinds = {token.kind for token in tokens}
    if not (include_domains or "site" in kinds) or not (exclude_domains or "exclude_site" in kinds):
        # Nothing to build: a query keeping a site out that wants none (``-site:x.com``),
        # or one wanting a site that keeps out only a word (``site:x.com -tutorial``).
        return None
    wanted = _sites(tokens, "site", "site:", include_domains, "include_domains")
    unwanted = _sites(tokens, "exclude_site", "-site:", exclude_domains, "exclude_domains")
    for site in wanted:
        for other in unwanted:
            if site.within(other):
                where = "include_domains" if site.written.startswith("include_") else "query"
                written = site.written.removeprefix("include_domains ")
                return (
                    f"{where}: {written} is kept out by {other.written}, so no page can "
                    "match it; drop one of the two"
                )
    return None
