"""A Gemini model that refuses the time filter still answers, against the loopback simulator.

The simulator's ``refuses_time_filter`` makes the Developer API answer a
``timeRangeFilter`` with Google's ``400 INVALID_ARGUMENT`` naming the field, as a model or
route that does not take it would. The search is then sent once more with the dates in the
question (as with a sign-in), and the process sends that model the question form at once
from then on (:mod:`websearch_core.providers._gemini_time_refusal`).
"""

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.functional._sim_helpers import gemini_protocol, sim_client
from websearch_core.errors import AllProvidersFailedError, ProviderTimeoutError
from websearch_core.providers._gemini_time_refusal import forget_refusals
from websearch_core.testing import Fault, Simulator

QUERY = "python asyncio"
DEFAULT = "gemini-3.5-flash-lite"
DATED = f"{QUERY} after:2025-01-01 before:2025-03-31"


@pytest.fixture(autouse=True)
def _clean_state(no_gemini_variables: None) -> Iterator[None]:
    forget_refusals()
    yield
    forget_refusals()  # the memory is the process's: no other test may inherit it


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["gemini"]) as simulator:
        gemini_protocol(simulator).refuses_time_filter.add(DEFAULT)
        yield simulator


def _tools(sim: Simulator, index: int) -> Any:
    return sim["gemini"].requests[index].json()["tools"]


def _question(sim: Simulator, index: int) -> str:
    return sim["gemini"].protocol.query_of(sim["gemini"].requests[index])


async def test_refused_filter_is_resent_once_with_the_dates_in_the_question(
    sim: Simulator,
) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(DATED, provider="gemini")

    first, second = sim["gemini"].requests  # one extra request, no more
    assert "timeRangeFilter" in first.json()["tools"][0]["google_search"]
    assert _question(sim, 0) == QUERY
    assert second.json()["tools"] == [{"google_search": {}}]
    assert _question(sim, 1) == DATED
    assert response.answer is not None and response.sources
    (note,) = response.notes
    assert DEFAULT in note and "timeRangeFilter" in note


