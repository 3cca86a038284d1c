"""The Public Web aggregate: each engine's results are filtered before they are merged."""

from collections.abc import AsyncIterator
from urllib.parse import unquote_plus

import pytest

from websearch_core import WebSearch
from websearch_core.providers import PROVIDER_REGISTRY
from websearch_core.providers.public import ENGINE_ORDER
from websearch_core.testing import PROTOCOLS, SimResult, Simulator
from websearch_core.testing.faults import Fault

ENGINES = [eid for eid in ENGINE_ORDER if eid in PROVIDER_REGISTRY and eid in PROTOCOLS]
UNSIMULATED = tuple(eid for eid in ENGINE_ORDER if eid in PROVIDER_REGISTRY and eid not in ENGINES)
PAGES = [
    SimResult("Laravel", "https://github.com/laravel/laravel", "The PHP framework."),
    SimResult("Laravel guide", "https://builtin.com/laravel", "A guide."),
    SimResult("Laravel framework", "https://github.com/laravel/framework", "The core."),
]


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    async with Simulator(ENGINES) as simulator:
        for engine_id in ENGINES:
            simulator[engine_id].results = list(PAGES)
        yield simulator


async def test_each_engine_gets_the_site_and_the_merge_keeps_only_that_site(
    sim: Simulator,
) -> None:
    async with WebSearch(sim.settings(exclude=UNSIMULATED)) as ws:
        result = await ws.run("laravel site:github.com", provider="public", use_cache=False)
    assert result.error is None, result.error
    response = result.response
    assert [s.url for s in response.sources] == [PAGES[0].url, PAGES[2].url]
    # Every engine voted for both github.com pages; builtin.com was dropped before merging.
    for source in response.sources:
        assert [rank.engine for rank in source.engines] == ENGINES
    for engine_id in ENGINES:
        sent = " ".join(
            unquote_plus(f"{request.path} {request.query} {request.body.decode()}")
            for request in sim[engine_id].requests
        )
        assert "site:github.com" in sent, engine_id
    (record,) = response.filters
    assert (record.name, record.value, record.applied) == (
        "include_domains",
        "github.com",
        ("query", "post"),
    )


async def test_a_filter_only_some_engines_apply_is_reported_as_partly_ignored(
    sim: Simulator,
) -> None:
    # Bing, Yahoo, Startpage, Ecosia and Mojeek take no language; DuckDuckGo and Google do.
    async with WebSearch(sim.settings(exclude=UNSIMULATED)) as ws:
        result = await ws.run("laravel", provider="public", language="de", use_cache=False)
    assert result.error is None, result.error
    (record,) = result.response.filters
    assert (record.name, record.applied) == ("language", ("native", "ignored"))
    ignoring = [eid for eid in ENGINES if eid not in ("duckduckgo", "google")]
    assert record.unapplied_by == tuple(ignoring)
    # The engines that never saw it are named (the language was not "unchecked").
    assert f"Filters not applied: language=de (not applied by {', '.join(ignoring)})." in (
        result.text
    )


async def test_an_engine_whose_region_falls_back_is_named_not_counted_as_applying(
    sim: Simulator,
) -> None:
    """DuckDuckGo has no Afrikaans region (``kl`` falls back to ``us-en``): with only it
    and Google asked, the record said ``native`` though DuckDuckGo's half never had the
    language. Now it reads applied by one engine, and names the other."""
    others = tuple(eid for eid in ENGINES if eid not in ("duckduckgo", "google"))
    async with WebSearch(sim.settings(exclude=UNSIMULATED + others)) as ws:
        result = await ws.run("laravel", provider="public", language="af", use_cache=False)
    assert result.error is None, result.error
    assert [dict(request.form())["kl"] for request in sim["duckduckgo"].requests] == ["us-en"]
    (record,) = result.response.filters
    assert (record.applied, record.unapplied_by) == (("native", "ignored"), ("duckduckgo",))
    assert "Filters not applied: language=af (not applied by duckduckgo)." in result.text
    # The JSON names them too; a record without such engines keeps its old keys.
    (dumped,) = result.response.model_dump(mode="json")["filters"]
    assert dumped["unapplied_by"] == ["duckduckgo"]


async def test_a_filter_every_answering_engine_applies_stays_native(sim: Simulator) -> None:
    # Only the engines that send the language upstream are asked.
    takes_language = ("duckduckgo", "google")
    others = tuple(eid for eid in ENGINES if eid not in takes_language)
    async with WebSearch(sim.settings(exclude=UNSIMULATED + others)) as ws:
        result = await ws.run("laravel", provider="public", language="de", use_cache=False)
    assert result.error is None, result.error
    (record,) = result.response.filters
    assert (record.name, record.applied) == ("language", ("native",))
    assert "Filters not applied" not in result.text


async def test_a_filter_every_engine_ignored_is_ignored(sim: Simulator) -> None:
    ignoring = ("bing", "mojeek")
    others = tuple(eid for eid in ENGINES if eid not in ignoring)
    async with WebSearch(sim.settings(exclude=UNSIMULATED + others)) as ws:
        result = await ws.run("laravel", provider="public", language="de", use_cache=False)
    assert result.error is None, result.error
    (record,) = result.response.filters
    assert (record.name, record.applied) == ("language", ("ignored",))
    assert "Filters not applied: language=de." in result.text


