"""Connection failures read the same whether aiohttp or headless Chromium met them."""

import aiohttp
import pytest

from websearch_core.connection_causes import connection_cause, navigation_cause

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
