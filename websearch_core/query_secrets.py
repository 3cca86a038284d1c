"""The credentials written into a URL's query string (``?token=...``), found by their names.

A SearXNG instance behind a gateway that signs requests in by query parameter is set as
``endpoint = "https://searx.example/?token=<key>"``: the search URL keeps that query, so
the key leaves with every request, and a failing gateway that quotes the request it
refused (``GET /search?token=<key>&q=...``) put the key in the error, its log line and
the tool's text, since only a URL's userinfo was taken for a secret. A base URL may be
written so too. The rule is by name only, as for cookies
(:func:`websearch_core.redaction.cookie_secrets`): a long value under another name
(``engines=google,duckduckgo,bing``) is a setting, and masking it would mangle every text
naming those engines.
"""

from urllib.parse import parse_qsl, urlsplit

__all__ = ["CREDENTIAL_WORDS", "query_secrets"]

CREDENTIAL_WORDS = ("key", "token", "auth", "secret", "pass", "sig", "session", "credential")
"""A query parameter whose name holds one of these (case aside) carries a credential:
``key``, ``api_key``, ``apikey``, ``access_token``, ``auth``, ``client_secret``,
``password``, ``sig``/``signature``, ``session``, ``credentials``."""


def query_secrets(url: str) -> tuple[str, ...]:
    """The values of ``url``'s query parameters whose names say they are credentials.

    Each as written (``%2B`` and all: a server quoting the request line echoes it so)
    and decoded (as a server that read the parameter quotes it). Empty values are none.

    Example:
        >>> query_secrets("https://searx.example/?token=ab%2Bcd&format=json")
        ('ab+cd', 'ab%2Bcd')
        >>> query_secrets("https://searx.example/?engines=google,bing"), query_secrets("x")
        ((), ())
    """
    if "?" not in url:
        return ()
    try:
        query = urlsplit(url).query
    except ValueError:  # a bad port or bracket: the URL's own check names it where it is set
        return ()
    found: list[str] = []
    for pair in query.split("&"):
        name, equals, written = pair.partition("=")
        if not equals or not written or not _names_credential(name):
            continue
        decoded = parse_qsl(pair, keep_blank_values=True)
        found.extend([value for _, value in decoded])
        found.append(written)
    return tuple(dict.fromkeys(value for value in found if value))


def _names_credential(name: str) -> bool:
    """Whether a query parameter's name (as written) says its value is a credential."""
    lowered = name.lower()
    return any(word in lowered for word in CREDENTIAL_WORDS)
