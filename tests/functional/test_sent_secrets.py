"""Every credential a provider sends is checked as its API key is, before any request.

The key check (``test_key_problems``) covered API keys only. A stored OAuth token (Gemini,
OpenAI/Codex, Anthropic, Perplexity), Perplexity's cookie header, the OpenRouter key
Perplexity falls back to, and SearXNG's token and Basic auth password still reached the
transport with a control character in them, and the search failed as ``request was not
sent: a header value holds a line break ...`` while ``websearch providers`` said
``ready``. Now each is named where it was set (the variable, the store file, the
setting), the table says ``misconfigured:``, and the chain skips the provider without a
request and moves on; the value never appears.
"""

import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from websearch_core import WebSearch
from websearch_core.credentials import OAuthToken
from websearch_core.testing import Fault, Simulator

QUERY = "python asyncio"
HEAD, TAIL = "CANARYq7Zx", "w3RtPLUM"
BAD = f"{HEAD}\r\n{TAIL}"
"""A secret with a line break inside; neither half may appear in any text."""
CONTROL = "contains a control character (a line break, a NUL), so it cannot be sent"


def _token() -> dict[str, object]:
    return OAuthToken(access_token=BAD, expires_at=4102444800.0).to_json()


@dataclass(frozen=True)
class Case:
    provider: str
    stored: dict[str, dict[str, object]] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    problem: str = ""
    """The expected text; ``{store}`` stands for the credential store's path."""


def _stored_token(provider: str, what: str, entry: str = "") -> Case:
    entry = entry or provider
    return Case(
        provider,
        stored={entry: {"oauth": _token()}},
        problem=(
            f"{what} stored in the credential store {{store}} {CONTROL}; store a new token "
            f"for {entry}, or forget it with 'websearch auth remove {entry} --oauth'."
        ),
    )


def _variable(provider: str, name: str, what: str, **env: str) -> Case:
    return Case(
        provider,
        env={name: BAD, **env},
        problem=f"{what} in {name} {CONTROL}; remove it from {name}.",
    )


CASES = {
    "gemini oauth": _stored_token("gemini", "Gemini OAuth token (Antigravity sign-in)"),
    "gemini-cli oauth": _stored_token(
        "gemini", "Gemini OAuth token (Gemini CLI sign-in)", "gemini-cli"
    ),
    "codex oauth": _stored_token("codex", "OpenAI OAuth token"),
    "anthropic oauth": _stored_token("anthropic", "Anthropic OAuth token"),
    "perplexity oauth": _stored_token("perplexity", "Perplexity OAuth token"),
    "perplexity cookies": _variable("perplexity", "PERPLEXITY_COOKIES", "Perplexity cookie header"),
    "openrouter key": _variable("perplexity", "OPENROUTER_API_KEY", "OpenRouter API key"),
    "searxng token": _variable("searxng", "SEARXNG_TOKEN", "SearXNG token"),
    "searxng password": _variable(
        "searxng",
        "SEARXNG_BASIC_PASSWORD",
        "SearXNG Basic auth password",
        SEARXNG_BASIC_USERNAME="user",
    ),
}


def _store(data: dict[str, dict[str, object]]) -> Path:
    path = Path(os.environ["WEBSEARCH_CREDENTIALS_FILE"])
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _secret_free(*texts: str) -> bool:
    return not any(HEAD in text or TAIL in text for text in texts)


