"""A loopback server per provider that speaks its wire protocol and injects faults.

Each simulated provider listens on its own ``127.0.0.1`` port; :meth:`Simulator.settings`
points every provider's base URL there, so the real provider code (request building,
status classification, parsing) runs unchanged against it.

Example:
    >>> async with Simulator(["brave", "duckduckgo"]) as sim:  # doctest: +SKIP
    ...     sim["brave"].enqueue(Fault.payment_required())
    ...     async with WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws:
    ...         result = await ws.run("python asyncio")
    ...     assert result.response.provider == "duckduckgo"
    ...     assert len(sim["brave"].requests) == 1
"""

import asyncio
import contextlib
import importlib
import inspect
import json
import pkgutil
import threading
import zlib
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType, TracebackType
from typing import Any, Final, Protocol, Self
from urllib.parse import parse_qsl

from aiohttp import web

from ..loop_servers import serve_on, stop_serving
from ..provider_ids import GOOGLE_OAUTH_ROUTE, did_you_mean
from ..providers import SEARCH_PROVIDER_ORDER
from ..settings import Settings
from . import protocols as protocols_package
from .faults import Fault, Framing

__all__ = [
    "PROTOCOLS",
    "PROTOCOL_PACKAGE",
    "ROUTES_SERVED",
    "ProviderProtocol",
    "RecordedRequest",
    "SimResult",
    "SimulatedProvider",
    "Simulator",
    "protocol_class_in",
]

PROTOCOL_PACKAGE = "websearch_core.testing.protocols"


def _protocol_modules() -> Mapping[str, str]:
    """Every registered id with a ``testing/protocols/<id>.py``, in registry order."""
    present = {module.name for module in pkgutil.iter_modules(protocols_package.__path__)}
    return MappingProxyType(
        {pid: f"{PROTOCOL_PACKAGE}.{pid}" for pid in SEARCH_PROVIDER_ORDER if pid in present}
    )


PROTOCOLS: Mapping[str, str] = _protocol_modules()
"""Provider id to the module that speaks its protocol, found by convention: the registry's
ids (:data:`~websearch_core.providers.SEARCH_PROVIDER_ORDER`) that have a module under
``testing/protocols/`` (the ``public`` aggregate has none: it is its engines)."""

ROUTES_SERVED: Mapping[str, str] = MappingProxyType({GOOGLE_OAUTH_ROUTE: "gemini"})
"""Base-URL ids that name no provider, to the simulated provider whose server answers them:
Gemini's protocol answers Google's token endpoint (``/token``), where its sign-ins renew.
:meth:`Simulator.base_urls` routes each here while that provider is simulated, so nothing
a simulated session sends leaves the machine."""

FAKE_KEY_PREFIX = "sim-key-"


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request the simulator received, for assertions on the wire shape."""

    method: str
    path: str
    query: tuple[tuple[str, str], ...]
    headers: Mapping[str, str]
    body: bytes

    def query_dict(self) -> dict[str, str]:
        """Query parameters (last value wins)."""
        return dict(self.query)

    def form(self) -> list[tuple[str, str]]:
        """The body parsed as ``application/x-www-form-urlencoded``, in order."""
        return parse_qsl(self.body.decode("utf-8"), keep_blank_values=True)

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        """A header by case-insensitive name."""
        lowered = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == lowered), None)


@dataclass(frozen=True, slots=True)
class SimResult:
    """A result the simulator serves, in provider-neutral form."""

    title: str
    url: str
    snippet: str
    published: str | None = None


class ProviderProtocol(Protocol):
    """How one provider speaks: its success body, its challenge page, its garbage."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """The normal 200 answer carrying ``results``.

        The simulator also awaits an awaitable answer, which a test puts in place to hold a
        reply until an event without stopping the other requests being served.
        """

    def challenge(self) -> web.Response:
        """The provider's bot-challenge page, or a 403 when it has none."""

    def malformed(self) -> web.Response:
        """A 200 the provider's parser must reject."""

    # Optional: ``date_window(request) -> DateWindow`` (:mod:`.protocols._windows`), the
    # dates the request's own date parameter lets through, read when a test sets
    # :attr:`SimulatedProvider.honour_dates`; and ``operators`` (an ``Operators``,
    # :mod:`.protocols._operators`), the query operators the engine applies itself, read
    # unless a test clears :attr:`SimulatedProvider.honour_operators`.


