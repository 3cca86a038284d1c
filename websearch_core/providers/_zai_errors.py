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
credits. The Coding Plan's spent windows (``1308``, ``1310``) are spent quotas too, until
the time their text names (:func:`reset_hint`).
"""

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, timezone
from typing import Final

from ..errors import AuthorizationError
from ..js_string import js_number
from ..provider_types import ErrorMap
from ..transport import clamp_hint, parse_retry_after
from ._json_api import text_or_none
from ._zai_parse import decode_text
from ._zai_rpc import BUSINESS_CODES

__all__ = ["ERRORS", "business_code", "error_text", "reset_hint"]

_RESET_AT: Final = re.compile(r"reset at (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})")
_RESET_ZONE: Final = timezone(timedelta(hours=8))
"""The zone the reset time is read in. The text gives none; public notes on the live
answers read it as Beijing time. Of the readings in question (UTC+8, UTC) it is the earlier
instant, so a wrong guess asks Z.AI again too soon, never keeps it unasked too long."""


def error_text(status: int, body: str) -> str | None:
    """Z.AI's own message from an error body (JSON ``msg`` / ``message`` / ``error``).

    Example:
        >>> error_text(401, '{"success": false, "msg": "token expired or incorrect"}')
        'token expired or incorrect'
    """
    data = decode_text(body, decoded=True)
    for candidate in (data, data.get("error") if isinstance(data, Mapping) else None):
        if isinstance(candidate, Mapping):
            for key in ("msg", "message", "error_message", "error"):
                value = text_or_none(candidate.get(key))  # a lone BOM is no message
                if value is not None:
                    return value
    return None


def business_code(body: str) -> str | None:
    """Z.AI's business code in an error body (``error.code``, else a top-level ``code``).

    Example:
        >>> business_code('{"error": {"code": "1113", "message": "Your account is in arrears"}}')
        '1113'
        >>> business_code('{"success": false, "code": 1113, "msg": "arrears"}')
        '1113'
    """
    data = decode_text(body, decoded=True)
    if not isinstance(data, Mapping):
        return None
    error = data.get("error")
    for candidate in (error if isinstance(error, Mapping) else {}, data):
        code = candidate.get("code")
        if isinstance(code, str) and (text := text_or_none(code)) is not None:
            return text
        if isinstance(code, int | float) and not isinstance(code, bool):
            return js_number(code)  # as the reference's reader has it: 1113.0 is 1113
    return None


def reset_hint(headers: Mapping[str, str], body: str, now: datetime | None = None) -> float | None:
    """Seconds until a spent window comes back: ``Retry-After``, else the body's reset time.

    Example:
        >>> now = datetime(2026, 8, 1, 2, 0, tzinfo=UTC)  # 10:00 at UTC+8
        >>> reset_hint({}, '{"error": {"code": "1310", "message": "[1310][Weekly/Monthly '
        ...     'Limit Exhausted. Your limit will reset at 2026-08-01 10:03:40]"}}', now)
        220.0
        >>> reset_hint({"retry-after": "3"}, "Your limit will reset at 2026-08-01 10:03:40")
        3.0
    """
    lowered = {key.lower(): value for key, value in headers.items()}
    header = parse_retry_after(lowered.get("retry-after"))
    if header is not None:
        return header
    found = _RESET_AT.search(body)
    if found is None:
        return None
    when = datetime.strptime(found[1], "%Y-%m-%d %H:%M:%S").replace(tzinfo=_RESET_ZONE)
    return clamp_hint((when - (now or datetime.now(UTC))).total_seconds())


ERRORS: Final = ErrorMap(
    prefix="Z.AI API error",
    detail=error_text,
    # The chain passes a Z.AI 401/403 through verbatim, so they keep Z.AI's own words.
    statuses={401: AuthorizationError, 403: AuthorizationError},
    code=business_code,
    codes=BUSINESS_CODES,
    hint=reset_hint,
)
"""How Z.AI's HTTP error statuses read: ``Z.AI API error (<status>): <message>``."""
