"""The last fields a provider fills that reached output whole: a category, engines, a URL.

Stops 51-52 bounded every text field of a response a model reads and most of the rest
(``test_response_bounds``, ``test_page_bounds``). Walking every field of the result
models left three a provider still controls without a bound, each found here through the
loopback simulator serving the real SearXNG capture from ``../shared/fixtures`` with one
field grown: a result's ``category`` (neither cut nor even cleaned of terminal escapes), the
names of the ``engines`` it came from (up to 200, each any length, uncleaned), and a source's
URL (any length: the model's text, ``--json`` and the cache each held it whole). Among the
error texts, an HTTP error quotes only its body's 8 KiB head, but one read from a 2xx body
did not stop: SearXNG's "no usable results" named 200 engines with their reasons (a
megabyte of ``Error:`` text, three in ``--json``), and the warning naming the engines of a
partial answer was as long.
"""

import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from websearch_core import WebSearch
from websearch_core.cli_output import json_text, search_json
from websearch_core.models import SearchToolResult
from websearch_core.state.base import STATE_FILE_NAME
from websearch_core.testing import Fault, Simulator
from websearch_core.utf16_text import utf16_len

SEARXNG: Final = "searxng/search_format_json_espresso_2026.json"
ID_LIMIT: Final = 100
"""UTF-16 units an id-like token keeps (the ``model``'s bound): a category, an engine."""
MAX_ENGINES: Final = 20
URL_LIMIT: Final = 8_000
"""RFC 9110's recommended least supported URI length: a longer URL drops its result."""
BIG: Final = 1_000_000
ROOM: Final = 100_000
"""Room for the capture's other 27 results, as text, JSON or a cache row."""

Body = dict[str, Any]


class Served:
    """One search of a served body: the tool result, its JSON and the cache's rows."""

    def __init__(self, result: SearchToolResult, rows: list[int]) -> None:
        self.result = result
        self.json = json_text(search_json(result))
        self.rows = rows


async def _search(edit: Callable[[dict[str, Any]], None], state: Path) -> Served:
    """Search SearXNG answering its capture with ``edit`` applied to the first result."""
    body: Body = json.loads(read_capture(SEARXNG))
    body["unresponsive_engines"] = []  # a partial answer is never cached
    edit(body["results"][0])
    async with Simulator(["searxng"]) as sim:
        served = json.dumps(body)
        sim["searxng"].always(Fault.http(200, served, {"Content-Type": "application/json"}))
        settings = sim.settings(
            provider="searxng",
            rate_limit_wait_seconds=0,
            state_backend="sqlite",
            state_dir=state,
        )
        async with WebSearch(settings) as search:
            result = await search.run("python asyncio")
    assert not result.text.startswith("Error:"), result.text[:300]
    with sqlite3.connect(state / STATE_FILE_NAME) as store:
        rows = [size for (size,) in store.execute("SELECT length(value) FROM cache")]
    return Served(result, rows)


def _small(served: Served) -> None:
    """The model's text, the JSON and the cache row hold none of the grown field whole."""
    assert len(served.result.text) < ROOM
    assert len(served.json) < ROOM
    assert served.rows and max(served.rows) < ROOM


async def test_a_megabyte_category_is_cut_and_cleaned(tmp_path: Path) -> None:
    def grow(result: dict[str, Any]) -> None:
        result["category"] = "\x1b]0;pwned\x07news" + "C" * BIG

    served = await _search(grow, tmp_path)
    category = served.result.response.sources[0].category
    assert category is not None
    assert utf16_len(category) == ID_LIMIT and category.endswith("C…")
    assert category.startswith("newsC")  # the escape sequence gone
    _small(served)  # a megabyte of JSON and of cache row before


async def test_two_hundred_long_engine_names_are_twenty_cut(tmp_path: Path) -> None:
    def grow(result: dict[str, Any]) -> None:
        result["engines"] = [f"engine{n}\x1b[2J" + "N" * 5_000 for n in range(200)]

    served = await _search(grow, tmp_path)
    engines = served.result.response.sources[0].engines
    assert len(engines) == MAX_ENGINES
    assert all(utf16_len(rank.engine) == ID_LIMIT for rank in engines)
    assert [rank.engine[: rank.engine.index("N")] for rank in engines] == [
        f"engine{n}" for n in range(MAX_ENGINES)
    ]
    _small(served)  # 200 x 5,000 characters before


async def test_a_megabyte_url_drops_its_result(tmp_path: Path) -> None:
    long_url = "https://a.example/" + "u" * BIG

    def grow(result: dict[str, Any]) -> None:
        result["url"] = long_url

    served = await _search(grow, tmp_path)
    urls = [source.url for source in served.result.response.sources]
    assert long_url not in urls and urls  # the others kept
    assert all(len(url) <= URL_LIMIT for url in urls)
    _small(served)  # the URL whole in the text, the JSON and the cache before


async def test_a_url_at_the_limit_is_kept(tmp_path: Path) -> None:
    """A guard: a URL of exactly 8,000 characters stays (passes before and after)."""
    url = "https://a.example/" + "u" * (URL_LIMIT - len("https://a.example/"))

    def grow(result: dict[str, Any]) -> None:
        result["url"] = url

    served = await _search(grow, tmp_path)
    assert served.result.response.sources[0].url == url


async def test_the_captured_categories_and_engines_stay_as_sent(tmp_path: Path) -> None:
    """A guard: the real capture's short categories and engine lists pass unchanged."""
    body: Body = json.loads(read_capture(SEARXNG))
    sent = {item["url"]: (item["category"], item["engines"]) for item in body["results"]}
    served = await _search(lambda result: None, tmp_path)
    kept = {
        source.url: (source.category, [rank.engine for rank in source.engines])
        for source in served.result.response.sources
    }
    assert kept and all(kept[url] == sent[url] for url in kept)


