"""Whether a host names this machine: the one test for "loopback" a request's route asks.

A sign-in may go to a loopback address over plain http (:mod:`.sign_in_destination`), and a
loopback address is never reached through a proxy (:class:`~websearch_core.transport.Transport`):
both ask this, so that they agree on what stays on the machine.
"""

import ipaddress

__all__ = ["is_loopback"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a URL's host name, brackets removed) names this machine.

    Only ``localhost`` and loopback literals count: a name is not resolved, so a DNS answer
    cannot make a remote host look local.

    Example:
        >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("LocalHost")
        (True, True, True)
        >>> is_loopback("127.0.0.1.example.com"), is_loopback("10.0.0.1")
        (False, False)
    """
    name = host.strip().lower().rstrip(".")
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback
