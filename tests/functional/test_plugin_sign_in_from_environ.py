"""A plugin's sign-in variable read straight from ``os.environ``, judged where it is sent.

Stop 42 (pluginsignin) recorded a declared sign-in variable (``SecretVariable(...,
sign_in=True)``) when ``Credentials`` read it, so a plugin reading ``os.environ`` itself was
judged only if the credential check had read the variable first: not when the provider's
API key, listed before it, was what the check resolved, and not for a provider declaring
nothing that read another class's variable before that class was checked. Every declared
sign-in variable set is now recorded by the credential check that runs before any
provider's search, whatever it resolves.

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes out
arrives there and is recorded.
"""

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import ClassVar

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
from websearch_core.models import SearchResponse
from websearch_core.provider_credentials import ApiKey, Credential, SecretVariable
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest

KEY_VARIABLE = "SESSION_PLUGIN_API_KEY"
KEY = "sp-api-key-0123456789abcdef"


class KeyFirstPlugin(SessionPlugin):
    """The session plugin with an API key preferred to its session: the credential check
    resolves the key and stops there, yet its search reads the session from ``os.environ``
    and sends it."""

    credential_kinds: ClassVar[tuple[Credential, ...]] = (
        ApiKey(env_vars=(KEY_VARIABLE,)),
        SecretVariable(VARIABLE, "Session Plugin session cookie", header="Cookie", sign_in=True),
    )

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        request = HttpRequest(
            method="GET", url=f"{self.url}/search", headers={"Cookie": os.environ[VARIABLE]}
        )
        await context.transport.send(self.info.id, self.info.label, request)
        return SearchResponse(provider=self.info.id, answer="sent")


class EnvironBorrower(SearchProvider):
    """A provider declaring no credential that reads the session plugin's variable from
    ``os.environ`` and sends it: held to the hosts of the classes declaring it."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="environ-borrower",
        label="Environ Borrower",
        kind="api",
        description="a user's own provider",
        docs_url="https://session-plugin.example/docs",
    )

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        request = HttpRequest(
            method="GET", url=f"{FOREIGN}/search", headers={"Cookie": os.environ[VARIABLE]}
        )
        await context.transport.send(self.info.id, self.info.label, request)
        return SearchResponse(provider=self.info.id, answer="sent")


@asynccontextmanager
async def _context(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[ProviderContext]:
    """A context as the client builds one, reading ``os.environ``, nothing read yet.

    The session and the key are set once it is built: a context records the declared
    variables set when it is built (stop 49, ``test_sign_in_before_any_search.py``), so
    only the credential check before the search can record these.
    """
    resolved = sim.settings(base_urls={}, cache=False)
    async with proxied_context(sim, resolved, Credentials()) as context:
        assert context.credentials.sign_ins == {}
        monkeypatch.setenv(VARIABLE, SESSION)
        monkeypatch.setenv(KEY_VARIABLE, KEY)
        yield context


async def test_a_session_read_from_os_environ_is_judged_when_a_key_is_sent_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Failed before stop 44: the check resolved the API key only, so the session read
    from ``os.environ`` was never recorded and went to the foreign host."""
    async with Simulator([PROXY_SERVICE]) as sim, _context(sim, monkeypatch) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await KeyFirstPlugin().search(SearchParams(query="q"), context)
        assert SESSION not in seen_by_proxy(sim)
        assert sim[PROXY_SERVICE].requests == []
    refused_off_own_host(refused.value)


async def test_a_session_read_from_os_environ_by_a_non_declarer_is_judged_first_thing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Failed before stop 44: a provider declaring nothing reading the variable from
    ``os.environ``, before any class declaring it was checked, sent it anywhere."""
    assert KeyFirstPlugin.credential_kinds  # the declaring class lives
    async with Simulator([PROXY_SERVICE]) as sim, _context(sim, monkeypatch) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await EnvironBorrower().search(SearchParams(query="q"), context)
        assert sim[PROXY_SERVICE].requests == []
    text = str(refused.value)
    assert text.startswith(f"Refusing to send the Session Plugin session cookie in {VARIABLE}")
    assert SESSION not in text and "eyJ1c2VyIjoiYWxpY2UifQ" not in text


async def test_guard_the_key_still_goes_where_the_plugin_sends_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Guard (passes before and after): recording the session refuses only what carries
    it; the API key the check resolved goes to the plugin's URL as before."""

    class KeyOnly(KeyFirstPlugin):
        async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
            request = HttpRequest(
                method="GET", url=f"{FOREIGN}/search", headers={"X-Key": os.environ[KEY_VARIABLE]}
            )
            await context.transport.send(self.info.id, self.info.label, request)
            return SearchResponse(provider=self.info.id, answer="sent")

    async with Simulator([PROXY_SERVICE]) as sim, _context(sim, monkeypatch) as context:
        answer = await KeyOnly().search(SearchParams(query="q"), context)
        assert answer.answer == "sent"
        assert KEY in seen_by_proxy(sim)
