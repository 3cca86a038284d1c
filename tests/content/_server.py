"""A loopback web server for page-fetch tests: routes registered per test, hits counted."""

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def redirect(to: str, status: int = 302) -> Handler:
    """A handler answering every request with a redirect to ``to``."""

    async def handler(_request: web.Request) -> web.StreamResponse:
        return web.Response(status=status, headers={"Location": to})

    return handler


class PageServer:
    """Serves what a test registers; counts requests per path and peak concurrency.

    Stopping it cancels a handler still running after 0.1 s: a page that hangs on purpose
    (a client's deadline under test) is given up by then, and aiohttp's default wait of 60 s
    for such a handler made its test's teardown last as long as the hang (30 s for one).
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.hits: Counter[str] = Counter()
        self.in_flight = 0
        self.peak = 0
        self._routes: dict[str, Handler] = {}
        self._runner: web.AppRunner | None = None
        self.port = port

    def route(self, path: str, handler: Handler) -> None:
        self._routes[path] = handler

    def page(self, path: str, body: bytes | str, content_type: str = "text/html") -> None:
        data = body.encode("utf-8") if isinstance(body, str) else body

        async def handler(_request: web.Request) -> web.StreamResponse:
            return web.Response(body=data, headers={"Content-Type": content_type})

        self.route(path, handler)

    def url(self, path: str, host: str | None = None) -> str:
        return f"http://{host or self.host}:{self.port}{path}"

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        self.hits[request.path] += 1
        handler = self._routes.get(request.path)
        if handler is None:
            return web.Response(status=404, text="not found")
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            return await handler(request)
        finally:
            self.in_flight -= 1

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.base_events.Server)
        self.port = server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


async def serve(host: str = "127.0.0.1", port: int = 0) -> AsyncIterator[PageServer]:
    server = PageServer(host, port)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def server_in_thread(pages: dict[str, str]) -> Iterator[PageServer]:
    """A server on its own thread and loop (for synchronous APIs), stopped when closed."""
    import threading

    ready = threading.Event()
    state: dict[str, object] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        server = PageServer()
        for path, body in pages.items():
            server.page(path, body)
        loop.run_until_complete(server.start())
        state.update(loop=loop, server=server)
        ready.set()
        loop.run_forever()
        loop.run_until_complete(server.stop())
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(5)
    server = state["server"]
    assert isinstance(server, PageServer)
    yield server
    loop = state["loop"]
    assert isinstance(loop, asyncio.AbstractEventLoop)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


def serve_in_thread(pages: dict[str, str]) -> Iterator[str]:
    """:func:`server_in_thread`, yielding only its base URL."""
    for server in server_in_thread(pages):
        yield f"http://127.0.0.1:{server.port}"
