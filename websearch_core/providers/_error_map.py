"""Reading a non-2xx response through a provider's :class:`ErrorMap`: its typed error.

Split out of :mod:`websearch_core.providers.base` (which re-exports every public name) so
the contract module keeps the hooks and this one the single place where a status becomes
an error: the request loop's final check, a provider's own ``check`` and the tests all
come here. Pure: nothing here sends or waits.
"""

from datetime import UTC, datetime, timedelta

from ..errors import CreditsSpentError, QuotaExhaustedError, RateLimitedError, SearchProviderError
from ..provider_types import ErrorMap, ProviderInfo
from ..transport import HttpResponse, SseResponse, error_head, parse_retry_after, raise_for_status

__all__ = ["error_for", "raise_for_error_map", "wait_hint"]


def wait_hint(errors: ErrorMap, response: HttpResponse | SseResponse) -> float | None:
    """The server's wait hint as ``errors`` reads it (default: the clamped ``Retry-After``)."""
    if errors.hint is None:  # header names in any letter case (HTTP/2 sends lower case)
        return parse_retry_after(response.as_http().header("Retry-After"))
    return errors.hint(response.headers, error_head(response.as_http()))


def raise_for_error_map(
    info: ProviderInfo, errors: ErrorMap, response: HttpResponse | SseResponse
) -> None:
    """Raise the right error for a non-2xx response, reading the provider's error map.

    A 2xx returns before any text is built.
    """
    error = error_for(info, errors, response)
    if error is not None:
        raise error


def error_for(
    info: ProviderInfo, errors: ErrorMap, response: HttpResponse | SseResponse
) -> SearchProviderError | None:
    """The typed error a non-2xx response reads as through ``errors``; ``None`` for a 2xx.

    Order: the map's :attr:`ErrorMap.response_error` (an error only the whole response
    tells), else a status, error code, spent-balance phrase or used-up usage window the
    map names, else the shared classifier (401, spent credits, 402, 403, 429 with its
    hints, 5xx); a spent quota at a status of :attr:`ErrorMap.prepaid` is a spent prepaid
    balance; then the map's :attr:`ErrorMap.hint` fills a wait the classifier could not
    see.
    """
    if 200 <= response.status < 300:
        return None
    http = response.as_http()
    head = error_head(http)
    error = errors.response_error(http) if errors.response_error is not None else None
    if error is None:
        error = _by_status(info, errors, http, head)
    if response.status in errors.prepaid:
        error = _as_prepaid(error)
    return error if errors.hint is None else _with_wait(error, errors.hint(http.headers, head))


def _by_status(
    info: ProviderInfo, errors: ErrorMap, response: HttpResponse, head: str
) -> SearchProviderError:
    """The error the status (and the map's fixed texts and codes) make of ``response``."""
    status = response.status
    message = errors.messages.get(status)
    if message is None:
        detail = errors.detail(status, head) if errors.detail is not None else None
        prefix = errors.prefix or f"{info.label} API error"
        message = f"{prefix} ({status}): {detail or head.strip()}".rstrip(": ")
    error_class = errors.statuses.get(status)
    if error_class is None and errors.code is not None:
        code = errors.code(head)
        error_class = errors.codes.get(code) if code is not None else None
    if error_class is None and status < 500 and _names_spent_balance(errors, head):
        error_class = CreditsSpentError
    if error_class is not None:
        return error_class(info.id, message, status)
    window = _window_named(errors, head) if status < 500 else None
    if window is not None:
        return QuotaExhaustedError(
            info.id, message, status, reset_at=_window_end(errors, response, window)
        )
    return _classified(info.id, response, message)


def _names_spent_balance(errors: ErrorMap, head: str) -> bool:
    """Whether the error body's head holds one of :attr:`ErrorMap.prepaid_phrases`."""
    if not errors.prepaid_phrases:
        return False
    lowered = head.lower()
    return any(phrase.lower() in lowered for phrase in errors.prepaid_phrases)


def _window_named(errors: ErrorMap, head: str) -> float | None:
    """The length of the first :attr:`ErrorMap.usage_windows` entry the body's head names."""
    lowered = head.lower()
    for phrase, seconds in errors.usage_windows:
        if phrase.lower() in lowered:
            return seconds
    return None


def _window_end(errors: ErrorMap, response: HttpResponse, window: float) -> datetime:
    """When a used-up window is over: the server's wait when it gives one, else ``window``.

    A window starts before the answer that says it is used up, so its whole length from
    now is the latest it can end: the provider comes back then, not sooner in vain.
    """
    wait = wait_hint(errors, response)
    return datetime.now(UTC) + timedelta(seconds=window if wait is None else wait)


def _as_prepaid(error: SearchProviderError) -> SearchProviderError:
    """``error`` as a spent prepaid balance when it is a plain spent quota, else as it is.

    Only the class changes (text, status and any reset time are kept): a rate limit or an
    authorization failure at the same status stays what it is.
    """
    if type(error) is not QuotaExhaustedError:
        return error
    return CreditsSpentError(error.provider, error.message, error.status, reset_at=error.reset_at)


def _classified(provider: str, response: HttpResponse, message: str) -> SearchProviderError:
    """What the shared classifier raises for a non-2xx ``response``, as a value."""
    try:
        raise_for_status(provider, response, message)
    except SearchProviderError as error:
        return error
    raise AssertionError(f"status {response.status} was not classified")  # pragma: no cover


def _with_wait(error: SearchProviderError, hint: float | None) -> SearchProviderError:
    """``error`` carrying the server's wait when it is a rate limit or quota without one.

    Without it a spent quota whose reset only the body named would count as spent until
    next month rather than for the seconds the server said.
    """
    if hint is None:
        return error
    if isinstance(error, RateLimitedError) and error.retry_after is None:
        return RateLimitedError(error.provider, error.message, error.status, retry_after=hint)
    if isinstance(error, QuotaExhaustedError) and error.reset_at is None:
        reset_at = datetime.now(UTC) + timedelta(seconds=hint)  # a spent balance stays one
        return type(error)(error.provider, error.message, error.status, reset_at=reset_at)
    return error
