"""Kimi Code search's request, built from the search and the environment alone.

Kept apart from :mod:`websearch_core.providers.kimi` (the facts, the error map and the
hooks) so each module has one job; nothing here sends anything. The wire details are
stated in the provider module's docstring.
"""

from collections.abc import Callable
from typing import Any, Final

from ..models import SearchParams
from ..transport import HttpRequest
from ._json_api import first_env, url_override
from .base import clamp_count

__all__ = [
    "DEFAULT_RESULTS",
    "KIMI_ENDPOINT",
    "MAX_RESULTS",
    "URL_ENV_VARS",
    "request_body",
    "search_request",
    "search_url",
]

KIMI_ENDPOINT: Final = "https://api.kimi.com/coding/v1/search"
URL_ENV_VARS: Final = ("MOONSHOT_SEARCH_BASE_URL", "KIMI_SEARCH_BASE_URL")
"""Full search-URL overrides, in precedence order."""
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 20
TIMEOUT_FIELD_SECONDS: Final = 30


def search_url(env: Callable[[str], str | None]) -> str:
    """The search URL: the first non-blank override variable, else the Kimi Code endpoint.

    Args:
        env: Reads one variable (``context.credentials.env``).

    Raises:
        ConfigurationError: The override is not an ``http(s)`` URL or carries user info.
    """
    value = first_env(env, URL_ENV_VARS)
    return KIMI_ENDPOINT if value is None else url_override(value, "Kimi search URL")


def request_body(params: SearchParams) -> dict[str, Any]:
    """The JSON body the search service receives for ``params`` (pure).

    Example:
        >>> request_body(SearchParams(query="x", limit=50))["limit"]
        20
    """
    return {
        "text_query": params.query,
        "limit": clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS),
        "enable_page_crawling": False,
        "timeout_seconds": TIMEOUT_FIELD_SECONDS,
    }


def search_request(params: SearchParams, key: str, env: Callable[[str], str | None]) -> HttpRequest:
    """The POST for ``params`` with the key as a bearer token, to :func:`search_url`."""
    return HttpRequest(
        method="POST",
        url=search_url(env),
        headers={
            "Accept": "application/json",
            "Content-Type": "application/json",
            "Authorization": f"Bearer {key}",
        },
        json=request_body(params),
    )
