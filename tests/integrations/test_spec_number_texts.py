"""The spec's ``web_search`` refuses a number given as text in the words ``WebSearch.run`` uses.

``WebSearchToolSpec().web_search("q", limit="5")`` (the spec's function called directly, or
handed to another framework's tool builder) said pydantic's ``Input should be a valid
integer`` alone, where ``WebSearch().run("q", limit="5")`` says what was given and what to
write. No request is sent either way.
"""

from typing import Any

import pytest
from pydantic import ValidationError

from llamaindex_websearch import WebSearchToolSpec
from websearch_core import WebSearch
from websearch_core.testing import Simulator

from ._helpers import sim_settings

GIVEN = [{"limit": "5"}, {"temperature": "0.5"}, {"max_tokens": 100.0}, {"limit": True}]


@pytest.mark.parametrize("given", GIVEN, ids=lambda given: next(iter(given)))
async def test_the_spec_says_what_run_says(sim: Simulator, given: dict[str, Any]) -> None:
    options: dict[str, Any] = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    spec = WebSearchToolSpec(**options)
    async with WebSearch(**options) as ws:
        with pytest.raises(ValidationError) as said_by_run:
            await ws.run("python", **given)
    with pytest.raises(ValidationError) as said_by_spec:
        await spec.aweb_search("python", **given)
    with pytest.raises(ValidationError) as said_sync:
        spec.web_search("python", **given)
    assert ", got " in str(said_by_run.value)  # what was given, and what to write
    assert str(said_by_spec.value) == str(said_by_run.value) == str(said_sync.value)
    assert sim["brave"].requests == []
    await spec.aclose()


async def test_guard_an_out_of_range_number_keeps_pydantics_words(sim: Simulator) -> None:
    """Guard: ``limit=0`` is refused as before, in the search's words (its whole range since
    stop 58, firstusers25; pydantic's type ``greater_than_equal`` kept)."""
    spec = WebSearchToolSpec(settings=sim_settings(sim), api_keys=sim.api_keys())
    with pytest.raises(ValidationError, match="at least 1 and at most 100 results"):
        await spec.aweb_search("python", limit=0)
    assert sim["brave"].requests == []
