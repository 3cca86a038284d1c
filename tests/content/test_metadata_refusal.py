"""Cloud metadata services stay refused with private addresses allowed, on every path.

``allow_private_addresses=True`` opens an intranet to an agent; a page it reads could then
send it to ``http://169.254.169.254/`` for the machine's cloud credentials. Nothing on this
machine answers at a metadata address, so names stand in for them: a DNS stand-in (the
``socket.getaddrinfo`` every lookup here goes through) answers ``meta.test`` with a metadata
address next to 127.0.0.1, where the loopback server listens. A fetch that is not refused
reaches the server through the loopback answer, which the hit counts show; one refused
for the metadata answer never connects.
"""

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.content._server import PageServer, redirect
from websearch_core import WebSearch
from websearch_core.content import FetchRefusedError
from websearch_core.content.egress import EgressProxy
from websearch_core.content.metadata import METADATA_SERVICES
from websearch_core.content.safety import check_url, parse_networks

_PAGE = "<html><head><title>Credentials</title></head><body><article><p>"
_PAGE += "The instance role's secret access key, which no page should read. " * 8
_PAGE += "</p></article></body></html>"
_ADVICE = "refused even with allow_private_addresses; list {} in allowed_networks to allow it"
_SECONDS = 5.0


class _Dns:
    """``socket.getaddrinfo`` with some names answered from a table (others as usual)."""

    def __init__(self) -> None:
        self.answers: dict[str, list[str]] = {}
        self._real = socket.getaddrinfo

    def getaddrinfo(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        addresses = self.answers.get(host)
        if addresses is None:
            return self._real(host, port, *args, **kwargs)
        found = []
        for address in addresses:
            family = socket.AF_INET6 if ":" in address else socket.AF_INET
            sockaddr = (address, int(port or 0), 0, 0) if ":" in address else (address, port or 0)
            found.append((family, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", sockaddr))
        return found


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> _Dns:
    stand_in = _Dns()
    monkeypatch.setattr(socket, "getaddrinfo", stand_in.getaddrinfo)
    return stand_in


def _refusal(url: str, **policy: Any) -> FetchRefusedError:
    with pytest.raises(FetchRefusedError) as caught:
        check_url(url, **policy)
    return caught.value


# --- the URL check (first URL and every redirect hop) -----------------------------------------


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("http://169.254.169.254/latest/meta-data/iam/security-credentials/", "169.254.169.254"),
        ("http://[fd00:ec2::254]/latest/api/token", "fd00:ec2::254"),
        ("http://169.254.170.2/v2/credentials/x", "169.254.170.2"),
        ("http://169.254.170.23/v1/credentials", "169.254.170.23"),
        ("http://100.100.100.200/latest/meta-data/", "100.100.100.200"),
        ("http://[fd20:ce::254]/computeMetadata/v1/", "fd20:ce::254"),
        ("http://169.254.0.23/latest/meta-data/", "169.254.0.23"),
        ("http://[fe80::a9fe:a9fe%25eth0]/openstack/", "fe80::a9fe:a9fe"),
        ("http://169.254.42.42/conf?format=json", "169.254.42.42"),
        ("http://[fd00:42::42]/user_data", "fd00:42::42"),
        ("http://[fd00:a9fe:a9fe::1]/v1/instance", "fd00:a9fe:a9fe::1"),
        ("http://168.63.129.16/machine?comp=goalstate", "168.63.129.16"),
        ("http://[::ffff:169.254.169.254]/", "169.254.169.254"),
        ("http://[64:ff9b::a9fe:a9fe]/", "169.254.169.254"),
        ("http://[2002:a9fe:a9fe::1]/", "169.254.169.254"),
    ],
)
def test_a_metadata_address_is_refused_with_private_addresses_allowed(
    url: str, address: str
) -> None:
    refusal = _refusal(url, allow_private=True)
    assert refusal.kind == "address"
    assert "is a cloud metadata address (" in refusal.reason
    assert refusal.reason.endswith(_ADVICE.format(address))


def test_the_azure_wireserver_is_refused_though_its_address_is_public() -> None:
    # 168.63.129.16 is a public address: only the metadata table keeps it out by default.
    refusal = _refusal("http://168.63.129.16/machine?comp=goalstate", allow_private=False)
    assert "a cloud metadata address (Azure WireServer)" in refusal.reason


@pytest.mark.parametrize(
    ("url", "clouds", "addresses"),
    [
        ("http://metadata.google.internal/", "Google Cloud", "169.254.169.254 or fd20:ce::254"),
        ("http://METADATA.goog./", "Google Cloud", "169.254.169.254 or fd20:ce::254"),
        ("http://instance-data/latest/", "AWS, Azure", "169.254.169.254"),
        ("http://metadata.tencentyun.com/", "Tencent Cloud", "169.254.0.23"),
        ("http://api.metadata.cloud.ibm.com/identity/v1/token", "IBM Cloud", "169.254.169.254"),
    ],
)
def test_a_metadata_host_name_is_refused_with_private_addresses_allowed(
    url: str, clouds: str, addresses: str
) -> None:
    refusal = _refusal(url, allow_private=True)
    assert refusal.kind == "address"
    assert f"is a cloud metadata host ({clouds}" in refusal.reason
    assert refusal.reason.endswith(_ADVICE.format(addresses))


def test_a_numeric_spelling_of_a_metadata_address_names_it() -> None:
    refusal = _refusal("http://0xa9fea9fe/", allow_private=True)
    assert refusal.reason.startswith("0xa9fea9fe means 169.254.169.254, a cloud metadata address")


def test_listing_the_address_in_allowed_networks_opens_it_and_its_names() -> None:
    listed = parse_networks(["169.254.169.254"])
    for url in ("http://169.254.169.254/latest/", "http://metadata.google.internal/"):
        for allow_private in (True, False):
            check_url(url, allow_private=allow_private, allowed=listed)
    # Only that service: another metadata address is still refused.
    refusal = _refusal("http://169.254.170.2/", allow_private=True, allowed=listed)
    assert refusal.reason.endswith(_ADVICE.format("169.254.170.2"))


@pytest.mark.parametrize("network", ["169.254.0.0/16", "100.64.0.0/10", "0.0.0.0/0", "::/0"])
def test_a_wide_network_holding_a_metadata_address_does_not_open_it(network: str) -> None:
    # An intranet allow-list (link-local devices, a carrier-grade NAT range) is no opt-in.
    allowed = parse_networks([network])
    for url in ("http://169.254.169.254/", "http://100.100.100.200/", "http://[fd00:ec2::254]/"):
        for allow_private in (True, False):
            with pytest.raises(FetchRefusedError, match="cloud metadata address"):
                check_url(url, allow_private=allow_private, allowed=allowed)


def test_other_private_addresses_stay_open_with_private_addresses_allowed() -> None:
    for url in (
        "http://10.1.2.3/",
        "http://127.0.0.1:8080/",
        "http://169.254.1.1/",
        "http://[::1]/",
    ):
        check_url(url, allow_private=True)


def test_every_table_entry_is_refused() -> None:
    # The table is the rule: an address or name added there is refused with no other change.
    for service in METADATA_SERVICES:
        for network in service.networks:
            address = network.split("/")[0]
            host = f"[{address}]" if ":" in address else address
            assert "cloud metadata" in _refusal(f"http://{host}/", allow_private=True).reason
        for name in service.hosts:
            assert "cloud metadata" in _refusal(f"http://{name}/", allow_private=True).reason


# --- the plain fetch: names resolved, redirects, a proxy of the user's ------------------------


async def test_a_name_resolving_to_a_metadata_address_is_refused(
    ws: WebSearch, server: PageServer, dns: _Dns
) -> None:
    # Before: with private addresses allowed the resolver checked nothing, and the fetch
    # connected to the first answer (here the loopback server; on a cloud machine,
    # 169.254.169.254 when that answer comes first).
    server.page("/creds", _PAGE)
    dns.answers["meta.test"] = ["127.0.0.1", "169.254.169.254"]
    url = f"http://meta.test:{server.port}/creds"
    with pytest.raises(FetchRefusedError) as caught:
        await ws.fetch(url, allow_private_addresses=True, use_browser=False)
    assert caught.value.kind == "address"
    assert caught.value.url == url
    assert caught.value.reason == (
        "meta.test resolves to 169.254.169.254, a cloud metadata address (AWS, Azure, "
        f"Google Cloud, OpenStack and others), {_ADVICE.format('169.254.169.254')}"
    )
    assert server.hits["/creds"] == 0


async def test_a_resolved_metadata_address_listed_in_allowed_networks_is_fetched(
    ws: WebSearch, server: PageServer, dns: _Dns
) -> None:
    server.page("/creds", _PAGE)
    dns.answers["meta.test"] = ["127.0.0.1", "169.254.169.254"]
    page = await ws.fetch(
        f"http://meta.test:{server.port}/creds",
        allow_private_addresses=True,
        allowed_networks=["169.254.169.254"],
        use_browser=False,
    )
    assert page.title == "Credentials"
    # The opted-in page is cached for that policy only: without the opt-in it is refused.
    with pytest.raises(FetchRefusedError, match="cloud metadata address"):
        await ws.fetch(
            f"http://meta.test:{server.port}/creds",
            allow_private_addresses=True,
            use_browser=False,
        )
    assert server.hits["/creds"] == 1


async def test_every_redirect_hop_is_checked_for_metadata(
    ws: WebSearch, server: PageServer, dns: _Dns
) -> None:
    dns.answers["meta.test"] = ["127.0.0.1", "169.254.169.254"]
    server.page("/creds", _PAGE)
    server.route("/to-literal", redirect("http://169.254.169.254/latest/meta-data/"))
    server.route("/to-name", redirect(f"http://meta.test:{server.port}/creds"))
    server.route("/to-google", redirect("http://metadata.google.internal/computeMetadata/v1/"))
    for path, target in (
        ("/to-literal", "169.254.169.254 is a cloud metadata address"),
        ("/to-name", "meta.test resolves to 169.254.169.254, a cloud metadata address"),
        ("/to-google", "metadata.google.internal is a cloud metadata host"),
    ):
        with pytest.raises(FetchRefusedError, match=target) as caught:
            await ws.fetch(
                server.url(path),
                allow_private_addresses=True,
                use_browser=False,
                timeout_seconds=_SECONDS,
            )
        assert caught.value.kind == "address"
    assert server.hits["/creds"] == 0


async def test_through_a_users_proxy_a_metadata_name_is_refused_before_the_request(
    server: PageServer, dns: _Dns, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The proxy resolves names itself; the local lookup before the request is the check.
    # The loopback server stands for the proxy (it answers absolute-form requests).
    server.page("/creds", _PAGE)
    dns.answers["meta.test"] = ["169.254.169.254"]
    async with WebSearch(state_backend="memory", proxy=server.url("")) as ws:
        with pytest.raises(FetchRefusedError, match=r"resolves to 169\.254\.169\.254, a cloud"):
            await ws.fetch(
                "http://meta.test/creds", allow_private_addresses=True, use_browser=False
            )
        # An intranet name only the proxy knows still goes through it, as before.
        page = await ws.fetch(
            "http://intranet.invalid/creds", allow_private_addresses=True, use_browser=False
        )
    assert page.title == "Credentials"
    assert server.hits["/creds"] == 1


# --- the browser's egress proxy ---------------------------------------------------------------


@pytest_asyncio.fixture
async def private_proxy() -> AsyncIterator[tuple[EgressProxy, list[FetchRefusedError]]]:
    refusals: list[FetchRefusedError] = []
    async with EgressProxy(allow_private=True, on_refusal=refusals.append) as running:
        yield running, refusals


async def _ask(proxy: EgressProxy, data: bytes) -> bytes:
    port = int(proxy.url.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        async with asyncio.timeout(_SECONDS):
            return await reader.read()
    finally:
        writer.close()


async def test_the_egress_proxy_refuses_metadata_with_private_addresses_allowed(
    private_proxy: tuple[EgressProxy, list[FetchRefusedError]], server: PageServer, dns: _Dns
) -> None:
    proxy, refusals = private_proxy
    dns.answers["meta.test"] = ["127.0.0.1", "169.254.169.254"]
    server.page("/creds", _PAGE)
    literal = await _ask(proxy, b"CONNECT 169.254.169.254:80 HTTP/1.1\r\n\r\n")
    assert literal.startswith(b"HTTP/1.1 403 ") and b"a cloud metadata address" in literal
    request = f"GET http://meta.test:{server.port}/creds HTTP/1.1\r\n\r\n".encode()
    named = await _ask(proxy, request)
    assert named.startswith(b"HTTP/1.1 403 ")
    assert b"meta.test resolves to 169.254.169.254, a cloud metadata address" in named
    assert [r.kind for r in refusals] == ["address", "address"]
    assert server.hits["/creds"] == 0
    # A private address is let through: only the metadata services are kept out.
    allowed = f"GET http://127.0.0.1:{server.port}/creds HTTP/1.1\r\n\r\n".encode()
    assert (await _ask(proxy, allowed)).startswith(b"HTTP/1.1 200 ")
    assert server.hits["/creds"] == 1


def test_the_readme_names_every_refused_metadata_address() -> None:
    # The README's list is what users read; the table is what is refused.
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    for service in METADATA_SERVICES:
        for network in service.networks:
            assert f"`{network.split('/')[0]}`" in readme, network
