"""The README's gateway advice for Anthropic, Gemini and Perplexity, as a user follows it.

Stop 51 (docs52) left these claims read but never driven: what a user sets to route each
answer engine through a gateway (``ANTHROPIC_BASE_URL``, ``WEBSEARCH_GEMINI_BASE_URL``, a
Perplexity ``base_urls`` entry), what becomes of their sign-in and key there, the advice
given when a gateway's user name takes the ``Authorization`` header, the list of providers
that have no other header, and the warning ``websearch auth set gemini`` gives beside a
refused sign-in. Each is played here through the real transport against the loopback
simulator, and each quote is read from the README (its ``...`` standing for what it leaves
out) and matched against what the code said. A gateway that is not loopback
(``gw.example``) is reached through the simulator standing as the HTTP proxy, so nothing
leaves the machine. All are guards: the code did what the README says before this file.
"""

import io
import re
import time
from pathlib import Path

import pytest

from websearch_core import WebSearch
from websearch_core.cli import EXIT_OK, main
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.providers import get_provider
from websearch_core.settings import Settings
from websearch_core.status import ProviderStatus
from websearch_core.testing import PROTOCOLS, RecordedRequest, Simulator
from websearch_core.testing.protocols.gemini import GeminiProtocol

README = Path(__file__).resolve().parents[2] / "README.md"
QUERY = "python asyncio"
BASIC = "Basic Z3d1c2VyOmd3cGFzcw=="
"""``gwuser:gwpass``, the user info every gateway URL here carries."""
ANTHROPIC_KEY = "sk-ant-api03-Qw3rTy7uIoP9aSdF2gHjK4lZ"
ANTHROPIC_OAUTH = "sk-ant-oat01-Qw3rTy7uIoP9aSdF2gHjK4lZ"
GEMINI_KEY = "AIzaSyQw3rTy7uIoP9aSdF2gHjK4lZxCvB8nM1"
PERPLEXITY_KEY = "pplx-Qw3rTy7uIoP9aSdF2gHjK4lZxCvB8nM"
COOKIES = "__Secure-next-auth.session-token=Zm9vYmFyY29va2llLXNlc3Npb24tdG9rZW4"
"""A session token no key here holds: the send-time check finds a sign-in by its value."""
SIGN_IN = "ya29.Qw3rTy7uIoP9aSdF2gHjK4lZ-cli"
REFRESH = "1//0Qw3rTy7uIoP9aSdF2gHjK4lZ-refresh"
GATEWAY = "http://gw.example"


def _prose() -> str:
    """The README with line breaks and runs of spaces joined, as a reader sees its prose."""
    return " ".join(README.read_text(encoding="utf-8").split())


def _says(quote: str) -> None:
    """The README says ``quote`` (its own words, line breaks aside)."""
    assert quote in _prose(), f"the README no longer says {quote!r}"


def _matches(quote: str, said: str) -> None:
    """``said`` holds ``quote``, its ``...`` standing for any text."""
    pattern = ".*?".join(re.escape(part) for part in quote.split("..."))
    assert re.search(pattern, " ".join(said.split()), re.S), (quote, said)


def _paragraph(start: str) -> str:
    """The README's paragraph beginning with ``start``, joined to one line."""
    text = README.read_text(encoding="utf-8")
    begin = text.index(start)
    return " ".join(text[begin : text.index("\n\n", begin)].split())


def _with_user(origin: str) -> str:
    return origin.replace("://", "://gwuser:gwpass@", 1)


def _auth(request: RecordedRequest) -> str | None:
    return request.header("Authorization")


async def _row(ws: WebSearch, provider_id: str) -> ProviderStatus:
    """``provider_id``'s row of the table ``websearch providers`` prints."""
    return next(row for row in await ws.provider_status() if row.id == provider_id)


def _store(settings: Settings) -> CredentialStore:
    return CredentialStore(settings.resolved_credentials_file())


