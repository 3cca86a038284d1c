"""A later page that fails keeps the first page, for each engine that reads a next page.

Startpage and Ecosia read a second page when more than ten results are asked (as DuckDuckGo
does, whose own file covers it); a reset, a 503 or a hang on that page must not lose the ten
already read. One test for both, so that an engine that starts paging is checked the same
way by adding a line to ``ENGINES``.
"""

import pytest

from tests.functional._sim_helpers import sim_client, simulator_fixture
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import default_results

QUERY = "javascript tutorial"
pytestmark = pytest.mark.usefixtures("no_browser_escalation")

sim = simulator_fixture("ecosia", "startpage")

ENGINES = {
    # engine: (requests answered before the second page, the path of a results page)
    "ecosia": (1, "/search"),
    "startpage": (2, "/sp/search"),  # the home page's form token, then the first page
}


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize(
    "fault",
    [Fault.reset(), Fault.http(503, "<p>busy</p>", {"Content-Type": "text/html"}), Fault.hang(3)],
    ids=["reset", "503", "hang"],
)
async def test_a_failed_later_page_keeps_the_first_page(
    sim: Simulator, engine: str, fault: Fault
) -> None:
    answered_before, results_path = ENGINES[engine]
    sim[engine].results = default_results(QUERY, 25)
    sim[engine].enqueue(*([None] * answered_before), fault)
    async with sim_client(sim, timeout_seconds=1.0) as ws:
        response = await ws.search(QUERY, provider=engine, limit=20)
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY, 10)]
    pages = [request for request in sim[engine].requests if request.path == results_path]
    assert len(pages) == 2