async def test_a_lang_directive_a_passed_language_replaced_is_named_in_the_note(
    sim: Simulator,
) -> None:
    """``language=fr`` wins over the model's ``lang:de``: the model is told, in the one
    line about filters not applied, that its directive was dropped and for what."""
    takes_language = ("duckduckgo", "google")
    others = tuple(eid for eid in ENGINES if eid not in takes_language)
    async with WebSearch(sim.settings(exclude=UNSIMULATED + others)) as ws:
        result = await ws.run("laravel lang:de", provider="public", language="fr", use_cache=False)
    assert result.error is None, result.error
    record = [(f.name, f.value, f.applied) for f in result.response.filters]
    assert record == [("language", "fr", ("native",)), ("language", "de", ("ignored",))]
    assert "Filters not applied: language=de (language=fr used instead)." in result.text


async def test_an_engine_that_found_nothing_does_not_weaken_the_record(sim: Simulator) -> None:
    for eid in ENGINES:
        if eid not in ("duckduckgo", "google"):
            sim[eid].results = []
    async with WebSearch(sim.settings(exclude=UNSIMULATED)) as ws:
        result = await ws.run("laravel", provider="public", language="de", use_cache=False)
    assert result.error is None, result.error
    (record,) = result.response.filters
    assert record.applied == ("native",)


OFF_SITE = [
    SimResult("Laravel guide", "https://builtin.com/laravel", "A guide."),
    SimResult("Laravel news", "https://laravel-news.com/", "News."),
]


@pytest.mark.parametrize(
    ("query", "fields", "names"),
    [
        ("laravel site:github.com", {}, "include_domains"),
        ("laravel", {"include_domains": ["github.com"]}, "include_domains"),
        ("laravel -site:builtin.com -site:laravel-news.com", {}, "exclude_domains"),
    ],
)
async def test_results_every_engine_dropped_for_the_filters_say_so(
    sim: Simulator, query: str, fields: dict[str, list[str]], names: str
) -> None:
    # Every engine found results and its own check dropped them all before the merge:
    # before, the empty merge read "Public Web returned no renderable search content.",
    # though a single engine so filtered says "no results matching the filters".
    for engine_id in ENGINES:
        sim[engine_id].results = list(OFF_SITE)
        sim[engine_id].honour_operators = False  # every engine leaks off the site
    async with WebSearch(sim.settings(exclude=UNSIMULATED)) as ws:
        result = await ws.run(query, provider="public", use_cache=False, **fields)
    # Each engine's check dropped both of its results: counted engine by engine.
    dropped = f"{names} dropped {len(OFF_SITE) * len(ENGINES)}"
    assert result.error == f"Public Web returned no results matching the filters ({dropped})."
    (attempt,) = result.response.attempts
    assert (attempt.provider, attempt.outcome, attempt.status) == ("public", "failed", 204)
    assert attempt.detail == result.error
    for engine_id in ENGINES:
        assert sim[engine_id].requests, engine_id  # each engine was asked and answered


async def test_dropped_results_beside_engines_that_failed_or_found_nothing_name_the_filters(
    sim: Simulator,
) -> None:
    # One engine's results all fail the site, one finds nothing, the rest fail: the filters
    # are why Public Web has nothing, and the engines that did not answer follow as ever.
    found, empty, *failing = ENGINES
    sim[found].results = list(OFF_SITE)
    sim[found].honour_operators = False  # its answer leaks off the site
    sim[empty].results = []
    for engine_id in failing:
        sim[engine_id].always(Fault.http(503, "down"))
    async with WebSearch(sim.settings(exclude=UNSIMULATED)) as ws:
        result = await ws.run("laravel site:github.com", provider="public", use_cache=False)
    assert result.error == (
        "Public Web returned no results matching the filters (include_domains dropped "
        f"{len(OFF_SITE)}). Engines that did not answer: {', '.join(failing)}: failed (HTTP 503)."
    )
    assert result.response.attempts[0].status == 204


async def test_engines_that_found_nothing_still_say_no_renderable_content(
    sim: Simulator,
) -> None:
    # The filters' text only when results were found and dropped: a search with a filter
    # whose engines found nothing at all is the empty answer it always was.
    for engine_id in ENGINES:
        sim[engine_id].results = []
    async with WebSearch(sim.settings(exclude=UNSIMULATED)) as ws:
        result = await ws.run("laravel site:github.com", provider="public", use_cache=False)
    assert result.error == "Public Web returned no renderable search content."
    assert result.response.attempts[0].status == 204


async def test_each_site_value_is_recorded_apart(sim: Simulator) -> None:
    """A guard (passes before and after): ``site:a site:b -site:c`` reads one record per
    value, each with the ways every engine used for it. The engines' records were merged
    by name (one record of the first site holding both sites' ways), which stood only as
    long as every value of a filter went the same way in each engine."""
    query = "laravel site:github.com site:builtin.com -site:github.com/laravel/framework"
    async with WebSearch(sim.settings(exclude=UNSIMULATED)) as ws:
        result = await ws.run(query, provider="public", use_cache=False)
    assert result.error is None, result.error
    assert [s.url for s in result.response.sources] == [PAGES[0].url, PAGES[1].url]
    assert [(f.name, f.value, f.applied) for f in result.response.filters] == [
        ("include_domains", "github.com", ("query", "post")),
        ("include_domains", "builtin.com", ("query", "post")),
        ("exclude_domains", "github.com/laravel/framework", ("query", "post")),
    ]
