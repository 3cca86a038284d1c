"""WebSearch.fetch / fetch_many against a loopback server (private addresses allowed only here)."""

import asyncio
import contextlib
import gzip
import socket
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

import brotli
import pytest
from aiohttp import web

from tests.content._pdf import text_pdf
from tests.content._server import PageServer, redirect, server_in_thread
from websearch_core import WebSearch
from websearch_core.content import (
    FetchError,
    FetchFailedError,
    FetchRefusedError,
    FetchTimeoutError,
    PageContent,
)

_PARA = "<p>" + "Loopback pages carry enough words to count as an article body here. " * 5
_PARA += "</p>"
ARTICLE = (
    "<html lang='en'><head><title>Loopback article</title></head><body><nav>Menu</nav>"
    f"<article><h1>Loopback article</h1>{_PARA}{_PARA}<p>The end of the story.</p>"
    "</article></body></html>"
)


async def fetch(ws: WebSearch, url: str, **options: object) -> PageContent:
    options.setdefault("allow_private_addresses", True)
    options.setdefault("use_browser", False)
    return await ws.fetch(url, **options)  # type: ignore[arg-type]


async def test_html_page_is_fetched_and_extracted(ws: WebSearch, server: PageServer) -> None:
    server.page("/a", ARTICLE, "text/html; charset=utf-8")
    page = await fetch(ws, server.url("/a"))
    assert page.title == "Loopback article"
    assert page.text.endswith("The end of the story.")
    assert "Menu" not in page.text
    assert (page.status, page.fetched_with, page.content_type, page.cached) == (
        200,
        "http",
        "text/html",
        False,
    )
    assert page.url == server.url("/a")


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (ARTICLE.replace("story", "story ж").encode("cp1251"), "text/html; charset=windows-1251"),
        (
            ARTICLE.replace("<head>", "<head><meta charset='koi8-r'>")
            .replace("story", "story ж")
            .encode("koi8-r"),
            "text/html",
        ),
    ],
    ids=["header-charset", "meta-charset"],
)
async def test_declared_charsets(
    ws: WebSearch, server: PageServer, body: bytes, content_type: str
) -> None:
    server.page("/c", body, content_type)
    page = await fetch(ws, server.url("/c"))
    assert "ж" in page.text


@pytest.mark.parametrize(
    ("encoding", "compress"),
    [("gzip", gzip.compress), ("br", brotli.compress)],
)
async def test_compressed_bodies(
    ws: WebSearch, server: PageServer, encoding: str, compress: object
) -> None:
    async def handler(request: web.Request) -> web.Response:
        assert encoding in request.headers["Accept-Encoding"]
        data = compress(ARTICLE.encode())  # type: ignore[operator]
        return web.Response(
            body=data, headers={"Content-Type": "text/html", "Content-Encoding": encoding}
        )

    server.route("/z", handler)
    page = await fetch(ws, server.url("/z"))
    assert page.text.endswith("The end of the story.")


async def test_plain_text_and_markdown(ws: WebSearch, server: PageServer) -> None:
    server.page("/t.txt", "Line one\r\n\r\n\r\nLine two\r\n", "text/plain; charset=utf-8")
    server.page("/r.md", "# Title\n\n- item", "text/markdown")
    text = await fetch(ws, server.url("/t.txt"))
    assert (text.text, text.markdown, text.content_type) == (
        "Line one\n\nLine two",
        "Line one\n\nLine two",
        "text/plain",
    )
    assert (await fetch(ws, server.url("/r.md"))).markdown == "# Title\n\n- item"


async def test_a_json_document_is_its_own_text(ws: WebSearch, server: PageServer) -> None:
    document = '{"name": "demo", "note": "a ```fence``` inside", "items": [1, 2]}'
    server.page("/api.json", document, "application/json; charset=utf-8")
    page = await fetch(ws, server.url("/api.json"))
    assert (page.text, page.content_type, page.title) == (document, "application/json", None)
    assert page.markdown == f"````json\n{document}\n````"


_FEED = (
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n<rss version="2.0"><channel>'
    "<title><![CDATA[Caf\u00e9 &amp; news]]></title><link>https://a.example/</link>"
    "<item><title>First item</title><link>https://a.example/1</link></item>"
    "</channel></rss>"
)


@pytest.mark.parametrize("content_type", ["application/rss+xml", "text/xml"])
async def test_a_feed_is_its_own_text_titled_as_the_feed(
    ws: WebSearch, server: PageServer, content_type: str
) -> None:
    server.page("/feed", _FEED.encode("latin-1"), content_type)
    page = await fetch(ws, server.url("/feed"))
    assert (page.title, page.content_type) == ("Caf\u00e9 & news", content_type)
    assert page.text == _FEED  # read in the charset its XML declaration names
    assert page.markdown == f"```xml\n{_FEED}\n```"


