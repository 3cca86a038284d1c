"""Page fetches through a proxy with credentials: chosen as searches choose it, never shown.

A proxy written ``http://user:pw@proxy`` (``HTTPS_PROXY``, or ``WEBSEARCH_PROXY``) sends
``user:pw`` in a ``Proxy-Authorization`` header. A proxy that refused the tunnel with an
empty reason phrase had aiohttp word the failure ``407, message='', url='http://user:pw@...'``
and the fetch error quoted that, so the password reached the caller, the model (through
the tools and ``include_content``) and the CLI's stderr; a proxy or upstream that echoes
the header put it in the page. The proxy is stood in for by loopback servers.
"""

import base64
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web

from tests.content._server import PageServer
from tests.refusing_proxy import STATUS_IDS, STATUS_LINES, refusing_proxy_url
from websearch_core import WebSearch
from websearch_core.cli import main
from websearch_core.content import FetchError, FetchFailedError

PASSWORD = "s3cretpassw0rdXYZ"
BASIC = base64.b64encode(f"puser:{PASSWORD}".encode()).decode()
_WORDS = "A page read through the proxy, with enough words to be an article. " * 6


@pytest.fixture(params=STATUS_LINES, ids=STATUS_IDS)
def refusing_proxy(request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL, with credentials, of a loopback proxy refusing with an empty reason phrase.

    Its port is followed by ``#<status>`` (a fragment a proxy URL never uses), the status
    it answers.
    """
    with refusing_proxy_url(request.param, PASSWORD) as url:
        yield f"{url}#{request.param.split()[1].decode()}"


def _shown(error: BaseException) -> str:
    """Everything an error shows: its text and repr, and those of the errors chained to it."""
    parts: list[str] = []
    seen: BaseException | None = error
    while seen is not None:
        parts += [str(seen), repr(seen)]
        seen = seen.__cause__ or seen.__context__
    return "\n".join(parts)


@pytest.mark.parametrize("how", ["environment", "setting"])
async def test_a_refused_tunnel_is_named_without_the_proxys_password(
    refusing_proxy: str,
    how: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    proxy, status = refusing_proxy.split("#")
    overrides: dict[str, str] = {}
    if how == "environment":
        monkeypatch.setenv("HTTPS_PROXY", proxy)
    else:
        overrides["proxy"] = proxy
    async with WebSearch(state_backend="memory", **overrides) as ws:
        [error] = await ws.fetch_many(
            ["https://page.example/a"], allow_private_addresses=True, use_browser=False
        )
    assert isinstance(error, FetchFailedError)
    for shown in (_shown(error), caplog.text):
        assert PASSWORD not in shown and BASIC not in shown
    assert error.reason == f"the proxy refused the connection (HTTP {status})"


def test_the_command_line_names_a_refused_tunnel_without_the_password(
    refusing_proxy: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", refusing_proxy.split("#")[0])
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
    url = "https://page.example/a"
    assert main(["fetch", url, "--allow-private", "--no-browser", "--verbose"]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"websearch: cannot fetch {url}: the proxy refused the conn")
    assert PASSWORD not in captured.out + captured.err


def _echoing(request: web.Request) -> web.Response:
    """What a proxy (or an upstream it forwards to) that echoes the request's headers says."""
    echoed = " ".join(
        f"{name}: {request.headers[name]}"
        for name in ("Proxy-Authorization", "Authorization")
        if name in request.headers
    )
    decoded = base64.b64decode(echoed.rsplit(" ", 1)[-1]).decode() if echoed else ""
    body = f"<html><head><title>Echo</title></head><body><article><p>{_WORDS}</p>"
    body += f"<p>Sent {echoed}, that is {decoded}.</p></article></body></html>"
    return web.Response(text=body, content_type="text/html")


async def test_a_proxy_exported_later_is_used_and_its_credentials_masked_in_the_page(
    server: PageServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The loopback server plays the proxy (it answers the absolute-form GET) and echoes the
    # Proxy-Authorization header it was sent, as a misbehaving proxy or upstream may.
    async def echoing(request: web.Request) -> web.Response:
        return _echoing(request)

    server.route("/a", echoing)
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login nuser password NETRCPASSWORD0123\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    opened = {"allow_private_addresses": True, "use_browser": False}
    async with WebSearch(state_backend="memory") as ws:
        direct = await ws.fetch(server.url("/a"), **opened)  # type: ignore[arg-type]
        assert "Sent ," in direct.text  # no proxy yet, and no netrc login sent
        proxy = server.url("").replace("://", f"://puser:{PASSWORD}@", 1)
        monkeypatch.setenv("HTTP_PROXY", proxy)
        page = await ws.fetch("http://127.0.0.1:1/a", **opened)  # type: ignore[arg-type]
        again = await ws.fetch("http://127.0.0.1:1/a", **opened)  # type: ignore[arg-type]
        # Its credentials are the client's secrets now, as a search's proxy's are.
        assert PASSWORD in ws.credentials.secrets()
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        with pytest.raises(FetchError):  # NO_PROXY, per request: port 1 directly, no server
            await ws.fetch("http://127.0.0.1:1/a", use_cache=False, **opened)  # type: ignore[arg-type]
    assert server.hits["/a"] == 2  # the direct fetch, then the proxied one (then cached)
    assert "Sent Proxy-Authorization: Basic ***, that is ***." in page.text
    assert "NETRCPASSWORD" not in page.text + direct.text
    for shown in (page, again):  # the cached copy was stored masked
        dumped = shown.model_dump_json()
        assert PASSWORD not in dumped and BASIC not in dumped
    assert again.cached


def test_fetch_options_do_not_show_the_proxys_password() -> None:
    from websearch_core.content import FetchOptions

    options = FetchOptions(proxy=f"http://puser:{PASSWORD}@127.0.0.1:3128")
    assert PASSWORD not in repr(options) and PASSWORD not in str(options)


def test_a_masked_error_keeps_its_kind_and_status() -> None:
    from websearch_core.redaction import Redactor

    error = FetchFailedError("https://page.example/a", f"the proxy said {PASSWORD}", 407)
    masked = error.masked(Redactor([PASSWORD]))
    assert (type(masked), masked.status, masked.url) == (FetchFailedError, 407, error.url)
    assert str(masked) == "cannot fetch https://page.example/a: the proxy said ***"
    assert masked.reason == "the proxy said ***" and masked.__context__ is None
    assert error.masked(Redactor(["elsewhere"])) is error  # nothing to mask: no copy
