"""A user name and password written into a URL a provider sends to are checked as a key is.

A password in ``SEARXNG_ENDPOINT=https://user:pw@searx`` or a gateway's
``WEBSEARCH_BRAVE_BASE_URL`` goes out as ``Authorization: Basic``, but no check looked at
it: pasted with a stray quote (``user:"pw"@``) or a space it was sent as it was, so the
instance refused it with nothing pointing at the cause; an escaped line break (``%0A``)
went out too, and a zero-width space failed the search as ``UnicodeEncodeError``, while
``websearch providers`` said ``ready``. Now each is named where it was set, the table
says ``misconfigured:``, the chain skips the provider without a request, and the password
never appears.
"""

import base64
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken, TokenRefresher
from websearch_core.testing import Simulator

QUERY = "python asyncio"
CANARY = "Qz7CANARYpw"
"""Part of every password below; it may appear in no text."""
IN_URL = "which a URL holds only percent-encoded (a space as %20)"
AS_PART = "that would be sent as part of it"
CONTROL = "contains a control character (a line break, a NUL), so it cannot be sent"

BAD_PASSWORDS = [
    (f'"{CANARY}"', f'contains a quote mark ("), {IN_URL}'),
    (f"{CANARY} x", f"contains a space, {IN_URL}"),
    (f"{CANARY}\u200b", f"contains an invisible character (U+200B ZERO WIDTH SPACE), {IN_URL}"),
    (f"{CANARY}%0A", CONTROL),
    (
        f"{CANARY}%E2%80%8B",  # what the escapes decode to is checked as any password is
        f"contains an invisible character (U+200B ZERO WIDTH SPACE) {AS_PART}",
    ),
    (f"'{CANARY}'", f"is wrapped in quote marks (') {AS_PART}"),
]


@dataclass(frozen=True)
class Where:
    """A URL setting a provider sends to, and how a problem in it reads."""

    provider: str
    variable: str
    what: str


PLACES = [
    Where("searxng", "SEARXNG_ENDPOINT", "SearXNG endpoint"),
    Where("brave", "WEBSEARCH_BRAVE_BASE_URL", "Brave base URL"),
    Where("anthropic", "ANTHROPIC_BASE_URL", "Anthropic base URL"),
]


def _fix(source: str) -> str:
    """The advice is where to fix it: a character a URL cannot hold says how in its reason,
    and a line break (even written ``%0A``) is no password at all, so no encoding helps."""
    return f"fix it in {source}."


def _with_userinfo(origin: str, userinfo: str) -> str:
    return origin.replace("://", f"://{userinfo}@", 1)


async def _run(
    sim: Simulator, place: Where, url: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, object]:
    """The provider's status reason and the search's result, ``url`` set in its variable."""
    monkeypatch.setenv(place.variable, url)
    urls = sim.base_urls()
    del urls[place.provider]  # its origin would replace the URL under test's, user info too
    settings = sim.settings(providers=(place.provider, "serper"), base_urls=urls)
    if place.provider == "searxng":
        settings = settings.model_copy(
            update={"searxng": settings.searxng.model_copy(update={"endpoint": url})}
        )
    keys = {"serper": "fake-serper", place.provider: "fake-key"}
    keys.pop("searxng", None)
    async with WebSearch(settings, api_keys=keys) as ws:
        status = next(s for s in await ws.provider_status() if s.id == place.provider)
        result = await ws.run(QUERY, use_cache=False)
    return status.reason, result


