"""A filter recorded ``native`` must change what the provider is sent (every provider).

The shape checks accept any two-letter country, any language tag and every recency, yet a
provider's parameter may map an odd value to nothing (Brave's ``search_lang`` has no
``af``) or to its default (DuckDuckGo's ``kl`` fell back to ``us-en``). The record must
then not say ``native``: the model would be told a filter held that never left here.

Each case searches twice, with the filter and with the same search without it (the
simulator records both requests); when the record says ``native`` the two wires differ.
"""

from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.functional._sim_helpers import sim_client
from tests.functional.test_filters_sim import ENGINES, QUERY, _steady, _wire, sim
from websearch_core.models import FilterName
from websearch_core.testing import Simulator

__all__ = ["sim"]  # the fixture, shared with test_filters_sim


@dataclass(frozen=True)
class Odd:
    """One valid but unusual value of ``name``, searched beside ``context``."""

    name: FilterName
    params: dict[str, Any]
    context: dict[str, Any] = field(default_factory=dict)
    """Fields both searches carry (a country beside the language that is compared)."""

    @property
    def label(self) -> str:
        values = "-".join(str(value) for value in {**self.params, **self.context}.values())
        return f"{self.name}={values}"


ODD_VALUES = (
    Odd("language", {"language": "af"}),  # Afrikaans: no Brave search_lang, no DDG region
    Odd("language", {"language": "ja"}),  # DDG writes Japan's region jp-jp, not ja
    Odd("language", {"language": "ko"}),  # and Korea's kr-kr
    Odd("language", {"language": "haw"}),  # no two-letter code at all
    Odd("language", {"language": "sw-KE"}),
    Odd("language", {"language": "de"}, {"country": "US"}),  # DDG lists no us-de
    Odd("country", {"country": "KE"}),  # DDG lists no Kenyan region
    Odd("country", {"country": "IS"}),
    Odd("recency", {"recency": "year"}),
)


async def _wire_of(sim: Simulator, provider_id: str, params: dict[str, Any]) -> tuple[Any, str]:
    sim[provider_id].requests.clear()
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider=provider_id, use_cache=False, **params)
    return result.response, _steady(_wire(sim[provider_id].requests))


@pytest.mark.parametrize("odd", ODD_VALUES, ids=[odd.label for odd in ODD_VALUES])
@pytest.mark.parametrize("provider_id", ENGINES)
async def test_a_filter_recorded_native_is_on_the_wire(
    sim: Simulator, provider_id: str, odd: Odd
) -> None:
    """``native`` in the record only when the request differs from the one without the
    filter: a value mapped to nothing or to the provider's default is recorded unapplied."""
    _, without = await _wire_of(sim, provider_id, odd.context)
    response, with_filter = await _wire_of(sim, provider_id, {**odd.context, **odd.params})
    (record,) = [item for item in response.filters if item.name == odd.name]
    if "native" in record.applied:
        assert with_filter != without, f"{provider_id} records {record} but sent the same"
