"""``websearch providers`` names the stored OAuth sign-in a search would use.

It said ``ready`` alone, so nothing showed that Gemini's stored token wins over its key, or
which of its two sign-ins (Gemini CLI first, then Antigravity) is the one in use.
"""

import pytest

from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.testing import Simulator

PROVIDERS = ("gemini", "codex", "anthropic", "perplexity")


async def _reasons(sim: Simulator, keys: dict[str, str]) -> dict[str, str]:
    async with WebSearch(sim.settings(), api_keys=keys) as ws:
        return {s.id: s.reason for s in await ws.provider_status() if s.id in PROVIDERS}


async def test_the_sign_in_a_search_would_use_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PERPLEXITY_COOKIES", "PERPLEXITY_API_KEY", "PPLX_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    async with Simulator(list(PROVIDERS)) as sim:
        store = CredentialStore(sim.settings().resolved_credentials_file())
        for entry in ("gemini", "gemini-cli", "codex", "anthropic", "perplexity"):
            store.set_oauth(entry, OAuthToken(access_token=f"{entry}-token"))
        keys = {"gemini": "gemini-key", "anthropic": "anthropic-key"}
        both = await _reasons(sim, keys)
        store.remove("gemini-cli", "oauth")
        monkeypatch.setenv("PERPLEXITY_COOKIES", "a=b")  # sent before the token
        antigravity = await _reasons(sim, keys)
    assert both == {
        "gemini": "ready (Gemini CLI sign-in)",  # wins over the key and over Antigravity
        "codex": "ready (OAuth token)",
        "anthropic": "ready",  # the key wins: the token is not sent
        "perplexity": "ready (OAuth token)",
    }
    assert antigravity["gemini"] == "ready (Antigravity sign-in)"
    assert antigravity["perplexity"] == "ready"
