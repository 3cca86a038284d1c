"""Pages and headers a hostile or broken site may send: each ends in a typed refusal or a page.

Found by fuzzing the fetch path: before, each escaped as a bare ``ValueError``,
``UnicodeError`` or ``LookupError`` (failing a whole ``fetch_many`` and a search with
``include_content``), or held the event loop for seconds.
"""

import pytest
from aiohttp import web

from tests.content._server import PageServer, redirect
from websearch_core import WebSearch
from websearch_core.content import FetchRefusedError
from websearch_core.content.decode import decode_html
from websearch_core.content.fetch import _XHTML_ROOT
from websearch_core.content.refresh import refresh_target
from websearch_core.content.safety import check_url

LONG_LABEL = "a" * 64
"""One label over the 63 characters a DNS name may have."""


@pytest.mark.parametrize("location", ["http://[::1", "//[", "http://[notip]/"])
async def test_a_redirect_to_no_url_is_refused_as_such(
    ws: WebSearch, server: PageServer, location: str
) -> None:
    server.route("/moved", redirect(location))
    with pytest.raises(FetchRefusedError, match="is not a URL") as caught:
        await ws.fetch(server.url("/moved"), allow_private_addresses=True, use_browser=False)
    assert caught.value.kind == "invalid_url"


@pytest.mark.parametrize("host", [f"{LONG_LABEL}.example", "a..b.example"])
def test_a_host_name_no_resolver_can_encode_is_refused(host: str) -> None:
    with pytest.raises(FetchRefusedError, match="is not a valid host name") as caught:
        check_url(f"https://{host}/", allow_private=False)
    assert caught.value.kind == "invalid_url"


def test_names_and_addresses_that_encode_still_pass() -> None:
    for url in ("https://bücher.example/", "https://[2001:db8::1]/", f"https://{'a' * 63}.io/"):
        check_url(url, allow_private=True)


async def test_a_redirect_to_such_a_host_is_refused(ws: WebSearch, server: PageServer) -> None:
    server.route("/moved", redirect(f"http://{LONG_LABEL}.example/"))
    with pytest.raises(FetchRefusedError, match="not a valid host name"):
        await ws.fetch(server.url("/moved"), allow_private_addresses=True, use_browser=False)


def test_a_meta_refresh_to_no_url_is_not_followed() -> None:
    page = '<html><head><meta http-equiv="refresh" content="0; url=http://[x"></head></html>'
    assert refresh_target(page, "https://a.example/") is None


@pytest.mark.parametrize("charset", ["base64", "hex", "rot13", "zlib", "quopri"])
def test_a_charset_that_is_no_text_encoding_is_not_used(charset: str) -> None:
    page = "<html><body><p>café</p></body></html>".encode()
    assert "café" in decode_html(page, f"text/html; charset={charset}")
    meta = f'<html><head><meta charset="{charset}"></head><body><p>café</p></body></html>'
    assert "café" in decode_html(meta.encode(), "text/html")


async def test_a_page_declaring_such_a_charset_is_fetched(
    ws: WebSearch, server: PageServer
) -> None:
    server.route(
        "/b64",
        _page_with_type("text/html; charset=base64"),  # type: ignore[arg-type]
    )
    page = await ws.fetch(server.url("/b64"), allow_private_addresses=True, use_browser=False)
    assert "Plain words here." in page.text


def _page_with_type(content_type: str) -> object:
    async def handler(_request: web.Request) -> web.Response:
        body = b"<html><body><article><p>Plain words here.</p></article></body></html>"
        return web.Response(body=body, headers={"Content-Type": content_type})

    return handler


def test_xhtml_behind_many_comments_is_still_recognised() -> None:
    # Each comment is matched atomically now; the lazy pattern let one comment swallow the
    # next and 30 empty comments took seconds.
    comments = "<!-- a -->" * 20
    assert _XHTML_ROOT.match(f'<?xml version="1.0"?>{comments}<!DOCTYPE html><html>')
    assert _XHTML_ROOT.match(f"{comments}<html xmlns='http://www.w3.org/1999/xhtml'>")
    assert not _XHTML_ROOT.match(f"{comments}<feed>")
    assert not _XHTML_ROOT.match("<!---->" * 20 + "<rss>")