def default_results(query: str, count: int = 10) -> list[SimResult]:
    """Deterministic results derived from the query, so tests can assert on them."""
    slug = "-".join(query.lower().split())[:40] or "q"
    return [
        SimResult(
            title=f"{query} result {i}",
            url=f"https://site{i}.example.org/{slug}",
            snippet=f"Snippet {i} about {query}.",
            published=f"2026-01-0{min(i, 9)}T00:00:00Z",
        )
        for i in range(1, count + 1)
    ]


@dataclass
class SimulatedProvider:
    """One provider's server state: what it received and what it will do next."""

    provider_id: str
    protocol: ProviderProtocol
    base_url: str = ""
    requests: list[RecordedRequest] = field(default_factory=list)
    results: list[SimResult] | None = None
    """Results to serve; ``None`` derives ten from each query."""
    sticky_fault: Fault | None = None
    honour_dates: bool = False
    """Serve only the results inside the date range the request asks for natively (its
    protocol's ``date_window``), as the real engine does; off by default, since most tests'
    results carry dates a ``recency`` would leave out."""
    honour_operators: bool = True
    """Serve only the results the query's ``site:`` / ``filetype:`` let through, where the
    engine reads them (its protocol's ``operators``, :mod:`.protocols._operators`), as the
    real engine does; off for an upstream that leaks (every result served)."""
    _faults: deque[Fault | None] = field(default_factory=deque)
    _hanging: set[asyncio.Task[Any]] = field(default_factory=set)

    @property
    def holding(self) -> int:
        """How many requests a ``hang`` or ``stall`` fault holds open now, not yet let go.

        Read right after an answer, a count above zero says the answer did not wait for
        the server to close: a test bounded by that, not by a clock.
        """
        return len(self._hanging)

    def enqueue(self, *faults: Fault | None) -> None:
        """Serve these faults, one per request (``None``: a normal answer), then answer normally."""
        self._faults.extend(faults)

    def always(self, fault: Fault | None) -> None:
        """Serve ``fault`` for every request (``None`` clears it)."""
        self.sticky_fault = fault

    def next_fault(self) -> Fault | None:
        """The fault for the next request, if any."""
        if self._faults:
            return self._faults.popleft()
        return self.sticky_fault

    def results_for(self, query: str) -> list[SimResult]:
        """What a normal answer to ``query`` carries."""
        return list(self.results) if self.results is not None else default_results(query)

    def query_of(self, request: RecordedRequest) -> str:
        """The query text ``request`` carried, read where this provider's protocol puts it.

        The same reading the server answers by, so a test checking what was sent reads it
        as the engine would (a protocol's own ``query_of``, else ``q``/``query``/
        ``text_query`` in the URL, a form body or a JSON body).
        """
        read = getattr(self.protocol, "query_of", None)
        return str(read(request)) if callable(read) else _query_of(request)

    def last_query(self) -> str:
        """The query text of the last request this provider got (see :meth:`query_of`)."""
        if not self.requests:
            raise LookupError(f"{self.provider_id} got no request")
        return self.query_of(self.requests[-1])


