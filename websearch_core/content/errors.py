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

from collections.abc import Callable
from typing import Literal, Self
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

    def masked(self, mask: Callable[[str], str]) -> Self:
        """This error with ``mask`` applied to its reason, or itself when nothing changes.

        A reason may quote what a proxy or a library said about a request, which can hold
        the proxy's credentials; the fetcher masks every reason with the secrets it knows.
        The copy is a new exception: it keeps no chained exception (whose text the mask
        never saw), only the attributes (``kind``, ``status``).
        """
        reason = mask(self.reason)
        if reason == self.reason:
            return self
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.reason = reason
        clone.args = (f"cannot fetch {self.url}: {reason}",)
        return clone


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
        unreached: How no host was reached, when none was: ``dns`` (the name did not
            resolve), ``connect`` (refused, or no route) or ``proxy`` (the proxy could not
            be reached), as a provider's failure says it
            (:func:`~websearch_core.connection_causes.unreached_cause`); ``None`` when a
            host was reached or may have been (a reset, a timeout, an error status).
    """

    def __init__(
        self, url: str, reason: str, status: int | None = None, *, unreached: str | None = None
    ) -> None:
        super().__init__(url, reason)
        self.status = status
        self.unreached = unreached


class FetchTimeoutError(FetchFailedError):
    """The call's deadline passed before the page was fetched and extracted."""
