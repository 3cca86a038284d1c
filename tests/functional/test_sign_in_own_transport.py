"""A sign-in sent through a ``Transport`` built without the client's credentials.

Stop 42 judged every request the client's transport sends, but a transport built without
credentials (a user's own, in a context built to call a provider alone) judged none: a
plugin sending its session cookie through ``context.transport`` reached any host, plain
http too, though the request loop would have refused the same step. Such a transport now
asks every ``Credentials`` alive that has handed out a sign-in. Stop 43 let it trust any URL
set on it for the id a request goes under, where the client's transport trusts only the
provider's own hosts, loopback and the URL set under an id in ``sign_in_gateways``: so a
sign-in left for a gateway the client would refuse (a Brave proxy set on the transport, a
plugin's own route). It now judges as the client's does, trusting the ids its own
``sign_in_gateways`` names and those of the settings of the context sending through it
(``tests/functional/test_sign_in_shared_transport.py``: no other context's).

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes out
arrives there and is recorded.
"""

from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import asynccontextmanager

import pytest

from tests.functional.test_plugin_sign_in_send_time import (
    FOREIGN,
    SESSION,
    VARIABLE,
    SessionPlugin,
    refused_off_own_host,
)
from tests.proxied_sign_ins import PROXY_SERVICE, proxied_context, seen_by_proxy
from websearch_core import Credentials, SearchParams
from websearch_core.errors import ProviderNotConfiguredError
from websearch_core.providers.base import ProviderContext
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest


@asynccontextmanager
async def _own_transport_context(
    sim: Simulator,
    environ: Mapping[str, str],
    routes: Mapping[str, str] | None = None,
    *,
    gateways: Collection[str] = (),
    settings_gateways: Collection[str] = (),
) -> AsyncIterator[ProviderContext]:
    """A context as a user builds one: a real transport given no credentials (trusting
    ``gateways``), sending through the simulator as its proxy, the variables read from
    ``environ``, the settings trusting ``settings_gateways``."""
    settings = sim.settings(base_urls={}, cache=False, sign_in_gateways=list(settings_gateways))
    credentials = Credentials(environ=environ)
    async with proxied_context(
        sim, settings, credentials, routes=routes, gateways=gateways, own_transport=True
    ) as context:
        assert not context.transport.judges_sign_ins
        yield context


async def test_a_plugin_sign_in_is_not_sent_off_its_hosts_through_an_own_transport() -> None:
    async with (
        Simulator([PROXY_SERVICE]) as sim,
        _own_transport_context(sim, {VARIABLE: SESSION}) as context,
    ):
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await SessionPlugin().search(SearchParams(query="q"), context)
        assert sim[PROXY_SERVICE].requests == []
    refused_off_own_host(refused.value)


async def test_a_request_of_your_own_carrying_a_handed_out_sign_in_is_judged_too() -> None:
    async with (
        Simulator([PROXY_SERVICE]) as sim,
        _own_transport_context(sim, {VARIABLE: SESSION}) as context,
    ):
        assert context.credentials.secret_env(VARIABLE) == SESSION  # handed out: recorded
        request = HttpRequest(method="POST", url=f"{FOREIGN}/log", json={"seen": SESSION})
        with pytest.raises(ProviderNotConfiguredError):
            await context.transport.send("mine", "Mine", request)
        assert SESSION not in seen_by_proxy(sim)


GATEWAY = "http://gateway.invalid"
"""A URL set on the transport: neither loopback nor any provider's own host."""


def _carrying_session(url: str = "https://api.mine.example/search") -> HttpRequest:
    """A request of the user's own code carrying the plugin's session in its cookie."""
    return HttpRequest(method="GET", url=url, headers={"Cookie": SESSION})


def _refused_for_the_gateway(error: ProviderNotConfiguredError, route: str) -> None:
    """The refusal names the gateway's origin and what would trust a gateway with the
    session, never the session or any part of it: not ``route`` (the plugin's session is
    not its to trust), but its owner's id, on the transport's own arguments."""
    text = str(error)
    assert text.startswith(
        f"Refusing to send the Session Plugin session cookie in {VARIABLE} to {GATEWAY}: "
    ), text
    assert 'send it under route="session-plugin"' in text, text
    assert 'sign_in_gateways=["session-plugin"]' in text, text
    assert f"base_urls.{route}" not in text and f"add {route} to" not in text, text
    assert SESSION not in text and "eyJ1c2VyIjoiYWxpY2UifQ" not in text


