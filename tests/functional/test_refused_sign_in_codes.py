"""Which of Google's refusals of a refresh are final for the stored sign-in, and which pass.

RFC 6749 section 5.2 names the token endpoint's errors. ``invalid_grant`` was the only one
kept (the refresh token is dead); yet Google also refuses a stored refresh token for good
with ``unauthorized_client`` (``Unauthorized``: the token was obtained by another OAuth
client, e.g. a Gemini CLI sign-in stored in Antigravity's ``gemini`` entry) and
``deleted_client`` (the client was deleted, which revokes its refresh tokens): every later
search asked the token endpoint again and got the same answer. Those are now kept, as
``invalid_grant`` is. ``invalid_client`` (the client's own authentication failed) and a
bare 400, 401 or 403 without an error code may pass: the next search asks again
(``invalid_client`` itself is in ``tests/functional/test_refused_sign_in.py``).

Driven end to end through ``WebSearch`` against the simulator's Google token endpoint.
"""

import json
import time

import pytest

from tests.functional._sim_helpers import credential_store, gemini_protocol, simulator_fixture
from websearch_core import WebSearch
from websearch_core.credentials import OAuthToken
from websearch_core.errors import AllProvidersFailedError, SearchProviderError, SignInRefusedError
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.gemini import GEMINI_CLI_CLIENT

TOKEN_PATH = "/token"
OLD = OAuthToken("ya29.a0old-access", "1//0stored-refresh-token", time.time() - 60)

pytestmark = pytest.mark.usefixtures("gemini_default_model")


sim = simulator_fixture("gemini")


def _asked(sim: Simulator) -> int:
    return [r.path for r in sim["gemini"].requests].count(TOKEN_PATH)


async def _failure(ws: WebSearch) -> SearchProviderError:
    with pytest.raises(AllProvidersFailedError) as caught:
        await ws.search("python asyncio", provider="gemini")
    (failure,) = caught.value.failures
    return failure


async def _twice(sim: Simulator) -> tuple[SearchProviderError, SearchProviderError]:
    """Two searches in two clients (two processes' worth): the first refused, the second's."""
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        first = await _failure(ws)
        await ws.reset_provider("gemini")  # its short mark is not what is tested here
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        second = await _failure(ws)
    return first, second


async def test_a_sign_in_another_client_obtained_is_refused_once(sim: Simulator) -> None:
    # A Gemini CLI sign-in stored in Antigravity's entry: refreshed as Antigravity, Google
    # answers unauthorized_client, and will for as long as that token is stored there.
    credential_store(sim).set_oauth("gemini", OLD)
    gemini_protocol(sim).issued_to[OLD.refresh_token or ""] = GEMINI_CLI_CLIENT[0]
    first, second = await _twice(sim)
    assert type(first) is SignInRefusedError
    assert "(unauthorized_client: Unauthorized)" in first.message
    assert type(second) is SignInRefusedError and second.message == first.message
    assert _asked(sim) == 1
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        (row,) = [s for s in await ws.provider_status() if s.id == "gemini"]
    assert row.reason.startswith("sign-in refused (Antigravity sign-in); "), row.reason


async def test_a_deleted_client_is_refused_once(sim: Simulator) -> None:
    credential_store(sim).set_oauth("gemini-cli", OLD)
    body = {"error": "deleted_client", "error_description": "The OAuth client was deleted."}
    sim["gemini"].enqueue(Fault.http(401, json.dumps(body), {"Content-Type": "application/json"}))
    first, second = await _twice(sim)
    assert type(first) is SignInRefusedError
    assert "(deleted_client: The OAuth client was deleted.)" in first.message
    assert type(second) is SignInRefusedError and second.message == first.message
    assert _asked(sim) == 1


@pytest.mark.parametrize("status", [400, 401, 403])
async def test_a_refusal_without_an_error_code_is_asked_again(sim: Simulator, status: int) -> None:
    credential_store(sim).set_oauth("gemini-cli", OLD)
    sim["gemini"].enqueue(Fault.http(status, "refused"))
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        refused = await _failure(ws)
        await ws.reset_provider("gemini")
        response = await ws.search("after the bare refusal", provider="gemini")
    assert type(refused) is not SignInRefusedError
    assert f"Google refused the sign-in (status {status})" in refused.message
    assert response.answer
    assert _asked(sim) == 2
    assert '"refused"' not in credential_store(sim).path.read_text(encoding="utf-8")