@pytest.fixture(autouse=True)
def _cloud_project(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gemini's sign-ins search in project ``p`` with the default model (no extra request)."""
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    monkeypatch.delenv("GEMINI_SEARCH_MODEL", raising=False)


# --- A gateway's user name and a key sent as a bearer token ------------------------------


async def test_anthropics_key_goes_in_x_api_key_beside_the_gateways_basic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: behind ``ANTHROPIC_BASE_URL`` with a user name the key is in ``x-api-key``."""
    _says("behind such a URL Anthropic's key goes in its own `x-api-key`")
    _says("`ANTHROPIC_BASE_URL`; for a Gemini sign-in")  # the URL the README names for it
    async with Simulator(["anthropic"]) as sim:
        urls = sim.base_urls()
        monkeypatch.setenv("ANTHROPIC_BASE_URL", _with_user(urls.pop("anthropic")))
        settings = sim.settings(base_urls=urls)
        async with WebSearch(settings, api_keys={"anthropic": ANTHROPIC_KEY}) as ws:
            result = await ws.run(QUERY, provider="anthropic", use_cache=False)
        [request] = sim["anthropic"].requests
    assert result.error is None
    assert (request.header("x-api-key"), _auth(request)) == (ANTHROPIC_KEY, BASIC)


async def test_an_anthropic_oauth_token_there_is_skipped_with_the_readmes_advice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: the OAuth token is named, never sent; the API key it advises is answered."""
    _says(
        "any other credential sent as `Authorization` (an Anthropic or other OAuth token, "
        "Tavily's or xAI's key, SearXNG's token) makes the provider `misconfigured:`, naming "
        "the URL's setting and the credential, and the chain skips it without a request"
    )
    _says("(Anthropic's API key, `sk-ant-api...`, in `x-api-key`, not its OAuth token;")
    async with Simulator(["anthropic", "serper"]) as sim:
        urls = sim.base_urls()
        monkeypatch.setenv("ANTHROPIC_BASE_URL", _with_user(urls.pop("anthropic")))
        settings = sim.settings(providers=("anthropic", "serper"), base_urls=urls)
        keys = {"anthropic": ANTHROPIC_OAUTH, "serper": "serper-Qw3rTy7uIoP9aSdF2g"}
        async with WebSearch(settings, api_keys=keys) as ws:
            row = await _row(ws, "anthropic")
            skipped = await ws.run(QUERY, use_cache=False)
        assert sim["anthropic"].requests == []
        keys["anthropic"] = ANTHROPIC_KEY  # what the advice names: an API key, sk-ant-api...
        async with WebSearch(settings, api_keys=keys) as ws:
            answered = await ws.run(QUERY, use_cache=False)
        [request] = sim["anthropic"].requests
    _matches(
        "misconfigured: ...ANTHROPIC_BASE_URL...OAuth token...remove the user info from the "
        "URL, or switch to a credential ...an Anthropic API key (ANTHROPIC_SEARCH_API_KEY or "
        "ANTHROPIC_API_KEY), in the x-api-key header",
        row.reason,
    )
    assert ANTHROPIC_OAUTH not in row.reason and "gwpass" not in row.reason
    attempt = skipped.response.attempts[0]
    assert (attempt.provider, attempt.outcome) == ("anthropic", "skipped")
    assert skipped.response.provider == "serper"
    assert answered.response.provider == "anthropic"
    assert (request.header("x-api-key"), _auth(request)) == (ANTHROPIC_KEY, BASIC)


async def test_geminis_advice_names_the_command_that_removes_its_sign_in(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: as the README says, and doing what it says puts the key in its header."""
    _says(
        "Gemini's API key in `x-goog-api-key`, not a sign-in, which is sent before the key "
        "while stored, so the advice names the command that removes it, `websearch auth "
        "remove gemini-cli --oauth` (`gemini` for Antigravity's)"
    )
    monkeypatch.setenv("GEMINI_API_KEY", GEMINI_KEY)
    async with Simulator(["gemini"]) as sim:
        urls = sim.base_urls()
        urls["gemini"] = _with_user(urls["gemini"])
        settings = sim.settings(base_urls=urls)
        _store(settings).set_oauth("gemini-cli", OAuthToken(access_token=SIGN_IN))
        async with WebSearch(settings) as ws:
            before = await _row(ws, "gemini")
            refused = await ws.run(QUERY, provider="gemini", use_cache=False)
        assert sim["gemini"].requests == []
        assert main(["auth", "remove", "gemini-cli", "--oauth"]) == EXIT_OK  # as advised
        capsys.readouterr()
        async with WebSearch(settings) as ws:
            after = await _row(ws, "gemini")
            answered = await ws.run(QUERY, provider="gemini", use_cache=False)
        [request] = sim["gemini"].requests
    _matches(
        "misconfigured: ...in x-goog-api-key...websearch auth remove gemini-cli --oauth for "
        "the Gemini CLI sign-in, websearch auth remove gemini --oauth for the Antigravity "
        "sign-in",
        before.reason.replace("x-goog-api-key header", "in x-goog-api-key"),
    )
    assert refused.error is not None and SIGN_IN not in refused.text
    assert after.reason.startswith("ready"), after.reason
    assert answered.error is None
    assert (request.header("x-goog-api-key"), _auth(request)) == (GEMINI_KEY, BASIC)


async def test_perplexity_uses_its_cookies_there_and_names_the_key_it_passes_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: cookies in ``Cookie`` beside the Basic; the key alone is advised them."""
    _says("(Perplexity uses its cookies, if set, and names the key it passes over)")
    _says("Perplexity's `PERPLEXITY_COOKIES` in `Cookie`)")
    async with Simulator(["perplexity"]) as sim:
        urls = sim.base_urls()
        urls["perplexity"] = _with_user(urls["perplexity"])
        settings = sim.settings(base_urls=urls)
        keys = {"perplexity": PERPLEXITY_KEY}
        async with WebSearch(settings, api_keys=keys) as ws:
            key_alone = await _row(ws, "perplexity")
        monkeypatch.setenv("PERPLEXITY_COOKIES", COOKIES)
        async with WebSearch(settings, api_keys=keys) as ws:
            with_cookies = await _row(ws, "perplexity")
            result = await ws.run(QUERY, provider="perplexity", use_cache=False)
        [request] = sim["perplexity"].requests
    _matches(
        "misconfigured: ...Perplexity API key...the Perplexity cookie header "
        "(PERPLEXITY_COOKIES), in the Cookie header",
        key_alone.reason,
    )
    _matches("ready; passed over: ...the Perplexity API key ...", with_cookies.reason)
    assert result.error is None
    assert _auth(request) == BASIC and COOKIES in (request.header("Cookie") or "")
    assert PERPLEXITY_KEY not in str(request.headers)


def _listed_without_another_header() -> set[str]:
    """The providers the README lists as having no credential in another header."""
    found = re.search(r"Providers with none \(([^)]*)\) say so", _prose())
    assert found, "the README no longer lists the providers with no other header"
    return {name.strip() for name in found.group(1).split(",")}


async def test_the_providers_with_no_other_header_are_the_readmes_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: every provider behind a user name, as a user would set it, one by one.

    The README's list is compared with the providers whose row says they send no
    credential in another header, each named by its label or, for OpenAI's sign-in, by
    its command-line name (Codex); each of those is skipped without a request.
    """
    _says("the gateway's own sign-in has to go elsewhere than the URL")
    monkeypatch.setenv("SEARXNG_TOKEN", "searx-Qw3rTy7uIoP9aSdF2gHjK4lZ")
    keyed = sorted(set(PROTOCOLS) - {"gemini", "perplexity", "anthropic"})
    none: set[str] = set()
    async with Simulator(keyed) as sim:
        urls = {pid: _with_user(url) for pid, url in sim.base_urls().items()}
        settings = sim.settings(base_urls=urls)
        _store(settings).set_oauth("codex", OAuthToken(access_token="sim-codex-Qw3rTy7uIoP9"))
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            for row in await ws.provider_status():
                if "sends no credential in another header" in row.reason:
                    assert row.reason.startswith("misconfigured: "), row.reason
                    assert "the gateway's own sign-in has to go elsewhere" in row.reason
                    assert f"base_urls.{row.id} setting" in row.reason  # the URL's setting
                    label = get_provider(row.id).info.label
                    none.add("Codex" if row.id == "codex" else label)
                    await ws.run(QUERY, provider=row.id, use_cache=False)
                    assert sim[row.id].requests == [], row.id
    assert none == _listed_without_another_header()


# --- A gateway that is not loopback: what a sign-in and a key do there -------------------


def _through_proxy(sim: Simulator, proxy_service: str, **overrides: object) -> Settings:
    """Settings whose requests to ``gw.example`` reach ``proxy_service``'s simulator."""
    return sim.settings(proxy=sim[proxy_service].base_url, **overrides)


def _at_gateway(sim: Simulator, provider_id: str) -> list[RecordedRequest]:
    return [r for r in sim[provider_id].requests if r.header("Host") == "gw.example"]


async def test_an_anthropic_sign_in_goes_to_a_gateway_only_once_trusted_and_a_key_always(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: ``ANTHROPIC_BASE_URL`` at a gateway, with its OAuth token, then its key."""
    _says("This covers every stored OAuth token, an Anthropic OAuth token given as the key")
    _says("An API key goes to any gateway, as before.")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", GATEWAY)
    async with Simulator(["anthropic", "serper"]) as sim:
        urls = {"serper": sim.base_urls()["serper"]}
        settings = _through_proxy(sim, "anthropic", base_urls=urls)
        async with WebSearch(settings, api_keys={"anthropic": ANTHROPIC_OAUTH}) as ws:
            refused = await _row(ws, "anthropic")
        assert _at_gateway(sim, "anthropic") == []
        monkeypatch.setenv("WEBSEARCH_SIGN_IN_GATEWAYS", "anthropic")
        trusted = _through_proxy(sim, "anthropic", base_urls=urls)
        async with WebSearch(trusted, api_keys={"anthropic": ANTHROPIC_OAUTH}) as ws:
            signed_in = await ws.run(QUERY, provider="anthropic", use_cache=False)
        monkeypatch.delenv("WEBSEARCH_SIGN_IN_GATEWAYS")
        async with WebSearch(settings, api_keys={"anthropic": ANTHROPIC_KEY}) as ws:
            keyed = await ws.run(QUERY, provider="anthropic", use_cache=False)
        [with_token, with_key] = _at_gateway(sim, "anthropic")
    _matches(
        "misconfigured: Refusing to send the Anthropic OAuth token ... to custom endpoint "
        "http://gw.example (the Anthropic base URL set in ANTHROPIC_BASE_URL): a sign-in "
        "opens your whole account, so it is sent only to api.anthropic.com or a loopback "
        "address; ... or add anthropic to sign_in_gateways (WEBSEARCH_SIGN_IN_GATEWAYS) to "
        "trust that endpoint with it.",
        refused.reason,
    )
    assert signed_in.error is None and keyed.error is None
    assert ANTHROPIC_OAUTH in str(with_token.headers)
    assert _auth(with_key) == f"Bearer {ANTHROPIC_KEY}"  # no user name: the usual header


async def test_perplexity_passes_its_cookies_over_at_a_gateway_and_searches_with_its_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: an untrusted Perplexity gateway gets the key, never the cookies."""
    _says("Perplexity passes its cookies and token over and searches with its key, if set.")
    monkeypatch.setenv("PERPLEXITY_COOKIES", COOKIES)
    monkeypatch.setenv("WEBSEARCH_PERPLEXITY_BASE_URL", GATEWAY)
    async with Simulator(["perplexity"]) as sim:
        settings = _through_proxy(sim, "perplexity", base_urls={})
        async with WebSearch(settings, api_keys={"perplexity": PERPLEXITY_KEY}) as ws:
            row = await _row(ws, "perplexity")
            result = await ws.run(QUERY, provider="perplexity", use_cache=False)
        [request] = _at_gateway(sim, "perplexity")
    _matches(
        "ready; passed over: Refusing to send the Perplexity cookie header in "
        "PERPLEXITY_COOKIES to custom endpoint http://gw.example ...",
        row.reason,
    )
    assert result.error is None
    assert COOKIES.split("=")[1] not in str(request.headers) + request.body.decode()
    assert PERPLEXITY_KEY in str(request.headers)


def _gemini(sim: Simulator) -> GeminiProtocol:
    protocol = sim["gemini"].protocol
    assert isinstance(protocol, GeminiProtocol)
    return protocol


async def test_a_gemini_sign_in_renews_at_googles_endpoint_never_at_its_gateway(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: ``WEBSEARCH_GEMINI_BASE_URL`` at a gateway, untrusted, then trusted."""
    _says(
        "It goes to Google's token endpoint even when `WEBSEARCH_GEMINI_BASE_URL` names a "
        "gateway: that gateway stands in front of Cloud Code, has no `/token`, and is never "
        "handed the refresh token."
    )
    monkeypatch.setenv("WEBSEARCH_GEMINI_BASE_URL", GATEWAY)
    async with Simulator(["gemini"]) as sim:
        oauth = {"google_oauth": sim.base_urls()["google_oauth"]}
        settings = _through_proxy(sim, "gemini", base_urls=oauth)
        expired = OAuthToken(SIGN_IN, REFRESH, time.time() - 60)
        _store(settings).set_oauth("gemini-cli", expired)
        async with WebSearch(settings) as ws:
            refused = await _row(ws, "gemini")
        assert sim["gemini"].requests == []
        monkeypatch.setenv("WEBSEARCH_SIGN_IN_GATEWAYS", "gemini")
        trusted = _through_proxy(sim, "gemini", base_urls=oauth)
        async with WebSearch(trusted) as ws:
            result = await ws.run(QUERY, provider="gemini", use_cache=False)
        at_gateway = _at_gateway(sim, "gemini")
        renewals = [r for r in sim["gemini"].requests if r.path == "/token"]
    _matches(
        "misconfigured: Refusing to send the Gemini OAuth token (Gemini CLI sign-in) ... to "
        "custom endpoint http://gw.example ...or add gemini to sign_in_gateways "
        "(WEBSEARCH_SIGN_IN_GATEWAYS) to trust that endpoint with it.",
        refused.reason,
    )
    assert result.error is None
    assert at_gateway and all(r.path != "/token" for r in at_gateway)
    assert all(REFRESH not in f"{r.headers} {r.body!r}" for r in at_gateway)
    [renewal] = renewals
    assert renewal.header("Host") != "gw.example"
    assert dict(renewal.form())["refresh_token"] == REFRESH


# --- The warning beside a refused Gemini sign-in -----------------------------------------


async def test_auth_set_gemini_warns_of_a_refused_sign_in_sent_before_the_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: Google refuses the renewal on the simulator, then ``auth set gemini``."""
    quote = (
        "the stored Gemini CLI sign-in (entry gemini-cli) was refused for good and is sent "
        "before this key, so gemini searches still fail on it; sign in again ..., or forget "
        "it with `websearch auth remove gemini-cli --oauth`"
    )
    _says("stored sign-in refused for good is sent before it (Gemini's sign-in wins over its")
    async with Simulator(["gemini"]) as sim:
        settings = sim.settings()
        _store(settings).set_oauth("gemini-cli", OAuthToken(SIGN_IN, REFRESH, time.time() - 60))
        _gemini(sim).revoked.add(REFRESH)  # Google: invalid_grant
        async with WebSearch(settings) as ws:
            failed = await ws.run(QUERY, provider="gemini", use_cache=False)
        capsys.readouterr()
        monkeypatch.setattr("sys.stdin", io.StringIO(f"{GEMINI_KEY}\n"))
        assert main(["auth", "set", "gemini"]) == EXIT_OK
        out, err = capsys.readouterr()
        async with WebSearch(settings) as ws:
            still = await ws.run(QUERY, provider="gemini", use_cache=False)
        renewals = [r for r in sim["gemini"].requests if r.path == "/token"]
    assert failed.error is not None and still.error is not None  # the key changed nothing
    assert len(renewals) == 1  # the refusal was kept: the second search asked nothing
    _matches(quote, err)
    assert "Stored an API key for gemini" in out
    assert "the key is stored, the refusal stays with the sign-in" in _prose()
    assert _store(settings).get("gemini") == GEMINI_KEY
    for secret in (SIGN_IN, REFRESH, GEMINI_KEY):
        assert secret not in out + err
