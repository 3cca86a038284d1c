"""Google's error bodies for the Gemini provider: messages, bad-credential codes, wait hints.

The provider's two error maps and the pure functions they read (their
:attr:`~websearch_core.providers.base.ErrorMap.hint` is :func:`retry_delay_hint`).
Google's errors are ``{"error": {"code", "message", "status", "details"}}``; a 400 can
mean bad credentials (``API_KEY_INVALID``, ``UNAUTHENTICATED``), and the wait before a
retry is often only in the body (``RetryInfo.retryDelay``) or its text (``Please retry in
12s``).

An error's text is the ``error.message`` of Google's JSON error body, else the body; a 400
naming invalid credentials is an :class:`~websearch_core.errors.AuthorizationError`; a 429
whose body reads as a spent quota is :class:`~websearch_core.errors.QuotaExhaustedError`
until the server's retry hint (the hint also fills a rate limit's ``retry_after``). A key's
402 is a spent Prepay balance (:class:`~websearch_core.errors.CreditsSpentError`), checked
again after a while rather than held out until next month.
"""

import re
from collections.abc import Mapping
from typing import Any, Final

from ..errors import (
    AuthorizationError,
    ProviderConnectionError,
    ProviderTimeoutError,
    SearchProviderError,
)
from ..js_trim import trim
from ..json_decode import decoded_json
from ..transport import clamp_hint, parse_retry_after
from ._engine_failures import FailureTexts, reworded, without_label
from .base import ErrorMap

__all__ = [
    "CLOUD_CODE_ERRORS",
    "DEVELOPER_ERRORS",
    "PREPAID_STATUSES",
    "auth_error_code",
    "cloud_code_network_error",
    "error_text",
    "field_violations",
    "is_invalid_auth",
    "retry_delay_hint",
]

_INVALID_AUTH = re.compile(
    r"API_KEY_INVALID|API key not valid|UNAUTHENTICATED|invalid authentication credentials"
    r"|invalid[_ ]auth",
    re.IGNORECASE,
)
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$")
_RETRY_IN = re.compile(r"(?:retry|try again) in\s+(\d+(?:\.\d+)?)\s*(ms|s|seconds?)\b", re.I)
_RESET_AFTER = re.compile(r"reset after\s+(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?", re.I)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str | None:
    return (trim(value) or None) if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _error(body: str) -> Mapping[str, Any]:
    try:
        data = decoded_json(body)  # a head, its one mark dropped where it was decoded
    except ValueError:
        return {}
    if isinstance(data, list) and data:
        data = data[0]
    return _mapping(_mapping(data).get("error"))


def error_text(body: str) -> str:
    """Google's ``error.message`` from an error body, else the body itself."""
    return _text(_error(body).get("message")) or body.strip()


_BAD_REQUEST: Final = "type.googleapis.com/google.rpc.BadRequest"
"""The ``@type`` of the detail listing a bad request's fields (googleapis
``google/rpc/error_details.proto``, ``BadRequest.FieldViolation``)."""


def field_violations(body: str) -> tuple[str, ...]:
    """The ``field`` and ``description`` of each field violation an error body lists.

    Google's error model puts what was wrong with which field in a ``google.rpc.BadRequest``
    detail (``{"@type": ..., "fieldViolations": [{"field", "description"}]}``), which
    Gemini's 400s carry beside their message; the message alone may say only "Request
    contains an invalid argument.".

    Example:
        >>> field_violations('{"error": {"details": [{"@type": '
        ...     '"type.googleapis.com/google.rpc.BadRequest", "fieldViolations": '
        ...     '[{"field": "tools[0]", "description": "Cannot find field."}]}]}}')
        ('tools[0]', 'Cannot find field.')
    """
    details = _error(body).get("details")
    found: list[str] = []
    for detail in details if isinstance(details, list) else []:
        if _mapping(detail).get("@type") != _BAD_REQUEST:
            continue
        violations = _mapping(detail).get("fieldViolations")
        for violation in violations if isinstance(violations, list) else []:
            for key in ("field", "description"):
                text = _text(_mapping(violation).get(key))
                if text is not None:
                    found.append(text)
    return tuple(found)


def is_invalid_auth(status: int, body: str) -> bool:
    """A 400 that really means bad credentials (``API_KEY_INVALID``, ``UNAUTHENTICATED``)."""
    return status == 400 and bool(_INVALID_AUTH.search(body))


