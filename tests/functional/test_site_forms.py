"""A ``site:`` typed in the query reads a site only where ``include_domains`` would.

``site:example.com:8080`` was read as the site ``example.com`` and ``site:ftp://x.com`` as
``x.com`` (as was ``site:user@x.com``), while the domain lists refuse a port, a scheme other
than ``http(s)`` and a user name: the query filtered a search to a site the parameter
would not have taken, and dropped every result elsewhere. Such a word now stays plain query
text, which is how ``site:1.2.3.4`` (an IP address, which the lists refuse too) was already
read; a search holding one as ``site:`` is refused naming it (``test_site_refused.py``), as
engines read that word as their operator.
"""

import pytest
from pydantic import ValidationError

from websearch_core.filters.query import Token, tokenize
from websearch_core.models import SearchParams

_REFUSED_BY_THE_LISTS = {
    # what ``site:`` is given: the list entry of its site alone (a list takes no path)
    "example.com:8080": "example.com:8080",
    "https://example.com:8443/docs": "https://example.com:8443",
    "ftp://x.com": "ftp://x.com",
    "ftp://x.com/pub": "ftp://x.com",
    "user@x.com": "user@x.com",
}


@pytest.mark.parametrize("value", _REFUSED_BY_THE_LISTS)
@pytest.mark.parametrize("directive", ["site:", "-site:", "domain:"])
def test_a_site_the_lists_refuse_stays_plain_text(directive: str, value: str) -> None:
    with pytest.raises(ValidationError, match="not a domain name"):
        SearchParams(query="q", include_domains=[_REFUSED_BY_THE_LISTS[value]])
    typed = f"{directive}{value}"
    assert tokenize(typed) == (Token("text", typed, typed),)


@pytest.mark.parametrize("typed", ["site:1.2.3.4", "-site:[2001:db8::1]"])
def test_an_ip_address_stays_plain_text(typed: str) -> None:
    """Guard: an IP address was plain text before this change and still is."""
    assert tokenize(typed) == (Token("text", typed, typed),)


@pytest.mark.parametrize(
    ("typed", "kind", "value", "path"),
    [
        ("site:HTTP://Example.com/Docs", "site", "example.com", "/docs"),
        ("-site:https://*.docs.rs./", "exclude_site", "docs.rs", ""),
        ("host:www.example.com/", "site", "example.com", ""),
    ],
)
def test_a_site_the_lists_take_is_read_as_before(
    typed: str, kind: str, value: str, path: str
) -> None:
    """Guard: the forms both read (a web scheme, ``www.``, ``*.``, a path) are unchanged."""
    assert tokenize(typed) == (Token(kind, value, typed, path),)  # type: ignore[arg-type]
