"""A domain a search is filtered to (or from), read from what a caller or a model writes.

``include_domains`` and ``exclude_domains`` took only a bare ASCII name: ``bücher.de`` (an
internationalised name), ``example.com.`` (the root dot) and ``https://example.com/``
were refused as ``not a domain name``, though the query's ``site:`` directive reads the
last two as the same site, and every refusal said the same four words whether the value
was a URL with a path, an IP address or a typo. Here the forms that name the same site
are read as it (an internationalised name as its ASCII form, which is what a request
carries), and what cannot be one site is refused saying why.

Example:
    >>> domain_name("https://WWW.Bücher.de./")
    'xn--bcher-kva.de'
"""

import ipaddress
import re
from typing import Final, NoReturn

__all__ = ["ascii_host", "domain_name", "encoded_host", "site_domain"]

_DOMAIN: Final = re.compile(
    r"^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$"
)
"""A host name of two labels or more, ASCII (an internationalised one after IDNA)."""
_SCHEMES: Final = ("http", "https")
_AFTER_HOST: Final = re.compile("[/?#]")
"""Where a host ends in what follows a scheme (or starts a text without one)."""
_QUERY_OR_FRAGMENT: Final = re.compile("[?#]")
_EXAMPLE: Final = "such as 'example.com'"


def ascii_host(host: str) -> str:
    """``host`` as requests carry it: an internationalised name in its IDNA (``xn--``) form.

    A result's URL may name ``bücher.de`` where the filter holds ``xn--bcher-kva.de``;
    both sides are compared in this form (see :func:`encoded_host`, whose reading this is).
    A name that cannot be encoded is returned as given: a filter compares it as text.
    """
    if host.isascii():
        return host
    try:
        return encoded_host(host)
    except UnicodeError:
        return host


def encoded_host(host: str) -> str:
    """``host`` in the form a request names it, or an error when it has none.

    The form is IDNA 2008 with UTS 46 mapping, as yarl writes the host of every request
    URL and browsers do: the stdlib's ``idna`` codec is IDNA 2003, which maps ``straße.de``
    to ``strasse.de`` (another registered domain) where the request to ``https://straße.de``
    goes to ``xn--strae-oqa.de``, so a search for the one site asked engines for the other
    and kept the other's results, and the page fetcher checked one name and fetched the
    other. A name IDNA 2008 refuses (a symbol such as ``☃``) gets the 2003 form, yarl's
    fallback too. The one encoder for filters and the fetcher's checks alike, so a name is
    judged in the form that is sent.

    Raises:
        UnicodeError: No request can name ``host``: an empty label (``a..b``), a label
            over 63 characters, or a name neither IDNA version encodes.

    Examples:
        >>> encoded_host("straße.de")
        'xn--strae-oqa.de'
        >>> encoded_host("ｍetadata.google.internal")
        'metadata.google.internal'
    """
    if host.isascii():
        labels = host.split(".")
        # The last label may be empty: a fully qualified name's root dot.
        if any(not 0 < len(label) < 64 for label in labels[:-1]) or len(labels[-1]) > 63:
            raise UnicodeError("label empty or too long")
        return host
    import idna  # only an internationalised name needs its tables (yarl loads them anyway)

    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except UnicodeError:  # idna.IDNAError is one
        pass
    return host.encode("idna").decode("ascii")


def domain_name(text: str) -> str:
    """The domain ``text`` names, lower-cased, without ``www.``, in its ASCII form.

    Read as the same site: surrounding spaces, upper case, an ``http(s)://`` before it,
    a ``/`` or the root ``.`` after it, a leading ``*.`` (subdomains are matched anyway)
    and an internationalised name.

    Args:
        text: One ``include_domains`` or ``exclude_domains`` entry, as given.

    Raises:
        ValueError: ``text`` is not one site; the message says why (a path, a port, an
            IP address, or not a host name at all) and repeats the entry.
    """
    return _read(text, path_allowed=False)


def site_domain(text: str) -> str:
    """The domain a query's ``site:`` value names, read as :func:`domain_name` reads one.

    The one difference is a path, which ``site:`` may carry (``site:github.com/anthropics``,
    reference 6.2) and a list entry may not. Everything else a list entry is refused for
    (a port, another scheme than ``http(s)``, a user name, an IP address) is refused here
    too: ``site:example.com:8080`` was read as ``example.com`` and ``site:ftp://x.com`` as
    ``x.com`` while ``include_domains`` refused both, so the query filtered to a site the
    parameter would not have.

    Args:
        text: The value after ``site:`` (or ``-site:``), as typed.

    Raises:
        ValueError: ``text`` names no one site, in :func:`domain_name`'s words; the query
            reader keeps such a word as plain text.

    Example:
        >>> site_domain("https://WWW.GitHub.com/Anthropics")
        'github.com'
    """
    return _read(text, path_allowed=True)


def _read(text: str, *, path_allowed: bool) -> str:
    """The domain ``text`` names (see :func:`domain_name`), a path allowed or refused."""
    written = text.strip().lower()
    scheme, found, after = written.partition("://")
    if found and scheme not in _SCHEMES:
        _refuse(text, f"is not a web address; give the domain alone {_EXAMPLE}")
    written = after if found else written
    end = _AFTER_HOST.search(written)
    host = written if end is None else written[: end.start()]
    host = host.removeprefix("*.").rstrip(".").removeprefix("www.")
    rest = "" if end is None else written[end.start() :]
    if not path_allowed and rest.strip("/"):
        _refuse(text, f"has a path; give the domain alone, such as {host!r}")
    after_path = _QUERY_OR_FRAGMENT.search(rest)
    if after_path is not None:
        # ``site:x.com?y=1`` was read as ``x.com``, the ``?y=1`` dropped unsaid: no engine
        # keeps a search to a query string, so the site asked for is not the one read.
        _refuse(
            text,
            f"has a query or fragment ({rest[after_path.start() :]!r}), which no site "
            f"filter keeps to; give the domain, a path if you like, such as {host!r}",
        )
    if _is_ip(host):
        _refuse(text, f"is an IP address; give a domain name {_EXAMPLE}")
    if ":" in host or "@" in host:
        _refuse(text, f"has a port or a user name; give the domain alone {_EXAMPLE}")
    host = ascii_host(host)
    if not _DOMAIN.match(host):
        _refuse(text, f"(write one {_EXAMPLE})")
    return host


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    return True


def _refuse(text: str, why: str) -> NoReturn:
    raise ValueError(f"not a domain name: {text!r} {why}")