async def test_a_csv_file_is_its_own_text(ws: WebSearch, server: PageServer) -> None:
    server.page("/t.csv", "city,venue\r\nTampa,Amphitheatre\r\n", "text/csv")
    page = await fetch(ws, server.url("/t.csv"))
    assert (page.text, page.content_type) == ("city,venue\nTampa,Amphitheatre", "text/csv")
    assert page.markdown == "```csv\ncity,venue\nTampa,Amphitheatre\n```"


async def test_an_xhtml_page_served_as_xml_is_extracted(ws: WebSearch, server: PageServer) -> None:
    xhtml = '<?xml version="1.0"?>\n<!DOCTYPE html>\n' + ARTICLE.replace(
        "<html lang='en'>", "<html xmlns='http://www.w3.org/1999/xhtml' lang='en'>"
    )
    server.page("/x", xhtml, "application/xml")
    page = await fetch(ws, server.url("/x"))
    assert (page.title, page.content_type) == ("Loopback article", "text/html")
    assert page.text.endswith("The end of the story.")


async def test_pdf(ws: WebSearch, server: PageServer) -> None:
    pdf = text_pdf(["Quarterly report.", "Revenue grew."], title="Report", author="Ann Lee")
    server.page("/r.pdf", pdf, "application/pdf")
    server.page("/untyped", pdf, "")
    for path in ("/r.pdf", "/untyped"):
        page = await fetch(ws, server.url(path))
        assert "Quarterly report." in page.text and "Revenue grew." in page.text
        assert (page.title, page.author, page.published_date, page.content_type) == (
            "Report",
            "Ann Lee",
            "2024-03-05",
            "application/pdf",
        )


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16"], ids=["utf-8", "utf-16"])
async def test_an_untyped_page_after_a_byte_order_mark_is_html(
    ws: WebSearch, server: PageServer, codec: str
) -> None:
    # Both codecs write a byte-order mark first; the page used to be taken for plain text.
    server.page("/bom", ARTICLE.encode(codec), "")
    page = await fetch(ws, server.url("/bom"))
    assert (page.content_type, page.title) == ("text/html", "Loopback article")
    assert page.text.endswith("The end of the story.")
    assert "<" not in page.text


async def test_broken_pdf_is_a_clear_failure(ws: WebSearch, server: PageServer) -> None:
    server.page("/bad.pdf", b"%PDF-1.7 not really", "application/pdf")
    with pytest.raises(FetchFailedError, match="the PDF could not be read"):
        await fetch(ws, server.url("/bad.pdf"))


async def test_a_body_that_does_not_decode_says_so(ws: WebSearch, server: PageServer) -> None:
    async def handler(_request: web.Request) -> web.Response:
        headers = {"Content-Type": "text/html", "Content-Encoding": "gzip"}
        return web.Response(body=b"<html>not gzip at all</html>", headers=headers)

    server.route("/z", handler)
    with pytest.raises(FetchFailedError) as caught:
        await fetch(ws, server.url("/z"))
    assert caught.value.reason == (
        "the response could not be decoded: its Content-Encoding gzip is broken"
    )


def _gzipped(body: bytes, encoding: str = "gzip") -> object:
    async def handler(_request: web.Request) -> web.Response:
        headers = {"Content-Type": "text/html", "Content-Encoding": encoding}
        return web.Response(body=gzip.compress(body), headers=headers)

    return handler


async def test_a_body_gzipped_twice_is_read(ws: WebSearch, server: PageServer) -> None:
    # Some servers gzip a page that is stored gzipped: aiohttp takes one layer off.
    twice = gzip.compress(ARTICLE.encode()) + gzip.compress(b"<p>A second member.</p>")
    server.route("/z2", _gzipped(twice))  # type: ignore[arg-type]
    page = await fetch(ws, server.url("/z2"))
    assert page.title == "Loopback article"
    assert page.text.endswith("The end of the story.")


async def test_a_body_gzipped_twice_keeps_the_size_cap(ws: WebSearch, server: PageServer) -> None:
    bomb = gzip.compress(b"<p>" + b"z" * 200_000 + b"</p>")
    assert len(gzip.compress(bomb)) < 4096  # the outer layer alone passes the cap
    server.route("/bomb2", _gzipped(bomb))  # type: ignore[arg-type]
    with pytest.raises(FetchRefusedError, match="the body passed the 4096-byte cap") as caught:
        await fetch(ws, server.url("/bomb2"), max_bytes=4096)
    assert caught.value.kind == "too_large"


@pytest.mark.parametrize(
    "inner", [b"\x1f\x8b not gzip at all", gzip.compress(ARTICLE.encode())[:-40]]
)
async def test_a_broken_inner_gzip_layer_says_so(
    ws: WebSearch, server: PageServer, inner: bytes
) -> None:
    server.route("/z2", _gzipped(inner))  # type: ignore[arg-type]
    with pytest.raises(FetchFailedError) as caught:
        await fetch(ws, server.url("/z2"))
    assert caught.value.reason == (
        "the response could not be decoded: it is gzip-compressed twice and the inner layer "
        "is broken"
    )


