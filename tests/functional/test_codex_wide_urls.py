"""Codex's bare URLs end where a Chinese or Japanese reader sees them end.

When a Codex answer carries no ``url_citation``, its bare URLs are its sources. The URL
pattern stopped only at blanks and quotes, and Chinese and Japanese write no blank between
a URL and their text: ``https://example.org/p。``, ``https://example.org/pを参照`` and
``https://a.org/x，https://b.org/y`` each gave one source with the text in its address
(stop 57, filters60). Each case is the real Codex capture in ``../shared/fixtures/openai``
with its citations taken out and a sentence added, served by the loopback simulator.
"""

import json
from typing import Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import codex_sign_in, sim_client
from websearch_core import SearchResponse
from websearch_core.testing import Fault, Simulator

CAPTURE: Final = "openai/responses_web_search_verbatim_gpt4o_mini.json"
JSON: Final = {"Content-Type": "application/json"}


def _body(added: str) -> str:
    """The capture without its ``url_citation``s, ``added`` after its answer."""
    data = json.loads(read_capture(CAPTURE))
    part = data["output"][1]["content"][0]
    part["text"] += "\n\n" + added
    part["annotations"] = []
    return json.dumps(data)


async def _urls(added: str) -> list[str]:
    """The source URLs a Codex search reads from the capture's answer with ``added``."""
    async with Simulator(["codex"]) as sim:
        codex_sign_in(sim)
        sim["codex"].enqueue(Fault.http(200, _body(added), JSON))
        async with sim_client(sim) as ws:
            response = await ws.search("tokyo population", provider="codex", use_cache=False)
    return [source.url for source in response.sources]


async def _added_urls(added: str) -> list[str]:
    """The sources ``added`` gave: those after the capture's own."""
    plain = await _urls("")
    return (await _urls(added))[len(plain) :]


@pytest.mark.parametrize(
    ("added", "expected"),
    [
        ("数据详见https://example.org/p。", ["https://example.org/p"]),
        ("详情请见 https://example.org/p，其余略。", ["https://example.org/p"]),
        ("https://example.org/pを参照してください。", ["https://example.org/p"]),
        (
            "詳しくはhttps://example.org/docs/p?id=3をご覧ください",
            ["https://example.org/docs/p?id=3"],
        ),
        (
            "来源：https://a.org/x，https://b.org/y、https://c.org/z。",
            [
                "https://a.org/x",
                "https://b.org/y",
                "https://c.org/z",
            ],
        ),
        (
            "见（https://example.org/p）和【https://example.org/q】。",
            [
                "https://example.org/p",
                "https://example.org/q",
            ],
        ),
        ("参见https://example.org中的表格。", ["https://example.org"]),
        ("「https://example.org/p」を参照！", ["https://example.org/p"]),
        ("정보는https://example.org/p에서 확인하세요.", ["https://example.org/p"]),
    ],
    ids=[
        "full-stop",
        "comma",
        "wo-sanshou",
        "query",
        "list",
        "brackets",
        "host-only",
        "quoted",
        "korean",
    ],
)
async def test_a_bare_url_ends_at_wide_text(added: str, expected: list[str]) -> None:
    """Failed before: each source's address held the text run into it."""
    assert await _added_urls(added) == expected


@pytest.mark.parametrize(
    ("added", "expected"),
    [
        ("日本語のドメイン https://例え.jp/ もあります。", ["https://例え.jp/"]),
        (
            "维基百科：https://zh.wikipedia.org/wiki/东京 里有。",
            [
                "https://zh.wikipedia.org/wiki/东京",
            ],
        ),
        (
            "Percent-encoded: https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC today.",
            [
                "https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC",
            ],
        ),
        (
            "东京：https://zh.wikipedia.org/wiki/东京\u3000里有。",
            [
                "https://zh.wikipedia.org/wiki/东京",
            ],
        ),
    ],
    ids=["guard-idn-host", "guard-wide-path", "guard-percent-encoded", "guard-wide-space"],
)
async def test_addresses_written_wide_stay_whole(added: str, expected: list[str]) -> None:
    """Guards (held before): an IDN host, a path segment written in Chinese (as a browser
    shows it) and a percent-encoded one, each followed by a blank (the last an ideographic
    space, itself a wide character), read whole and no further."""
    assert await _added_urls(added) == expected


async def test_a_wide_path_ends_at_its_full_stop() -> None:
    """Failed before: ``。`` closing a sentence was read as the page name's last character."""
    assert await _added_urls("见https://zh.wikipedia.org/wiki/东京。") == [
        "https://zh.wikipedia.org/wiki/东京"
    ]


async def test_an_idn_host_ends_before_the_text_after_it() -> None:
    """Failed before: ``を参照`` ran on from the host's last label."""
    assert await _added_urls("https://例え.jpを参照。https://www.例え.jp中文") == [
        "https://例え.jp",
        "https://www.例え.jp",
    ]


async def _search(added: str, query: str = "tokyo population") -> SearchResponse:
    """A Codex search of the capture with ``added`` after its answer."""
    async with Simulator(["codex"]) as sim:
        codex_sign_in(sim)
        sim["codex"].enqueue(Fault.http(200, _body(added), JSON))
        async with sim_client(sim) as ws:
            return await ws.search(query, provider="codex", use_cache=False)


@pytest.mark.parametrize(
    ("added", "expected"),
    [
        ("见https://example.org/abc日本/x。", "https://example.org/abc日本/x"),
        ("见https://www.abc日本.jp/p。", "https://www.abc日本.jp/p"),
        ("见https://example.org/p?q=abc日本&x=1。", "https://example.org/p?q=abc日本&x=1"),
    ],
    ids=["path", "host", "query"],
)
async def test_a_segment_mixing_ascii_and_wide_letters_stays_whole(
    added: str, expected: str
) -> None:
    """Failed before (stop 58, filters61): the wide part and all after it were cut off
    (``https://example.org/abc``, ``https://www.abc``); the address goes on in ASCII after
    the wide run, so the run was the address's."""
    assert await _added_urls(added) == [expected]


async def test_a_wide_run_ending_a_mixed_segment_is_text() -> None:
    """A guard (held before): ``https://www.例え.jp中文`` (above) and ``/pを参照`` read the
    same way; a wide run the address does not go on after stays the text's."""
    assert await _added_urls("https://example.org/abc日本 とある。") == ["https://example.org/abc"]


async def test_a_link_target_closing_with_a_full_stop_names_the_page() -> None:
    """Failed before (stop 58, filters61): ``[表格](https://example.org/p。)`` made the
    source ``https://example.org/p。``, a page no one wrote."""
    plain = {source.url for source in (await _search("")).sources}
    response = await _search("详见[表格](https://example.org/p。)。")
    assert [s.url for s in response.sources if s.url not in plain] == ["https://example.org/p"]


async def test_a_link_to_a_page_cut_goes_though_its_target_closes_with_a_full_stop() -> None:
    """A guard (held before, when the source kept the ``。``): ``-site:`` of the page takes
    the link out of the answer, the parser now reading its target without the mark."""
    response = await _search(
        "数据很多（[表格](https://example.org/p。)）。", "tokyo -site:example.org"
    )
    assert "example.org" not in response.answer
    assert response.answer.endswith("\n\n数据很多（表格）。")  # a link's words stay