async def test_refused_recency_answers_and_is_recorded_as_ignored(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini", recency="year")

    assert len(sim["gemini"].requests) == 2
    assert _tools(sim, 1) == [{"google_search": {}}]
    assert _question(sim, 1) == QUERY
    assert response.answer is not None
    assert {f.name: f.applied for f in response.filters} == {"recency": ("ignored",)}


async def test_later_searches_skip_straight_to_the_question_form(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.search(f"{QUERY} one", provider="gemini", recency="week")
    async with sim_client(sim) as ws:  # another client of the same process
        response = await ws.search(f"{QUERY} two after:2025-01-01", provider="gemini")

    assert len(sim["gemini"].requests) == 3  # the second search: one request
    assert _tools(sim, 2) == [{"google_search": {}}]
    assert _question(sim, 2) == f"{QUERY} two after:2025-01-01"
    assert response.notes == ()
    assert {f.name: f.applied for f in response.filters} == {"date_after": ("query",)}


async def test_the_memory_is_per_model(sim: Simulator, monkeypatch: pytest.MonkeyPatch) -> None:
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="gemini", recency="week")
    monkeypatch.setenv("GEMINI_SEARCH_MODEL", "gemini-3.5-flash")
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini", recency="week")

    assert len(sim["gemini"].requests) == 3
    assert sim["gemini"].requests[2].path.endswith("/gemini-3.5-flash:streamGenerateContent")
    assert "timeRangeFilter" in _tools(sim, 2)[0]["google_search"]
    assert {f.name: f.applied for f in response.filters} == {"recency": ("native",)}


async def test_the_resend_keeps_to_the_attempts_deadline(sim: Simulator) -> None:
    sim["gemini"].enqueue(None, Fault.hang(seconds=30))  # refused at once, then no answer
    async with sim_client(sim, timeout_seconds=3) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini", recency="month")

    (failure,) = caught.value.failures
    assert isinstance(failure, ProviderTimeoutError)
    assert failure.message == "Gemini search timed out after 3s"
    assert len(sim["gemini"].requests) == 2


def _google_error(message: str) -> str:
    return json.dumps({"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}})


async def test_guard_another_400_stands_as_before(sim: Simulator) -> None:
    """A guard (it passes before the change too): only a 400 naming the field is resent."""
    sim["gemini"].enqueue(Fault.http(400, _google_error("Request contains an invalid argument.")))
    async with sim_client(sim) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini", recency="week")

    (failure,) = caught.value.failures
    assert (failure.status, failure.message) == (
        400,
        "Gemini Developer API error (400): Request contains an invalid argument.",
    )
    assert len(sim["gemini"].requests) == 1


async def test_guard_a_400_naming_the_field_unsent_stands(sim: Simulator) -> None:
    """A guard (it passes before the change too): no filter sent, nothing to leave out."""
    message = "Unknown name \"timeRangeFilter\" at 'tools[0].google_search'"
    sim["gemini"].enqueue(Fault.http(400, _google_error(message)))
    async with sim_client(sim) as ws:
        with pytest.raises(AllProvidersFailedError):
            await ws.search(QUERY, provider="gemini")

    assert len(sim["gemini"].requests) == 1


BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"


def _violation_error(field: str, *, as_array: bool) -> str:
    """Google's 400 saying only "invalid argument", the field named in its details.

    The shape of Google's error model (``google.rpc.BadRequest`` with ``fieldViolations``
    of ``field`` and ``description``), as Gemini's 400s carry it; a stream's error arrives
    as a one-element array.
    """
    error = {
        "error": {
            "code": 400,
            "message": "Request contains an invalid argument.",
            "status": "INVALID_ARGUMENT",
            "details": [
                {
                    "@type": BAD_REQUEST,
                    "fieldViolations": [{"field": field, "description": "Invalid value."}],
                }
            ],
        }
    }
    return json.dumps([error] if as_array else error)


@pytest.mark.parametrize("as_array", [False, True])
async def test_a_refusal_naming_the_field_only_in_its_details_is_resent(
    sim: Simulator, as_array: bool
) -> None:
    # The message says nothing of its cause; the field violation names the time filter.
    # That is the refusal the resend exists for, not a guess about a bare 400.
    field = "tools[0].google_search.time_range_filter"
    sim["gemini"].enqueue(Fault.http(400, _violation_error(field, as_array=as_array)))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini", recency="week")

    assert len(sim["gemini"].requests) == 2
    assert _tools(sim, 1) == [{"google_search": {}}]
    assert response.answer is not None and response.sources
    (note,) = response.notes
    assert "timeRangeFilter" in note


async def test_guard_a_bare_400_whose_details_name_another_field_stands(sim: Simulator) -> None:
    """A guard (it passes before the change too): the details name something else."""
    error = _violation_error("contents[0].parts[0].text", as_array=False)
    sim["gemini"].enqueue(Fault.http(400, error))
    async with sim_client(sim) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini", recency="week")

    (failure,) = caught.value.failures
    assert failure.status == 400
    assert len(sim["gemini"].requests) == 1


@pytest.mark.parametrize("as_array", [False, True])
async def test_guard_a_refusal_naming_the_field_only_in_its_message_is_resent(
    sim: Simulator, as_array: bool
) -> None:
    """A guard (it passes before this stop too): no ``details``, the message alone names
    the field, in Google's unknown-field wording, as an object or a stream's one-element
    array. The brief's item 5 asked for this; it was already read (``error_text``)."""
    message = (
        'Invalid JSON payload received. Unknown name "timeRangeFilter" at '
        "'tools[0].google_search': Cannot find field."
    )
    error = json.loads(_google_error(message))
    sim["gemini"].enqueue(Fault.http(400, json.dumps([error] if as_array else error)))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini", recency="week")

    assert len(sim["gemini"].requests) == 2
    assert _tools(sim, 1) == [{"google_search": {}}]
    assert response.answer is not None
    (note,) = response.notes
    assert "timeRangeFilter" in note


SPAN_IN_WORDS = [
    pytest.param("The time range cannot exceed 24 hours for this model.", id="time-range"),
    pytest.param("startTime and endTime must be at most 24 hours apart.", id="start-end"),
    pytest.param("Search span cannot exceed 24 hours.", id="span-hours"),
]
"""Refusals of the span in words, the field unnamed. No Google body of this kind is captured
or quoted anywhere (stop 45): the wording is modelled on a gateway's page ("for Gemini 3
models the span cannot exceed 24 hours", doc.surgeai.one/8294134m0)."""


@pytest.mark.parametrize("message", SPAN_IN_WORDS)
async def test_a_span_refused_in_words_is_resent_and_the_note_names_the_field(
    sim: Simulator, message: str
) -> None:
    """Failed before: the 400 named no field, so it stood, the attempt failed and the
    chain moved on; the search is now sent once more with the dates in the question."""
    sim["gemini"].enqueue(Fault.http(400, _google_error(message)))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini", recency="day")

    assert len(sim["gemini"].requests) == 2
    assert "timeRangeFilter" in _tools(sim, 0)[0]["google_search"]
    assert _tools(sim, 1) == [{"google_search": {}}]
    assert response.answer is not None
    (note,) = response.notes
    assert "google_search.timeRangeFilter" in note


async def test_guard_a_span_worded_400_to_a_request_without_the_filter_stands(
    sim: Simulator,
) -> None:
    """A guard (it passes before the change too): words about a time range answer a request
    that sent no time filter, so there is nothing to leave out: the 400 stands."""
    sim["gemini"].enqueue(Fault.http(400, _google_error("The time range cannot exceed 24 hours.")))
    async with sim_client(sim) as ws:
        with pytest.raises(AllProvidersFailedError):
            await ws.search(QUERY, provider="gemini")

    assert len(sim["gemini"].requests) == 1
