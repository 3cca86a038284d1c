"""The README's "Testing your agent offline": the faults and the token endpoint it names.

No docs stop since 49 read this section claim by claim (its serve output is generated and
its examples run elsewhere). Held here: every fault its Python example lists in comments
builds as written there, and the refresh grant the Codex, Anthropic and Perplexity
simulators serve behaves as the section says (a new access and refresh token, a refresh
token good for one use, one listed in ``revoked`` refused with ``400 invalid_grant``, and
an access token listed in ``expired`` answered by the API with 401). All are guards.
"""

import re
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols._oauth_refresh import RefreshGrant

README = Path(__file__).resolve().parents[2] / "README.md"
SIGN_INS = ("codex", "anthropic", "perplexity")


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Testing your agent offline\n")
    return text[start : text.index("\n## ", start + 1)]


def _prose() -> str:
    return " ".join(_section().split())


def test_every_fault_the_example_lists_builds_as_written() -> None:
    """A guard: ``Fault.payment_required()`` and each call its comments list."""
    block = _section().split("```python", 1)[1].split("```", 1)[0]
    calls = re.findall(r"Fault\.(\w+\([^)]*\))", block)
    comments = " ".join(line.split("#", 1)[1] for line in block.splitlines() if "#" in line)
    calls += re.findall(r"\b([a-z_]+\([^)]*\))", comments)
    named = [call.split("(")[0] for call in calls]
    assert named == [
        "payment_required",
        "rate_limited",
        "unauthorized",
        "hang",
        "reset",
        "malformed",
        "challenge",
        "oversized",
    ]
    size = 4096  # the example's ``size``
    for call in calls:
        fault = eval(f"Fault.{call}", {"Fault": Fault, "size": size})  # as the README writes it
        assert isinstance(fault, Fault), call


def _grant(sim: Simulator, provider_id: str) -> RefreshGrant:
    grant = getattr(sim[provider_id].protocol, "sign_in", None)
    assert isinstance(grant, RefreshGrant)
    return grant


async def _refresh(url: str, refresh_token: str) -> tuple[int, dict[str, Any]]:
    form = {"grant_type": "refresh_token", "refresh_token": refresh_token}
    async with aiohttp.ClientSession() as session, session.post(url, data=form) as response:
        return response.status, await response.json()


@pytest.mark.parametrize("provider_id", SIGN_INS)
async def test_the_token_endpoint_rotates_and_refuses_as_the_section_says(
    provider_id: str,
) -> None:
    """A guard: a new pair, then the same refresh token refused, then a revoked one."""
    assert "also answer `POST /oauth/token`, an OAuth 2.0 refresh grant" in _prose()
    assert 'or listed in `sim["codex"].protocol.sign_in.revoked` with `400 invalid_grant`' in (
        _prose()
    )
    async with Simulator([provider_id]) as sim:
        url = f"{sim[provider_id].base_url}/oauth/token"
        status, fresh = await _refresh(url, "refresh-one")
        again, used = await _refresh(url, "refresh-one")
        _grant(sim, provider_id).revoked.add("refresh-two")
        refused, revoked = await _refresh(url, "refresh-two")
    assert status == 200
    assert fresh["access_token"] and fresh["refresh_token"] not in ("", "refresh-one")
    assert (again, used["error"]) == (400, "invalid_grant")  # good for one use
    assert (refused, revoked["error"]) == (400, "invalid_grant")


@pytest.mark.parametrize("provider_id", ["codex", "anthropic"])
async def test_an_access_token_listed_expired_gets_the_apis_401(provider_id: str) -> None:
    """A guard: stored with an hour left, yet refused by the simulated API."""
    assert "An access token listed in `sign_in.expired` gets the API's 401" in _prose()
    token = f"sim-{provider_id}-stale-access"
    async with Simulator([provider_id]) as sim:
        settings = sim.settings()
        store = CredentialStore(settings.resolved_credentials_file())
        store.set_oauth(provider_id, OAuthToken(token, None, time.time() + 3600))
        _grant(sim, provider_id).expired.add(token)
        async with WebSearch(settings, api_keys={}) as ws:
            result = await ws.run("python asyncio", provider=provider_id, use_cache=False)
    statuses = [attempt.status for attempt in result.response.attempts]
    assert result.error is not None and 401 in statuses, (result.error, statuses)
