"""The headless browser's traffic goes through the configured proxy."""

import os
from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from websearch_core.browser import HeadlessBrowser, _playwright_proxy, chromium_path


def test_proxy_credentials_are_split_out_for_playwright() -> None:
    assert _playwright_proxy("http://user:p%40ss@proxy.example:3128") == {
        "server": "http://proxy.example:3128",
        "username": "user",
        "password": "p@ss",
    }
    assert _playwright_proxy("http://proxy.example:8080") == {"server": "http://proxy.example:8080"}
    # An IPv6 literal keeps its brackets ("http://::1:3128" is no address Chromium takes).
    assert _playwright_proxy("http://[::1]:3128") == {"server": "http://[::1]:3128"}


@pytest.fixture
async def proxy() -> AsyncIterator[tuple[str, list[str]]]:
    seen: list[str] = []

    async def answer(request: web.Request) -> web.Response:
        seen.append(str(request.url))
        return web.Response(
            text="<html><body><h1>via proxy</h1></body></html>", content_type="text/html"
        )

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(app, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    yield f"http://{host}:{port}", seen
    await runner.cleanup()


async def test_browser_pages_load_through_the_proxy(proxy: tuple[str, list[str]]) -> None:
    path = chromium_path()
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests must run in CI: no Chromium at {path}")
        pytest.skip(f"no Chromium executable at {path}")
    pytest.importorskip("playwright.async_api")
    url, seen = proxy
    browser = HeadlessBrowser(executable_path=path, proxy=url)
    try:
        async with browser.page() as page:
            await page.goto("http://results.invalid/search?q=x")
            assert "via proxy" in await page.content()
    finally:
        await browser.aclose()
    assert any("results.invalid" in item for item in seen)
