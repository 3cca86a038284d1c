"""A gateway the owner of a shared ``Transport`` trusts, or stops trusting, after contexts hold it.

Stop 49 (signins2) gave a context whose settings trust more than the transport a copy of
it, made when the context is built. The copy kept the ids of that moment: the owner's
later ``trust_sign_in_gateways`` reached a context holding the transport itself and not
one holding a copy, so two contexts built from one transport judged one gateway two ways;
and a copy went on sending the sign-in to a gateway its owner had stopped trusting, or
had routed away from (new ``base_urls``).

Chosen: a copy follows its owner. Refusing the owner's change once contexts share the
transport was the other way; it would make trusting a gateway depend on whether some
context had been built yet, and withdrawing trust (the change that protects the sign-in)
would be refused too. Each request is judged by the owner's ids as they are when it is
sent, with the sending context's settings' ids, never another context's.

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes
out arrives there and is recorded: which context's search carried the sign-in is read
from what the proxy received.
"""

from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from tests.proxied_sign_ins import stored_sign_in
from websearch_core import Credentials, SearchParams, get_provider
from websearch_core.credentials import CredentialStore
from websearch_core.errors import ConfigurationError, ProviderNotConfiguredError
from websearch_core.providers.base import ProviderContext
from websearch_core.testing import Simulator
from websearch_core.transport import Transport

ACCESS = "ya29.a0owner-trust-access-0123456789"
GATEWAY = "http://codex-owner-gateway.invalid"
"""The Codex gateway set on the shared transport: neither loopback nor ChatGPT's host."""
MOVED = "http://codex-moved-gateway.invalid"
"""The gateway the owner routes Codex to later, in place of :data:`GATEWAY`."""
QUERY = "python asyncio"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS)


@asynccontextmanager
async def _shared(
    sim: Simulator, store: Path, given: Collection[str], *settings_ids: Sequence[str]
) -> AsyncIterator[tuple[Transport, list[ProviderContext]]]:
    """One transport of the user's own (given no credentials) trusting ``given``, sending
    ``codex`` to :data:`GATEWAY` through the simulator as its proxy, and one context on it
    for each of ``settings_ids`` (the ids its settings trust), all built before any
    search and before the owner changes anything."""
    async with aiohttp.ClientSession() as session:
        transport = Transport(
            session,
            timeout_seconds=5.0,
            max_response_bytes=1 << 20,
            base_urls={"codex": GATEWAY},
            proxy=sim["codex"].base_url,
            sign_in_gateways=given,
        )
        contexts = [
            ProviderContext(
                transport=transport,
                settings=sim.settings(
                    base_urls={}, credentials_file=store, cache=False, sign_in_gateways=ids
                ),
                credentials=Credentials(store=CredentialStore(store)),
            )
            for ids in settings_ids
        ]
        yield transport, contexts


def _carrying(sim: Simulator) -> int:
    """How many requests the proxy received carried the sign-in."""
    return sum(ACCESS in str(dict(r.headers)) for r in sim["codex"].requests)


async def _sends(sim: Simulator, context: ProviderContext) -> bool:
    """Whether the context's Codex search carried the sign-in to a gateway; a refusal is
    checked to name a gateway and never the token."""
    before = _carrying(sim)
    try:
        await get_provider("codex").search(SearchParams(query=QUERY), context)
    except ProviderNotConfiguredError as refused:
        assert "gateway.invalid" in str(refused) and ACCESS not in str(refused)
        assert _carrying(sim) == before
        return False
    assert _carrying(sim) == before + 1
    return True


async def test_the_owners_later_trust_reaches_a_context_built_before(store: Path) -> None:
    """Failed before: after the owner trusted ``codex``, the context holding the transport
    itself (its settings trust nothing) sent the sign-in to the gateway and the one holding
    a copy (its settings trust ``gemini``) was refused. Both now send."""
    async with (
        Simulator(["codex"]) as sim,
        _shared(sim, store, (), ["gemini"], []) as (transport, (copied, itself)),
    ):
        assert not await _sends(sim, copied) and not await _sends(sim, itself)
        transport.trust_sign_in_gateways(["codex"])
        assert await _sends(sim, itself)
        assert await _sends(sim, copied)


