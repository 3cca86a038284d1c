"""Why a page could not be fetched: refused by the safety policy, or failed.

Defined beside their owner (as :mod:`websearch_core.errors` notes for such classes)::

    WebSearchError
    └── FetchError                  one page fetch did not produce content (.url, .reason)
        ├── FetchRefusedError       refused by policy: scheme, address, redirects, size, type
        └── FetchFailedError        the server or the network failed (.status when HTTP)
            └── FetchTimeoutError   the call's deadline passed

Every message names the URL and the reason; none contains request headers or credentials
embedded in the URL (they are stripped before a URL is quoted).
"""

from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from ..control_chars import safe_message
from ..errors import WebSearchError

__all__ = [
    "FetchError",
    "FetchFailedError",
    "FetchRefusedError",
    "FetchTimeoutError",
    "RefusalReason",
    "safe_url",
]

RefusalReason = Literal[
    "invalid_url", "scheme", "address", "redirects", "too_large", "content_type"
]


def safe_url(url: str) -> str:
    """``url`` without a user name or password, fit for a message or a log line.

    Example:
        >>> safe_url("https://user:secret@example.org/a?b=1")
        'https://example.org/a?b=1'
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<invalid URL>"
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


class FetchError(WebSearchError):
    """A page fetch did not produce content.

    Args:
        url: The URL asked for (credentials are stripped from the message).
        reason: Why, in words; the message is ``"cannot fetch <url>: <reason>"``.
    """

    def __init__(self, url: str, reason: str) -> None:
        self.url = safe_url(url)
        self.reason = safe_message(reason)  # it may quote a page or a browser: no escapes
        super().__init__(f"cannot fetch {self.url}: {self.reason}")


class FetchRefusedError(FetchError):
    """The fetch was refused by the safety policy, before or during the transfer.

    ``kind`` says which rule: ``invalid_url``, ``scheme`` (only http and https),
    ``address`` (loopback, private, link-local, multicast, cloud metadata...), ``redirects``
    (more than the limit), ``too_large`` (the size cap) or ``content_type``.
    """

    def __init__(self, url: str, reason: str, kind: RefusalReason) -> None:
        super().__init__(url, reason)
        self.kind: RefusalReason = kind


class FetchFailedError(FetchError):
    """The server answered with an error status, or the network failed.

    Args:
        url: The URL asked for.
        reason: What happened.
        status: The HTTP status, when there was a response.
    """

    def __init__(self, url: str, reason: str, status: int | None = None) -> None:
        super().__init__(url, reason)
        self.status = status


class FetchTimeoutError(FetchFailedError):
    """The call's deadline passed before the page was fetched and extracted."""