class Simulator:
    """Starts one loopback server per provider; use as an async context manager.

    Args:
        providers: Provider ids to simulate (default: every protocol known).
        ports: The loopback port each provider listens on, by id; one not named gets a
            free port. A port taken already makes :meth:`start` raise ``OSError``
            (``EADDRINUSE``). Tests leave it out: fixed ports are for a person who has
            written them into a config file (``python -m websearch_core.testing serve``).
    """

    def __init__(
        self, providers: Iterable[str] | None = None, *, ports: Mapping[str, int] | None = None
    ) -> None:
        if isinstance(providers, str):
            # A string is a sequence of its letters: Simulator("brave") asked for the
            # providers 'b', 'r', ... and failed on 'b'.
            raise TypeError(
                f"Simulator takes a list of provider ids, not one string: "
                f"Simulator([{providers!r}])"
            )
        ids = list(providers) if providers is not None else list(PROTOCOLS)
        self.providers: dict[str, SimulatedProvider] = {
            provider_id: SimulatedProvider(provider_id, _load_protocol(provider_id))
            for provider_id in ids
        }
        self.ports: Mapping[str, int] = MappingProxyType(dict(ports or {}))
        stray = [pid for pid in self.ports if pid not in self.providers]
        if stray:
            raise KeyError(
                f"ports given for {', '.join(map(repr, stray))}, not simulated here "
                f"(simulated: {', '.join(self.providers) or 'none'})"
            )
        self._runners: list[web.AppRunner] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        """The loop serving, while it serves: a sync call blocking it is refused at once."""

    def __getitem__(self, provider_id: str) -> SimulatedProvider:
        """The simulated provider ``provider_id``.

        Raises:
            KeyError: It is not simulated here; the message names those that are.
        """
        try:
            return self.providers[provider_id]
        except KeyError:
            simulated = ", ".join(self.providers) or "none"
            raise KeyError(
                f"{provider_id!r} is not simulated here (simulated: {simulated}); "
                f"list it in Simulator([...])"
            ) from None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def start(self) -> None:
        """Bind every simulated provider to its loopback port (a free one unless given).

        Raises:
            OSError: A port given in ``ports`` cannot be bound (in use, or privileged); the
                providers bound before it are served until :meth:`close`.
        """
        self._loop = asyncio.get_running_loop()
        for simulated in self.providers.values():
            app = web.Application()
            app.router.add_route("*", "/{tail:.*}", _handler(simulated))
            runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", self.ports.get(simulated.provider_id, 0))
            try:
                await site.start()
            except OSError:
                await runner.cleanup()  # close() stops only the runners that started
                raise
            host, port = runner.addresses[-1][:2]
            simulated.base_url = f"http://{host}:{port}"
            self._runners.append(runner)
            serve_on(self._loop, simulated.base_url)

    async def close(self) -> None:
        """Stop every server, first ending requests a ``hang`` fault is still holding."""
        hanging = [task for sim in self.providers.values() for task in sim._hanging]
        for task in hanging:
            task.cancel()
        await asyncio.gather(*hanging, return_exceptions=True)
        for runner in self._runners:
            await runner.cleanup()
        self._runners.clear()
        if self._loop is not None:
            for simulated in self.providers.values():
                stop_serving(self._loop, simulated.base_url)
            self._loop = None

    @contextlib.contextmanager
    def running_in_thread(self) -> Iterator[Self]:
        """Serve from a background thread with its own loop, for synchronous callers.

        A synchronous test (or a sync call made while the test's loop is blocked) cannot
        be answered by servers on that same loop; this runs them elsewhere.
        """
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="websearch-simulator", daemon=True)
        thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self.start(), loop).result(timeout=10)
            yield self
        finally:
            asyncio.run_coroutine_threadsafe(self.close(), loop).result(timeout=10)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)
            loop.close()

    def base_urls(self) -> dict[str, str]:
        """Provider id to the simulator's origin, with each :data:`ROUTES_SERVED` id it answers."""
        urls = {pid: sim.base_url for pid, sim in self.providers.items()}
        urls.update(
            (route, self.providers[pid].base_url)
            for route, pid in ROUTES_SERVED.items()
            if pid in self.providers
        )
        return urls

    def api_keys(self) -> dict[str, str]:
        """A fake key for every simulated provider."""
        return {pid: f"{FAKE_KEY_PREFIX}{pid}" for pid in self.providers}

    def settings(self, **overrides: Any) -> Settings:
        """Settings that route every simulated provider here (SearXNG's endpoint too).

        Providers that are not simulated are excluded, so nothing leaves the machine, and
        state lives in memory so each client starts with no cooldowns.
        """
        from ..providers import PROVIDER_REGISTRY

        # Never let a simulated session reach a real service: every registered provider
        # that is not simulated here is excluded (the aggregate only fans out to engines).
        unsimulated = tuple(
            pid for pid in PROVIDER_REGISTRY if pid not in self.providers and pid != "public"
        )
        values: dict[str, Any] = {
            "base_urls": self.base_urls(),
            "timeout_seconds": 5.0,
            "state_backend": "memory",
        }
        if "searxng" in self.providers:
            values["searxng"] = {"endpoint": self.providers["searxng"].base_url}
        extra_excluded = tuple(overrides.pop("exclude", ()))
        values["exclude"] = tuple(dict.fromkeys((*unsimulated, *extra_excluded)))
        values.update(overrides)
        return Settings(**values)


def _load_protocol(provider_id: str) -> ProviderProtocol:
    target = PROTOCOLS.get(provider_id)
    if target is None:
        if provider_id == "public":  # an aggregate: it asks the engines simulated with it
            why = ": it is an aggregate; simulate its engines (duckduckgo, bing, ...)"
        else:
            why = f"{did_you_mean([provider_id], tuple(PROTOCOLS))} (known: {', '.join(PROTOCOLS)})"
        raise KeyError(f"no simulator protocol for provider {provider_id!r}{why}")
    protocol: ProviderProtocol = protocol_class_in(importlib.import_module(target))()
    return protocol


