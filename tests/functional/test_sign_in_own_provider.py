"""A user's own ``SearchProvider`` that sends a sign-in is checked as a built-in one is.

Only :class:`~websearch_core.providers.base.ProtocolProvider` ran the credential check in
its own ``search``: a subclass of :class:`~websearch_core.providers.base.SearchProvider`
written by a user, overriding ``search`` and sending its stored OAuth token itself, sent
it to whatever route its transport had, an untrusted gateway over plain http included.
Every subclass's ``search`` is now guarded where it is defined; the chain, which checks
before it reserves a request, still runs the check once a search.

The provider below is written as a user would write one: it declares its sign-in as data
(``credential_kinds``, ``sign_in_hosts``), reads the token, and sends it through the
context's transport. The simulator plays an HTTP proxy for the gateway's host, so a
request that goes out arrives and is recorded.
"""

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar
from unittest.mock import AsyncMock

import pytest

from tests.proxied_sign_ins import proxied_context, stored_sign_in
from websearch_core import Credentials, SearchParams
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import ProviderNotConfiguredError
from websearch_core.models import SearchResponse
from websearch_core.orchestration.attempt import answer_attempt
from websearch_core.provider_credentials import Credential, StoredOAuth
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest

ACCESS = "own-provider-access-token-0123456789"
OWN_ID = "own-signed-in"
GATEWAY = "http://own-gateway.invalid"


class OwnSignedIn(SearchProvider):
    """A user's provider: its stored OAuth token in ``Authorization``, sent by itself."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id=OWN_ID,
        label="Own Signed-In",
        kind="api",
        description="a user's own provider",
        docs_url="https://own.example/docs",
    )
    credential_kinds: ClassVar[tuple[Credential, ...]] = (StoredOAuth(),)
    sign_in_hosts: ClassVar[tuple[str, ...]] = ("api.own.example",)

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        token = await context.credentials.valid_oauth_token(self.info.id)
        request = HttpRequest(
            method="GET",
            url=f"https://api.own.example/search?q={params.query}",
            headers={"Authorization": f"Bearer {token.access_token}"},
        )
        await context.transport.send(self.info.id, self.info.label, request)
        return SearchResponse(provider=self.info.id, answer="sent")


class OwnSignedInAgain(OwnSignedIn):
    """A subclass of it whose ``search`` adds to its parent's through ``super()``."""

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        response = await super().search(params, context)
        return response.model_copy(update={"answer": f"{response.answer} again"})


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return stored_sign_in(tmp_path / "credentials.json", OWN_ID, ACCESS)


@asynccontextmanager
async def _context(
    sim: Simulator, store: Path, route: str, provider_id: str = OWN_ID
) -> AsyncIterator[ProviderContext]:
    """A context as a user builds one: a real transport whose route for ``provider_id`` is
    ``route``, going through the simulator as its proxy (so what is sent is recorded)."""
    settings = sim.settings(credentials_file=store, cache=False)
    credentials = Credentials(store=CredentialStore(store))
    async with proxied_context(
        sim, settings, credentials, routes={provider_id: route}, own_transport=True
    ) as context:
        yield context


def _seen(sim: Simulator) -> str:
    return " ".join(f"{r.path} {dict(r.headers)}" for r in sim["codex"].requests)


@pytest.mark.parametrize("provider_class", [OwnSignedIn, OwnSignedInAgain])
async def test_a_users_provider_refuses_its_sign_in_for_an_untrusted_gateway(
    store: Path, provider_class: type[SearchProvider]
) -> None:
    async with Simulator(["codex"]) as sim, _context(sim, store, GATEWAY) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await provider_class().search(SearchParams(query="q"), context)
    assert sim["codex"].requests == []
    assert str(refused.value).startswith("Refusing to send the Own Signed-In OAuth token")
    assert f"custom endpoint {GATEWAY} " in str(refused.value)
    assert ACCESS not in str(refused.value)


