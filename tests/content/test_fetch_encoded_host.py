"""The fetcher's checks judge a host in the form the request names it (IDNA 2008).

yarl writes ``straße.de`` as ``xn--strae-oqa.de`` in the request, while the safety check
asked the stdlib's IDNA 2003 codec, and a lookup given the Unicode name (the check made
before a request through a proxy) resolved ``strasse.de``: another registered domain.
``socket.getaddrinfo`` is stood in for by a table that encodes a name as the real one
does (the stdlib codec) before reading it, so a lookup of the wrong form answers the wrong
address. The loopback server stands in for the proxy (it answers absolute-form requests).
"""

import socket

import pytest
import yarl

from tests.content._egress_talk import EncodingDns
from tests.content._server import PageServer
from websearch_core import WebSearch
from websearch_core.content import FetchRefusedError
from websearch_core.content.safety import check_url, request_host

_PAGE = "<html><head><title>Inside</title></head><body><article><p>"
_PAGE += "An intranet page that an internationalised name must not open by mistake. " * 8
_PAGE += "</p></article></body></html>"


@pytest.mark.parametrize("name", ["straße.de", "σοφός.gr", "ｍy-ßhop.example"])
def test_the_checked_host_is_the_host_the_request_names(name: str) -> None:
    url = f"http://{name}/page"
    check_url(url, allow_private=False)
    assert request_host(url) == yarl.URL(url).raw_host


def test_the_two_idna_versions_write_the_test_names_apart() -> None:
    """A guard on the premise: each name above is one the 2003 codec writes otherwise."""
    for name in ("straße.de", "σοφός.gr", "ｍy-ßhop.example"):
        assert name.encode("idna").decode("ascii") != yarl.URL(f"http://{name}/").raw_host


async def test_through_a_proxy_the_name_looked_up_is_the_name_requested(
    server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # strasse.de answers a public address; the name the proxy is asked for, a metadata one.
    dns = EncodingDns({"strasse.de": "93.184.215.14", "xn--strae-oqa.de": "169.254.169.254"})
    monkeypatch.setattr(socket, "getaddrinfo", dns.getaddrinfo)
    server.page("/inside", _PAGE)
    async with WebSearch(state_backend="memory", proxy=server.url("")) as ws:
        with pytest.raises(FetchRefusedError, match=r"resolves to 169\.254\.169\.254, a cloud"):
            await ws.fetch("http://straße.de/inside", use_browser=False)
    assert dns.asked == ["xn--strae-oqa.de"]
    assert server.hits["/inside"] == 0


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("http://ｍetadata.google.internal/computeMetadata/v1/", "metadata.google.internal"),
        ("http://ⓜetadata.google.internal./computeMetadata/v1/", "metadata.google.internal"),
        ("http://metadata。google。internal/computeMetadata/v1/", "metadata.google.internal"),
    ],
)
def test_a_metadata_name_written_in_other_characters_is_refused(url: str, host: str) -> None:
    # yarl sends each of these to the metadata name itself: the check must read it so.
    assert (yarl.URL(url).raw_host or "").rstrip(".") == host
    with pytest.raises(FetchRefusedError, match="is a cloud metadata host") as caught:
        check_url(url, allow_private=True)
    assert caught.value.kind == "address"


def test_an_address_written_in_fullwidth_digits_is_judged_as_that_address() -> None:
    # Before, "not a valid host" (the 2003 codec's nameprep): now the address it is.
    with pytest.raises(FetchRefusedError, match=r"127\.0\.0\.1 is") as caught:
        check_url("http://１２７.０.０.１/", allow_private=False)
    assert caught.value.kind == "address"


@pytest.mark.parametrize("host", ["a..b", "x" * 64 + ".com", "☃" * 70 + ".net"])
def test_a_name_no_request_can_name_is_still_refused_as_invalid(host: str) -> None:
    """A guard: the names the 2003 codec refused stay refused, as invalid input."""
    with pytest.raises(FetchRefusedError, match="is not a valid host name") as caught:
        check_url(f"http://{host}/", allow_private=False)
    assert caught.value.kind == "invalid_url"
