"""What a body of one result repeated up to ~7 MB costs each provider's reader.

A hostile or broken upstream can send the same result thousands of times, up to the
transport's body cap (8 MiB by default; Brave's own is 2 MiB, so its body is ~1.9 MB).
For each provider its real capture in ``../shared/fixtures`` is read and its result items
(a JSON result array's entries, an HTML page's result blocks) are replaced by the first one
repeated until the body has the wanted size. Then the provider's whole protocol runs over
:class:`~websearch_core.testing.MockTransport` (no socket: the time is the reading), and the
line gives the peak of Python's memory during a first run (``tracemalloc``), the CPU time
of two more, the items in the body and the sources that came back.

``--min`` keeps only what locates a JSON result (its URL, title and type keys), so the
same size holds the most items. The ``google-headings`` case repeats Google's first
heading alone inside its result's container (thousands of headings in one container). An
``<engine>-empty`` case (``bing-empty``, ``yahoo-empty``, ``startpage-empty``, ...) is the
page without results: its first block repeated with its class renamed, so no block is a
result and the reader takes its "no results" / unrecognised-page path.

``--call`` measures the whole call a program makes instead, ``WebSearch.run_sync`` forced
to the provider (the chain, ``clean_response``, the model's text), over a real socket: the
body is served by a loopback aiohttp server in a process of its own, so its copies are not
in the peak (state in memory, result cache off).

Compare two trees by running this alternately in each, one process per run::

    python benchmarks/bench_hostile_bodies.py [--min] [--call] [--size 7000000] [provider ...]
"""

import argparse
import gc
import json
import socket
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lxml.html

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.contract

from tests.contract.test_hostile_bodies import HTML_PAGES, ITEM_LISTS
from websearch_core import WebSearch
from websearch_core.credentials import Credentials
from websearch_core.errors import SearchProviderError
from websearch_core.loop_run import run_to_end
from websearch_core.models import SearchParams
from websearch_core.provider_types import ProviderContext
from websearch_core.providers import PROVIDER_REGISTRY, get_provider
from websearch_core.settings import Settings
from websearch_core.testing import MockTransport
from websearch_core.transport import HttpRequest, HttpResponse

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures"
BODY_CAP = 8 * 1024 * 1024
BRAVE_SIZE = 1_900_000
_NOT_RUN = frozenset({"kimi", "codex", "zai"})
"""Providers of the contract test's table this benchmark leaves out: their whole protocol
needs more than one canned answer over the mock transport."""
JSON_ITEMS: dict[str, tuple[str, tuple[Any, ...]]] = {
    provider: where for provider, where in ITEM_LISTS.items() if provider not in _NOT_RUN
}
"""Per provider, its capture and where its result items are: the contract test's table."""
HTML_BLOCKS: dict[str, tuple[str, str]] = {
    engine: where for engine, where in HTML_PAGES.items() if engine != "duckduckgo lite"
}
"""Per engine, its results page and what starts a result: the contract test's table (lite's
layout, which is DuckDuckGo's provider too, left out)."""
LOCATING_KEYS = frozenset({"url", "link", "uri", "web", "title", "t", "type", "url_citation"})
"""What ``--min`` keeps of a JSON item: enough for every reader to take it as a result."""


