"""What a page fetch may connect to: http(s) only, and public addresses only by default.

A tool that fetches any URL a model (or a page the model read) names is a server-side
request forgery risk: ``http://169.254.169.254/`` hands out cloud credentials,
``http://localhost:6379/`` reaches internal services. So, unless the caller allows private
addresses (``allow_private_addresses=True``, ``WEBSEARCH_FETCH_ALLOW_PRIVATE=1`` or
``websearch fetch --allow-private``):

* :func:`check_url` refuses other schemes, cloud-metadata host names, and IP literals that
  are not public; it runs on the first URL and again on every redirect hop.
* :class:`~websearch_core.content.resolver.SafeResolver` is the connector's resolver: host
  names are resolved, and refused when any address they resolve to is not public. aiohttp
  connects only to the addresses the resolver returned, so the address checked is the
  address connected to (a DNS answer that changes between a check and the connection
  cannot slip through).
* In the headless browser, every request and WebSocket of a rendered page goes through
  :class:`~websearch_core.content.egress.EgressProxy`, a proxy on 127.0.0.1 that resolves
  the name itself (:func:`~websearch_core.content.lookup.checked_addresses`) and connects to
  the address it checked: Chromium never resolves a page's host names, so a rebinding DNS
  has no second lookup to answer. Through a proxy the user configured, that proxy resolves
  names instead, and they are checked by a lookup before each request.

Allowing private addresses does not open cloud instance-metadata services
(:mod:`~websearch_core.content.metadata`): each of the checks above still refuses their
addresses and names, in the same places, unless ``allowed_networks`` lists the service's
address itself. An agent given intranet access can be led by a page it reads to ask for
``http://169.254.169.254/``; that is the one private address worth more than the intranet.
"""

import importlib
import ipaddress
import re
import socket
from collections.abc import Iterable
from typing import Any
from urllib.parse import SplitResult, urlsplit

from ..clauses import join_clauses
from ..domain_names import encoded_host
from ..env_values import env_value
from ..errors import ConfigurationError
from .errors import FetchRefusedError
from .metadata import (
    METADATA_SERVICES,
    IPAddress,
    metadata_advice,
    metadata_host,
    metadata_service,
    opted_in,
    service_addresses,
)

__all__ = [
    "ALLOWED_SCHEMES",
    "ALLOW_HINT",
    "ALLOW_PRIVATE_ENV",
    "METADATA_HOSTS",
    "Networks",
    "address_problem",
    "address_refusal",
    "check_url",
    "check_url_form",
    "network_entries",
    "parse_networks",
    "private_allowed",
    "request_host",
    "resolved_problem",
]

ALLOW_PRIVATE_ENV = "WEBSEARCH_FETCH_ALLOW_PRIVATE"
ALLOWED_SCHEMES = frozenset({"http", "https"})
METADATA_HOSTS = frozenset(host for service in METADATA_SERVICES for host in service.hosts)
"""Cloud instance-metadata services by name (:data:`~.metadata.METADATA_SERVICES`)."""
_NUMERIC_HOST = re.compile(r"^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+)){0,3}$", re.IGNORECASE)
"""Hosts that C resolvers read as IPv4 (``2130706433``, ``0x7f.1``, ``127.1``)."""
_TRUE = frozenset({"1", "true", "t", "yes", "y", "on"})
_FALSE = frozenset({"0", "false", "f", "no", "n", "off"})
"""The words a boolean setting takes (pydantic's, as ``WEBSEARCH_CACHE=off``), in any case."""
ALLOW_HINT = (
    f"set allow_private_addresses=True or {ALLOW_PRIVATE_ENV}=1 to allow it "
    "(websearch fetch --allow-private)"
)
"""How to lift the address rules: the end of every address refusal. It names the
command's option too: a command-line user was told only of an argument and a variable."""


def private_allowed(explicit: bool | None = None) -> bool:
    """Whether private addresses are allowed: the explicit choice, else the environment.

    Raises:
        ConfigurationError: ``WEBSEARCH_FETCH_ALLOW_PRIVATE`` is set to a word that is not
            a boolean: ``=garbage`` used to mean off, silently, and ``=enabled`` too.

    Example:
        >>> private_allowed(True)
        True
    """
    if explicit is not None:
        return explicit
    value = (env_value(ALLOW_PRIVATE_ENV) or "").strip().lower()
    if value in _TRUE:
        return True
    if value and value not in _FALSE:
        raise ConfigurationError(
            f"{ALLOW_PRIVATE_ENV}: {value!r} is not a boolean; "
            "write 1, true, yes or on to allow private addresses, or 0, false, no or off"
        )
    return False


Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


