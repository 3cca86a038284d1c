"""Credentials that are not a provider's key are masked like one when an upstream echoes them.

A Perplexity session cookie (``PERPLEXITY_COOKIES``), a SearXNG token written with
surrounding blanks (the header sends it trimmed), and the user and password of a proxy
taken from ``HTTP_PROXY`` (also one exported after the client opened): each is sent, so
each may come back in an error body, and must not reach the model, the log or the state.
A login in ``~/.netrc`` is never sent to a provider at all.
"""

import base64
import contextlib
import json
import logging
from pathlib import Path

import aiohttp
import pytest

from tests.functional._sim_helpers import simulator_fixture
from tests.refusing_proxy import STATUS_IDS, STATUS_LINES, refusing_proxy_url
from websearch_core import WebSearch
from websearch_core.settings import Settings
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import SimResult

QUERY = "python asyncio"
SESSION_TOKEN = "COOKIECANARY0123456789abcdef"
COOKIES = f"__Secure-next-auth.session-token={SESSION_TOKEN}; pplx.visitor-id=v-1"


sim = simulator_fixture("perplexity", "searxng", "serper")


def _through_proxy(sim: Simulator, proxy: str) -> Settings:
    """Serper alone, through ``proxy`` (the setting).

    Serper's own host does not resolve, so whatever answers came through the proxy, which
    the simulator plays (it answers absolute-form requests).
    """
    return sim.settings(
        provider="serper",
        fallback=False,
        proxy=proxy,
        base_urls={"serper": "http://google.serper.invalid"},
    )


async def _shown(ws: WebSearch, provider: str) -> str:
    result = await ws.run(QUERY, provider=provider, use_cache=False)
    status = await ws.provider_status()
    return "\n".join((result.text, json.dumps(result.to_metadata(), default=str), repr(status)))


@pytest.mark.parametrize(
    "body",
    [
        f'{{"error": {{"message": "key {COOKIES} is not valid"}}}}',
        f'{{"error": "echo", "headers": {{"Cookie": "{COOKIES}"}}}}',
        f'{{"error": "session {SESSION_TOKEN[:14]}... expired"}}',
    ],
    ids=["named", "headers", "truncated"],
)
async def test_perplexity_session_cookie_is_masked(
    sim: Simulator,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    body: str,
) -> None:
    monkeypatch.setenv("PERPLEXITY_COOKIES", COOKIES)
    sim["perplexity"].always(Fault.http(400, body, {"Content-Type": "application/json"}))
    caplog.set_level(logging.INFO, logger="websearch_core")
    async with WebSearch(sim.settings(provider="perplexity", fallback=False)) as ws:
        shown = await _shown(ws, "perplexity")
    cookie = sim["perplexity"].requests[0].header("Cookie")
    assert cookie is not None and SESSION_TOKEN in cookie  # sent, then echoed
    for text in (shown, caplog.text):
        assert SESSION_TOKEN[:12] not in text
    assert "***" in shown


@pytest.mark.parametrize("mode", ["json", "base64"])
async def test_searxng_token_with_blanks_is_masked_as_sent(
    sim: Simulator, caplog: pytest.LogCaptureFixture, mode: str
) -> None:
    token = "TOKENCANARY0123456789"
    sent = f"Bearer {token}"
    echoed = sent if mode == "json" else base64.b64encode(token.encode()).decode()
    sim["searxng"].always(Fault.http(500, json.dumps({"error": "echo", "saw": echoed})))
    caplog.set_level(logging.INFO, logger="websearch_core")
    settings = sim.settings(
        provider="searxng",
        fallback=False,
        searxng={"endpoint": sim["searxng"].base_url, "token": f"  {token} \n"},
    )
    async with WebSearch(settings) as ws:
        shown = await _shown(ws, "searxng")
    assert sim["searxng"].requests[0].header("Authorization") == sent
    for text in (shown, caplog.text):
        assert token not in text
        assert base64.b64encode(token.encode()).decode() not in text


