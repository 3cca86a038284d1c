"""The result cache's scope covers the variables that change what a provider answers.

A model variable (``GEMINI_SEARCH_MODEL``, ``XAI_SEARCH_MODEL``...) or Perplexity's time zone
(``TZ``) is read from the environment on every search, not from the settings: changed
between two searches, the answer the first model gave was served from the cache to the
second, so the change seemed to do nothing until the entry expired.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from websearch_core import WebSearch
from websearch_core.cache import variables_scope
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.providers import get_provider
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import RecordedRequest

QUERY = "python asyncio"


def _gemini_model(request: RecordedRequest) -> str:
    # /v1beta/models/<model>:streamGenerateContent
    return request.path.split("/models/", 1)[1].split(":", 1)[0]


def _body_model(request: RecordedRequest) -> str:
    return str(request.json()["model"])


def _perplexity_zone(request: RecordedRequest) -> str:
    return str(request.json()["params"]["timezone"])


@dataclass(frozen=True)
class Case:
    """One provider, the variable that changes its answer, two values and where each shows."""

    provider: str
    variable: str
    values: tuple[str, str]
    sent: Callable[[RecordedRequest], str]
    environ: tuple[tuple[str, str], ...] = ()


CASES = [
    Case("gemini", "GEMINI_SEARCH_MODEL", ("gemini-2.5-pro", "gemini-2.5-flash"), _gemini_model),
    Case(
        "anthropic", "ANTHROPIC_SEARCH_MODEL", ("claude-sonnet-4-5", "claude-opus-4-1"), _body_model
    ),
    Case("xai", "XAI_SEARCH_MODEL", ("grok-4-fast-reasoning", "grok-4"), _body_model),
    Case("codex", "CODEX_SEARCH_MODEL", ("gpt-5", "gpt-5-mini"), _body_model),
    Case(
        "perplexity",
        "TZ",
        ("Europe/Berlin", "America/New_York"),
        _perplexity_zone,
        (("PERPLEXITY_COOKIES", "pplx.visitor-id=v; __Secure-next-auth.session-token=s"),),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.variable for case in CASES])
async def test_a_variable_that_changes_the_answer_misses_the_cache(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in case.environ:
        monkeypatch.setenv(name, value)
    async with Simulator([case.provider]) as sim:
        keys: dict[str, Any] = sim.api_keys()
        if case.provider == "codex":  # Codex searches with a ChatGPT sign-in only
            expires = time.time() + 3600
            token = OAuthToken(access_token="t" * 24, refresh_token="r-1", expires_at=expires)
            CredentialStore(sim.settings().resolved_credentials_file()).set_oauth("codex", token)
        if case.provider == "perplexity":  # the cookies' sign-in, where TZ is sent
            keys = {}
        async with WebSearch(sim.settings(), api_keys=keys) as ws:
            answers = []
            for value in (*case.values, case.values[0]):
                monkeypatch.setenv(case.variable, value)
                answers.append(await ws.search(QUERY, provider=case.provider))
        sent = [case.sent(request) for request in sim[case.provider].requests]
    assert sent == list(case.values)
    # Set back to the first value: the first answer, from the cache.
    assert [answer.cached for answer in answers] == [False, False, True]


def test_the_scope_holds_a_digest_not_the_values() -> None:
    # A variable may hold a secret (a URL with a password in it): the scope never shows it.
    gemini, anthropic = get_provider("gemini"), get_provider("anthropic")
    environ = {
        "GEMINI_SEARCH_MODEL": "gemini-2.5-pro",
        "ANTHROPIC_BASE_URL": "https://user:hunter2@gateway.example",
    }
    scope = variables_scope([gemini, anthropic], environ.get)
    assert scope
    assert "hunter2" not in scope and "gemini-2.5-pro" not in scope
    assert variables_scope([gemini, anthropic], {}.get) == ""
    other = {**environ, "GEMINI_SEARCH_MODEL": "gemini-2.5-flash"}
    assert variables_scope([gemini, anthropic], other.get) != scope
    # A variable of a provider the chain cannot ask leaves the scope as it was.
    assert variables_scope([anthropic], other.get) == variables_scope([anthropic], environ.get)


async def test_the_gemini_model_setting_misses_the_cache_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The setting GEMINI_SEARCH_MODEL overrides is in the settings' digest: two
    # configurations sharing one store, each with its own model, each get their model's answer.
    monkeypatch.delenv("GEMINI_SEARCH_MODEL", raising=False)
    async with Simulator(["gemini"]) as sim:
        answers = []
        for model in ("gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-pro"):
            settings = sim.settings(state_backend="sqlite", state_dir=tmp_path, gemini_model=model)
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                answers.append(await ws.search(QUERY, provider="gemini"))
        sent = [_gemini_model(request) for request in sim["gemini"].requests]
    assert sent == ["gemini-2.5-pro", "gemini-2.5-flash"]
    assert [answer.cached for answer in answers] == [False, False, True]