@pytest.mark.parametrize(("password", "reason"), BAD_PASSWORDS)
@pytest.mark.parametrize("place", PLACES, ids=lambda place: place.provider)
async def test_a_password_in_a_url_that_cannot_be_meant_is_named_and_skipped(
    place: Where,
    password: str,
    reason: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    async with Simulator([place.provider, "serper"]) as sim:
        origin = sim.base_urls()[place.provider]
        url = _with_userinfo(origin, f"user:{password}")
        source = place.variable if place.provider != "searxng" else "SEARXNG_ENDPOINT"
        status, result = await _run(sim, place, url, monkeypatch)
        assert sim[place.provider].requests == []  # skipped before any request
    problem = f"{place.what}'s password in {source} {reason}; {_fix(source)}"
    assert status == f"misconfigured: {problem}"
    response = result.response  # type: ignore[attr-defined]
    assert response.provider == "serper"
    skipped = response.attempts[0]
    assert (skipped.provider, skipped.outcome, skipped.detail) == (
        place.provider,
        "skipped",
        problem,
    )
    for text in (status, result.text, repr(response), caplog.text):  # type: ignore[attr-defined]
        assert CANARY not in text


async def test_the_user_name_is_checked_too(monkeypatch: pytest.MonkeyPatch) -> None:
    place = PLACES[0]
    async with Simulator(["searxng", "serper"]) as sim:
        url = _with_userinfo(sim.base_urls()["searxng"], f'"user":{CANARY}')
        status, _ = await _run(sim, place, url, monkeypatch)
    named = "SearXNG endpoint's user name in SEARXNG_ENDPOINT"
    assert status.startswith(f'misconfigured: {named} contains a quote mark ("), {IN_URL}')


async def test_the_setting_is_named_when_no_variable_set_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``searxng.endpoint`` in the config file or in code: the setting is named."""
    async with Simulator(["searxng", "serper"]) as sim:
        url = _with_userinfo(sim.base_urls()["searxng"], f"user:{CANARY} x")
        urls = {pid: origin for pid, origin in sim.base_urls().items() if pid != "searxng"}
        settings = sim.settings(base_urls=urls, searxng={"endpoint": url})
        async with WebSearch(settings) as ws:
            status = next(s for s in await ws.provider_status() if s.id == "searxng")
    source = "the searxng.endpoint setting"
    assert status.reason == (
        f"misconfigured: SearXNG endpoint's password in {source} contains a space, {IN_URL}; "
        f"{_fix(source)}"
    )


@pytest.mark.parametrize(
    ("userinfo", "sent"),
    [
        (f"user:{CANARY}%20x", f"user:{CANARY} x"),  # a password's own space, escaped
        (f"us.er:{CANARY}!$&()*+,;=:~-_", f"us.er:{CANARY}!$&()*+,;=:~-_"),
        (f"user:it's-{CANARY}", f"user:it's-{CANARY}"),  # an apostrophe inside is no quote
    ],
)
async def test_a_password_a_url_can_hold_is_sent_as_meant(
    userinfo: str, sent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Simulator(["searxng", "serper"]) as sim:
        url = _with_userinfo(sim.base_urls()["searxng"], userinfo)
        status, result = await _run(sim, PLACES[0], url, monkeypatch)
        headers = [r.header("Authorization") for r in sim["searxng"].requests]
    assert status == "ready"
    assert result.response.provider == "searxng"  # type: ignore[attr-defined]
    assert headers == [f"Basic {base64.b64encode(sent.encode()).decode()}"]


async def test_a_base_urls_entry_is_what_is_sent_and_so_what_is_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The entry replaces the origin, user info and all, of the provider's own URL."""
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"https://user:{CANARY} x@gw.example")
    async with Simulator(["anthropic", "brave"]) as sim:
        urls = sim.base_urls()
        urls["brave"] = _with_userinfo(urls["brave"], f"user:{CANARY}\u200b")
        keys = {"anthropic": "fake-key", "brave": "fake-key"}
        async with WebSearch(sim.settings(base_urls=urls), api_keys=keys) as ws:
            reasons = {s.id: s.reason for s in await ws.provider_status()}
    assert reasons["anthropic"] == "ready"  # its variable's URL is never sent
    source = "the base_urls.brave setting"
    assert reasons["brave"] == (
        f"misconfigured: Brave base URL's password in {source} contains an invisible "
        f"character (U+200B ZERO WIDTH SPACE), {IN_URL}; {_fix(source)}"
    )


GOOGLE_OAUTH_VARIABLE = "WEBSEARCH_GOOGLE_OAUTH_BASE_URL"
REFRESH_TOKEN = "1//0cli-refresh-token"


def _expired_gemini_sign_in(sim: Simulator) -> None:
    """A Gemini CLI sign-in past its expiry: the next search renews it at Google's endpoint."""
    token = OAuthToken("ya29.old-access", refresh_token=REFRESH_TOKEN, expires_at=time.time() - 60)
    CredentialStore(sim.settings().resolved_credentials_file()).set_oauth("gemini-cli", token)


