"""A sign-in sent through a ``Transport`` built without the client's credentials.

Stop 42 judged every request the client's transport sends, but a transport built without
credentials (a user's own, in a context built to call a provider alone) judged none: a
plugin sending its session cookie through ``context.transport`` reached any host, plain
http too, though the request loop would have refused the same step. Such a transport now
asks every ``Credentials`` alive that has handed out a sign-in, and trusts the URL set on it
for the id a request goes under (it cannot know the client's ``sign_in_gateways``).

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes out
arrives there and is recorded.
"""

from collections.abc import AsyncIterator, Mapping
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
    sim: Simulator, environ: Mapping[str, str], routes: Mapping[str, str] | None = None
) -> AsyncIterator[ProviderContext]:
    """A context as a user builds one: a real transport given no credentials, sending
    through the simulator as its proxy, the variables read from ``environ``."""
    settings = sim.settings(base_urls={}, cache=False)
    credentials = Credentials(environ=environ)
    async with proxied_context(
        sim, settings, credentials, routes=routes, own_transport=True
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


async def test_guard_the_url_set_on_the_transport_for_the_id_is_trusted() -> None:
    """Guard (passes before and after): a request your code sends under an id whose URL it
    set on the transport goes there; the transport does not know the settings' gateways."""
    gateway = "http://gateway.invalid"
    async with (
        Simulator([PROXY_SERVICE]) as sim,
        _own_transport_context(sim, {VARIABLE: SESSION}, {"mine": gateway}) as context,
    ):
        assert context.credentials.secret_env(VARIABLE) == SESSION
        request = HttpRequest(
            method="GET", url="https://api.mine.example/search", headers={"Cookie": SESSION}
        )
        await context.transport.send("mine", "Mine", request)
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
