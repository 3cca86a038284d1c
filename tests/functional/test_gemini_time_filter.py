"""Gemini's time filter against the loopback simulator: sent with a key, never with a sign-in.

Google documents ``google_search.timeRangeFilter`` (``startTime``, ``endTime``: RFC 3339,
both or neither, start not after end) for the Gemini API and not for Vertex AI, whose
request shape Cloud Code Assist takes (:mod:`websearch_core.providers._gemini_filters`).
The simulator checks the field as documented and, with ``honour_dates`` on, leaves out
the results outside the window, as the real search would.
"""

import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import pytest

from tests.functional._sim_helpers import credential_store, gemini_protocol, simulator_fixture
from websearch_core import WebSearch
from websearch_core.credentials import OAuthToken
from websearch_core.testing import SimResult, Simulator

QUERY = "python asyncio"
DEV_PATH = "/v1beta/models/gemini-3.5-flash-lite:streamGenerateContent"
CA_PATH = "/v1internal:streamGenerateContent"


pytestmark = pytest.mark.usefixtures("no_gemini_variables")


sim = simulator_fixture("gemini")


def _dated(now: datetime, *ages: int) -> list[SimResult]:
    return [
        SimResult(
            title=f"{age} days old",
            url=f"https://d{age}.example.org/",
            snippet=f"Page {age}.",
            published=(now - timedelta(days=age)).isoformat(),
        )
        for age in ages
    ]


def _parsed(stamp: str) -> datetime:
    assert stamp.endswith("Z") and len(stamp) == len("2026-01-01T00:00:00Z"), stamp
    return datetime.fromisoformat(stamp.removesuffix("Z") + "+00:00")


async def test_recency_goes_as_the_time_range_filter_with_a_key(sim: Simulator) -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    sim["gemini"].honour_dates = True
    sim["gemini"].results = _dated(before, 2, 20)
    async with WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws:
        response = await ws.search(QUERY, provider="gemini", recency="week")
    after = datetime.now(UTC)

    (tool,) = gemini_protocol(sim).search_tools
    window = tool["timeRangeFilter"]
    start, end = _parsed(window["startTime"]), _parsed(window["endTime"])
    assert end - start == timedelta(days=7)
    assert before <= end <= after
    assert sim["gemini"].protocol.query_of(sim["gemini"].requests[0]) == QUERY
    assert [s.url for s in response.sources] == ["https://d2.example.org/"]
    (record,) = response.filters
    assert (record.name, record.applied) == ("recency", ("native",))


async def test_date_directives_leave_the_question_and_go_as_the_window(sim: Simulator) -> None:
    async with WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws:
        response = await ws.search(f"{QUERY} after:2025-01-01 before:2025-03-31", provider="gemini")

    (request,) = sim["gemini"].requests
    assert request.json()["tools"] == [
        {
            "google_search": {
                # before: names a day asked for; the Interval's end is exclusive.
                "timeRangeFilter": {
                    "startTime": "2025-01-01T00:00:00Z",
                    "endTime": "2025-04-01T00:00:00Z",
                }
            }
        }
    ]
    assert sim["gemini"].protocol.query_of(request) == QUERY
    assert {f.name: f.applied for f in response.filters} == {
        "date_after": ("native",),
        "date_before": ("native",),
    }


async def test_guard_oauth_keeps_dates_in_the_question_and_sends_no_window(
    sim: Simulator,
) -> None:
    """A guard (it passes before the change too): Cloud Code keeps today's behaviour."""
    credential_store(sim).set_oauth(
        "gemini", OAuthToken(access_token="ya29.token", expires_at=time.time() + 3600)
    )
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        response = await ws.search(f"{QUERY} after:2025-01-01", provider="gemini", recency="week")

    call = sim["gemini"].requests[-1]
    assert call.path == CA_PATH
    assert call.json()["request"]["tools"] == [{"google_search": {}}]
    assert sim["gemini"].protocol.query_of(call) == f"{QUERY} after:2025-01-01"
    assert {f.name: f.applied for f in response.filters} == {
        "date_after": ("query",),
        "recency": ("ignored",),
    }
    assert response.auth_mode == "oauth"


def _body(search: Any) -> dict[str, Any]:
    return {
        "contents": [{"role": "user", "parts": [{"text": QUERY}]}],
        "tools": [{"google_search": search}],
    }


async def _post(sim: Simulator, path: str, body: dict[str, Any], **headers: str) -> int:
    url = f"{sim['gemini'].base_url}{path}?alt=sse"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=json.dumps(body), headers=headers) as reply,
    ):
        await reply.read()
        return reply.status


_GOOD = {"startTime": "2025-01-01T00:00:00Z", "endTime": "2025-04-01T00:00:00.5+02:00"}


@pytest.mark.parametrize(
    "search",
    [
        pytest.param({"timeRangeFilter": {**_GOOD, "endTime": "2024-12-31T23:59:59Z"}}, id="end"),
        pytest.param({"timeRangeFilter": {"startTime": _GOOD["startTime"]}}, id="start-alone"),
        pytest.param({"timeRangeFilter": {"endTime": _GOOD["endTime"]}}, id="end-alone"),
        pytest.param({"timeRangeFilter": {**_GOOD, "startTime": "2025-01-01"}}, id="date-only"),
        pytest.param({"timeRangeFilter": {**_GOOD, "startTime": 1735689600}}, id="number"),
        pytest.param({"timeRangeFilter": {**_GOOD, "start": "x"}}, id="unknown-key"),
        pytest.param({"timeRangeFilter": "past week"}, id="not-an-object"),
        pytest.param({"excludeDomains": ["a.com"]}, id="vertex-only-field"),
    ],
)
async def test_the_developer_api_refuses_a_wrong_search_tool(sim: Simulator, search: Any) -> None:
    status = await _post(sim, DEV_PATH, _body(search), **{"x-goog-api-key": "k"})
    assert status == 400


async def test_guard_the_developer_api_takes_a_documented_window(sim: Simulator) -> None:
    """A guard (it passes before the change too): the checks refuse only what is wrong."""
    status = await _post(
        sim, DEV_PATH, _body({"timeRangeFilter": _GOOD}), **{"x-goog-api-key": "k"}
    )
    assert status == 200


async def test_cloud_code_refuses_a_time_filter(sim: Simulator) -> None:
    body = {"project": "p", "model": "m", "request": _body({"timeRangeFilter": _GOOD})}
    assert await _post(sim, CA_PATH, body, Authorization="Bearer t") == 400
    body["request"] = _body({})
    assert await _post(sim, CA_PATH, body, Authorization="Bearer t") == 200