def protocol_class_in(module: ModuleType) -> type[Any]:
    """The protocol class of ``module``: its ``PROTOCOL``, else its one ``*Protocol`` class.

    Raises:
        TypeError: The module defines none or several (name one with ``PROTOCOL = ...``).
    """
    named = getattr(module, "PROTOCOL", None)
    if isinstance(named, type):
        return named
    candidates = [
        value
        for name, value in vars(module).items()
        if isinstance(value, type)
        and value.__module__ == module.__name__
        and name.endswith("Protocol")
        and callable(getattr(value, "answer", None))
    ]
    if len(candidates) != 1:
        found = ", ".join(sorted(c.__name__ for c in candidates)) or "none"
        raise TypeError(
            f"{module.__name__} must define one *Protocol class with answer() "
            f"(found: {found}); name it with PROTOCOL = <class>"
        )
    return candidates[0]


def _handler(simulated: SimulatedProvider) -> Any:
    async def handle(request: web.Request) -> web.StreamResponse:
        body = await request.read()
        recorded = RecordedRequest(
            method=request.method,
            path=request.path,
            query=tuple(request.query.items()),
            headers=dict(request.headers),
            body=body,
        )
        simulated.requests.append(recorded)
        fault = simulated.next_fault()
        if fault is None:
            return await _normal_answer(simulated, recorded)
        if fault.kind == "held":
            return await _held_open(request, simulated, fault, recorded)
        return await _serve_fault(request, simulated, fault)

    return handle


async def _normal_answer(
    simulated: SimulatedProvider, recorded: RecordedRequest
) -> web.StreamResponse:
    """The protocol's answer to ``recorded`` with the results it asks for."""
    results = simulated.results_for(simulated.query_of(recorded))
    if simulated.honour_dates:
        results = _in_date_window(simulated.protocol, recorded, results)
    operators = getattr(simulated.protocol, "operators", None)
    if operators is not None and simulated.honour_operators:
        results = operators.select(recorded, results)
    answer = simulated.protocol.answer(recorded, results)
    # A test may hold an answer until something else happened (another request
    # arrived): awaited here, so the simulator serves other requests meanwhile.
    return await answer if inspect.isawaitable(answer) else answer


_FLUSH_TURN_SECONDS: Final = 0.2
"""How long a ``held`` fault waits between its body's first piece and the rest."""

_HOP_HEADERS: Final = frozenset(
    {"content-length", "content-type", "transfer-encoding", "connection"}
)


async def _held_open(
    request: web.Request, simulated: SimulatedProvider, fault: Fault, recorded: RecordedRequest
) -> web.Response:
    """The normal answer written by hand, then the socket held (a ``held`` fault).

    Written raw, not through aiohttp's response: aiohttp would end the body (its last
    chunk) when the handler returns, and the point is a body whose end the client must
    find without it.
    """
    answer = await _normal_answer(simulated, recorded)
    body = answer.body if isinstance(answer, web.Response) else None
    assert isinstance(body, bytes), "a held answer needs a body of bytes"
    body = fault.raw + body + fault.trailer
    label = fault.headers.get("Content-Type") or answer.headers.get(
        "Content-Type", "application/json"
    )
    lines = [f"HTTP/1.1 {answer.status} {answer.reason}", f"Content-Type: {label}"]
    lines += [f"{k}: {v}" for k, v in answer.headers.items() if k.lower() not in _HOP_HEADERS]
    pieces = [body[: fault.first], body[fault.first :]] if fault.first else [body]
    if fault.framing == "declared":
        # Said to close, so the client never sends its next request on this socket (the
        # held handler would never read it); the length, not the close, ends the body.
        lines += [f"Content-Length: {len(body)}", "Connection: close"]
        framed = pieces
    else:
        lines.append("Transfer-Encoding: chunked")
        # One HTTP chunk a piece, and no last chunk: the body has no end.
        framed = [f"{len(piece):x}\r\n".encode() + piece + b"\r\n" for piece in pieces]
    writer = request.transport
    if writer is not None:
        writer.write("\r\n".join(lines).encode() + b"\r\n\r\n" + framed[0])
        for piece in framed[1:]:
            # The client runs on this loop: the pause is its turn to read the first piece
            # alone (over loopback it arrived with the write), not a bound on anything.
            await asyncio.sleep(_FLUSH_TURN_SECONDS)
            writer.write(piece)
    await _hang(simulated, fault.seconds)
    return _end_connection(request, None)