def network_entries(networks: Iterable[str]) -> tuple[str, ...]:
    """The entries of an allow-list of networks, refusing a lone string.

    ``allowed_networks="10.1.2.0/24"`` is a string, and a string is a sequence of its
    characters: it was read as the networks ``"1"``, ``"0"``, ``"."`` ... and refused as
    ``allowed network '1' is not an IP network``, which named neither the mistake nor the fix.

    Raises:
        TypeError: ``networks`` is a ``str`` (or ``bytes``), not a list of them.

    Example:
        >>> network_entries(["10.1.2.0/24"])
        ('10.1.2.0/24',)
    """
    if isinstance(networks, str | bytes):
        raise TypeError(
            f"allowed_networks takes a list of networks, not one string: write [{networks!r}]"
        )
    return tuple(networks)


def parse_networks(networks: Iterable[str]) -> Networks:
    """Parse an allow-list of networks (``"10.1.2.0/24"``, ``"127.0.0.1"``).

    Raises:
        TypeError: ``networks`` is one string, not a list (see :func:`network_entries`).
        ValueError: An entry is not an IP network; the message names it.

    Example:
        >>> parse_networks(["10.1.2.0/24"])
        (IPv4Network('10.1.2.0/24'),)
    """
    parsed = []
    for entry in network_entries(networks):
        try:
            parsed.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ValueError(f"allowed network {entry!r} is not an IP network") from None
    return tuple(parsed)


def address_problem(
    address: str, allowed: Networks = (), *, allow_private: bool = False
) -> str | None:
    """Why an IP address may not be fetched from, or ``None`` when it may.

    IPv4-mapped and NAT64-style IPv6 forms are judged by the IPv4 address inside. An
    address inside one of the ``allowed`` networks (an intranet allow-list) passes, and so
    does every address when ``allow_private`` is set, except a cloud metadata service
    (:mod:`.metadata`): that one passes only when ``allowed`` names it.

    Example:
        >>> address_problem("10.1.2.3")
        'a private address'
        >>> address_problem("::ffff:127.0.0.1")
        'a loopback address'
        >>> address_problem("93.184.215.14") is None
        True
        >>> address_problem("100.100.100.200", allow_private=True)
        'a cloud metadata address (Alibaba Cloud)'
    """
    ip = _ip(address)
    inner = _embedded_ipv4(ip)
    judged = inner if inner is not None else ip
    service = metadata_service(judged)
    if service is not None:
        if opted_in(service, allowed, judged):
            return None
        return f"a cloud metadata address ({service.clouds})"
    if allow_private or any(ip.version == net.version and ip in net for net in allowed):
        return None
    if inner is not None:
        return address_problem(str(inner), allowed)
    for label, test in (
        ("an unspecified", ip.is_unspecified),
        ("a loopback", ip.is_loopback),
        ("a link-local", ip.is_link_local),
        ("a multicast", ip.is_multicast),
        ("a private", ip.is_private),
        ("a reserved", ip.is_reserved),
    ):
        if test:
            return f"{label} address"
    if not ip.is_global:
        return "a non-public address"
    return None


def address_refusal(
    address: str, allowed: Networks = (), *, allow_private: bool = False
) -> str | None:
    """:func:`address_problem` with what would lift it, as refusals end; ``None`` if allowed.

    A metadata address is not lifted by ``allow_private_addresses``: its refusal says so and
    names the address to list in ``allowed_networks`` instead.

    Example:
        >>> address_refusal("10.1.2.3").endswith("(websearch fetch --allow-private)")
        True
        >>> why = address_refusal("169.254.170.2", allow_private=True)
        >>> why.startswith("a cloud metadata address (AWS ECS task credentials), refused even")
        True
        >>> why.endswith("list 169.254.170.2 in allowed_networks to allow it")
        True
    """
    problem = address_problem(address, allowed, allow_private=allow_private)
    if problem is None:
        return None
    ip = _ip(address)
    inner = _embedded_ipv4(ip)
    judged = inner if inner is not None else ip
    if metadata_service(judged) is not None:
        return f"{problem}, {metadata_advice([str(judged)])}"
    return join_clauses([problem, ALLOW_HINT])