async def test_environment_proxy_credentials_are_masked(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    password = "PROXYCANARY0123456789"
    monkeypatch.setenv("HTTP_PROXY", f"http://puser:{password}@proxy.invalid:3128")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")  # the simulator is reached directly
    basic = base64.b64encode(f"puser:{password}".encode()).decode()
    body = f"proxy saw Basic {basic}, i.e. puser:{password}"
    sim["serper"].always(Fault.http(407, body))
    caplog.set_level(logging.INFO, logger="websearch_core")
    settings = sim.settings(provider="serper", fallback=False)
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        shown = await _shown(ws, "serper")
    assert sim["serper"].requests  # NO_PROXY let the request through to the simulator
    for text in (shown, caplog.text):
        assert password not in text
        assert basic not in text
    assert "***" in shown


async def test_the_proxy_setting_s_credentials_are_masked(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    # The simulator plays the proxy (WEBSEARCH_PROXY): serper's host does not resolve, so
    # its 407 comes from the proxy, which echoes the credentials it was sent.
    password = "SETTINGPROXYCANARY0123456789"
    proxy = sim["serper"].base_url.replace("://", f"://puser:{password}@", 1)
    basic = base64.b64encode(f"puser:{password}".encode()).decode()
    sim["serper"].always(Fault.http(407, f"proxy saw Basic {basic}, i.e. puser:{password}"))
    caplog.set_level(logging.INFO, logger="websearch_core")
    settings = _through_proxy(sim, proxy)
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        shown = await _shown(ws, "serper")
    assert sim["serper"].requests[-1].header("Proxy-Authorization") == f"Basic {basic}"
    for text in (shown, caplog.text):
        assert password not in text
        assert basic not in text
    assert "***" in shown


@pytest.mark.parametrize("session", ["own", "caller's, trusting the environment"])
async def test_a_proxy_exported_after_the_client_opened_is_masked(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, session: str
) -> None:
    # The simulator plays the proxy: serper's host does not resolve, so an answer (or the
    # 407) proves the request went through it, Proxy-Authorization and all. The client's
    # own session has the transport pick the proxy; a caller's with trust_env, aiohttp.
    proxy = sim["serper"].base_url
    settings = sim.settings(
        provider="serper", fallback=False, base_urls={"serper": "http://google.serper.invalid"}
    )
    monkeypatch.setenv("HTTP_PROXY", proxy.replace("://", "://puser:FIRSTPROXY0123456789@", 1))
    caplog.set_level(logging.INFO, logger="websearch_core")
    async with contextlib.AsyncExitStack() as stack:
        given = None
        if session != "own":
            given = await stack.enter_async_context(aiohttp.ClientSession(trust_env=True))
        ws = await stack.enter_async_context(
            WebSearch(settings, api_keys=sim.api_keys(), session=given)
        )
        first = await ws.run(QUERY, provider="serper", use_cache=False)
        assert first.error is None, first.error
        password = "LATERPROXYCANARY0123456789"
        monkeypatch.setenv("HTTP_PROXY", proxy.replace("://", f"://puser:{password}@", 1))
        basic = base64.b64encode(f"puser:{password}".encode()).decode()
        sim["serper"].always(Fault.http(407, f"proxy saw Basic {basic}, i.e. puser:{password}"))
        shown = await _shown(ws, "serper")
    assert sim["serper"].requests[-1].header("Proxy-Authorization") == f"Basic {basic}"
    for text in (shown, caplog.text):
        assert password not in text
        assert basic not in text
    assert "proxy saw Basic ***" in shown


@pytest.mark.parametrize("provider", ["serper", "searxng"])
async def test_a_netrc_login_is_never_sent_to_a_provider(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, provider: str
) -> None:
    # With a proxy in the environment aiohttp's trust_env also read ~/.netrc ($NETRC) and
    # sent its login for the host as Basic: to serper (X-API-KEY) the user's password; a
    # request with a Bearer header (searxng's token) failed with a ValueError unsent.
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login nuser password NETRCCANARY0123456789\n")
    monkeypatch.setenv("NETRC", str(netrc))
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.invalid:3128")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    settings = sim.settings(
        provider=provider,
        fallback=False,
        searxng={"endpoint": sim["searxng"].base_url, "token": "TOKEN0123456789abcdef"},
    )
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        result = await ws.run(QUERY, provider=provider, use_cache=False)
    assert result.error is None, result.error
    sent = sim[provider].requests[0].header("Authorization")
    assert sent == ("Bearer TOKEN0123456789abcdef" if provider == "searxng" else None)


async def test_bare_token_in_a_base_url_is_masked_in_its_basic_form(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    token = "URLTOKENCANARY01234567890"  # not a multiple of 3: no shared base64 prefix
    sent = base64.b64encode(f"{token}:".encode()).decode()
    sim["serper"].always(
        Fault.http(500, json.dumps({"headers": {"Authorization": f"Basic {sent}"}}))
    )
    caplog.set_level(logging.INFO, logger="websearch_core")
    base = sim["serper"].base_url.replace("://", f"://{token}@", 1)
    settings = sim.settings(provider="serper", fallback=False, base_urls={"serper": base})
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        shown = await _shown(ws, "serper")
    assert sim["serper"].requests[0].header("Authorization") == f"Basic {sent}"
    for text in (shown, caplog.text):
        assert sent[8:24] not in text
    assert "Basic ***" in shown


async def test_base64_style_key_echoed_truncated_is_masked(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    key = "KEYCANARYab12cd34/ef56gh78+ij90kl=="
    sim["serper"].always(Fault.http(500, f"key {key[:10]}... not found; suffix ...90kl=="))
    caplog.set_level(logging.INFO, logger="websearch_core")
    settings = sim.settings(provider="serper", fallback=False)
    async with WebSearch(settings, api_keys={"serper": key}) as ws:
        shown = await _shown(ws, "serper")
    for text in (shown, caplog.text):
        assert key[:9] not in text
    assert "key ***... not found" in shown


@pytest.mark.parametrize("where", ["base_url", "proxy"])
async def test_a_user_name_alone_in_a_url_leaves_the_answer_intact(
    sim: Simulator, where: str
) -> None:
    # http://user@host names a user, not a secret: masking "user" everywhere cost the
    # whole answer (its results no longer parsed) and mangled every "user" in it.
    sim["serper"].results = [
        SimResult("Linux user guide", "https://example.org/user-guide", "How a user signs in")
    ]
    with_user = sim["serper"].base_url.replace("://", "://user@", 1)
    if where == "base_url":
        settings = sim.settings(provider="serper", fallback=False, base_urls={"serper": with_user})
    else:  # the simulator plays the proxy, reached in absolute form
        settings = _through_proxy(sim, with_user)
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        result = await ws.run(QUERY, provider="serper", use_cache=False)
    assert result.error is None, result.error
    assert "Linux user guide" in result.text
    assert "https://example.org/user-guide" in result.text


@pytest.mark.parametrize("status_line", STATUS_LINES, ids=STATUS_IDS)
async def test_a_proxy_refusing_the_tunnel_is_named_as_such_without_its_password(
    sim: Simulator,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    status_line: bytes,
) -> None:
    # An https endpoint through HTTPS_PROXY means a CONNECT; a refusal with no reason
    # phrase was worded by aiohttp with the proxy's URL and shown as "sent an invalid HTTP
    # response ... url='***'": masked, but no word that the proxy said no.
    password = "TUNNELCANARY0123456789"
    caplog.set_level(logging.DEBUG)
    with refusing_proxy_url(status_line, password) as url:
        monkeypatch.setenv("HTTPS_PROXY", url)
        settings = sim.settings(
            provider="serper", fallback=False, base_urls={"serper": "https://serper.invalid"}
        )
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            result = await ws.run(QUERY, provider="serper", use_cache=False)
    status = status_line.split()[1].decode()
    assert result.error is not None
    assert (
        f"connection failed (serper.invalid): the proxy refused the connection (HTTP {status})"
        in result.error
    )
    for text in (result.error, caplog.text):
        assert password not in text