def _in_date_window(
    protocol: ProviderProtocol, request: RecordedRequest, results: list[SimResult]
) -> list[SimResult]:
    """``results`` the request's own date parameter lets through, in order.

    A protocol whose engine takes a date parameter reads it (``date_window``, see
    :mod:`.protocols._windows`); one without serves every result.
    """
    window_of = getattr(protocol, "date_window", None)
    if not callable(window_of):
        return results
    window = window_of(request)
    return [result for result in results if window.admits(result)]


def _query_of(request: RecordedRequest) -> str:
    for key in ("q", "query", "text_query"):
        value = request.query_dict().get(key)
        if value:
            return value
    if request.body:
        form = (
            dict(request.form())
            if b"=" in request.body and not request.body.startswith(b"{")
            else {}
        )
        if form.get("q"):
            return form["q"]
        try:
            data = json.loads(request.body)
        except ValueError:
            return ""
        if isinstance(data, dict):
            for key in ("query", "q", "text_query"):
                if isinstance(data.get(key), str):
                    return str(data[key])
    return ""


async def _hang(simulated: SimulatedProvider, seconds: float) -> web.Response:
    """Hold the request open; :meth:`Simulator.close` ends it instead of leaving it pending."""
    task = asyncio.current_task()
    assert task is not None
    simulated._hanging.add(task)
    try:
        await asyncio.sleep(seconds)
    finally:
        simulated._hanging.discard(task)
    return web.Response(status=504, text="hung")


def _end_connection(request: web.Request, data: bytes | None) -> web.Response:
    """Drop the connection (``None``), or write ``data`` as the whole reply and close it."""
    if request.transport is not None:
        if data is None:
            request.transport.abort()
        else:
            request.transport.write(data)
            request.transport.close()
    return web.Response(status=500)  # never sent: the connection is gone


async def _serve_fault(
    request: web.Request, simulated: SimulatedProvider, fault: Fault
) -> web.StreamResponse:
    if fault.kind == "status":
        return web.Response(status=fault.status, text=fault.body, headers=fault.headers)
    if fault.kind == "hang":
        return await _hang(simulated, fault.seconds)
    if fault.kind == "reset" or fault.kind == "raw":
        return _end_connection(request, fault.raw if fault.kind == "raw" else None)
    if fault.kind in ("cut", "stall", "truncate"):
        return await _broken_off(request, simulated, fault)
    if fault.kind == "malformed":
        return simulated.protocol.malformed()
    if fault.kind == "challenge":
        return simulated.protocol.challenge()
    return await _oversized(request, fault)


async def _broken_off(
    request: web.Request, simulated: SimulatedProvider, fault: Fault
) -> web.StreamResponse:
    """A reply that began and then broke: truncated, cut after ``fault.raw``, or stalled."""
    if fault.kind == "truncate":
        response = web.StreamResponse(status=200, headers={"Content-Length": "100000"})
        await response.prepare(request)
        await response.write(b"x" * 1000)
        if request.transport is not None:
            request.transport.abort()
        return response
    if request.transport is not None:
        request.transport.write(fault.raw)
    if fault.kind == "stall":
        await _hang(simulated, fault.seconds)
    return _end_connection(request, None)


_PIECE = b"a" * 65536
"""What an oversized body repeats (the last piece is cut to the size)."""


def _pieces(size: int, framing: Framing) -> Iterator[bytes]:
    """``size`` bytes of body a piece at a time, gzip-compressed for ``"gzip"``."""
    packer = zlib.compressobj(wbits=31) if framing == "gzip" else None  # 31: gzip wrapper
    for start in range(0, size, len(_PIECE)):
        piece = _PIECE[: size - start]
        yield piece if packer is None else packer.compress(piece)
    if packer is not None:
        yield packer.flush()


async def _oversized(request: web.Request, fault: Fault) -> web.StreamResponse:
    """A body of ``fault.size`` bytes, written a piece at a time until the client leaves."""
    headers = {"Content-Type": "application/octet-stream", **fault.headers}
    if fault.framing == "declared":
        headers["Content-Length"] = str(fault.size)
    elif fault.framing == "gzip":
        headers["Content-Encoding"] = "gzip"
    response = web.StreamResponse(status=fault.status, headers=headers)
    await response.prepare(request)
    try:
        for piece in _pieces(fault.size, fault.framing):
            if piece:
                await response.write(piece)
            # A compressed piece is a few bytes that never fill the socket's buffer: let the
            # client read (and leave at its cap) before the next one is compressed.
            await asyncio.sleep(0)
        await response.write_eof()
    except ConnectionError:  # the client stopped reading at its cap and closed
        pass
    return response
