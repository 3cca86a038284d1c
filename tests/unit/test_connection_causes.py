"""Connection failures read the same whether aiohttp or headless Chromium met them."""

import aiohttp
import pytest

from websearch_core.connection_causes import (
    connection_cause,
    navigation_at_loopback,
    navigation_cause,
    navigation_unreached,
)

URL = "https://www.google.com/search?q=private+words&num=10"


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("ERR_NAME_NOT_RESOLVED", "the host name could not be resolved"),
        ("ERR_NAME_RESOLUTION_FAILED", "the host name could not be resolved"),
        ("ERR_CONNECTION_REFUSED", "could not connect"),
        ("ERR_ADDRESS_UNREACHABLE", "could not connect"),
        ("ERR_INTERNET_DISCONNECTED", "could not connect"),
        ("ERR_CONNECTION_RESET", "the connection was reset"),
        ("ERR_CONNECTION_CLOSED", "the server closed the connection"),
        ("ERR_EMPTY_RESPONSE", "the server closed the connection"),
        ("ERR_CERT_AUTHORITY_INVALID", "its TLS certificate was not accepted"),
        ("ERR_CERT_DATE_INVALID", "its TLS certificate was not accepted"),
        ("ERR_SSL_PROTOCOL_ERROR", "the TLS handshake failed"),
        ("ERR_PROXY_CONNECTION_FAILED", "the proxy could not be reached"),
        ("ERR_TUNNEL_CONNECTION_FAILED", "the proxy could not be reached"),
        ("ERR_CONNECTION_TIMED_OUT", "the connection timed out"),
        ("ERR_TIMED_OUT", "the connection timed out"),
    ],
)
def test_a_chromium_network_error_gets_words_and_its_code_not_the_url(
    code: str, words: str
) -> None:
    message = f"Page.goto: net::{code} at {URL}"
    assert navigation_cause(message) == f"{words} (net::{code})"


def test_an_unknown_network_code_is_named_alone_and_other_failures_are_not_network_ones() -> None:
    assert navigation_cause(f"Page.goto: net::ERR_BLOCKED_BY_CLIENT at {URL}") == (
        "net::ERR_BLOCKED_BY_CLIENT"
    )
    assert navigation_cause("Page.goto: Target page, context or browser has been closed") is None
    assert navigation_cause("Page.goto: Navigation failed because page crashed!") is None


def test_both_paths_use_one_phrase_per_kind() -> None:
    """The same failure met by aiohttp and by Chromium: the same words, then the source."""
    key = aiohttp.client_reqrep.ConnectionKey("example.org", 443, True, True, None, None, None)
    pairs = [
        (aiohttp.ClientConnectorDNSError(key, OSError(-2, "x")), "ERR_NAME_NOT_RESOLVED"),
        (aiohttp.ClientConnectorError(key, OSError(111, "x")), "ERR_CONNECTION_REFUSED"),
        (aiohttp.ServerDisconnectedError(), "ERR_EMPTY_RESPONSE"),
        (aiohttp.ClientConnectionResetError(), "ERR_CONNECTION_RESET"),
    ]
    for error, code in pairs:
        aiohttp_words = connection_cause(error).rsplit(" (", 1)[0]
        chromium_words = (navigation_cause(f"net::{code} at {URL}") or "").rsplit(" (", 1)[0]
        assert aiohttp_words == chromium_words, (type(error).__name__, code)


CAPTURED = {
    "refused": (
        "Page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:55497/search?q=x\n"
        "Call log:\n"
        '  - navigating to "http://127.0.0.1:55497/search?q=x", waiting until "load"\n'
    ),
    "unresolved": (
        "Page.goto: net::ERR_NAME_NOT_RESOLVED at https://www.bing.invalid/search?q=x\n"
        "Call log:\n"
        '  - navigating to "https://www.bing.invalid/search?q=x", waiting until "load"\n'
    ),
    "proxy": (
        "Page.goto: net::ERR_PROXY_CONNECTION_FAILED at https://www.bing.com/search?q=x\n"
        "Call log:\n"
        '  - navigating to "https://www.bing.com/search?q=x", waiting until "load"\n'
    ),
    "offline": (
        "Page.goto: net::ERR_INTERNET_DISCONNECTED at https://www.bing.com/search?q=x\n"
        "Call log:\n"
        '  - navigating to "https://www.bing.com/search?q=x", waiting until "load"\n'
    ),
    "no route": (
        "Page.goto: net::ERR_ADDRESS_UNREACHABLE at http://[100::1]/\n"
        "Call log:\n"
        '  - navigating to "http://[100::1]/", waiting until "load"\n'
    ),
}
"""Playwright 1.65.2's messages from Chromium (/usr/bin/chromium) on this machine: a closed
loopback port, a ``.invalid`` name, a proxy on a closed port, a context set offline, and
an address in the IPv6 discard prefix (``100::/64``, routed nowhere)."""