async def test_a_reply_that_is_not_http_says_so_in_one_line(ws: WebSearch) -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HELLO\x1b[2J WORLD\r\n\r\n")
        await writer.drain()
        writer.close()

    listener = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    try:
        with pytest.raises(FetchFailedError) as caught:
            await fetch(ws, f"http://127.0.0.1:{port}/page")
    finally:
        listener.close()
        await listener.wait_closed()
    # aiohttp words the parser's complaint differently from release to release.
    reason = caught.value.reason
    assert reason.startswith("the server sent an invalid HTTP response: ")
    assert "\n" not in reason and "\x1b" not in reason


def test_a_fetch_error_quotes_no_terminal_escape() -> None:
    error = FetchFailedError("https://a.example/p", "the browser said \x1b]0;pwned\x07no\x1b[2J\r")
    assert error.reason == "the browser said no\n"
    assert str(error) == "cannot fetch https://a.example/p: the browser said no\n"


# --- the safety policy -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "kind", "reason"),
    [
        ("http://127.0.0.1:9/", "address", "127.0.0.1 is a loopback address"),
        ("http://[::1]:9/", "address", "::1 is a loopback address"),
        ("http://10.0.0.8/", "address", "10.0.0.8 is a private address"),
        ("http://169.254.169.254/latest/meta-data/", "address", "a cloud metadata address"),
        ("http://[::ffff:192.168.1.1]/", "address", "a private address"),
        ("http://0.0.0.0:9/", "address", "an unspecified address"),
        ("http://224.0.0.1/", "address", "a multicast address"),
        ("http://metadata.google.internal/", "address", "a cloud metadata host"),
        ("file:///etc/passwd", "scheme", "only http and https URLs are fetched, not file:"),
        ("ftp://example.org/x", "scheme", "not ftp:"),
        ("example.org/page", "scheme", "no scheme; write it in full, as https://example.org/page"),
        (
            "//example.org/page",
            "scheme",
            "no scheme; write it in full, as https://example.org/page",
        ),
        ("/etc/passwd", "scheme", "it is a local file path, and local files are not fetched"),
        ("./notes.html", "scheme", "it is a local file path, and local files are not fetched"),
        ("../notes.html", "scheme", "it is a local file path, and local files are not fetched"),
        ("~/notes.html", "scheme", "it is a local file path, and local files are not fetched"),
        ("http://:80/", "invalid_url", "the URL has no host"),
        ("http://example.org:99999/", "invalid_url", "the URL is malformed"),
    ],
)
async def test_refused_by_default(ws: WebSearch, url: str, kind: str, reason: str) -> None:
    with pytest.raises(FetchRefusedError) as caught:
        await ws.fetch(url)
    assert caught.value.kind == kind
    assert reason in str(caught.value)
    assert "https:///" not in str(caught.value)  # no advice to fetch a path over https
    if kind == "address" and "cloud metadata" in reason:
        # allow_private_addresses would not lift it: the advice is to list the address.
        assert "refused even with allow_private_addresses; list 169.254.169.254" in str(
            caught.value
        )
        assert str(caught.value).endswith(" in allowed_networks to allow it")
    elif kind == "address":
        assert str(caught.value).endswith(
            "set allow_private_addresses=True or WEBSEARCH_FETCH_ALLOW_PRIVATE=1 to allow it "
            "(websearch fetch --allow-private)"
        )


async def test_names_are_checked_after_resolution(ws: WebSearch, server: PageServer) -> None:
    server.page("/a", ARTICLE)
    with pytest.raises(FetchRefusedError, match=r"localhost resolves to (127\.0\.0\.1|::1), a lo"):
        await ws.fetch(server.url("/a", host="localhost"), use_browser=False)
    assert server.hits["/a"] == 0  # refused before connecting


