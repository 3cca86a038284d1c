"""A ``Transport`` subclass's own ``__slots__`` on a context's copy of a shared transport.

Stop 51 (signins4) made a context's copy (:meth:`Transport.trusting`, made when its
settings trust a gateway) share its owner's instance dictionary, so whatever the owner sets
later is the copy's too. A subclass's own ``__slots__`` are not in that dictionary, and the
copy, made without ``__init__``, held none: the first read of one on a context's transport
failed its search with ``AttributeError`` (not a stale value: no value at all), and one set
through the copy would have been the copy's alone. Each such slot is now kept on the owner.

The subclass here is what a user writes to reach a gateway that wants a key of its own
beside the sign-in: it adds the key from a slot to every request it sends. The simulator
plays the HTTP proxy for the gateway's host, so what each request carried is read from what
it recorded.
"""

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.proxied_sign_ins import stored_sign_in
from websearch_core import Credentials, SearchParams, get_provider
from websearch_core.credentials import CredentialStore
from websearch_core.providers.base import ProviderContext
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest, HttpResponse, SseResponse, Transport

ACCESS = "ya29.a0subclass-slots-access-0123456789"
GATEWAY = "http://codex-slots-gateway.invalid"
"""The Codex gateway set on the shared transport: neither loopback nor ChatGPT's host."""
HEADER = "X-Gateway-Key"


class _GatewayKeyTransport(Transport):
    """A transport adding its gateway's own key (held in a slot of its own) to each request."""

    __slots__ = ("gateway_key",)

    def __init__(self, session: aiohttp.ClientSession, gateway_key: str) -> None:
        super().__init__(
            session,
            timeout_seconds=5.0,
            max_response_bytes=1 << 20,
            base_urls={"codex": GATEWAY},
            sign_in_gateways=["codex"],
        )
        self.gateway_key = gateway_key

    def _keyed(self, request: HttpRequest) -> HttpRequest:
        return dataclasses.replace(request, headers={**request.headers, HEADER: self.gateway_key})

    async def send(
        self, provider: str, label: str, request: HttpRequest, **options: Any
    ) -> HttpResponse:
        return await super().send(provider, label, self._keyed(request), **options)

    async def send_sse(
        self, provider: str, label: str, request: HttpRequest, **options: Any
    ) -> SseResponse:
        return await super().send_sse(provider, label, self._keyed(request), **options)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS)


@asynccontextmanager
async def _proxied_session(sim: Simulator) -> AsyncIterator[aiohttp.ClientSession]:
    """A session of the user's own sending through ``sim``'s Codex service as its proxy."""
    async with aiohttp.ClientSession(proxy=sim["codex"].base_url) as session:
        yield session


def _context(sim: Simulator, store: Path, transport: Transport) -> ProviderContext:
    """A context on ``transport`` whose settings trust ``codex``: it holds a copy."""
    context = ProviderContext(
        transport=transport,
        settings=sim.settings(
            base_urls={}, credentials_file=store, cache=False, sign_in_gateways=["codex"]
        ),
        credentials=Credentials(store=CredentialStore(store)),
    )
    assert context.transport is not transport  # the copy this file is about
    return context


def _keys_sent(sim: Simulator) -> list[str | None]:
    """The gateway key each request carrying the sign-in arrived with, in order."""
    return [r.headers.get(HEADER) for r in sim["codex"].requests if ACCESS in str(dict(r.headers))]


async def _search(context: ProviderContext) -> None:
    await get_provider("codex").search(SearchParams(query="python asyncio"), context)


async def test_a_slot_the_owner_rebinds_is_read_by_a_context_built_before(
    store: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Failed before (``AttributeError: ... no attribute 'gateway_key'``, the copy held no
    slot): the context's search sends the owner's key, and after the owner rotates it, the
    new one; the sign-in goes with each, through the gateway the owner trusts."""
    async with Simulator(["codex"]) as sim, _proxied_session(sim) as session:
        transport = _GatewayKeyTransport(session, "gw-key-first")
        context = _context(sim, store, transport)
        await _search(context)
        transport.gateway_key = "gw-key-rotated"
        await _search(context)
        assert _keys_sent(sim) == ["gw-key-first", "gw-key-rotated"]
    assert ACCESS not in caplog.text


async def test_a_slot_set_through_the_copy_is_the_owners(store: Path) -> None:
    """Failed before (the copy took the value alone, the owner and a context built later
    kept the old): a slot set on a context's transport is the shared transport's, as every
    attribute in its dictionary is; deleted there, it is gone for the owner too."""
    async with Simulator(["codex"]) as sim, _proxied_session(sim) as session:
        transport = _GatewayKeyTransport(session, "gw-key-first")
        context = _context(sim, store, transport)
        context.transport.gateway_key = "gw-key-set-on-copy"  # type: ignore[attr-defined]
        assert transport.gateway_key == "gw-key-set-on-copy"
        later = _context(sim, store, transport)
        await _search(later)
        assert _keys_sent(sim) == ["gw-key-set-on-copy"]
        del context.transport.gateway_key  # type: ignore[attr-defined]
        with pytest.raises(AttributeError):
            transport.gateway_key  # noqa: B018 (the read is the assertion)


async def test_an_owner_of_the_subclass_sends_as_it_did(store: Path) -> None:
    """Guard (passed before too): the owner itself, not a copy, reads and rebinds its slot
    as before; the slot's storage is the instance's own, not the class's."""
    async with Simulator(["codex"]) as sim, _proxied_session(sim) as session:
        transport = _GatewayKeyTransport(session, "gw-key-owner")
        other = _GatewayKeyTransport(session, "gw-key-other")
        context = ProviderContext(
            transport=transport,
            settings=sim.settings(base_urls={}, credentials_file=store, cache=False),
            credentials=Credentials(store=CredentialStore(store)),
        )
        assert context.transport is transport
        await _search(context)
        assert _keys_sent(sim) == ["gw-key-owner"]
        assert other.gateway_key == "gw-key-other"
