"""Brave's one follow-up: after a 422 that rejected a locale, the same search without it.

Kept apart from :mod:`websearch_core.providers.brave` (the facts, the error map and the
hooks) so the hook reads as the decision and this module as how it is made: which error
codes mean a bad key (never resent), which query parameters a 422 may reject, the resend
itself and the filters it dropped. Pure: nothing here sends anything.
"""

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from ..models import AppliedFilter, FilterName
from ..provider_types import Exchange
from ..transport import HttpRequest, error_head
from ._json_api import json_object

__all__ = ["OPTIONAL_FILTERS", "TOKEN_ERRORS", "dropped_filters", "error_code", "resend_without"]

TOKEN_ERRORS: Final = frozenset({"SUBSCRIPTION_TOKEN_INVALID", "SUBSCRIPTION_TOKEN_MISSING"})
"""Error codes of a missing or bad key, which Brave sends with 422 rather than 401."""
OPTIONAL_FILTERS: Final[Mapping[str, FilterName]] = {
    "search_lang": "language",
    "country": "country",
}
"""Query parameters Brave may reject with 422, and the filter each one carries."""


def error_code(body: str) -> str | None:
    """The ``code`` of an error body's ``error`` (or first of ``errors``), if any."""
    data = json_object(body)
    if data is None:
        return None
    error = data.get("error")
    errors = data.get("errors")
    if not isinstance(error, Mapping) and isinstance(errors, list) and errors:
        error = errors[0]
    code = error.get("code") if isinstance(error, Mapping) else None
    return code if isinstance(code, str) else None


def resend_without(exchange: Exchange) -> HttpRequest | None:
    """The same request without its optional filters, after a 422 that may reject them.

    ``None`` for any other status, a 422 that names a bad key, or a request that sent no
    optional filter (there is nothing to drop, so the 422 stands).
    """
    response = exchange.response
    if response.status != 422 or error_code(error_head(response.as_http())) in TOKEN_ERRORS:
        return None
    params = exchange.request.params
    kept = [(key, value) for key, value in params if key not in OPTIONAL_FILTERS]
    if len(kept) == len(params):
        return None
    return replace(exchange.request, params=kept)


def dropped_filters(sent: Sequence[tuple[str, str]]) -> tuple[AppliedFilter, ...]:
    """The optional filters the first request ``sent``, reported as ignored."""
    values = dict(sent)
    return tuple(
        AppliedFilter(name=name, value=values[param], applied=("ignored",))
        for param, name in OPTIONAL_FILTERS.items()
        if param in values
    )