async def test_environment_allows_private_addresses(
    ws: WebSearch, server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.page("/a", ARTICLE)
    monkeypatch.setenv("WEBSEARCH_FETCH_ALLOW_PRIVATE", "1")
    assert (await ws.fetch(server.url("/a"), use_browser=False)).title == "Loopback article"
    with pytest.raises(FetchRefusedError):  # the explicit argument wins over the variable
        await ws.fetch(server.url("/a"), allow_private_addresses=False)


async def test_every_redirect_hop_is_checked(ws: WebSearch, server: PageServer) -> None:
    # Only 127.0.0.1 is opened: a redirect to another loopback address is refused.
    server.route("/to-other", redirect(f"http://127.0.0.2:{server.port}/a"))
    server.route("/to-meta", redirect("http://169.254.169.254/"))
    server.route("/to-file", redirect("file:///etc/passwd"))
    server.page("/a", ARTICLE)
    opened = {"allowed_networks": ["127.0.0.1/32"], "use_browser": False}
    assert (await ws.fetch(server.url("/a"), **opened)).title == "Loopback article"  # type: ignore[arg-type]
    for path, reason in (
        ("/to-other", "127.0.0.2 is a loopback address"),
        ("/to-meta", "a cloud metadata address"),
        ("/to-file", "not file:"),
    ):
        with pytest.raises(FetchRefusedError, match=reason):
            await ws.fetch(server.url(path), **opened)  # type: ignore[arg-type]
    assert server.hits["/a"] == 1


@pytest.mark.parametrize(
    ("location", "kind", "reason"),
    [
        (
            "file:///etc/passwd?token=s3cret#frag",
            "scheme",
            "its redirect to file:///etc/passwd was refused: only http and https URLs are "
            "fetched, not file:",
        ),
        (
            "http://user:s3cret@169.254.169.254/latest?sig=s3cret",
            "address",
            "its redirect to http://169.254.169.254/latest was refused: 169.254.169.254 is a "
            "cloud metadata address (AWS, Azure, Google Cloud, OpenStack and others), refused "
            "even with allow_private_addresses; list 169.254.169.254 in allowed_networks",
        ),
        (
            "data:text/html," + "x" * 300,
            "scheme",
            f"its redirect to data:text/html,{'x' * 84}… was refused: only http and https",
        ),
    ],
    ids=["file", "metadata", "data"],
)
async def test_a_refused_redirect_names_its_target_not_the_page_asked_for(
    ws: WebSearch, server: PageServer, location: str, kind: str, reason: str
) -> None:
    server.route("/away", redirect(location))
    with pytest.raises(FetchRefusedError) as caught:
        await ws.fetch(server.url("/away"), allowed_networks=["127.0.0.1/32"], use_browser=False)
    assert caught.value.kind == kind
    assert caught.value.url == server.url("/away")
    assert caught.value.reason.startswith(reason)
    assert "s3cret" not in str(caught.value)


async def test_at_most_five_redirects(ws: WebSearch, server: PageServer) -> None:
    for hop in range(6):
        server.route(f"/r{hop}", redirect(f"/r{hop + 1}", 301 if hop % 2 else 307))
    server.page("/r6", ARTICLE)
    server.page("/r5", ARTICLE)  # five hops from /r0
    assert (await fetch(ws, server.url("/r0"))).url == server.url("/r5")
    server.route("/r5", redirect("/r6"))
    with pytest.raises(FetchRefusedError, match="more than 5 redirects") as caught:
        await fetch(ws, server.url("/r0"), use_cache=False)
    assert caught.value.kind == "redirects"
    assert server.hits["/r6"] == 0


@pytest.mark.parametrize(("status", "location"), [(302, None), (301, " "), (308, "")])
async def test_a_redirect_without_a_location_is_a_clear_failure(
    ws: WebSearch, server: PageServer, status: int, location: str | None
) -> None:
    headers = {"Content-Type": "text/html"} | ({} if location is None else {"Location": location})

    async def moved(_request: web.Request) -> web.Response:
        return web.Response(status=status, body=b"<p>Moved</p>", headers=headers)

    server.route("/moved", moved)
    with pytest.raises(FetchFailedError) as caught:
        await fetch(ws, server.url("/moved"))
    assert caught.value.status == status
    assert caught.value.reason == (
        f"the server answered HTTP {status}, a redirect, without a Location header to follow"
    )


def _moved(to: str, delay: str = "0", text: str = "Moved.") -> str:
    return (
        f"<html><head><title>Moved</title><meta content=\"{delay}; URL='{to}'\" "
        f"http-equiv=Refresh></head><body><p>{text}</p></body></html>"
    )


async def test_a_moved_page_that_refreshes_at_once_is_followed(
    ws: WebSearch, server: PageServer
) -> None:
    server.page("/old", _moved("/a"))
    server.page("/later", _moved("/a", delay="30"))
    server.page("/itself", _moved("/itself#top"))
    server.page("/wordy", _moved("/a", text="A page worth reading on its own. " * 10))
    server.page("/a", ARTICLE)
    page = await fetch(ws, server.url("/old"))
    assert (page.title, page.url, page.status) == ("Loopback article", server.url("/a"), 200)
    # A later refresh, a page that reloads itself, a page with text: pages, not redirects.
    for path in ("/later", "/itself", "/wordy"):
        assert (await fetch(ws, server.url(path))).url == server.url(path)
    assert server.hits["/a"] == 1


async def test_a_refresh_counts_as_a_redirect_and_is_checked_like_one(
    ws: WebSearch, server: PageServer
) -> None:
    for hop in range(6):  # three HTTP redirects and three refreshes: six hops
        if hop % 2:
            server.page(f"/m{hop}", _moved(f"/m{hop + 1}"))
        else:
            server.route(f"/m{hop}", redirect(f"/m{hop + 1}"))
    server.page("/m6", ARTICLE)
    with pytest.raises(FetchRefusedError, match="more than 5 redirects"):
        await fetch(ws, server.url("/m0"))
    assert (await fetch(ws, server.url("/m1"))).title == "Loopback article"
    assert server.hits["/m6"] == 1
    server.page("/to-file", _moved("file:///etc/passwd"))
    server.page("/to-other", _moved(f"http://127.0.0.2:{server.port}/a"))
    opened = {"allowed_networks": ["127.0.0.1/32"], "use_browser": False}
    for path, reason in (
        ("/to-file", "its redirect to file:///etc/passwd was refused: only http and https"),
        ("/to-other", "was refused: 127.0.0.2 is a loopback address"),
    ):
        with pytest.raises(FetchRefusedError, match=reason):
            await ws.fetch(server.url(path), **opened)  # type: ignore[arg-type]


async def test_size_cap(ws: WebSearch, server: PageServer) -> None:
    big = ARTICLE + "<!--" + "x" * 5000 + "-->"
    server.page("/big", big)

    async def chunked(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/html"})
        response.enable_chunked_encoding()
        await response.prepare(request)
        for _ in range(10):
            await response.write(b"<p>" + b"y" * 1000 + b"</p>")
        await response.write_eof()
        return response

    async def bomb(_request: web.Request) -> web.Response:
        data = gzip.compress(b"<p>" + b"z" * 200_000 + b"</p>")
        return web.Response(
            body=data, headers={"Content-Type": "text/html", "Content-Encoding": "gzip"}
        )

    server.route("/chunked", chunked)
    server.route("/bomb", bomb)
    for path in ("/big", "/chunked", "/bomb"):
        with pytest.raises(FetchRefusedError, match="4096-byte cap") as caught:
            await fetch(ws, server.url(path), max_bytes=4096)
        assert caught.value.kind == "too_large"


@pytest.mark.parametrize("content_type", ["image/png", "application/octet-stream", "video/mp4"])
async def test_content_type_check(ws: WebSearch, server: PageServer, content_type: str) -> None:
    server.page("/f", b"\x89PNG....", content_type)
    with pytest.raises(FetchRefusedError, match=f"unsupported content type {content_type}"):
        await fetch(ws, server.url("/f"))


async def test_error_status(ws: WebSearch, server: PageServer) -> None:
    with pytest.raises(FetchFailedError, match="the server answered HTTP 404") as caught:
        await fetch(ws, server.url("/missing"))
    assert caught.value.status == 404


async def test_connection_refused(ws: WebSearch, server: PageServer) -> None:
    port = server.port
    await server.stop()
    with pytest.raises(FetchFailedError) as caught:
        await fetch(ws, f"http://127.0.0.1:{port}/")
    # The words provider errors use too (transport.connection_cause), not the OS's text.
    assert caught.value.reason == "could not connect (ClientConnectorError)"


async def test_deadline(ws: WebSearch, server: PageServer) -> None:
    async def slow(_request: web.Request) -> web.Response:
        await asyncio.sleep(5)
        return web.Response(text="late")

    server.route("/slow", slow)
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(FetchTimeoutError, match=r"within the 0\.3 s deadline"):
        await fetch(ws, server.url("/slow"), timeout_seconds=0.3)
    assert loop.time() - start < 2


async def test_timeout_must_be_positive(ws: WebSearch) -> None:
    with pytest.raises(ValueError, match="timeout_seconds must be more than 0"):
        await ws.fetch("https://example.org/", timeout_seconds=0)


# --- cache and many pages -------------------------------------------------------------------


async def test_pages_are_cached_on_success_only(ws: WebSearch, server: PageServer) -> None:
    calls = {"n": 0}

    async def flaky(_request: web.Request) -> web.Response:
        calls["n"] += 1
        if calls["n"] == 1:
            return web.Response(status=500, text="oops")
        return web.Response(text=ARTICLE, content_type="text/html")

    server.route("/p", flaky)
    with pytest.raises(FetchFailedError):
        await fetch(ws, server.url("/p"))
    first = await fetch(ws, server.url("/p"))
    second = await fetch(ws, server.url("/p#section"))
    assert (first.cached, second.cached) == (False, True)
    assert second.model_copy(update={"cached": False}) == first
    assert server.hits["/p"] == 2
    third = await fetch(ws, server.url("/p"), use_cache=False)
    assert not third.cached and server.hits["/p"] == 3


async def test_cache_survives_a_new_client(server: PageServer) -> None:
    server.page("/a", ARTICLE)
    async with WebSearch() as first:  # the default SQLite store, in the test's state dir
        await fetch(first, server.url("/a"))
    async with WebSearch() as second:
        assert (await fetch(second, server.url("/a"))).cached
    assert server.hits["/a"] == 1


async def test_fetch_many_keeps_order_and_errors_in_place(
    ws: WebSearch, server: PageServer
) -> None:
    server.page("/a", ARTICLE)
    server.page("/b", "just text", "text/plain")
    results = await ws.fetch_many(
        [server.url("/a"), "ftp://x.example/", server.url("/missing"), server.url("/b")],
        allow_private_addresses=True,
        use_browser=False,
    )
    assert isinstance(results[0], PageContent) and results[0].title == "Loopback article"
    assert isinstance(results[1], FetchRefusedError) and results[1].kind == "scheme"
    assert isinstance(results[2], FetchFailedError) and results[2].status == 404
    assert isinstance(results[3], PageContent) and results[3].text == "just text"


async def test_fetch_many_bounds_concurrency_and_shares_one_deadline(
    ws: WebSearch, server: PageServer
) -> None:
    async def slowish(_request: web.Request) -> web.Response:
        await asyncio.sleep(0.3)
        return web.Response(text="ok", content_type="text/plain")

    for i in range(6):
        server.route(f"/s{i}", slowish)
    urls = [server.url(f"/s{i}") for i in range(6)]
    results = await ws.fetch_many(
        urls, concurrency=2, allow_private_addresses=True, use_cache=False, use_browser=False
    )
    assert all(isinstance(r, PageContent) for r in results)
    assert server.peak == 2
    # one deadline for the call: 6 pages of 0.3 s, two at a time, cannot fit in 0.5 s
    late = await ws.fetch_many(
        urls,
        concurrency=2,
        timeout_seconds=0.5,
        allow_private_addresses=True,
        use_cache=False,
        use_browser=False,
    )
    assert [isinstance(r, PageContent) for r in late] == [True, True, False, False, False, False]
    assert all(isinstance(r, FetchTimeoutError) for r in late[2:])
    assert isinstance(late[5], FetchError)


def test_sync_twins(server_thread: tuple[str, Counter[str]]) -> None:
    base, hits = server_thread
    ws = WebSearch(state_backend="memory")
    page = ws.fetch_sync(f"{base}/a", allow_private_addresses=True, use_browser=False)
    assert page.title == "Loopback article"
    many = ws.fetch_many_sync([f"{base}/a", "gopher://x/"], allow_private_addresses=True)
    assert isinstance(many[0], PageContent) and isinstance(many[1], FetchRefusedError)
    # Each sync call has a client of its own, all of them the instance's one store.
    assert (page.cached, many[0].cached, hits["/a"]) == (False, True, 1)


@pytest.fixture
def server_thread() -> Iterator[tuple[str, Counter[str]]]:
    """A loopback server on its own thread and loop, for the synchronous API."""
    for server in server_in_thread({"/a": ARTICLE}):
        yield f"http://127.0.0.1:{server.port}", server.hits


@pytest.mark.parametrize(
    "host", ["2130706433", "0x7f.0.0.1", "127.1", "017700000001", "0x7f000001"]
)
async def test_numeric_spellings_of_loopback_are_refused(
    ws: WebSearch, server: PageServer, host: str
) -> None:
    server.page("/a", ARTICLE)
    with pytest.raises(FetchRefusedError, match=r"127\.0\.0\.1, a loopback address") as caught:
        await ws.fetch(server.url("/a", host=host), use_browser=False)
    assert caught.value.kind == "address"
    assert server.hits["/a"] == 0


async def test_through_a_proxy_names_are_checked_before_the_request(server: PageServer) -> None:
    # The loopback server plays the proxy: it answers every request it is sent.
    server.page("/a", ARTICLE)
    async with WebSearch(state_backend="memory", proxy=server.url("")) as ws:
        opened = {"allowed_networks": ["127.0.0.1/32"], "use_browser": False}
        page = await ws.fetch("http://127.0.0.1:1/a", **opened)  # type: ignore[arg-type]
        assert page.title == "Loopback article"  # port 1 has no server: the proxy answered
        with pytest.raises(FetchRefusedError, match=r"localhost resolves to .*; set allow_priv"):
            await ws.fetch("http://localhost:1/a", use_browser=False)
        with pytest.raises(FetchRefusedError, match=r"10\.0\.0\.8 is a private address"):
            await ws.fetch("http://10.0.0.8/a", use_browser=False)
    assert server.hits["/a"] == 1


async def test_the_environment_proxy_is_used_and_names_are_still_checked(
    server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As searches do without WEBSEARCH_PROXY: HTTP_PROXY / HTTPS_PROXY, and NO_PROXY.
    monkeypatch.setenv("HTTP_PROXY", server.url(""))
    server.page("/a", ARTICLE)
    async with WebSearch(state_backend="memory") as ws:
        opened = {"allowed_networks": ["127.0.0.1/32"], "use_browser": False}
        page = await ws.fetch("http://127.0.0.1:1/a", **opened)  # type: ignore[arg-type]
        assert page.title == "Loopback article"  # port 1 has no server: the proxy answered
        with pytest.raises(FetchRefusedError, match=r"10\.0\.0\.8 is a private address"):
            await ws.fetch("http://10.0.0.8/a", use_browser=False)
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        with pytest.raises(FetchFailedError):  # not through the proxy: nothing on port 1
            await ws.fetch("http://127.0.0.1:1/a", use_cache=False, **opened)  # type: ignore[arg-type]
    assert server.hits["/a"] == 1


SCRIPT_ONLY = (
    "<html><head><title>App</title></head><body><div id='app'></div>"
    "<script>document.getElementById('app').textContent = 'rendered';</script></body></html>"
)


async def test_script_only_page_without_a_browser_keeps_the_plain_fetch(
    server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from websearch_core.browser import HeadlessBrowser

    server.page("/app", SCRIPT_ONLY)
    missing = HeadlessBrowser(executable_path="/nonexistent/chromium")
    async with WebSearch(state_backend="memory", browser=missing) as ws:
        page = await ws.fetch(server.url("/app"), allow_private_addresses=True)
        assert (page.fetched_with, page.title, page.text) == ("http", "App", "")
        monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
        off = await ws.fetch(server.url("/app"), allow_private_addresses=True, use_cache=False)
        assert off.fetched_with == "http"
    assert not missing.is_running


async def test_a_script_only_page_left_unrendered_is_not_cached(server: PageServer) -> None:
    # Cached, it would be served to the next call even when that one asks for the browser.
    server.page("/app", SCRIPT_ONLY)
    async with WebSearch(state_backend="memory") as ws:
        options = {"allow_private_addresses": True, "use_browser": False}
        first = await ws.fetch(server.url("/app"), **options)  # type: ignore[arg-type]
        second = await ws.fetch(server.url("/app"), **options)  # type: ignore[arg-type]
        server.page("/doc", ARTICLE)
        article = await ws.fetch(server.url("/doc"), allow_private_addresses=True)
        again = await ws.fetch(server.url("/doc"), allow_private_addresses=True)
    assert (first.cached, second.cached, second.text) == (False, False, "")
    assert server.hits["/app"] == 2
    assert (article.cached, again.cached, server.hits["/doc"]) == (False, True, 1)


async def test_blocked_answer_without_a_browser_is_the_error(server: PageServer) -> None:
    from websearch_core.browser import HeadlessBrowser

    async def refused(_request: web.Request) -> web.Response:
        return web.Response(status=403, text="blocked")

    server.route("/guarded", refused)
    missing = HeadlessBrowser(executable_path="/nonexistent/chromium")
    async with WebSearch(state_backend="memory", browser=missing) as ws:
        with pytest.raises(FetchFailedError, match="the server answered HTTP 403") as caught:
            await ws.fetch(server.url("/guarded"), allow_private_addresses=True)
    assert caught.value.status == 403


class _PageThatFailsToLoad:
    """Stands for a Playwright page whose load fails as Chromium words it (``net::...``).

    Only the page is faked: the fetcher's escalation, its guard's routes and its egress
    proxy run as they do with Chromium, which a failed connection offline cannot show.
    """

    def __init__(self, message: str) -> None:
        self.message = message

    async def route(self, *_: object) -> None:
        return None

    async def route_web_socket(self, *_: object) -> None:
        return None

    async def goto(self, url: str, **_: object) -> None:
        raise RuntimeError(f"{self.message} at {url}\nCall log:\n  - navigating")


class _ChromiumFailingToLoad:
    """A browser whose pages fail to load with ``message``; nothing to start or close."""

    has_proxy = False

    def __init__(self, message: str) -> None:
        self.message = message

    def is_usable_here(self) -> bool:
        return True

    @contextlib.asynccontextmanager
    async def page(self, *, proxy: str | None = None) -> AsyncIterator[_PageThatFailsToLoad]:
        yield _PageThatFailsToLoad(self.message)


@pytest.mark.parametrize(
    ("code", "unreached", "words"),
    [
        ("ERR_CONNECTION_REFUSED", "connect", "could not connect"),
        ("ERR_NAME_NOT_RESOLVED", "dns", "the host name could not be resolved"),
        ("ERR_CONNECTION_RESET", None, "the connection was reset"),  # guard: reached a host
    ],
)
async def test_a_browser_load_that_reaches_no_host_is_unreached_as_the_plain_fetch_is(
    server: PageServer, code: str, unreached: str | None, words: str
) -> None:
    # A 503 goes to the browser; its load refused or unresolved was a plain "failed", with
    # no unreached cause, so `websearch fetch` gave none of the hint a plain fetch gives.
    async def unavailable(_request: web.Request) -> web.Response:
        return web.Response(status=503, text="busy")

    server.route("/busy", unavailable)
    browser = _ChromiumFailingToLoad(f"Page.goto: net::{code}")
    async with WebSearch(state_backend="memory", browser=browser) as ws:  # type: ignore[arg-type]
        with pytest.raises(FetchFailedError) as caught:
            await ws.fetch(server.url("/busy"), allow_private_addresses=True)
    assert str(caught.value) == (
        f"cannot fetch {server.url('/busy')}: the headless browser failed: {words} (net::{code})"
    )
    assert caught.value.unreached == unreached


class _PageTunnellingThroughItsProxy(_PageThatFailsToLoad):
    """Stands for a page whose load opens a tunnel through its context's proxy, as Chromium
    does for an https page, and fails as Chromium does when the proxy answers no ``200``."""

    def __init__(self, proxy: str | None) -> None:
        super().__init__("Page.goto: net::ERR_TUNNEL_CONNECTION_FAILED")
        assert proxy is not None, "the fetcher gave the page no egress proxy"
        self.proxy = proxy

    async def goto(self, url: str, **_: object) -> None:
        target = url.split("/")[2]  # host:port, as CONNECT names it
        proxy_port = int(self.proxy.rsplit(":", 1)[1])
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy_port)
        try:
            writer.write(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n".encode())
            answer = await reader.readline()
        finally:
            writer.close()
        assert b" 200 " not in answer, "the tunnel opened"
        await super().goto(url)


class _ChromiumTunnelling(_ChromiumFailingToLoad):
    def __init__(self) -> None:
        super().__init__("")

    @contextlib.asynccontextmanager
    async def page(self, *, proxy: str | None = None) -> AsyncIterator[_PageThatFailsToLoad]:
        yield _PageTunnellingThroughItsProxy(proxy)


@contextlib.asynccontextmanager
async def _busy_once_then_gone() -> AsyncIterator[int]:
    """A port that answers one request ``503`` and then refuses every connection."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        server.close()  # stops listening: the browser's connection is refused
        writer.write(b"HTTP/1.1 503 Busy\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()


@pytest.mark.parametrize(
    ("host", "unreached", "reason"),
    [
        ("127.0.0.1", "connect", "127.0.0.1:{port} did not accept a connection ("),
        ("gone.test", "dns", "gone.test could not be resolved ("),
    ],
    ids=["refused", "unresolved"],
)
async def test_a_page_the_egress_proxy_reaches_no_host_for_is_unreached_not_a_proxy_failure(
    monkeypatch: pytest.MonkeyPatch, host: str, unreached: str, reason: str
) -> None:
    # The browser's own proxy answers 502 for a tunnel it cannot open, which Chromium
    # reports as ERR_TUNNEL_CONNECTION_FAILED: "the proxy could not be reached", of a
    # proxy the user never set, and no unreached cause for `websearch fetch` to hint at.
    real = socket.getaddrinfo
    lookups: list[str] = []

    def resolves_once(name: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if name != "gone.test":
            return real(name, port, *args, **kwargs)
        lookups.append(name)
        if len(lookups) > 1:  # the plain fetch's lookup answers; the proxy's finds nothing
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real("127.0.0.1", port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolves_once)
    async with _busy_once_then_gone() as port:
        url = f"http://{host}:{port}/busy"
        browser = _ChromiumTunnelling()
        async with WebSearch(state_backend="memory", browser=browser) as ws:  # type: ignore[arg-type]
            with pytest.raises(FetchFailedError) as caught:
                await ws.fetch(url, allow_private_addresses=True)
    expected = f"cannot fetch {url}: the headless browser failed: {reason.format(port=port)}"
    assert str(caught.value).startswith(expected), str(caught.value)
    assert caught.value.unreached == unreached


async def test_a_page_cached_under_the_allowance_is_not_served_without_it(
    ws: WebSearch, server: PageServer
) -> None:
    server.page("/a", ARTICLE)
    url = server.url("/a", host="localhost")  # a name: checked when connecting
    assert (await fetch(ws, url)).title == "Loopback article"
    assert (await fetch(ws, url)).cached
    with pytest.raises(FetchRefusedError, match="localhost resolves to"):
        await ws.fetch(url, use_browser=False)
    assert server.hits["/a"] == 1


async def test_one_url_given_as_urls_is_refused_naming_the_mistake(
    ws: WebSearch, server: PageServer
) -> None:
    # A string is a sequence of characters: it was fetched as 'h', 't', 't', 'p', ...
    # and came back as dozens of "no scheme" errors, none of them naming the mistake.
    server.page("/a", ARTICLE)
    with pytest.raises(TypeError, match=r"list of URLs, not one string: pass \[url\]"):
        await ws.fetch_many(server.url("/a"), allow_private_addresses=True, use_browser=False)
    assert server.hits["/a"] == 0


async def test_one_network_given_as_allowed_networks_is_refused_naming_the_fix(
    ws: WebSearch, server: PageServer
) -> None:
    # It was read as the networks '1', '2', '7', ... and refused as "allowed network '1'".
    server.page("/a", ARTICLE)
    with pytest.raises(TypeError, match=r"not one string: write \['127.0.0.0/8'\]"):
        await ws.fetch(server.url("/a"), allowed_networks="127.0.0.0/8", use_browser=False)
    assert server.hits["/a"] == 0


@pytest.mark.parametrize(
    ("url", "reason"),
    [(b"https://a.example/", "the URL is bytes, not str"), (None, "no URL was given")],
)
async def test_a_url_that_is_not_a_string_is_named_by_its_type(
    ws: WebSearch, url: object, reason: str
) -> None:
    # Both were refused as "the URL is empty", which sent people looking for a blank string.
    (result,) = await ws.fetch_many([url])  # type: ignore[list-item]
    assert isinstance(result, FetchRefusedError)
    assert (result.reason, result.kind) == (reason, "invalid_url")


@pytest.mark.parametrize("seconds", [float("inf"), 1e9, 900.5])
async def test_a_deadline_past_900_s_is_refused_as_a_search_s_is(
    ws: WebSearch, server: PageServer, seconds: float
) -> None:
    # inf was taken, and a silent server would then hold the call for ever.
    server.page("/a", ARTICLE)
    with pytest.raises(ValueError, match="timeout_seconds must be more than 0 and at most 900"):
        await fetch(ws, server.url("/a"), timeout_seconds=seconds)
    assert server.hits["/a"] == 0