async def test_the_url_set_on_the_transport_for_the_id_is_not_trusted_by_itself() -> None:
    """Failed before stop 44: the URL set on the transport for the id a request goes under
    was trusted as a gateway, though nothing named it in ``sign_in_gateways``."""
    async with (
        Simulator([PROXY_SERVICE]) as sim,
        _own_transport_context(sim, {VARIABLE: SESSION}, {"mine": GATEWAY}) as context,
    ):
        assert context.credentials.secret_env(VARIABLE) == SESSION
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await context.transport.send("mine", "Mine", _carrying_session())
        assert SESSION not in seen_by_proxy(sim)
        assert sim[PROXY_SERVICE].requests == []
    _refused_for_the_gateway(refused.value, "mine")


async def test_a_route_set_on_the_transport_is_not_trusted_by_itself() -> None:
    """Failed before stop 44: a request sent under ``route="brave"`` went to the Brave
    gateway set on the transport (an API key's proxy) with the session, as the route's id
    was trusted; the client's transport refuses it unless ``brave`` is trusted."""
    async with (
        Simulator([PROXY_SERVICE]) as sim,
        _own_transport_context(sim, {VARIABLE: SESSION}, {"brave": GATEWAY}) as context,
    ):
        assert context.credentials.secret_env(VARIABLE) == SESSION
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await context.transport.send("mine", "Mine", _carrying_session(), route="brave")
        assert sim[PROXY_SERVICE].requests == []
    _refused_for_the_gateway(refused.value, "brave")


async def test_guard_an_id_the_transport_trusts_takes_the_url_set_for_it() -> None:
    """Guard (passes before and after): ``sign_in_gateways`` given to the transport trust
    the URL set on it under those ids, as the client's settings trust theirs."""
    async with (
        Simulator([PROXY_SERVICE]) as sim,
        _own_transport_context(
            sim, {VARIABLE: SESSION}, {"mine": GATEWAY}, gateways=["mine"]
        ) as context,
    ):
        assert context.credentials.secret_env(VARIABLE) == SESSION
        await context.transport.send("mine", "Mine", _carrying_session())
        assert SESSION in seen_by_proxy(sim)


async def test_guard_an_id_the_contexts_settings_trust_takes_the_url_set_for_it() -> None:
    """Guard (passes before and after; fails if the transport judged by its own gateways
    alone, the fix stop 43 dropped): a transport built without gateways, given to a context
    whose settings trust ``codex``, sends there as the search guard and the loop allow."""
    async with (
        Simulator([PROXY_SERVICE]) as sim,
        _own_transport_context(
            sim, {VARIABLE: SESSION}, {"codex": GATEWAY}, settings_gateways=["codex"]
        ) as context,
    ):
        assert not context.transport.judges_sign_ins
        assert context.credentials.secret_env(VARIABLE) == SESSION
        await context.transport.send("mine", "Mine", _carrying_session(), route="codex")
        assert SESSION in seen_by_proxy(sim)


async def test_guard_a_plugin_sign_in_still_goes_to_a_loopback_address() -> None:
    """Guard (passes before and after): the simulator on this machine gets the session."""
    async with Simulator([PROXY_SERVICE]) as sim:
        environ = {VARIABLE: SESSION, "SESSION_PLUGIN_URL": sim[PROXY_SERVICE].base_url}
        async with _own_transport_context(sim, environ) as context:
            answer = await SessionPlugin().search(SearchParams(query="q"), context)
        assert answer.answer == "sent"
        assert any(SESSION in str(dict(r.headers)) for r in sim[PROXY_SERVICE].requests)


async def test_guard_a_request_carrying_no_sign_in_goes_out_unjudged() -> None:
    """Guard (passes before and after): a sign-in recorded refuses only what carries it."""
    async with (
        Simulator([PROXY_SERVICE]) as sim,
        _own_transport_context(sim, {VARIABLE: SESSION}) as context,
    ):
        assert context.credentials.secret_env(VARIABLE) == SESSION
        request = HttpRequest(method="GET", url=f"{FOREIGN}/search", params=[("q", "python")])
        await context.transport.send("mine", "Mine", request)
        assert "/search" in seen_by_proxy(sim)
