"""An ``OR`` a provider cannot read is said in the answer; a file type kept out is applied.

Stop 51 (inputs52) left two operators unrecorded. ``a OR b`` went as ``a b`` to the eight
providers the behaviour reference (6.5) gives no ``or`` flag (Z.AI, Kimi, Exa, TinyFish,
Jina, Tavily, Synthetic, Mojeek) and the answer said nothing: the model read results for
both words as results for either. ``-filetype:pdf`` was a plain word: Exa and Tavily were
sent it as search text (no operator there) and every PDF came back. Now an ``OR`` group is
the filter ``alternatives`` (``query`` where it goes as ``(a OR b)``, ``ignored`` where it
goes flat, named in ``Filters not applied``), and ``-filetype:`` is ``exclude_filetype``,
sent where ``filetype:`` is read and checked on the results' URLs elsewhere, as the wanted
``filetype:`` is (reference 6.6, ``excludedFiletypes``).
"""

from collections.abc import AsyncIterator

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core import WebSearch
from websearch_core.providers import PROVIDER_REGISTRY
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

_FLAT_OR = ("zai", "kimi", "exa", "tinyfish", "jina", "tavily", "synthetic", "mojeek")
_ALL = (*_FLAT_OR, "brave")


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(list(_ALL)) as simulator:
        for provider in _ALL:
            simulator[provider].honour_operators = False  # what we send and check counts
            simulator[provider].results = [
                SimResult("Page", "https://example.com/a", "Python and Rust tips."),
                SimResult("Paper", "https://example.com/r.PDF", "Python and Rust tips, printed."),
                SimResult("Elsewhere", "https://elsewhere.example/b", "More Python and Rust."),
            ]
        yield simulator


@pytest.mark.parametrize("provider", _FLAT_OR)
async def test_an_or_sent_flat_is_named_not_applied(sim: Simulator, provider: str) -> None:
    # Before: sent "python rust tips", no record, no note.
    async with sim_client(sim) as ws:
        result = await ws.run("python OR rust tips", provider=provider, use_cache=False)
    assert sim[provider].last_query() == "python rust tips"
    assert ("alternatives", "python OR rust", ("ignored",)) in [
        (f.name, f.value, f.applied) for f in result.response.filters
    ]
    assert "Filters not applied: alternatives=python OR rust." in result.text


async def test_an_or_sent_as_a_group_is_recorded_applied(sim: Simulator) -> None:
    # Before: the same query went, with no record of the group; no note either way.
    async with sim_client(sim) as ws:
        result = await ws.run('python | "rust lang" tips', provider="brave", use_cache=False)
    assert sim["brave"].last_query() == '(python OR "rust lang") tips'
    assert [(f.name, f.value, f.applied) for f in result.response.filters] == [
        ("phrase", "rust lang", ("query",)),
        ("alternatives", 'python OR "rust lang"', ("query",)),
    ]
    assert "Filters not applied" not in result.text


@pytest.mark.parametrize("typed", ["-filetype:pdf", "NOT filetype:PDF", "-ext:.pdf"])
@pytest.mark.parametrize("provider", ["exa", "tavily", "mojeek", "synthetic"])
async def test_a_file_type_kept_out_is_checked_not_searched_for(
    sim: Simulator, provider: str, typed: str
) -> None:
    # Before: sent "python rust <typed>" as words, and the PDF was kept.
    async with sim_client(sim) as ws:
        found = await ws.search(f"python rust {typed}", provider=provider)
    assert sim[provider].last_query() == "python rust"
    assert [source.title for source in found.sources] == ["Page", "Elsewhere"]
    assert [(f.name, f.value, f.applied) for f in found.filters] == [
        ("exclude_filetype", "pdf", ("post",))
    ]


@pytest.mark.parametrize(
    ("provider", "applied"), [("jina", ("query", "post")), ("zai", ("query", "post"))]
)
async def test_a_file_type_kept_out_is_sent_and_checked_where_unpromised(
    sim: Simulator, provider: str, applied: tuple[str, ...]
) -> None:
    # Before: sent the same word, the PDF kept and no record.
    async with sim_client(sim) as ws:
        found = await ws.search("-filetype:pdf python rust", provider=provider)
    assert sim[provider].last_query() == "python rust -filetype:pdf"
    assert [source.title for source in found.sources] == ["Page", "Elsewhere"]
    assert [(f.name, f.value, f.applied) for f in found.filters] == [
        ("exclude_filetype", "pdf", applied)
    ]


async def test_an_engine_that_reads_the_operator_is_sent_it_and_trusted(sim: Simulator) -> None:
    # Before: sent "python rust -filetype:pdf" with no record of the filter.
    async with sim_client(sim) as ws:
        found = await ws.search("python rust -filetype:pdf", provider="brave")
    assert sim["brave"].last_query() == "python rust -filetype:pdf"
    assert [(f.name, f.value, f.applied) for f in found.filters] == [
        ("exclude_filetype", "pdf", ("query",))
    ]


async def test_guard_a_file_type_of_no_one_extension_stays_the_word_typed(
    sim: Simulator,
) -> None:
    """Guard: ``-filetype:pdf,docx`` is no excluded type here; it goes as typed, unchecked."""
    async with sim_client(sim) as ws:
        found = await ws.search("python -filetype:pdf,docx", provider="tavily")
    assert sim["tavily"].last_query() == "python -filetype:pdf,docx"
    assert len(found.sources) == 3
    assert not found.filters


async def test_public_names_the_engine_that_got_the_or_flat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Before: Mojeek got "python rust", Bing "(python OR rust)", and the answer said nothing.
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    engines = ["bing", "mojeek"]
    async with Simulator(engines) as public_sim:
        for engine in engines:
            public_sim[engine].results = [
                SimResult("Page", f"https://{engine}.example/a", "Python and Rust tips.")
            ]
        others = tuple(pid for pid in PROVIDER_REGISTRY if pid not in (*engines, "public"))
        async with WebSearch(public_sim.settings(exclude=others)) as ws:
            result = await ws.run("python OR rust", provider="public", use_cache=False)
    assert result.error is None, result.error
    assert [public_sim[engine].last_query() for engine in engines] == [
        "(python OR rust)",
        "python rust",
    ]
    (record,) = result.response.filters
    assert (record.name, record.applied, record.unapplied_by) == (
        "alternatives",
        ("query", "ignored"),
        ("mojeek",),
    )
    assert "Filters not applied: alternatives=python OR rust (not applied by mojeek)." in (
        result.text
    )