async def test_trust_the_owner_withdraws_is_withdrawn_from_a_context_built_before(
    store: Path,
) -> None:
    """Failed before: the owner set the transport's ``sign_in_gateways`` to none, and the
    context holding a copy made while it trusted ``codex`` still sent the sign-in to the
    gateway. Both contexts are now refused, and nothing reaches the gateway."""
    async with (
        Simulator(["codex"]) as sim,
        _shared(sim, store, ["codex"], ["gemini"], []) as (transport, (copied, itself)),
    ):
        assert await _sends(sim, copied) and await _sends(sim, itself)
        transport.sign_in_gateways = frozenset()
        assert not await _sends(sim, itself)
        assert not await _sends(sim, copied)


async def test_a_context_whose_settings_trust_the_gateway_keeps_it_when_the_owner_stops(
    store: Path,
) -> None:
    """Failed before: a context whose settings trust ``codex``, built on a transport that
    trusted it too, held the transport itself, and lost ``codex`` when the owner stopped
    trusting it, though its settings still trust it. It now keeps it; a context whose
    settings trust nothing, built on the same transport, is refused."""
    async with (
        Simulator(["codex"]) as sim,
        _shared(sim, store, ["codex"], ["codex"], []) as (transport, (trusting, untrusting)),
    ):
        transport.sign_in_gateways = ()
        assert not await _sends(sim, untrusting)
        assert await _sends(sim, trusting)


async def test_trust_added_through_a_contexts_transport_is_the_owners(store: Path) -> None:
    """Failed before: ``trust_sign_in_gateways`` called on a context's transport, a copy,
    trusted ``codex`` for that context alone, while the same call on a context holding the
    transport itself trusted it for all. Either way it is now the shared transport's, and
    a context built later trusts it as the ones before."""
    async with (
        Simulator(["codex"]) as sim,
        _shared(sim, store, (), ["gemini"], []) as (transport, (copied, itself)),
    ):
        copied.transport.trust_sign_in_gateways(["codex"])
        assert transport.sign_in_gateways == {"codex"}
        assert await _sends(sim, itself)
        assert await _sends(sim, copied)
        later = ProviderContext(
            transport=transport, settings=itself.settings, credentials=itself.credentials
        )
        assert await _sends(sim, later)


async def test_a_contexts_settings_ids_stay_its_own_beside_the_owners_later_ones(
    store: Path,
) -> None:
    """Failed before (the copy did not see ``anthropic``, added by the owner later): the
    ids a context's settings trust are judged for that context only, beside the owner's as
    they are now; the other context, and the owner's own ``sign_in_gateways``, never trust
    them."""
    async with (
        Simulator(["codex"]) as sim,
        _shared(sim, store, ["gemini"], ["codex"], []) as (transport, (trusting, untrusting)),
    ):
        transport.trust_sign_in_gateways(["anthropic"])
        assert set(trusting.sign_in_gateways) == {"gemini", "anthropic", "codex"}
        assert set(untrusting.sign_in_gateways) == {"gemini", "anthropic"}
        assert transport.sign_in_gateways == {"gemini", "anthropic"}
        assert not await _sends(sim, untrusting)
        assert await _sends(sim, trusting)


async def test_an_id_no_sign_in_is_sent_under_is_refused_however_it_is_set(
    store: Path,
) -> None:
    """Failed before for the assignment (``transport.sign_in_gateways = ["brave"]`` was
    taken as it was, unchecked): set on the transport or through a context's copy, ``brave``
    is refused as building the transport refuses it, and nothing changes."""
    async with (
        Simulator(["codex"]) as sim,
        _shared(sim, store, ["codex"], ["gemini"]) as (transport, (copied,)),
    ):
        for target in (transport, copied.transport):
            with pytest.raises(ConfigurationError, match="brave sends no sign-in"):
                target.sign_in_gateways = ["brave"]
        assert transport.sign_in_gateways == {"codex"}
        assert set(copied.sign_in_gateways) == {"codex", "gemini"}


async def test_routes_the_owner_sets_later_reach_a_context_built_before(store: Path) -> None:
    """Failed before: after the owner routed Codex to another gateway (``base_urls =``,
    a new mapping), the context holding a copy sent the sign-in to the first gateway, which
    the owner no longer names; the context holding the transport itself sent it to the new
    one. Both now send where the owner routes it, the first gateway never again."""
    async with (
        Simulator(["codex"]) as sim,
        _shared(sim, store, ["codex"], ["gemini"], []) as (transport, (copied, itself)),
    ):
        transport.base_urls = {"codex": MOVED}
        assert await _sends(sim, itself) and await _sends(sim, copied)
        hosts = [r.headers.get("Host") for r in sim["codex"].requests]
        assert hosts == [MOVED.removeprefix("http://")] * 2, hosts
        assert copied.transport.base_urls == {"codex": MOVED}
