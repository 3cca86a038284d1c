"""What the owner of a shared ``Transport`` rebinds after contexts hold a copy of it.

Stop 50 (signins3) made a context's copy (:meth:`Transport.trusting`, made when its
settings trust a gateway) follow the owner's ``sign_in_gateways`` and ``base_urls``. Every
other attribute a user may rebind stayed as it was when the copy was made, so a context
built before went on with the owner's old values:

* ``session``: a context whose copy held the session the owner replaced sent the sign-in
  through that session's proxy, which the owner had stopped sending through, and after the
  owner closed it failed with aiohttp's ``Session is closed``.
* ``max_response_bytes`` and ``default_timeout_seconds``: the copy read a body over the cap
  the owner set, and waited the owner's old timeout.
* A ``MockTransport``'s ``handler``: the copy's requests went to the handler replaced.

A copy now shares its owner's attributes (one mechanism: the same attribute dictionary),
keeping only the ids of its context's settings as its own, so whatever the owner sets,
before or after a context is built, is what every context sends with.

The simulator plays the HTTP proxy for every non-loopback host; which proxy received the
sign-in is read from what each simulator recorded.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from tests.proxied_sign_ins import stored_sign_in
from websearch_core import Credentials, SearchParams, get_provider
from websearch_core.credentials import CredentialStore
from websearch_core.errors import (
    ProviderTimeoutError,
    ResponseTooLargeError,
    SearchProviderError,
)
from websearch_core.providers.base import ProviderContext
from websearch_core.testing import Fault, MockTransport, Simulator
from websearch_core.testing.mock_transport import Handler
from websearch_core.transport import HttpRequest, HttpResponse, Transport

ACCESS = "ya29.a0owner-attributes-access-0123456789"
GATEWAY = "http://codex-attributes-gateway.invalid"
"""The Codex gateway set on the shared transport: neither loopback nor ChatGPT's host."""
QUERY = "python asyncio"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS)


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


def _carrying(sim: Simulator) -> int:
    """How many requests ``sim``'s Codex service (standing as a proxy) received carrying
    the sign-in."""
    return sum(ACCESS in str(dict(r.headers)) for r in sim["codex"].requests)


async def _search(context: ProviderContext) -> None:
    await get_provider("codex").search(SearchParams(query=QUERY), context)


@asynccontextmanager
async def _proxied_session(sim: Simulator) -> AsyncIterator[aiohttp.ClientSession]:
    """A session of the user's own sending through ``sim``'s Codex service as its proxy."""
    async with aiohttp.ClientSession(proxy=sim["codex"].base_url) as session:
        yield session


async def test_a_session_the_owner_replaces_is_replaced_for_a_context_built_before(
    store: Path,
) -> None:
    """Failed before: the owner sent through a new session (its proxy another), and the
    context built before sent the sign-in through the old one's proxy. It now goes through
    the owner's new session alone; the old proxy receives nothing more."""
    async with (
        Simulator(["codex"]) as old,
        Simulator(["codex"]) as new,
        _proxied_session(old) as first,
        _proxied_session(new) as second,
    ):
        transport = Transport(
            first,
            timeout_seconds=5.0,
            max_response_bytes=1 << 20,
            base_urls={"codex": GATEWAY},
            sign_in_gateways=["codex"],
        )
        context = _context(old, store, transport)
        await _search(context)
        assert (_carrying(old), _carrying(new)) == (1, 0)
        transport.session = second
        await _search(context)
        assert (_carrying(old), _carrying(new)) == (1, 1)
        assert context.transport.session is second


async def test_a_session_the_owner_closed_and_replaced_is_not_used(store: Path) -> None:
    """Failed before: after the owner closed its session and set a new one, the context
    built before failed every search (aiohttp's ``Session is closed``, raised untranslated).
    It now sends through the new session."""
    async with Simulator(["codex"]) as sim, _proxied_session(sim) as second:
        async with _proxied_session(sim) as first:
            transport = Transport(
                first,
                timeout_seconds=5.0,
                max_response_bytes=1 << 20,
                base_urls={"codex": GATEWAY},
            )
            context = _context(sim, store, transport)
        assert first.closed
        transport.session = second
        await _search(context)
        assert _carrying(sim) == 1


async def test_a_cap_the_owner_lowers_bounds_a_context_built_before(store: Path) -> None:
    """Failed before: the owner lowered ``max_response_bytes`` and the context built
    before read the whole answer under the old cap. It is now refused at the owner's."""
    async with Simulator(["codex"]) as sim, _proxied_session(sim) as session:
        transport = Transport(
            session, timeout_seconds=5.0, max_response_bytes=1 << 20, base_urls={"codex": GATEWAY}
        )
        context = _context(sim, store, transport)
        transport.max_response_bytes = 64
        with pytest.raises(ResponseTooLargeError, match="64 bytes") as refused:
            await _search(context)
        assert ACCESS not in str(refused.value)


async def test_a_timeout_the_owner_shortens_bounds_a_context_built_before(
    store: Path,
) -> None:
    """Failed before (the copy waited the 4 s it was built with and said so): the owner
    set ``default_timeout_seconds`` to 0.3 s; a hanging answer now times out at the
    owner's value, which the error names."""
    async with Simulator(["codex"]) as sim, _proxied_session(sim) as session:
        transport = Transport(
            session, timeout_seconds=4.0, max_response_bytes=1 << 20, base_urls={"codex": GATEWAY}
        )
        context = _context(sim, store, transport)
        transport.default_timeout_seconds = 0.3
        sim["codex"].always(Fault.hang(60))
        with pytest.raises(ProviderTimeoutError, match=r"after 0\.3s") as timed_out:
            await _search(context)
        assert ACCESS not in str(timed_out.value)


async def test_a_handler_the_owner_replaces_answers_a_context_built_before(
    store: Path,
) -> None:
    """Failed before: the owner of a ``MockTransport`` (the README's offline tests) gave
    it a new ``handler``, and the context built before was still answered by the old one.
    The new one answers it now, and its requests are in the owner's ``requests``."""
    seen: dict[str, list[str]] = {"old": [], "new": []}

    def answering(name: str) -> Handler:
        def handler(request: HttpRequest) -> HttpResponse:
            seen[name].append(request.url)
            return HttpResponse(status=503, body=b"unavailable")

        return handler

    async with Simulator(["codex"]) as sim:
        transport = MockTransport(answering("old"))
        context = _context(sim, store, transport)
        transport.handler = answering("new")
        transport.requests = []
        with pytest.raises(SearchProviderError):
            await _search(context)
        assert not seen["old"] and len(seen["new"]) == 1
        assert [r.url for r in transport.requests] == seen["new"]


async def test_an_attribute_set_through_the_copy_is_the_owners(store: Path) -> None:
    """Failed before (the copy took it alone): an attribute set on a context's transport
    is the shared transport's, as ``base_urls`` and ``sign_in_gateways`` set there were in
    stop 50, and a context built later sees it too; the copy's own ids stay its own."""
    async with Simulator(["codex"]) as sim, _proxied_session(sim) as session:
        transport = Transport(session, timeout_seconds=5.0, max_response_bytes=1 << 20)
        context = _context(sim, store, transport)
        context.transport.max_response_bytes = 128
        assert transport.max_response_bytes == 128
        assert _context(sim, store, transport).transport.max_response_bytes == 128
        assert transport.sign_in_gateways == frozenset()
        assert set(context.sign_in_gateways) == {"codex"}
