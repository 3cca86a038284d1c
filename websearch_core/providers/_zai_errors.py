"""How Z.AI's HTTP error statuses read: the error map and the message extractor.

Kept apart from :mod:`websearch_core.providers.zai` (the facts and the hooks) and from
:mod:`websearch_core.providers._zai_rpc` (errors inside a 2xx reply). A status reads
``Z.AI API error (<status>): <message>`` after the shared classifier; for 401 and 403 the
text stays Z.AI's own, because the chain passes Z.AI's authorization messages through
verbatim (e.g. ``Z.AI API error (401): token expired or incorrect``).

Z.AI's error codes page (https://docs.z.ai/api-reference/api-code) answers two different
things with HTTP ``429``: "Interface request concurrency exceeded" and "Account balance
exhausted". The body's business code tells them apart: ``1113`` is "Your account is in
arrears, please recharge and try again", a spent balance (:data:`~._zai_rpc.BUSINESS_CODES`,
kept there because the envelope inside a 2xx reply carries the same codes), which the
shared classifier would read as a rate limit, since its text names neither a quota nor
credits.
"""

from collections.abc import Mapping
from typing import Final

from ..errors import AuthorizationError
from ..provider_types import ErrorMap
from ._zai_parse import decode_text
from ._zai_rpc import BUSINESS_CODES

__all__ = ["ERRORS", "business_code", "error_text"]


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


def business_code(body: str) -> str | None:
    """Z.AI's business code in an error body (``error.code``, else a top-level ``code``).

    Example:
        >>> business_code('{"error": {"code": "1113", "message": "Your account is in arrears"}}')
        '1113'
        >>> business_code('{"success": false, "code": 1113, "msg": "arrears"}')
        '1113'
    """
    data = decode_text(body)
    if not isinstance(data, Mapping):
        return None
    error = data.get("error")
    for candidate in (error if isinstance(error, Mapping) else {}, data):
        code = candidate.get("code")
        if isinstance(code, str) and code.strip():
            return code.strip()
        if isinstance(code, int) and not isinstance(code, bool):
            return str(code)
    return None


ERRORS: Final = ErrorMap(
    prefix="Z.AI API error",
    detail=error_text,
    # The chain passes a Z.AI 401/403 through verbatim, so they keep Z.AI's own words.
    statuses={401: AuthorizationError, 403: AuthorizationError},
    code=business_code,
    codes=BUSINESS_CODES,
)
"""How Z.AI's HTTP error statuses read: ``Z.AI API error (<status>): <message>``."""