async def test_a_users_provider_sends_its_sign_in_where_it_may(store: Path) -> None:
    async with Simulator(["codex"]) as sim:
        async with _context(sim, store, sim["codex"].base_url) as context:  # loopback
            response = await OwnSignedInAgain().search(SearchParams(query="q"), context)
        assert response.answer == "sent again"
        assert f"Bearer {ACCESS}" in _seen(sim)


@pytest.mark.parametrize(
    ("provider_class", "checked", "expected"),
    [
        (OwnSignedIn, False, 1),
        (OwnSignedIn, True, 0),  # the chain has just checked, before its reservation
        (OwnSignedInAgain, False, 1),  # its parent's search, reached by super(), not again
        (OwnSignedInAgain, True, 0),
    ],
)
async def test_each_search_is_checked_once(
    store: Path,
    monkeypatch: pytest.MonkeyPatch,
    provider_class: type[SearchProvider],
    checked: bool,
    expected: int,
) -> None:
    counted: list[str] = []
    original = SearchProvider.credential_check

    def counting(self: SearchProvider, context: ProviderContext) -> Any:
        counted.append(self.info.id)
        return original(self, context)

    monkeypatch.setattr(SearchProvider, "credential_check", counting)
    async with Simulator(["codex"]) as sim, _context(sim, store, sim["codex"].base_url) as context:
        answer = await answer_attempt(
            provider_class(), SearchParams(query="q"), context, timeout=5.0, checked=checked
        )
    assert answer.response.answer is not None and answer.response.answer.startswith("sent")
    assert len(counted) == expected


# A search replaced after the class was made, and a sign-in read without being declared.
# Stop 37's guard went where ``search`` was defined in a class body: one assigned later (on
# the class or on an instance, as a stand-in or a patch is) ran no check, and a provider that
# declared no sign-in sent a stored token wherever its route pointed, unchecked.


async def _send_token(
    provider: SearchProvider, params: SearchParams, context: ProviderContext, entry: str = OWN_ID
) -> SearchResponse:
    """What a user's replacement ``search`` does: send a stored token through the transport."""
    token = await context.credentials.valid_oauth_token(provider.info.id, entry=entry)
    request = HttpRequest(
        method="GET",
        url=f"https://api.own.example/search?q={params.query}",
        headers={"Authorization": f"Bearer {token.access_token}"},
    )
    await context.transport.send(provider.info.id, provider.info.label, request)
    return SearchResponse(provider=provider.info.id, answer="replaced")


def _replaced_on_class() -> SearchProvider:
    class Replaced(OwnSignedIn):
        """Its ``search`` assigned after the class was made."""

    async def search(
        self: SearchProvider, params: SearchParams, context: ProviderContext
    ) -> SearchResponse:
        return await _send_token(self, params, context)

    Replaced.search = search  # type: ignore[method-assign]
    return Replaced()


def _replaced_on_instance() -> SearchProvider:
    provider = OwnSignedIn()

    async def search(params: SearchParams, context: ProviderContext) -> SearchResponse:
        return await _send_token(provider, params, context)

    provider.search = search  # type: ignore[method-assign]
    return provider


REPLACED = [_replaced_on_class, _replaced_on_instance]


@pytest.mark.parametrize("make", REPLACED, ids=["class", "instance"])
async def test_a_search_assigned_later_refuses_its_sign_in_for_an_untrusted_gateway(
    store: Path, make: Callable[[], SearchProvider]
) -> None:
    provider = make()
    async with Simulator(["codex"]) as sim, _context(sim, store, GATEWAY) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await provider.search(SearchParams(query="q"), context)
    assert sim["codex"].requests == []
    assert str(refused.value).startswith("Refusing to send the Own Signed-In OAuth token")
    assert ACCESS not in str(refused.value)