@pytest.mark.parametrize(
    ("captured", "cause"),
    [
        ("refused", "connect"),
        ("unresolved", "dns"),
        ("proxy", "proxy"),
        ("offline", "connect"),
        ("no route", "connect"),
    ],
)
def test_chromium_reaching_no_host_is_classed_as_aiohttp_is(captured: str, cause: str) -> None:
    # A headless load refused, unresolved or without a route was a BrowserLoadError, which
    # counted at once and never made the machine offline, while aiohttp's same failures did.
    assert navigation_unreached(CAPTURED[captured]) == cause


@pytest.mark.parametrize(
    "code",
    [
        "ERR_CONNECTION_RESET",
        "ERR_CONNECTION_CLOSED",
        "ERR_CONNECTION_TIMED_OUT",
        "ERR_TUNNEL_CONNECTION_FAILED",  # the proxy answered: reached
        "ERR_PROXY_AUTH_UNSUPPORTED",
        "ERR_CONNECTION_FAILED",
        "ERR_CERT_AUTHORITY_INVALID",
        "ERR_BLOCKED_BY_CLIENT",
    ],
)
def test_chromium_failures_that_may_have_reached_a_host_are_not(code: str) -> None:
    assert navigation_unreached(f"Page.goto: net::{code} at {URL}") is None


def test_a_failure_without_a_network_code_is_not_unreached() -> None:
    assert navigation_unreached("Page.goto: Navigation failed because page crashed!") is None


REFUSED_AT_LOOPBACK = {
    "localhost": (
        "Page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:36853/\n"
        "Call log:\n"
        '  - navigating to "http://localhost:36853/", waiting until "load"\n'
    ),
    "::1": (
        "Page.goto: net::ERR_CONNECTION_REFUSED at http://[::1]:36853/\n"
        "Call log:\n"
        '  - navigating to "http://[::1]:36853/", waiting until "load"\n'
    ),
}
"""Playwright 1.65.2's messages from /usr/bin/chromium here (stop 45), a closed port by name
and by IPv6 literal; :data:`CAPTURED`'s ``refused`` is the IPv4 one."""


@pytest.mark.parametrize(
    "message",
    [CAPTURED["refused"], *REFUSED_AT_LOOPBACK.values()],
    ids=["127.0.0.1", *REFUSED_AT_LOOPBACK],
)
def test_chromium_refused_at_loopback_is_marked_so(message: str) -> None:
    # Chromium's refusal at 127.0.0.1 got the firewall hint, where aiohttp's got "nothing
    # listens there": the browser's own refusal is read as loopback too.
    assert navigation_at_loopback(message)
    assert navigation_at_loopback(message.splitlines()[0])  # the first line is what is kept


@pytest.mark.parametrize("captured", ["unresolved", "proxy", "offline", "no route"])
def test_chromium_failing_elsewhere_is_not_marked_loopback(captured: str) -> None:
    # Guard (passes before and after, the function being new): a remote host, a proxy and
    # a name not resolved say nothing of what listens on this machine.
    assert not navigation_at_loopback(CAPTURED[captured])


def test_a_refusal_at_a_remote_host_or_a_loopback_failure_that_may_have_reached_is_not() -> None:
    assert not navigation_at_loopback(f"Page.goto: net::ERR_CONNECTION_REFUSED at {URL}")
    assert not navigation_at_loopback("Page.goto: net::ERR_CONNECTION_RESET at http://[::1]:9/")
    assert not navigation_at_loopback("Page.goto: net::ERR_CONNECTION_REFUSED at http://[::1")
    assert not navigation_at_loopback("Page.goto: Navigation failed because page crashed!")
