"""A list given as one search's ``provider`` is refused in the settings' words.

Stop 50 (firstusers11) pointed ``WebSearch(provider=["brave", "duckduckgo"])`` to the
``providers`` setting, but ``run("q", provider=[...])`` and ``search`` still said
pydantic's ``Input should be a valid string`` alone. Now the per-search refusal is the
build's, error for error (its type, location and message), and no request is made. The
tools take no per-call ``provider`` (the model never chooses one) and the command's
``--provider`` is one word, so neither can be given a list.
"""

from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import ValidationError

from tests.functional._sim_helpers import sim_client
from websearch_core import WebSearch
from websearch_core.testing import Simulator


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave", "duckduckgo"]) as simulator:
        yield simulator


def _build_error(ids: Any) -> dict[str, Any]:
    with pytest.raises(ValidationError) as caught:
        WebSearch(provider=ids)
    (error,) = caught.value.errors(include_url=False, include_context=False)
    return dict(error)


@pytest.mark.parametrize(
    "ids", [["brave", "duckduckgo"], ("brave", "duckduckgo"), ["Brave"]], ids=repr
)
@pytest.mark.parametrize("call", ["run", "search"])
async def test_a_list_given_per_search_says_what_the_build_says(
    sim: Simulator, ids: Any, call: str
) -> None:
    async with sim_client(sim) as ws:
        with pytest.raises(ValidationError) as caught:
            await getattr(ws, call)("python asyncio", provider=ids)
    (error,) = caught.value.errors(include_url=False, include_context=False)
    assert dict(error) == _build_error(ids)
    assert "takes one provider id, not a list" in str(caught.value)
    assert not sim["brave"].requests and not sim["duckduckgo"].requests


async def test_a_list_beside_another_mistake_keeps_both(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        with pytest.raises(ValidationError) as caught:
            await ws.search("q", provider=["brave", "duckduckgo"], limt=3)
    by_place = {error["loc"]: error["msg"] for error in caught.value.errors()}
    assert "providers setting (providers=['brave', 'duckduckgo']" in by_place[("provider",)]
    assert by_place[("limt",)] == "not a search parameter; did you mean limit?"


@pytest.mark.parametrize("given", [5, ["brave", 5], {"brave": 1}], ids=repr)
async def test_guard_what_is_no_list_of_ids_keeps_pydantics_words(
    sim: Simulator, given: Any
) -> None:
    """Guard: a value that is no list of ids was, and is, pydantic's string error."""
    async with sim_client(sim) as ws:
        with pytest.raises(ValidationError) as caught:
            await ws.search("q", provider=given)
    (error,) = caught.value.errors()
    assert (error["type"], error["msg"]) == ("string_type", "Input should be a valid string")


async def test_guard_one_id_searches_that_provider(sim: Simulator) -> None:
    """Guard: ``provider="duckduckgo"`` (as the message says to write one) searches it."""
    async with sim_client(sim) as ws:
        found = await ws.search("python asyncio", provider="duckduckgo")
    assert found.provider == "duckduckgo"
    assert not sim["brave"].requests and sim["duckduckgo"].requests
