"""The Firecrawl search request, as pure functions: endpoint (hosted or self-hosted), body.

Kept apart from :mod:`websearch_core.providers.firecrawl`, which states the wire facts
these functions follow and holds the hooks. :data:`FILTERS` lives here because the body
and the filter record must read the same rule for the domain lists
(:meth:`~websearch_core.filters.FilterSupport.sent_domains`): what the record calls
``native`` is what the body carries.
"""

from collections.abc import Mapping
from datetime import date
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from ..filters import QUERY_OPERATORS, FilterSupport
from ..filters.render import site_operators
from ..models import FilterName, SearchParams
from ._json_api import GOOGLE_TBS_RECENCY, first_env, url_override
from .base import clamp_count

__all__ = [
    "BASE_URL_ENV_VARS",
    "DEFAULT_RESULTS",
    "FILTERS",
    "FIRECRAWL_ENDPOINT",
    "MAX_RESULTS",
    "configured_base_url",
    "request_body",
    "search_endpoint",
    "time_filter",
]

FIRECRAWL_ENDPOINT: Final = "https://api.firecrawl.dev/v2/search"
BASE_URL_ENV_VARS: Final = ("FIRECRAWL_BASE_URL", "FIRECRAWL_API_URL")
"""Self-hosted base URL variables, in precedence order."""
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 100

_VERSION_SUFFIXES: Final = ("/v1", "/v2")
_DOMAIN_LISTS: Final[frozenset[FilterName]] = frozenset({"include_domains", "exclude_domains"})
_DOMAIN_FIELDS: Final[tuple[tuple[FilterName, str], ...]] = (
    ("include_domains", "includeDomains"),
    ("exclude_domains", "excludeDomains"),
)
"""Each domain filter and the v2 body key carrying it: arrays of bare hostnames, never both
in one request ("includeDomains and excludeDomains cannot both be specified"; Firecrawl's
own server, firecrawl/firecrawl ``apps/api/src/controllers/v2/types.ts``
``searchRequestSchema`` @ 000404f7, and its Python SDK, ``apps/python-sdk/firecrawl/v2/
methods/search.py`` @ 0a562b2, which sends them)."""
FILTERS: Final = FilterSupport(
    native=_DOMAIN_LISTS | {"date_after", "date_before", "recency", "country"},
    query=QUERY_OPERATORS - _DOMAIN_LISTS,
    one_domain_list=True,
    # The excluded list, when the included one goes, is written as -site: (a documented
    # query operator), as is every list sent to a self-hosted /v1 base.
    query_fallback=_DOMAIN_LISTS,
    unpromised=frozenset({"filetype", "exclude_filetype"}),
)
"""Dates, recency, country and one domain list as body fields; the rest in the query."""


def configured_base_url(environ: Mapping[str, str | None]) -> str | None:
    """The self-hosted base URL from ``FIRECRAWL_BASE_URL`` / ``FIRECRAWL_API_URL``, if set.

    Args:
        environ: The variables to read (the provider passes what its credentials resolver
            sees, never ``os.environ`` directly, so code-supplied environments are honoured).
            Blank values count as unset.

    Example:
        >>> configured_base_url({"FIRECRAWL_BASE_URL": " ", "FIRECRAWL_API_URL": "http://h"})
        'http://h'
    """
    return first_env(environ.get, BASE_URL_ENV_VARS)


def search_endpoint(base_url: str | None) -> str:
    """The search URL for a custom base URL, or the hosted endpoint when there is none.

    Raises:
        ConfigurationError: The base is not an ``http(s)`` URL with a host, or carries
            user info.

    Example:
        >>> search_endpoint("https://fc.internal.example/api/")
        'https://fc.internal.example/api/v2/search'
        >>> search_endpoint("http://127.0.0.1:3002/v1?x=1#top")
        'http://127.0.0.1:3002/v1/search'
    """
    if base_url is None:
        return FIRECRAWL_ENDPOINT
    parts = urlsplit(url_override(base_url.strip(), "Firecrawl base URL"))
    path = parts.path.rstrip("/")
    if not path.endswith(_VERSION_SUFFIXES):
        path += "/v2"
    return urlunsplit((parts.scheme.lower(), parts.netloc, f"{path}/search", "", ""))


def _us_date(day: date) -> str:
    return f"{day.month:02d}/{day.day:02d}/{day.year:04d}"


def time_filter(params: SearchParams) -> str | None:
    """The ``tbs`` value for ``params``, or ``None`` for no time filter.

    Example:
        >>> time_filter(SearchParams(query="x", date_after=date(2025, 3, 1)))
        'cdr:1,cd_min:03/01/2025'
        >>> time_filter(SearchParams(query="x", recency="week"))
        'qdr:w'
    """
    if params.date_after is not None or params.date_before is not None:
        parts = ["cdr:1"]
        if params.date_after is not None:
            parts.append(f"cd_min:{_us_date(params.date_after)}")
        if params.date_before is not None:
            parts.append(f"cd_max:{_us_date(params.date_before)}")
        return ",".join(parts)
    if params.recency is not None:
        return GOOGLE_TBS_RECENCY[params.recency]
    return None


def is_v1(endpoint: str) -> bool:
    """Whether ``endpoint`` is a self-hosted base pinned to the v1 API (pure).

    Example:
        >>> is_v1("http://127.0.0.1:3002/v1/search"), is_v1(FIRECRAWL_ENDPOINT)
        (True, False)
    """
    return urlsplit(endpoint).path.rstrip("/").endswith("/v1/search")


def _written_domains(params: SearchParams, sent: frozenset[FilterName]) -> str:
    """``params.query`` with the ``sent`` lists written as ``site:`` / ``-site:`` (pure).

    For a ``/v1`` base, whose search body has no domain fields in the v2 schema's sense:
    the lists go where v1 reads them, the query operators: several sites as one
    ``(site:a OR site:b)`` group (reference 6.3; Firecrawl's query is Google's syntax,
    which reads ``OR``), as the renderer writes them for every provider.
    """
    include = params.include_domains if "include_domains" in sent else ()
    exclude = params.exclude_domains if "exclude_domains" in sent else ()
    return " ".join([params.query, *site_operators(include, exclude)])


def request_body(params: SearchParams, *, v1: bool = False) -> dict[str, Any]:
    """The JSON body Firecrawl receives for ``params`` (pure; ``v1``: a ``/v1`` base).

    Examples:
        >>> request_body(SearchParams(query="x", limit=3))
        {'query': 'x', 'limit': 3, 'sources': [{'type': 'web'}]}
        >>> request_body(SearchParams(query="x", include_domains=("docs.rs",)))["includeDomains"]
        ['docs.rs']
        >>> request_body(SearchParams(query="x", exclude_domains=("a.com",)), v1=True)["query"]
        'x -site:a.com'
    """
    sent = FILTERS.sent_domains(params.include_domains, params.exclude_domains)
    body: dict[str, Any] = {
        "query": _written_domains(params, sent) if v1 and sent else params.query,
        "limit": clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS),
        "sources": [{"type": "web"}],
    }
    tbs = time_filter(params)
    if tbs is not None:
        body["tbs"] = tbs
    if params.country is not None:
        body["country"] = params.country.upper()
    if not v1:
        for name, key in _DOMAIN_FIELDS:
            if name in sent:
                body[key] = list(getattr(params, name))
    return body
