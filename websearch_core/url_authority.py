"""What is wrong with a URL setting's host or port, found where the setting is read.

``base_urls``, ``proxy`` and ``searxng.endpoint`` were checked for their scheme alone:
``http://h:99999`` or ``http://[::1`` passed, ``websearch providers`` showed the provider
ready, and the first search failed inside aiohttp as ``InvalidUrlClientError`` or
``Invalid IPv6 URL``, naming no setting (and, for a base URL, counting against the
provider's cooldown). ``redis_url`` already said it in these words; now each setting does.
The value is never repeated: a gateway or proxy URL may carry a token or a password.

Example:
    >>> authority_problem("http://user:pw@127.0.0.1:8080/v1") is None
    True
    >>> authority_problem("https://gw.example:99999")
    'has an invalid host or port (a port is a number up to 65535; an IPv6 address goes in brackets)'
"""

from typing import Final
from urllib.parse import urlsplit

__all__ = ["INVALID_AUTHORITY", "authority_problem"]

INVALID_AUTHORITY: Final = (
    "has an invalid host or port (a port is a number up to 65535; an IPv6 address goes in brackets)"
)
"""Why a URL whose host or port cannot be read is refused (the words ``redis_url`` has)."""
NO_HOST: Final = "has no host name after its scheme (such as http://127.0.0.1:8080)"
"""Why a URL such as ``http://`` or ``https:///v1`` is refused."""


def authority_problem(url: str) -> str | None:
    """Why ``url``'s host or port cannot be connected to, as a predicate; ``None`` if none.

    Args:
        url: An ``http(s)`` URL (its scheme is checked by the caller).

    Returns:
        :data:`INVALID_AUTHORITY` or :data:`NO_HOST`, to follow the setting's name;
        never the value. A tab or line break is not a problem here: ``urlsplit`` and
        aiohttp drop them alike, so a base URL read with a trailing newline keeps working.
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname
        _ = parts.port  # raises for a port that is not a number up to 65535
    except ValueError:
        return INVALID_AUTHORITY
    return None if host else NO_HOST
