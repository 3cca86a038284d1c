"""The result cache's scope: what makes two searches the same search."""

from pathlib import Path

from websearch_core import WebSearch
from websearch_core.cache import settings_scope
from websearch_core.settings import Settings
from websearch_core.testing import Simulator


async def test_configurations_sharing_a_store_do_not_share_answers(tmp_path: Path) -> None:
    async with Simulator(["searxng"]) as sim:

        def client(**searxng: object) -> WebSearch:
            endpoint = {"endpoint": sim["searxng"].base_url, **searxng}
            return WebSearch(
                sim.settings(state_backend="sqlite", state_dir=tmp_path, searxng=endpoint)
            )

        async with client(safesearch=0) as ws:
            first = await ws.run("python")
        async with client(safesearch=0) as ws:
            again = await ws.run("python")
        async with client(safesearch=2) as ws:  # strict must never be served the unfiltered
            strict = await ws.run("python")
        requests = sim["searxng"].requests
    assert (first.response.cached, again.response.cached, strict.response.cached) == (
        False,
        True,
        False,
    )
    assert [request.query_dict()["safesearch"] for request in requests] == ["0", "2"]


def test_the_settings_scope_follows_what_changes_results_not_credentials() -> None:
    base = settings_scope(Settings())
    assert settings_scope(Settings()) == base
    for changed in (
        Settings(exclude=("google", "mojeek")),  # which engines the aggregate asks
        Settings(gemini_model="gemini-2.5-pro"),
        Settings(base_urls={"brave": "http://127.0.0.1:8080"}),
        Settings(searxng={"endpoint": "https://searx.example", "language": "de"}),
        Settings(sign_in_gateways=("codex",)),  # which providers can run
    ):
        assert settings_scope(changed) != base, changed
    assert settings_scope(Settings(api_keys={"brave": "k-1"})) == base


async def test_case_and_spacing_share_an_answer_but_capital_operators_do_not() -> None:
    async with Simulator(["brave"]) as sim:
        async with WebSearch(sim.settings(api_keys={"brave": "k-1"})) as ws:
            first = await ws.run("Python  Java", provider="brave")
            folded = await ws.run("python java", provider="brave")
            either = await ws.run("python OR java", provider="brave")
            both = await ws.run("python or java", provider="brave")
        asked = [request.query_dict()["q"] for request in sim["brave"].requests]
    assert [r.response.cached for r in (first, folded, either, both)] == [
        False,
        True,
        False,
        False,
    ]
    # Brave reads OR, so the group goes out as the behaviour reference writes it (6.3).
    assert asked == ["Python  Java", "(python OR java)", "python or java"]
