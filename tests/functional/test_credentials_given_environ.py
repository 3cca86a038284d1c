"""A ``Credentials`` given an ``environ`` of its own, and the process environment.

Decided (README, ``Credentials``): the mapping replaces ``os.environ``, as
``subprocess.run(env=...)`` does, so a test given ``environ={}`` is not served the
developer's keys; ``collections.ChainMap(overrides, os.environ)`` layers it. Two things
went wrong with that, carried since stop 49:

* A key set in ``os.environ`` alone was "not found", and the spec's text told the user who
  had set ``BRAVE_API_KEY`` to set it. The text now ends naming the variable set where
  these credentials do not look, and how to give it (never its value).
* A sign-in variable a provider class declares, which a plugin may read from
  ``os.environ`` itself (the README says so), was recorded from the given mapping only, so
  the plugin's session went unjudged to any host. It is recorded from ``os.environ`` too.

The simulator answers each provider's API on loopback, and plays the HTTP proxy for every
other host, so what a search sent is read from what it recorded.
"""

import os
from collections import ChainMap
from collections.abc import Mapping

import pytest

from tests.functional._sim_helpers import environ_context
from tests.functional.test_plugin_sign_in_from_environ import EnvironBorrower
from tests.functional.test_plugin_sign_in_send_time import SESSION, VARIABLE, SessionPlugin
from tests.proxied_sign_ins import PROXY_SERVICE, proxied_context, seen_by_proxy
from websearch_core import Credentials, SearchParams, get_provider
from websearch_core.errors import ProviderNotConfiguredError
from websearch_core.testing import Simulator

NOT_FOUND = {
    "brave": (
        "BRAVE_API_KEY",
        "Brave credentials not found. Set BRAVE_API_KEY or configure an API key for provider "
        '"brave".',
    ),
    "anthropic": (
        "ANTHROPIC_API_KEY",
        "No Anthropic credentials found. Set ANTHROPIC_SEARCH_API_KEY or ANTHROPIC_API_KEY, "
        "or configure Anthropic OAuth.",
    ),
    "kimi": ("KIMI_SEARCH_API_KEY", "Kimi search credentials not found."),
}
"""Each provider's key variable set in ``os.environ`` alone, and how its "not found" text
(the spec's, the reference's) begins."""
KEY = "sim-key-set-in-os-environ-0123456789"


@pytest.mark.parametrize("provider", sorted(NOT_FOUND))
async def test_a_key_set_in_os_environ_alone_is_named_in_the_not_found_error(
    provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed before: the text ended at the spec's ``Set <VARIABLE> ...``, to a user who
    had set it. It now says the variable is set in ``os.environ``, which these credentials
    do not read, and how to give it; the spec's text stands before it, and nothing is
    sent."""
    variable, spec_text = NOT_FOUND[provider]
    monkeypatch.setenv(variable, KEY)
    async with Simulator([provider]) as sim, environ_context(sim, {}) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await get_provider(provider).search(SearchParams(query="q"), context)
        assert sim[provider].requests == []
    text = str(refused.value)
    assert text.startswith(spec_text), text
    assert f"{variable} is set in os.environ, which these Credentials do not read" in text
    assert "collections.ChainMap(environ, os.environ)" in text and "explicit=" in text
    assert KEY not in text


@pytest.mark.parametrize("environ", [None, {}], ids=["os.environ", "given-empty"])
async def test_guard_the_spec_text_stands_alone_when_the_variable_is_set_nowhere(
    environ: Mapping[str, str] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard (passes before and after): with the variable set nowhere, or read from
    ``os.environ`` itself, the error is the spec's text exactly."""
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    async with Simulator(["brave"]) as sim, environ_context(sim, environ) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await get_provider("brave").search(SearchParams(query="q"), context)
    assert str(refused.value) == NOT_FOUND["brave"][1]


async def test_guard_a_chain_map_layers_the_given_mapping_over_os_environ(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Guard (passes before and after): the layering the docs advise finds the key set in
    ``os.environ`` and searches with it, the given mapping's values winning."""
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    layered = ChainMap({"BRAVE_SEARCH_MODEL_UNUSED": "x"}, os.environ)
    async with Simulator(["brave"]) as sim, environ_context(sim, layered) as context:
        response = await get_provider("brave").search(SearchParams(query="q"), context)
        assert response.sources
        assert [r.header("X-Subscription-Token") for r in sim["brave"].requests] == [KEY]


async def test_a_sign_in_read_from_os_environ_is_judged_with_a_given_environ(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Failed before: with ``Credentials(environ={})`` a plugin reading its declared
    session variable from ``os.environ`` itself sent it to a foreign host (the proxy
    received it). It is now recorded from ``os.environ`` too, and refused by name."""
    assert SessionPlugin.credential_kinds  # the class declaring the variable lives
    monkeypatch.setenv(VARIABLE, SESSION)
    async with Simulator([PROXY_SERVICE]) as sim:
        resolved = sim.settings(base_urls={}, cache=False)
        async with proxied_context(sim, resolved, Credentials(environ={})) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await EnvironBorrower().search(SearchParams(query="q"), context)
        assert sim[PROXY_SERVICE].requests == []
        assert SESSION not in seen_by_proxy(sim)
    text = str(refused.value)
    assert text.startswith(f"Refusing to send the Session Plugin session cookie in {VARIABLE}")
    assert SESSION not in text
