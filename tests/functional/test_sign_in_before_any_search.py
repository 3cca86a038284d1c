"""A declared sign-in variable read from ``os.environ`` by your own code before any search.

Stop 44 (signinown) recorded every variable a provider class declares as a sign-in in the
credential check before each provider's search, so that a value read straight from
``os.environ`` is judged where it is sent. A request your own code sends through the
context's transport before any search ran was not judged: nothing had recorded the value,
so the same request went out before the first search and was refused after it. The context
now records them when it is built.

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes out
arrives there and is recorded.
"""

import os

import pytest

from tests.functional.test_plugin_sign_in_send_time import (
    FOREIGN,
    SESSION,
    VARIABLE,
    SessionPlugin,
)
from tests.proxied_sign_ins import PROXY_SERVICE, proxied_context, seen_by_proxy
from websearch_core import Credentials
from websearch_core.errors import ProviderNotConfiguredError
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest


@pytest.mark.parametrize("own_transport", [True, False], ids=["own", "given-credentials"])
async def test_a_session_your_code_reads_before_any_search_is_judged(
    monkeypatch: pytest.MonkeyPatch, own_transport: bool
) -> None:
    """Failed before: with no search run yet, the session read from ``os.environ`` went to
    the foreign host through the context's transport. Refused now, never shown."""
    assert SessionPlugin.credential_kinds  # the class declaring the variable lives
    monkeypatch.setenv(VARIABLE, SESSION)
    async with Simulator([PROXY_SERVICE]) as sim:
        settings = sim.settings(base_urls={}, cache=False)
        async with proxied_context(
            sim, settings, Credentials(), own_transport=own_transport
        ) as context:
            request = HttpRequest(
                method="GET", url=f"{FOREIGN}/log", headers={"Cookie": os.environ[VARIABLE]}
            )
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await context.transport.send("mine", "Mine", request)
        assert sim[PROXY_SERVICE].requests == []
        assert SESSION not in seen_by_proxy(sim)
    text = str(refused.value)
    assert text.startswith(f"Refusing to send the Session Plugin session cookie in {VARIABLE}")
    assert SESSION not in text and "eyJ1c2VyIjoiYWxpY2UifQ" not in text


async def test_guard_a_request_carrying_no_session_goes_out_before_any_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Guard (passes before and after): the session recorded refuses only what carries it."""
    monkeypatch.setenv(VARIABLE, SESSION)
    async with Simulator([PROXY_SERVICE]) as sim:
        settings = sim.settings(base_urls={}, cache=False)
        async with proxied_context(sim, settings, Credentials(), own_transport=True) as context:
            request = HttpRequest(method="GET", url=f"{FOREIGN}/log", params=[("q", "x")])
            await context.transport.send("mine", "Mine", request)
        assert "/log" in seen_by_proxy(sim)
