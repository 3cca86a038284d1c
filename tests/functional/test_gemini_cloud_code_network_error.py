"""A Gemini sign-in's search that got no response at all, in the reference's words.

The behaviour reference words a Cloud Code search left with no response ``Gemini Cloud
Code API error (502): Network error``; ours said the transport's ``Gemini connection
failed (<host>): <cause>``, the wording it gives no other Cloud Code failure. The
transport's detail is kept after the reference's text, and a key's search (the Developer
API, for which the reference gives no such text) keeps its own.
"""

from collections.abc import AsyncIterator

import pytest

from tests.functional._sim_helpers import credential_store, failure_after
from websearch_core.credentials import OAuthToken
from websearch_core.errors import ProviderConnectionError
from websearch_core.testing import Fault, Simulator

QUERY = "python asyncio"
NETWORK_ERROR = "Gemini Cloud Code API error (502): Network error: the connection failed ("


@pytest.fixture
async def sim(sleeps: list[float]) -> AsyncIterator[Simulator]:
    """The Gemini simulator, its back-off waits recorded instead of slept."""
    async with Simulator(["gemini"]) as simulator:
        yield simulator


async def test_a_sign_ins_last_connection_failure_is_the_references_network_error(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed before: the text was ``Gemini connection failed (...)``, with no status."""
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    credential_store(sim).set_oauth("gemini", OAuthToken(access_token="tok"))
    failure = await failure_after(sim, "gemini", QUERY, Fault.reset(), always=True, api_keys={})
    assert type(failure) is ProviderConnectionError  # what the chain and the hints read
    assert failure.message.startswith(NETWORK_ERROR), failure.message
    host = failure.message.removeprefix(NETWORK_ERROR).split(")", 1)[0]
    assert host.startswith("127.0.0.1:")  # the simulator's, named as the transport named it
    assert failure.status == 502
    assert len(sim["gemini"].requests) == 5  # every endpoint and resend was still tried


async def test_a_keys_connection_failure_keeps_the_transports_text(sim: Simulator) -> None:
    """Guard: the reference gives the Developer API no text for it, so it is the transport's
    (since firstusers21 every provider's: ``<Label> search failed: the connection failed``)."""
    failure = await failure_after(sim, "gemini", QUERY, Fault.reset(), always=True)
    assert type(failure) is ProviderConnectionError
    assert failure.message.startswith("Gemini search failed: the connection failed (127.0.0.1:"), (
        failure.message
    )
