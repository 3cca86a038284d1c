"""A call's ``provider`` argument reads an id as the ``provider`` setting reads it.

``WebSearch(provider=" Brave ")`` (and ``WEBSEARCH_PROVIDER=Brave``) asked Brave, while
``search(..., provider=" Brave ")`` and ``run`` refused the same spelling as ``Unknown
search provider``: the call compared its argument to the ids as typed. Both now read it
through :func:`websearch_core.provider_ids.preferred_provider`, the settings' one reading.
"""

import pytest

from tests.functional._sim_helpers import requests_per_provider, sim_client, simulator_fixture
from websearch_core import ConfigurationError
from websearch_core.models import SearchParams
from websearch_core.testing import Simulator

sim = simulator_fixture("tavily", "brave")


@pytest.mark.parametrize("written", [" Brave ", "BRAVE", "brave\n"])
async def test_a_spelling_the_setting_takes_forces_that_provider(
    sim: Simulator, written: str
) -> None:
    async with sim_client(sim) as ws:
        searched = await ws.search("q", provider=written)
        ran = await ws.run("q two", provider=written)
    assert searched.provider == ran.response.provider == "brave"
    assert requests_per_provider(sim) == {"tavily": 0, "brave": 2}
    assert sim_client(sim, provider=written).settings.provider == "brave"


@pytest.mark.parametrize("written", [" auto ", "AUTO", ""])
def test_auto_in_any_case_is_the_chain_as_for_the_setting(written: str) -> None:
    assert SearchParams(query="q", provider=written).provider is None


async def test_an_unknown_id_is_still_a_configuration_error_naming_it_as_typed(
    sim: Simulator,
) -> None:
    """An id no provider has is still refused, named as typed without its spaces (before,
    ``Unknown search provider:  Bravo `` kept them)."""
    async with sim_client(sim) as ws:
        with pytest.raises(ConfigurationError, match="Unknown search provider: Bravo"):
            await ws.run("q", provider=" Bravo ")
    assert requests_per_provider(sim) == {"tavily": 0, "brave": 0}