def _duration(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    match = _DURATION.match(value) if isinstance(value, str) else None
    if match is None:
        return None
    number = float(match.group(1))
    return number / 1000 if match.group(2) == "ms" else number


def retry_delay_hint(headers: Mapping[str, str], body: str) -> float | None:
    """Seconds the server asked us to wait, from headers or the error body; else ``None``.

    Honoured, first match wins: ``retry-after-ms``, ``Retry-After``,
    ``x-ratelimit-reset-after`` headers; a ``RetryInfo`` ``retryDelay`` (``"34s"``) in
    ``error.details``; ``retry in 12s`` / ``try again in 500ms`` or ``reset after 1h2m3s``
    in the text. Bounded as the transport bounds ``Retry-After`` (:func:`clamp_hint`):
    ``"1e309s"`` or ``NaN`` from a server is no reason to wait forever or to crash.
    """
    hint = _raw_hint(headers, body)
    return None if hint is None else clamp_hint(hint)


def _raw_hint(headers: Mapping[str, str], body: str) -> float | None:
    """:func:`retry_delay_hint` as the server wrote it, unbounded."""
    lowered = {key.lower(): value for key, value in headers.items()}
    milliseconds = _duration(lowered.get("retry-after-ms"))
    if milliseconds is not None:
        return milliseconds / 1000
    header = parse_retry_after(lowered.get("retry-after"))
    if header is not None:
        return header
    reset = _duration(lowered.get("x-ratelimit-reset-after"))
    if reset is not None:
        return reset
    details = _error(body).get("details")
    for detail in details if isinstance(details, list) else []:
        delay = _duration(_mapping(detail).get("retryDelay"))
        if delay is not None:
            return delay
    return _text_hint(body)


def _text_hint(body: str) -> float | None:
    match = _RETRY_IN.search(body)
    if match:
        number = float(match.group(1))
        return number / 1000 if match.group(2).lower() == "ms" else number
    reset = _RESET_AFTER.search(body)
    if reset and any(reset.groups()):
        hours, minutes, seconds = (float(group) if group else 0.0 for group in reset.groups())
        return hours * 3600 + minutes * 60 + seconds
    return None


def auth_error_code(body: str) -> str | None:
    """``INVALID_AUTH`` when an error body says the credentials are bad, else ``None``.

    Google answers a bad key with a 400 (``API_KEY_INVALID``, ``UNAUTHENTICATED``); a body
    whose ``error.code`` is another status is left to the status (a 401 is already an
    authorization failure, and says so in the shared classifier's words).

    Example:
        >>> auth_error_code('{"error": {"code": 400, "message": "API key not valid."}}')
        'INVALID_AUTH'
    """
    code = _int(_error(body).get("code"))
    if code is not None and code != 400:
        return None
    return "INVALID_AUTH" if _INVALID_AUTH.search(body) else None


def _detail(status: int, body: str) -> str:
    return error_text(body)


def _errors(prefix: str, prepaid: frozenset[int] = frozenset()) -> ErrorMap:
    return ErrorMap(
        prefix=prefix,
        detail=_detail,
        code=auth_error_code,
        codes={"INVALID_AUTH": AuthorizationError},
        hint=retry_delay_hint,
        prepaid=prepaid,
    )


PREPAID_STATUSES: Final = frozenset({402})
"""A key's 402: "Your prepayment credits are depleted", a Prepay billing account's balance
to top up in AI Studio (Google's announcement that it replaced the earlier 429:
https://discuss.ai.google.dev/t/api-update-depleted-prepay-credits-now-return-http-402-instead-of-429/183654;
https://ai.google.dev/gemini-api/docs/billing#prepay). Sign-ins have no such balance."""

DEVELOPER_ERRORS: Final = _errors("Gemini Developer API error", PREPAID_STATUSES)
"""How the Developer API's error bodies read (Google's ``error.message``, its wait hint), a
402 as a spent prepaid balance (:data:`PREPAID_STATUSES`)."""
CLOUD_CODE_ERRORS: Final = _errors("Gemini Cloud Code API error")
"""The same for Cloud Code Assist, under its own prefix."""


CLOUD_CODE_NETWORK: Final = FailureTexts(
    failed="Gemini Cloud Code API error (502): Network error: {}",
    timed_out="",  # a timeout keeps the transport's text: the reference gives none
)
"""The reference's ``Gemini Cloud Code API error (502)`` with the text ``Network error``,
for a sign-in's search that got no response at all; the transport's detail follows it."""

NETWORK_ERROR_STATUS: Final = 502
"""The status the reference gives a Cloud Code search that got no response at all."""


def cloud_code_network_error(error: SearchProviderError) -> ProviderConnectionError | None:
    """A Cloud Code search's last connection failure in the reference's words, else ``None``.

    The reference words a Cloud Code search that got no response at all ``Gemini Cloud
    Code API error (502): Network error``; ours said ``Gemini connection failed (<host>):
    <cause>``, the transport's text, which the detail keeps (``Network error: the
    connection failed (cloudcode-pa.googleapis.com): <cause>``). A copy, so the offline
    hints still read the host's failure from it. A timeout, and a connection that closed
    mid-answer (a response came), keep their own texts.

    Args:
        error: The failure after which no endpoint or resend is left.
    """
    if isinstance(error, ProviderTimeoutError) or not isinstance(error, ProviderConnectionError):
        return None
    detail = without_label(error.message, "Gemini")
    if not detail.startswith("the connection failed "):
        return None
    said = reworded(error, CLOUD_CODE_NETWORK, detail, NETWORK_ERROR_STATUS)
    return said if isinstance(said, ProviderConnectionError) else None  # a copy: always one