def _ip(address: str) -> IPAddress:
    """``address`` parsed, without an IPv6 zone (``fe80::1%eth0``).

    Raises:
        ValueError: Not an IP address (a host name).
    """
    return ipaddress.ip_address(address.split("%", 1)[0])


def _embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries (IPv4-mapped, 6to4, NAT64), if it does."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return None
    inner = ip.ipv4_mapped or ip.sixtofour
    if inner is None and ip in _NAT64:
        inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return inner


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def check_url(url: str, *, allow_private: bool, allowed: Networks = ()) -> SplitResult:
    """Validate a URL to fetch (the first one, and each redirect target).

    Args:
        url: The absolute URL.
        allow_private: Allow non-public addresses, cloud metadata services excepted (the
            scheme rule always applies).
        allowed: Networks allowed although not public; a metadata service only when an
            entry names its address (see :func:`~.metadata.opted_in`).

    Returns:
        The parsed URL.

    Raises:
        FetchRefusedError: Not an absolute http(s) URL, a metadata host name or address
            not listed in ``allowed``, or (unless allowed) a non-public IP literal; the
            message names the reason.
    """
    parts, host = _checked_form(url)
    _check_numeric_spelling(url, host, allow_private=allow_private, allowed=allowed)
    _check_metadata_name(url, host, allowed)
    try:
        refusal = address_refusal(host, allowed, allow_private=allow_private)
    except ValueError:
        return parts  # a name: checked by SafeResolver when connecting
    if refusal:
        raise FetchRefusedError(url, f"{host} is {refusal}", "address")
    return parts


def check_url_form(url: str) -> SplitResult:
    """Refuse a URL for how it is written, none of the address rules applied.

    What the writer can fix by writing the URL again: no scheme (``example.com``), another
    scheme, no host, a malformed port or host name. ``websearch fetch`` reports these as
    invalid input (exit status 2); a well-written URL the address rules refuse is a refusal
    of the page (1), as is a redirect to any of these. :func:`check_url` begins with it.

    Raises:
        FetchRefusedError: The URL is not an absolute http(s) URL with a valid host.
    """
    return _checked_form(url)[0]


def request_host(url: str) -> str:
    """The host a request to ``url`` names: what the checks judge and lookups resolve.

    An internationalised name in the form yarl sends (``domain_names.encoded_host``), so
    a lookup made here (through a proxy, the check before the request) asks for the name
    the proxy is asked for: ``socket.getaddrinfo`` given ``straße.de``
    encodes it with IDNA 2003 and resolved ``strasse.de``, another domain, while the
    request went to ``xn--strae-oqa.de``.

    Raises:
        FetchRefusedError: ``url`` is refused by :func:`check_url_form`.
    """
    return _checked_form(url)[1]


def _checked_form(url: str) -> tuple[SplitResult, str]:
    """:func:`check_url_form`'s parsed URL and the host as the request names it."""
    _check_given(url)
    try:
        parts = urlsplit(url.strip())
        port = parts.port  # raises on a non-numeric or out-of-range port
    except ValueError as error:
        raise FetchRefusedError(url, f"the URL is malformed ({error})", "invalid_url") from None
    scheme = parts.scheme.lower()
    if not scheme:
        raise _no_scheme(url)
    if scheme not in ALLOWED_SCHEMES:
        raise FetchRefusedError(
            url, f"only http and https URLs are fetched, not {scheme}:", "scheme"
        )
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise FetchRefusedError(url, "the URL has no host", "invalid_url")
    del port
    return parts, _encoded_name(url, host)


def _check_metadata_name(url: str, host: str, allowed: Networks) -> None:
    """Refuse a cloud metadata host name, private addresses allowed or not.

    Checked by name as well as by address: through a proxy the name is resolved by the
    proxy, and a lookup here may not see the address it gets. Listing the service's
    address in ``allowed_networks`` opens the name too.
    """
    service = metadata_host(host)
    if service is None or opted_in(service, allowed):
        return
    advice = metadata_advice(service_addresses(service))
    raise FetchRefusedError(
        url, f"{host} is a cloud metadata host ({service.clouds}), {advice}", "address"
    )