@pytest.mark.parametrize("make", REPLACED, ids=["class", "instance"])
@pytest.mark.parametrize("checked", [False, True])
async def test_a_search_assigned_later_sends_where_it_may_checked_once(
    store: Path,
    monkeypatch: pytest.MonkeyPatch,
    make: Callable[[], SearchProvider],
    checked: bool,
) -> None:
    counted: list[str] = []
    original = SearchProvider.credential_check

    def counting(self: SearchProvider, context: ProviderContext) -> Any:
        counted.append(self.info.id)
        return original(self, context)

    monkeypatch.setattr(SearchProvider, "credential_check", counting)
    provider = make()
    async with Simulator(["codex"]) as sim, _context(sim, store, sim["codex"].base_url) as context:
        answer = await answer_attempt(
            provider, SearchParams(query="q"), context, timeout=5.0, checked=checked
        )
        assert f"Bearer {ACCESS}" in _seen(sim)
    assert answer.response.answer == "replaced"
    assert len(counted) == (0 if checked else 1)


class OwnUndeclared(SearchProvider):
    """A user's provider that sends its stored OAuth token but declares no sign-in."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="own-undeclared",
        label="Own Undeclared",
        kind="api",
        description="a user's own provider",
        docs_url="https://own.example/docs",
    )

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        return await _send_token(self, params, context, entry=self.info.id)


class OwnOtherEntry(OwnSignedIn):
    """Declares its own sign-in, and sends the one stored under Codex's entry."""

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        return await _send_token(self, params, context, entry="codex")


@pytest.mark.parametrize(
    ("provider_class", "entry", "declare"),
    [
        (OwnUndeclared, "own-undeclared", "StoredOAuth() to its credential_kinds"),
        (OwnOtherEntry, "codex", "StoredOAuth(entry='codex') to its credential_kinds"),
    ],
    ids=["undeclared", "other-entry"],
)
async def test_a_sign_in_the_provider_does_not_declare_is_refused(
    tmp_path: Path, provider_class: type[SearchProvider], entry: str, declare: str
) -> None:
    path = tmp_path / "credentials.json"
    CredentialStore(path).set_oauth(entry, OAuthToken(ACCESS, expires_at=time.time() + 3600))
    own_id = provider_class.info.id
    async with Simulator(["codex"]) as sim, _context(sim, path, GATEWAY, own_id) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await provider_class().search(SearchParams(query="q"), context)
    assert sim["codex"].requests == []
    text = str(refused.value)
    assert refused.value.provider == provider_class.info.id
    assert f'provider "{provider_class.info.id}" ({provider_class.info.label})' in text
    assert f'stored under "{entry}"' in text
    assert declare in text and "sign_in_hosts" in text
    assert ACCESS not in text


async def test_a_stand_in_set_on_the_class_is_called_as_before_once_checked(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A mock is called without the instance, as a class calls a non-function; the patch's
    # undo puts the guarded original back as it was.
    class Patched(OwnSignedIn):
        """Patched as a test patches a provider."""

    original = Patched.search
    stand_in = AsyncMock(return_value=SearchResponse(provider=OWN_ID, answer="stand-in"))
    monkeypatch.setattr(Patched, "search", stand_in)
    params = SearchParams(query="q")
    async with Simulator(["codex"]) as sim:
        async with _context(sim, store, GATEWAY) as context:
            with pytest.raises(ProviderNotConfiguredError):
                await Patched().search(params, context)
        stand_in.assert_not_called()
        async with _context(sim, store, sim["codex"].base_url) as context:
            response = await Patched().search(params, context)
    assert response.answer == "stand-in"
    stand_in.assert_awaited_once_with(params, context)
    monkeypatch.undo()
    assert Patched.search is original


async def test_sign_in_kinds_assigned_later_are_declared(store: Path) -> None:
    class Later(OwnUndeclared):
        """Declares its sign-in after it was made (an id of its own: declarations add up)."""

        info: ClassVar[ProviderInfo] = replace(OwnUndeclared.info, id="own-later")

    Later.credential_kinds = (StoredOAuth(),)
    Later.sign_in_hosts = ("api.own.example",)
    path = store.parent / "later.json"
    CredentialStore(path).set_oauth(Later.info.id, OAuthToken(ACCESS))
    async with Simulator(["codex"]) as sim:
        own_id = Later.info.id
        async with _context(sim, path, sim["codex"].base_url, own_id) as context:
            response = await Later().search(SearchParams(query="q"), context)
        assert f"Bearer {ACCESS}" in _seen(sim)
    assert response.answer == "replaced"