MESSAGE_LIMIT: Final = 10_000
"""UTF-16 units of one provider's error text: an HTTP error's 8,192-character body head
and the words around it."""
ERROR_CUT_MARK: Final = " [Error text cut: longer than 10,000 characters.]"
"""What ends a cut error text after its ``…``, as ``[Answer cut: ...]`` ends an answer."""


async def _failed(status: int, body: str, content_type: str) -> SearchToolResult:
    """Search SearXNG answering ``status`` with ``body`` (no cache)."""
    async with Simulator(["searxng"]) as sim:
        sim["searxng"].always(Fault.http(status, body, {"Content-Type": content_type}))
        settings = sim.settings(provider="searxng", rate_limit_wait_seconds=0, cache=False)
        async with WebSearch(settings) as search:
            result = await search.run("python asyncio")
    assert result.error is not None, result.text[:300]
    return result


async def test_an_error_naming_two_hundred_engines_is_cut() -> None:
    body: Body = json.loads(read_capture(SEARXNG))
    body.update(results=[], infoboxes=[], answers=[])
    body["unresponsive_engines"] = [[f"engine{n}", "R" * 5_000] for n in range(200)]
    result = await _failed(200, json.dumps(body), "application/json")
    error = result.error or ""
    head = "SearXNG returned no usable results; upstream engines failed: engine0: RRR"
    assert error.startswith(head)  # the reference's text, its list cut
    assert utf16_len(error) == MESSAGE_LIMIT and error.endswith("R…" + ERROR_CUT_MARK)
    assert [utf16_len(failure.error) for failure in result.failures] == [MESSAGE_LIMIT]
    assert result.failures[0].error.endswith("R…" + ERROR_CUT_MARK)
    assert result.text.endswith("R…" + ERROR_CUT_MARK)  # said once, where the cut is
    assert result.text.count("[Error text cut") == 1
    assert all(utf16_len(a.detail or "") <= MESSAGE_LIMIT for a in result.response.attempts)
    assert len(result.text) < MESSAGE_LIMIT + 1_000
    assert len(json_text(search_json(result))) < 4 * MESSAGE_LIMIT  # 3 MB before


async def test_the_cut_is_said_in_the_provider_s_clause_of_the_spec_s_line() -> None:
    """Two providers failing: the mark ends SearXNG's clause; the core's words stay whole.

    The spec's line is ``All web search providers failed: <provider/error>; ...``: only
    the text SearXNG sent is cut and marked, the head and the other provider's clause
    after it are as the core writes them (before, the clause ended ``R…`` alone).
    """
    body: Body = json.loads(read_capture(SEARXNG))
    body.update(results=[], infoboxes=[], answers=[])
    body["unresponsive_engines"] = [[f"engine{n}", "R" * 5_000] for n in range(200)]
    async with Simulator(["searxng", "duckduckgo"]) as sim:
        sim["searxng"].always(
            Fault.http(200, json.dumps(body), {"Content-Type": "application/json"})
        )
        sim["duckduckgo"].always(Fault.http(500, "down", {"Content-Type": "text/plain"}))
        settings = sim.settings(rate_limit_wait_seconds=0, cache=False)
        async with WebSearch(settings) as search:
            result = await search.run("python asyncio")
    error = result.error or ""
    assert error.startswith("All web search providers failed: "), error[:200]
    by_provider = {failure.provider: failure.error for failure in result.failures}
    assert set(by_provider) == {"searxng", "duckduckgo"}
    cut = by_provider["searxng"]
    assert utf16_len(cut) == MESSAGE_LIMIT and cut.endswith("R…" + ERROR_CUT_MARK)
    assert f"searxng: {cut}" in error  # the mark inside SearXNG's clause
    assert f"duckduckgo: {by_provider['duckduckgo'].removesuffix('.')}" in error
    assert "[Error text cut" not in by_provider["duckduckgo"]
    assert error.count("[Error text cut") == 1


async def test_an_http_error_s_whole_body_head_is_still_quoted() -> None:
    """A guard: the 8 KiB head an HTTP error quotes is never cut (passes before and after)."""
    result = await _failed(400, "B" * 9_000, "text/plain")
    assert result.error == "SearXNG API error (400): " + "B" * 8_192


async def test_the_log_line_naming_engines_that_did_not_answer_is_cut(
    caplog: pytest.LogCaptureFixture,
) -> None:
    body: Body = json.loads(read_capture(SEARXNG))
    body["unresponsive_engines"] = [[f"engine{n}", "R" * 5_000] for n in range(200)]
    with caplog.at_level(logging.WARNING, logger="websearch_core.providers.searxng"):
        async with Simulator(["searxng"]) as sim:
            served = json.dumps(body)
            sim["searxng"].always(Fault.http(200, served, {"Content-Type": "application/json"}))
            settings = sim.settings(provider="searxng", rate_limit_wait_seconds=0, cache=False)
            async with WebSearch(settings) as search:
                await search.run("python asyncio")
    lines = [r.getMessage() for r in caplog.records if "answered without" in r.getMessage()]
    assert len(lines) == 1
    assert lines[0].startswith("SearXNG answered without these engines: engine0: RRR")
    assert utf16_len(lines[0]) == MESSAGE_LIMIT  # 1,002,000 characters before
    assert lines[0].endswith("R… [Warning cut: longer than 10,000 characters.]")
