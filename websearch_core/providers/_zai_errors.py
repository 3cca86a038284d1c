"""How Z.AI's HTTP error statuses read: the error map and the message extractor.

Kept apart from :mod:`websearch_core.providers.zai` (the facts and the hooks) and from
:mod:`websearch_core.providers._zai_rpc` (errors inside a 2xx reply). A status reads
``Z.AI API error (<status>): <message>`` after the shared classifier; for 401 and 403 the
text stays Z.AI's own, because the chain passes Z.AI's authorization messages through
verbatim (e.g. ``Z.AI API error (401): token expired or incorrect``).
"""

from collections.abc import Mapping
from typing import Final

from ..errors import AuthorizationError
from ..provider_types import ErrorMap
from ._zai_parse import decode_text

__all__ = ["ERRORS", "error_text"]


def error_text(status: int, body: str) -> str | None:
    """Z.AI's own message from an error body (JSON ``msg`` / ``message`` / ``error``).

    Example:
        >>> error_text(401, '{"success": false, "msg": "token expired or incorrect"}')
        'token expired or incorrect'
    """
    data = decode_text(body)
    for candidate in (data, data.get("error") if isinstance(data, Mapping) else None):
        if isinstance(candidate, Mapping):
            for key in ("msg", "message", "error_message", "error"):
                value = candidate.get(key)
                if isinstance(value, str) and value.strip():
                    return value.strip()
    return None


ERRORS: Final = ErrorMap(
    prefix="Z.AI API error",
    detail=error_text,
    # The chain passes a Z.AI 401/403 through verbatim, so they keep Z.AI's own words.
    statuses={401: AuthorizationError, 403: AuthorizationError},
)
"""How Z.AI's HTTP error statuses read: ``Z.AI API error (<status>): <message>``."""
