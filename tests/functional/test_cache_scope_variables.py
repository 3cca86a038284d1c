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
from websearch_core.credentials import Credentials, CredentialStore, OAuthToken
from websearch_core.endpoint_variables import scope_variables
from websearch_core.providers import get_provider
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import PROTOCOLS, RecordedRequest

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


class _Recording(Credentials):
    """Credentials that note each variable read as a setting (``env``) or as a secret."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.settings_read: set[str] = set()
        self.secrets_read: set[str] = set()

    def env(self, name: str) -> str | None:
        self.settings_read.add(name)
        return super().env(name)

    def secret_env(self, name: str) -> str | None:
        self.secrets_read.add(name)
        return super().secret_env(name)


NOT_IN_THE_ANSWER = {
    "GOOGLE_CLOUD_PROJECT": "picks whose quota pays for a Gemini sign-in",
    "GOOGLE_CLOUD_PROJECT_ID": "the same",
}
"""Variables a provider reads that leave what it answers alone, with why."""
IN_THE_SETTINGS = ("WEBSEARCH_", "SEARXNG_")
"""Prefixes of variables the settings read, which the settings' digest covers already."""


@pytest.mark.parametrize("provider_id", sorted(PROTOCOLS))
async def test_every_variable_a_provider_reads_is_in_the_scope_or_said_not_to_matter(
    provider_id: str, tmp_path: Path
) -> None:
    # A variable a provider starts to read must be declared (answer_variables) or listed
    # here as one that changes no answer, so the cache's scope cannot fall behind again.
    async with Simulator([provider_id]) as sim:
        settings = sim.settings(credentials_file=tmp_path / "credentials.json")
        if provider_id == "codex":  # Codex searches with a ChatGPT sign-in only
            token = OAuthToken(access_token="t" * 24, refresh_token="r-1")
            CredentialStore(settings.resolved_credentials_file()).set_oauth("codex", token)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            store = CredentialStore(settings.resolved_credentials_file())
            recording = _Recording(explicit=sim.api_keys(), store=store)
            ws.credentials = recording
            await ws.run(QUERY, provider=provider_id)
    read = recording.settings_read - recording.secrets_read
    unscoped = {
        name
        for name in read - set(scope_variables(get_provider(provider_id)))
        if name not in NOT_IN_THE_ANSWER and not name.startswith(IN_THE_SETTINGS)
    }
    assert unscoped == set()
    # And each variable declared is one the search reads (the recording sees the reads).
    assert set(get_provider(provider_id).answer_variables) <= recording.settings_read