def _check_given(url: object) -> None:
    """Refuse a URL that is not a non-blank string, naming what was given instead.

    A bytes URL and ``None`` were refused as "the URL is empty", which sent people looking
    for a blank string; the reason now names the type that was passed.
    """
    if url is None:
        raise FetchRefusedError("None", "no URL was given", "invalid_url")
    if not isinstance(url, str):
        reason = f"the URL is {type(url).__name__}, not str"
        raise FetchRefusedError(str(url), reason, "invalid_url")
    if not url.strip():
        raise FetchRefusedError(url, "the URL is empty", "invalid_url")


def _encoded_name(url: str, host: str) -> str:
    """``host`` as the request names it, refused when no request can name it.

    The fetch is sent with the name yarl writes (IDNA 2008), so every check reads that
    form: ``ｍetadata.google.internal`` (a fullwidth ``ｍ``) passed the metadata name check
    and was sent as ``metadata.google.internal``; ``１２７.０.０.１`` is ``127.0.0.1``. A name
    that cannot be encoded (a label over 63 characters, ``a..b``) made the fetch fail with
    a bare ``UnicodeError`` from the resolver. IPv6 literals are not names.
    """
    if ":" in host:
        return host
    try:
        return encoded_host(host).rstrip(".")
    except UnicodeError:
        raise FetchRefusedError(
            url, f"{host[:80]} is not a valid host name", "invalid_url"
        ) from None


def _no_scheme(url: str) -> FetchRefusedError:
    """The refusal of a URL written without a scheme, with what to write instead.

    People and models write ``example.org/page`` and ``//example.org/page``: the advice is
    the URL in full. A file path (``/etc/passwd``, ``./a``, ``../a``, ``~/a``) is said to
    be one: ``https://`` put in front of it would advise ``https:///etc/passwd``.
    """
    written = url.strip()
    if written.startswith(("./", "../", "~")) or (
        written.startswith("/") and not written.startswith("//")
    ):
        return FetchRefusedError(
            url, "it is a local file path, and local files are not fetched", "scheme"
        )
    full = f"https:{written}" if written.startswith("//") else f"https://{written}"
    return FetchRefusedError(url, f"the URL has no scheme; write it in full, as {full}", "scheme")


def _check_numeric_spelling(url: str, host: str, *, allow_private: bool, allowed: Networks) -> None:
    """Refuse IPv4 addresses spelled other than as four decimal numbers.

    ``http://2130706433/`` and ``http://0x7f.1/`` are 127.0.0.1 to the system resolver;
    they are refused outright, naming the address they stand for.
    """
    if not _NUMERIC_HOST.match(host):
        return
    try:
        ipaddress.IPv4Address(host)
        return  # the standard spelling: judged like any IP literal
    except ValueError:
        pass
    try:
        address = socket.inet_ntoa(socket.inet_aton(host))
    except OSError:
        raise FetchRefusedError(url, f"{host} is not a valid host", "invalid_url") from None
    refusal = address_refusal(address, allowed, allow_private=allow_private)
    if refusal:
        raise FetchRefusedError(url, f"{host} means {address}, {refusal}", "address")
    raise FetchRefusedError(
        url, f"{host} is a non-standard spelling of {address}: write {address}", "invalid_url"
    )


def resolved_problem(
    infos: list[tuple[Any, ...]], allowed: Networks = (), *, allow_private: bool = False
) -> str | None:
    """The first refusal among ``getaddrinfo`` results (the address, why, and the remedy).

    For callers outside aiohttp; the text follows ``"<host> resolves to "``.
    """
    for info in infos:
        refusal = address_refusal(str(info[4][0]), allowed, allow_private=allow_private)
        if refusal:
            return f"{info[4][0]}, {refusal}"
    return None


def __getattr__(name: str) -> Any:
    """``SafeResolver`` at its old address: it moved to :mod:`.resolver` with aiohttp.

    Loaded by name on first use, so importing this module still loads no aiohttp.
    """
    if name == "SafeResolver":
        return importlib.import_module(".resolver", __package__).SafeResolver
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