def json_body(provider: str, size: int, minimal: bool) -> tuple[bytes, int]:
    """The capture with its result array replaced by its first item, repeated."""
    relative, path = JSON_ITEMS[provider]
    document = json.loads((FIXTURES / relative).read_bytes())
    holder = document
    for step in path[:-1]:
        holder = holder[step]
    item = holder[path[-1]][0]
    if minimal:
        item = {key: value for key, value in item.items() if key in LOCATING_KEYS}
    holder[path[-1]] = []
    empty = len(json.dumps(document).encode())
    count = max(1, (size - empty) // (len(json.dumps(item).encode()) + 2))
    holder[path[-1]] = [item] * count  # one object, serialised count times
    return json.dumps(document).encode(), count


def html_body(provider: str, size: int, *, empty: bool = False) -> tuple[bytes, int]:
    """The page with every result block replaced by its first one, repeated.

    ``empty``: the repeated block's class is renamed, so the page has no result at all.
    """
    relative, selector = HTML_BLOCKS[provider]
    root = lxml.html.fromstring((FIXTURES / relative).read_bytes())
    blocks = [block for block in root.cssselect(selector) if block.xpath(".//a[@href]")]
    for other in blocks[1:]:
        other.drop_tree()
    if empty:
        blocks[0].set("class", "unrecognised-block")
        blocks[0].attrib.pop("data-test-id", None)
    return _repeated(root, blocks[0], size)


def heading_body(size: int) -> tuple[bytes, int]:
    """Google's page with its first heading repeated inside the heading's own container."""
    root = lxml.html.fromstring((FIXTURES / HTML_BLOCKS["google"][0]).read_bytes())
    return _repeated(root, next(root.iter("h3")), size)


def _repeated(root: Any, element: Any, size: int) -> tuple[bytes, int]:
    page = lxml.html.tostring(root, encoding="unicode")
    one = lxml.html.tostring(element, encoding="unicode", with_tail=False)
    at = page.index(one)
    count = max(1, (size - len(page.encode())) // len(one.encode()))
    return (page[:at] + one * count + page[at + len(one) :]).encode(), count


def body_for(case: str, size: int, minimal: bool) -> tuple[str, bytes, int, str]:
    """``(provider id, body, items in it, content type)`` for a case."""
    if case == "google-headings":
        body, count = heading_body(size)
        return "google", body, count, "text/html; charset=utf-8"
    if case in HTML_BLOCKS:
        body, count = html_body(case, size)
        return case, body, count, "text/html; charset=utf-8"
    if case.endswith("-empty") and case.removesuffix("-empty") in HTML_BLOCKS:
        engine = case.removesuffix("-empty")
        body, count = html_body(engine, size, empty=True)
        return engine, body, count, "text/html; charset=utf-8"
    body, count = json_body(case, BRAVE_SIZE if case == "brave" else size, minimal)
    return case, body, count, "application/json"


def run_once(provider: str, body: bytes, content_type: str) -> str:
    """One search over ``body`` (every request answered with it); what it gave.

    That is the number of sources, or the error's class for a page read as no results'
    failure (an unrecognised page, a challenge).
    """

    def answer(request: HttpRequest) -> HttpResponse:
        return HttpResponse(status=200, body=body, headers={"Content-Type": content_type})

    transport = MockTransport(answer, timeout_seconds=600, max_response_bytes=BODY_CAP)
    context = ProviderContext(
        transport=transport,
        settings=Settings(searxng={"endpoint": "https://searx.example"}),
        credentials=Credentials(explicit={provider: "sk-bench-0123456789abcdef"}, environ={}),
        system_prompt="",
    )
    search = get_provider(provider).search(SearchParams(query="hostile"), context)
    # As WebSearch.search_sync runs it: asyncio.run alone would also render the response
    # with repr() on Python 3.11/3.12 (websearch_core.loop_run), which is not the reading.
    try:
        return f"{len(run_to_end(search).sources)} sources"
    except SearchProviderError as error:
        return type(error).__name__


_SERVER = """
import sys
from aiohttp import web

body = open(sys.argv[1], "rb").read()

async def answer(request):
    return web.Response(body=body, headers={"Content-Type": sys.argv[2]})

app = web.Application()
app.router.add_route("*", "/{tail:.*}", answer)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[3]), print=None, handle_signals=False)
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _serving(body: bytes, content_type: str, folder: str) -> tuple[subprocess.Popen[bytes], str]:
    """A loopback server in a process of its own answering every request with ``body``."""
    path = Path(folder) / "body"
    path.write_bytes(body)
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-c", _SERVER, str(path), content_type, str(port)])
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def call_once(provider: str, base: str) -> str:
    """One forced ``run_sync`` against the server at ``base``; the sources it gave."""
    settings = Settings(
        base_urls={provider: base},
        searxng={"endpoint": base},
        exclude=tuple(other for other in PROVIDER_REGISTRY if other not in (provider, "public")),
        state_backend="memory",
        cache=False,
        rate_limit_wait_seconds=0,
        timeout_seconds=60,
        max_response_bytes=BODY_CAP,
    )
    client = WebSearch(settings, api_keys={provider: "sk-bench-0123456789abcdef"})
    result = client.run_sync("hostile", provider=provider)
    if result.error is not None:
        raise RuntimeError(result.error)
    return f"{len(result.response.sources)} sources"


def bench(case: str, size: int, minimal: bool, call: bool) -> None:
    provider, body, count, content_type = body_for(case, size, minimal)
    length = len(body)
    with tempfile.TemporaryDirectory() as folder:
        if call:
            server, base = _serving(body, content_type, folder)
            body = b""  # the server's copy is read; this process keeps none
            try:
                _measure(case, count, length, lambda: call_once(provider, base))
            finally:
                server.terminate()
                server.wait()
        else:
            _measure(case, count, length, lambda: run_once(provider, body, content_type))


def _measure(case: str, count: int, size: int, search: Callable[[], str]) -> None:
    gc.collect()
    tracemalloc.start()  # the first run, which also warms the provider's lazy imports
    kept = search()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    seconds: list[float] = []
    for _ in range(2):
        gc.collect()
        started = time.process_time()
        search()
        seconds.append(time.process_time() - started)
    runs = " / ".join(f"{value:.2f}" for value in seconds)
    print(
        f"{case:16} {size / 1e6:4.1f} MB {count:7} items  CPU {runs} s"
        f"  peak {peak / 1e6:4.0f} MB  {kept}",
        flush=True,
    )


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument(
        "cases", nargs="*", help="providers (default: all), google-headings, <engine>-empty"
    )
    options.add_argument("--size", type=int, default=7_000_000, help="body bytes (Brave 1.9 MB)")
    options.add_argument("--min", action="store_true", help="JSON items cut to what locates them")
    options.add_argument("--call", action="store_true", help="the whole run_sync, over a socket")
    args = options.parse_args()
    for case in args.cases or [*JSON_ITEMS, *HTML_BLOCKS, "google-headings"]:
        try:
            bench(case, args.size, args.min, args.call)
        except RuntimeError as error:  # --call: a provider the bench cannot sign in to
            print(f"{case:16} not measured: {str(error)[:60]}", flush=True)


if __name__ == "__main__":
    main()