async def _gemini_with_token_url(
    sim: Simulator,
    url: str,
    monkeypatch: pytest.MonkeyPatch,
    refreshers: Mapping[str, TokenRefresher] | None = None,
) -> tuple[str, object]:
    """Gemini's status reason and a search's result, Google's token endpoint set to ``url``."""
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    monkeypatch.delenv("GEMINI_SEARCH_MODEL", raising=False)
    monkeypatch.setenv(GOOGLE_OAUTH_VARIABLE, url)
    urls = sim.base_urls()
    del urls["google_oauth"]  # the variable's URL is the one under test
    settings = sim.settings(providers=("gemini", "serper"), base_urls=urls)
    keys = {"serper": "fake-serper"}
    async with WebSearch(settings, api_keys=keys, oauth_refreshers=refreshers) as ws:
        status = next(s for s in await ws.provider_status() if s.id == "gemini")
        result = await ws.run(QUERY, use_cache=False)
    return status.reason, result


@pytest.mark.parametrize(("password", "reason"), BAD_PASSWORDS)
async def test_a_password_in_googles_token_url_is_checked_for_a_gemini_sign_in(
    password: str, reason: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The refresh of Gemini's sign-in goes to ``google_oauth``, with its user info.

    Only Gemini's own URL was checked: the table said ``ready`` and the refresh went out
    with the password as pasted (``Basic`` of ``user:"pw"``).
    """
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    async with Simulator(["gemini", "serper"]) as sim:
        _expired_gemini_sign_in(sim)
        url = _with_userinfo(sim.base_urls()["google_oauth"], f"user:{password}")
        status, result = await _gemini_with_token_url(sim, url, monkeypatch)
        assert sim["gemini"].requests == []  # neither the refresh nor the stream
    problem = (
        f"Google OAuth base URL's password in {GOOGLE_OAUTH_VARIABLE} {reason}; "
        f"{_fix(GOOGLE_OAUTH_VARIABLE)}"
    )
    assert status == f"misconfigured: {problem}"
    response = result.response  # type: ignore[attr-defined]
    assert response.provider == "serper"
    skipped = response.attempts[0]
    assert (skipped.provider, skipped.outcome, skipped.detail) == ("gemini", "skipped", problem)
    for text in (status, result.text, repr(response), caplog.text):  # type: ignore[attr-defined]
        assert CANARY not in text and REFRESH_TOKEN not in text


async def test_a_user_name_and_password_go_with_the_refresh_form(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Basic`` from the URL goes beside the form: the refresh sends no ``Authorization``."""
    async with Simulator(["gemini", "serper"]) as sim:
        _expired_gemini_sign_in(sim)
        url = _with_userinfo(sim.base_urls()["google_oauth"], f"user:{CANARY}%20x")
        status, result = await _gemini_with_token_url(sim, url, monkeypatch)
        refresh, stream = sim["gemini"].requests
    assert status == "ready (Gemini CLI sign-in)"
    assert result.response.provider == "gemini"  # type: ignore[attr-defined]
    basic = base64.b64encode(f"user:{CANARY} x".encode()).decode()
    assert (refresh.path, refresh.header("Authorization")) == ("/token", f"Basic {basic}")
    assert dict(refresh.form())["refresh_token"] == REFRESH_TOKEN
    assert stream.header("Authorization") == "Bearer ya29.sim-access-1"


async def test_googles_token_url_is_not_checked_when_no_refresh_goes_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A key, or a refresh hook passed in code, sends nothing to Google's token endpoint."""

    async def hook(entry: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken("ya29.from-hook", refresh_token=token.refresh_token)

    async with Simulator(["gemini", "serper"]) as sim:
        url = _with_userinfo(sim.base_urls()["google_oauth"], f'user:"{CANARY}"')
        monkeypatch.setenv("GEMINI_API_KEY", "fake-gemini-key")
        with_key, _ = await _gemini_with_token_url(sim, url, monkeypatch)
        _expired_gemini_sign_in(sim)
        hooked, result = await _gemini_with_token_url(sim, url, monkeypatch, {"gemini-cli": hook})
    assert with_key == "ready"
    assert hooked == "ready (Gemini CLI sign-in)"
    assert result.response.provider == "gemini"  # type: ignore[attr-defined]


async def test_googles_token_url_set_in_the_config_is_named_as_the_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    async with Simulator(["gemini"]) as sim:
        _expired_gemini_sign_in(sim)
        urls = sim.base_urls()
        urls["google_oauth"] = _with_userinfo(urls["google_oauth"], f"user:{CANARY} x")
        async with WebSearch(sim.settings(base_urls=urls)) as ws:
            status = next(s for s in await ws.provider_status() if s.id == "gemini")
    source = "the base_urls.google_oauth setting"
    assert status.reason == (
        f"misconfigured: Google OAuth base URL's password in {source} contains a space, "
        f"{IN_URL}; {_fix(source)}"
    )
