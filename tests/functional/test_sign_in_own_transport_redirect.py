"""A ``Transport`` of the user's own never follows a redirect elsewhere with a sign-in.

A redirect to another origin is followed only without credentials: the known credential
headers are dropped, and a hop whose other headers hold a secret the transport knows is
refused. A transport built without the client's credentials (a user's own, to call a
provider alone) knew only the secrets it was given, not the sign-ins handed out, which its
judgement of where a request goes reads from every ``Credentials`` alive. So a request
carrying the stored ChatGPT sign-in in a header of its sender's own (``X-Session``) to an
allowed host (here loopback) that answered with a redirect to another origin was followed,
the header with it: reproduced with the simulator as the proxy, the hop arrived carrying
the token. It is now refused as the client's transport refuses it
(``test_sign_in_sends.test_a_redirect_to_another_origin_never_carries_the_sign_in``).

The simulator plays an HTTP proxy for every non-loopback host, so a hop that goes out
arrives there and is recorded.
"""

from pathlib import Path

import pytest

from tests.functional.test_sign_in_sends import FOREIGN, RedirectedCodex
from tests.proxied_sign_ins import proxied_context, stored_sign_in
from websearch_core import Credentials, SearchParams
from websearch_core.credentials import CredentialStore
from websearch_core.errors import SearchProviderError
from websearch_core.testing import Fault, Simulator

ACCESS = "ya29.a0own-redirect-access-0123456789"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS)


@pytest.mark.parametrize("status", [301, 302, 307, 308])
async def test_an_own_transport_refuses_a_redirect_elsewhere_carrying_a_sign_in(
    store: Path, status: int
) -> None:
    """Failed before: the hop to the foreign origin was sent with ``X-Session`` holding the
    sign-in. It is now refused, naming the other origin, never the token."""
    provider = type("Made", (RedirectedCodex,), {"how": "header"})()
    async with Simulator(["codex"]) as sim:
        routes = {"codex": sim["codex"].base_url}
        sim["codex"].enqueue(Fault.http(status, headers={"Location": f"{FOREIGN}/elsewhere"}))
        settings = sim.settings(base_urls={}, credentials_file=store, cache=False)
        credentials = Credentials(store=CredentialStore(store))
        async with proxied_context(
            sim, settings, credentials, routes=routes, own_transport=True
        ) as context:
            assert not context.transport.judges_sign_ins
            with pytest.raises(SearchProviderError) as refused:
                await provider.search(SearchParams(query="q"), context)
        assert "redirected to another origin" in str(refused.value)
        assert ACCESS not in str(refused.value)
        assert [r for r in sim["codex"].requests if r.path == "/elsewhere"] == []


async def test_an_own_transport_masks_a_sign_in_handed_out(store: Path) -> None:
    """Failed before: text an own transport masks (upstream text a provider logs, its
    error texts) kept a sign-in handed out by the credentials of the context using it."""
    async with Simulator(["codex"]) as sim:
        settings = sim.settings(base_urls={}, credentials_file=store, cache=False)
        credentials = Credentials(store=CredentialStore(store))
        async with proxied_context(sim, settings, credentials, own_transport=True) as context:
            token = credentials.oauth_token("codex")
            assert token is not None and token.access_token == ACCESS
            masked = context.transport.masked(f"upstream said: bad token {ACCESS}")
    assert ACCESS not in masked and masked.startswith("upstream said: bad token ")
