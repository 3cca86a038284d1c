"""Small pure helpers shared by the simulated provider protocols.

Nothing here serves a request or knows about a particular provider.
"""

from datetime import datetime

from ..simulator import RecordedRequest

__all__ = ["bearer_token", "clamped_count", "is_country_code", "parse_timestamp"]


def bearer_token(request: RecordedRequest, scheme: str = "Bearer") -> str:
    """The token of an ``Authorization: <scheme> <token>`` header; empty when there is none.

    Args:
        request: The recorded request.
        scheme: The scheme the API documents.
    """
    authorization = request.header("Authorization") or ""
    prefix = f"{scheme} "
    return authorization[len(prefix) :].strip() if authorization.startswith(prefix) else ""


def parse_timestamp(published: str) -> datetime | None:
    """A result's ``published`` ISO 8601 text as a ``datetime``; ``None`` if unreadable.

    A trailing ``Z`` is read as ``+00:00``.

    Args:
        published: The timestamp as a simulated result carries it.

    Returns:
        The parsed instant, or ``None`` when ``published`` is not ISO 8601.

    Example:
        >>> parse_timestamp("2026-01-05T00:00:00Z")
        datetime.datetime(2026, 1, 5, 0, 0, tzinfo=datetime.timezone.utc)
        >>> parse_timestamp("last week") is None
        True
    """
    try:
        return datetime.fromisoformat(published.replace("Z", "+00:00"))
    except ValueError:
        return None


def clamped_count(value: str | None, default: int, maximum: int) -> int:
    """A result-count query parameter as an ``int`` from 1 to ``maximum``.

    Args:
        value: The raw parameter, ``None`` when the request has none.
        default: The count for a missing, empty or non-numeric ``value``.
        maximum: The largest count served.

    Returns:
        ``value`` (or ``default``) clamped to ``1..maximum``.

    Example:
        >>> clamped_count("80", 10, 50), clamped_count("0", 10, 50), clamped_count("x", 10, 50)
        (50, 1, 10)
        >>> clamped_count(None, 10, 50), clamped_count("", 5, 20)
        (10, 5)
    """
    try:
        count = int(value) if value else default
    except ValueError:
        return default
    return max(1, min(maximum, count))


def is_country_code(value: object) -> bool:
    """Whether ``value`` is written as an ISO 3166-1 alpha-2 code (two ASCII letters).

    Example:
        >>> is_country_code("DE"), is_country_code("Germany"), is_country_code(49)
        (True, False, False)
    """
    return isinstance(value, str) and len(value) == 2 and value.isascii() and value.isalpha()