@pytest.mark.parametrize("name", list(CASES))
async def test_a_credential_that_cannot_be_sent_is_named_and_skipped(
    name: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    case = CASES[name]
    path = _store(case.stored)
    problem = case.problem.format(store=path)
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    async with Simulator([case.provider, "serper"]) as sim:
        for variable, value in case.env.items():
            monkeypatch.setenv(variable, value)
        monkeypatch.setenv("SEARXNG_ENDPOINT", sim.base_urls().get("searxng", ""))
        # Listed, so an explicit-only setup (OpenRouter alone) is tried too.
        settings = sim.settings(providers=(case.provider, "serper"))
        async with WebSearch(settings, api_keys={"serper": "fake-serper"}) as ws:
            status = next(s for s in await ws.provider_status() if s.id == case.provider)
            result = await ws.run(QUERY, use_cache=False)
        assert sim[case.provider].requests == []  # skipped before any request
    assert status.reason == f"misconfigured: {problem}"
    assert not status.available
    assert result.error is None and result.response.provider == "serper"
    skipped = result.response.attempts[0]
    assert (skipped.provider, skipped.outcome, skipped.detail) == (
        case.provider,
        "skipped",
        problem,
    )
    assert _secret_free(repr(status), result.text, repr(result.response), caplog.text)


COOKIES = "__Secure-next-auth.session-token=fine"
KEY_PROBLEM = (
    f"Perplexity API key in PERPLEXITY_API_KEY {CONTROL}; remove it from PERPLEXITY_API_KEY."
)


@pytest.mark.parametrize("key", [BAD, f'"{HEAD}{TAIL}"'])
async def test_a_bad_perplexity_key_behind_working_cookies_is_passed_over_and_named(
    key: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Perplexity tries each credential set in turn, so one bad key need not stop it.

    A bad key beside good cookies read ``misconfigured`` and the chain skipped Perplexity,
    though the cookies, sent first, worked. Now the cookies are used, and the table, the
    attempt and the log name the key that is left out.
    """
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    monkeypatch.setenv("PERPLEXITY_COOKIES", COOKIES)
    monkeypatch.setenv("PERPLEXITY_API_KEY", key)
    problem = KEY_PROBLEM
    if key != BAD:
        problem = problem.replace(
            CONTROL, 'contains a quote mark (") that would be sent as part of it'
        )
    async with Simulator(["perplexity"]) as sim:
        async with WebSearch(sim.settings()) as ws:
            status = next(s for s in await ws.provider_status() if s.id == "perplexity")
            result = await ws.run(QUERY, use_cache=False)
        sent = [(r.header("Cookie"), r.header("Authorization")) for r in sim["perplexity"].requests]
    assert status.available
    assert status.reason == f"ready; passed over: {problem}"
    assert result.error is None and result.response.provider == "perplexity"
    assert sent == [(COOKIES, None)]
    served = result.response.attempts[0]
    assert (served.outcome, served.detail) == ("success", f"passed over: {problem}")
    assert f"passes over a credential: {problem}" in caplog.text
    assert _secret_free(repr(status), result.text, repr(result.response), caplog.text)


async def test_a_credential_passed_over_is_warned_of_once_per_process(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The warning was logged on every search, though the key stays as bad as it was:
    three searches of a long-running agent logged it three times. Each attempt still
    names it in its ``detail``; the log says it once, as the other setup warnings are."""
    caplog.set_level(logging.WARNING, logger="websearch_core")
    monkeypatch.setenv("PERPLEXITY_COOKIES", COOKIES)
    monkeypatch.setenv("PERPLEXITY_API_KEY", BAD)
    async with Simulator(["perplexity"]) as sim:
        async with WebSearch(sim.settings()) as ws:
            results = [await ws.run(f"{QUERY} {n}", use_cache=False) for n in range(3)]
        async with WebSearch(sim.settings()) as again:  # a second client of the process
            results.append(await again.run(QUERY, use_cache=False))
    details = [r.response.attempts[0].detail for r in results if r.response is not None]
    assert details == [f"passed over: {KEY_PROBLEM}"] * 4
    warned = [r.getMessage() for r in caplog.records if "passes over" in r.getMessage()]
    assert warned == [f"web search provider perplexity passes over a credential: {KEY_PROBLEM}"]


async def test_a_bad_stored_perplexity_token_before_a_good_key_is_passed_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = _store({"perplexity": {"oauth": _token()}})
    monkeypatch.setenv("PERPLEXITY_API_KEY", "pplx-fine")
    async with Simulator(["perplexity"]) as sim:
        async with WebSearch(sim.settings()) as ws:
            status = next(s for s in await ws.provider_status() if s.id == "perplexity")
            result = await ws.run(QUERY, use_cache=False)
        sent = [r.header("Authorization") for r in sim["perplexity"].requests]
    token = (
        f"Perplexity OAuth token stored in the credential store {path} {CONTROL}; store a new "
        "token for perplexity, or forget it with 'websearch auth remove perplexity --oauth'."
    )
    assert status.reason.endswith(f"; passed over: {token}")
    assert result.error is None and result.response.provider == "perplexity"
    assert sent == ["Bearer pplx-fine"]  # the API key's request alone


async def test_cookies_refused_do_not_send_the_bad_key_behind_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ask endpoint refusing the cookies (403) used to send the key next, which
    failed as ``request was not sent``; the key passed over is never sent."""
    monkeypatch.setenv("PERPLEXITY_COOKIES", COOKIES)
    monkeypatch.setenv("PERPLEXITY_API_KEY", BAD)
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(Fault.forbidden())  # the cookies are refused
        async with WebSearch(sim.settings()) as ws:
            result = await ws.run(QUERY, use_cache=False)
        paths = [r.path for r in sim["perplexity"].requests]
    assert paths == ["/rest/sse/perplexity_ask"]  # the cookies' request, and no other
    assert result.error is not None and "403" in result.error
    assert _secret_free(result.text)


async def test_perplexity_with_no_credential_that_can_be_sent_is_misconfigured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every credential set refused: the first is named, and nothing is sent (not even
    the anonymous search meant for when none is set)."""
    monkeypatch.setenv("PERPLEXITY_COOKIES", BAD)
    monkeypatch.setenv("PERPLEXITY_API_KEY", BAD)
    async with Simulator(["perplexity"]) as sim:
        async with WebSearch(sim.settings()) as ws:
            status = next(s for s in await ws.provider_status() if s.id == "perplexity")
            result = await ws.run(QUERY, provider="perplexity", use_cache=False)
        assert sim["perplexity"].requests == []
    cookies = (
        f"Perplexity cookie header in PERPLEXITY_COOKIES {CONTROL}; remove it from "
        "PERPLEXITY_COOKIES."
    )
    assert status.reason == f"misconfigured: {cookies}"
    assert result.error is not None and cookies.removesuffix(".") in result.error


async def test_a_bad_credential_not_sent_is_not_a_problem(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Anthropic's key wins over its stored token, Gemini's token over its key."""
    _store({"anthropic": {"oauth": _token()}, "gemini": {"oauth": {"access_token": "ok"}}})
    monkeypatch.setenv("ANTHROPIC_API_KEY", "fine-key")
    monkeypatch.setenv("GEMINI_API_KEY", BAD)
    monkeypatch.setenv("SEARXNG_TOKEN", BAD)  # Basic auth wins over the token
    monkeypatch.setenv("SEARXNG_BASIC_USERNAME", "user")
    monkeypatch.setenv("SEARXNG_BASIC_PASSWORD", "password")
    async with Simulator(["anthropic", "gemini", "searxng"]) as sim:
        monkeypatch.setenv("SEARXNG_ENDPOINT", sim.base_urls()["searxng"])
        async with WebSearch(sim.settings()) as ws:
            reasons = {s.id: s.reason for s in await ws.provider_status()}
    assert [reasons[pid] for pid in ("anthropic", "gemini", "searxng")] == [
        "ready",
        "ready (Antigravity sign-in)",  # its stored token is what a search sends
        "ready",
    ]


def _expired(access_token: str) -> dict[str, dict[str, object]]:
    token = OAuthToken(access_token=access_token, refresh_token="refresh-1", expires_at=1.0)
    return {"gemini": {"oauth": token.to_json()}}


async def test_a_token_the_refresh_hook_returns_is_checked_and_not_stored(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A hook's token went out as ``request was not sent`` and was kept in the store."""
    path = _store(_expired("old-token"))
    caplog.set_level(logging.DEBUG, logger="websearch_core")

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken(access_token=BAD, expires_at=4102444800.0)

    async with Simulator(["gemini", "serper"]) as sim:
        refreshers = {"gemini": refresh}
        keys = {"serper": "fake-serper"}
        async with WebSearch(sim.settings(), api_keys=keys, oauth_refreshers=refreshers) as ws:
            result = await ws.run(QUERY, use_cache=False)
        assert sim["gemini"].requests == []
    failed = result.response.attempts[0]
    assert (failed.provider, failed.outcome, result.response.provider) == (
        "gemini",
        "failed",
        "serper",
    )
    assert failed.detail == (
        f"gemini: the OAuth token its refresh hook returned {CONTROL}; nothing stored; fix "
        "the hook given as WebSearch(oauth_refreshers=...)."
    )
    stored = json.loads(path.read_text(encoding="utf-8"))["gemini"]["oauth"]["access_token"]
    assert stored == "old-token"
    assert _secret_free(result.text, repr(result.response), caplog.text)


async def test_an_expired_token_its_hook_replaces_is_not_a_problem() -> None:
    """Only the hook's token is sent, so the stored one's line break does not matter."""
    _store(_expired(BAD))

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken(access_token="fresh-token", expires_at=4102444800.0)

    async with Simulator(["gemini"]) as sim:
        async with WebSearch(sim.settings(), oauth_refreshers={"gemini": refresh}) as ws:
            status = next(s for s in await ws.provider_status() if s.id == "gemini")
            result = await ws.run(QUERY, use_cache=False)
        sent = {r.header("Authorization") for r in sim["gemini"].requests}
    assert status.reason == "ready (Antigravity sign-in)"
    assert result.error is None and result.response.provider == "gemini"
    assert sent == {"Bearer fresh-token"}


async def test_checking_searxng_basic_auth_does_not_make_the_user_name_a_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Masked wherever a key is, a user name such as ``python`` would cut the answers."""
    monkeypatch.setenv("SEARXNG_BASIC_USERNAME", "python")
    monkeypatch.setenv("SEARXNG_BASIC_PASSWORD", "pw-5c1e9a77d2")
    async with Simulator(["searxng"]) as sim:
        monkeypatch.setenv("SEARXNG_ENDPOINT", sim.base_urls()["searxng"])
        async with WebSearch(sim.settings()) as ws:
            result = await ws.run(QUERY, use_cache=False)
    assert result.error is None and result.response.provider == "searxng"
    assert result.response.sources[0].title.startswith("python asyncio")


async def test_a_perplexity_token_its_hook_replaces_early_is_not_a_problem() -> None:
    """Perplexity refreshes a token within five minutes of expiry before use: one rule.

    The check counted a token as replaced only within the store's 60 s margin, so a bad
    token two minutes from expiry read ``misconfigured`` while the search sent the hook's.
    """
    soon = OAuthToken(access_token=BAD, refresh_token="refresh-1", expires_at=time.time() + 120)
    _store({"perplexity": {"oauth": soon.to_json()}})

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken(access_token="fresh-token", expires_at=4102444800.0)

    async with Simulator(["perplexity"]) as sim:
        hooks = {"perplexity": refresh}
        async with WebSearch(sim.settings(), api_keys={}, oauth_refreshers=hooks) as ws:
            status = next(s for s in await ws.provider_status() if s.id == "perplexity")
            result = await ws.run(QUERY, provider="perplexity", use_cache=False)
        sent = {r.header("Cookie") for r in sim["perplexity"].requests}
    assert status.reason == "ready (OAuth token)"
    assert result.error is None and result.response.provider == "perplexity"
    assert sent == {"__Secure-next-auth.session-token=fresh-token"}
