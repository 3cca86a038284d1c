"""``provider=["brave", "duckduckgo"]`` is pointed to ``providers``, by every builder alike.

The same ids written ``"brave,duckduckgo"`` were already pointed there; given as a list,
``WebSearch``, LangChain's tool and both retrievers said pydantic's ``Input should be a valid
string`` alone and ``create_web_search_tool`` its ``Settings`` error, none naming the setting
that takes a list.
"""

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from langchain_websearch import WebSearchRetriever as LangChainRetriever
from langchain_websearch import WebSearchTool
from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever
from llamaindex_websearch import WebSearchToolSpec, create_web_search_tool
from websearch_core import ConfigurationError, WebSearch
from websearch_core.testing import Simulator

from ._helpers import sim_settings

SEVERAL = (
    "takes one provider id, not a list: to ask brave, then duckduckgo, list them in the "
    "providers setting (providers=['brave', 'duckduckgo'], or "
    "WEBSEARCH_PROVIDERS=brave,duckduckgo)"
)
BUILDERS: list[Callable[..., Any]] = [
    WebSearch,
    WebSearchTool,
    LangChainRetriever,
    LlamaIndexRetriever,
    create_web_search_tool,
    WebSearchToolSpec,
]


@pytest.mark.parametrize("build", BUILDERS, ids=lambda build: build.__name__)
@pytest.mark.parametrize("ids", [["brave", "duckduckgo"], ("brave", "duckduckgo")], ids=type)
def test_a_list_of_ids_is_pointed_to_providers(build: Callable[..., Any], ids: Any) -> None:
    with pytest.raises((ValidationError, ConfigurationError)) as caught:
        build(provider=ids)
    assert SEVERAL in str(caught.value)


def test_one_id_in_a_list_is_told_to_be_written_alone() -> None:
    with pytest.raises(ValidationError) as caught:
        WebSearch(provider=["brave"])
    assert "takes one provider id, not a list: write provider='brave'" in str(caught.value)


def test_guard_the_setting_named_asks_them_in_turn(threaded_sim: Simulator) -> None:
    """Guard: ``providers=[...]``, as the message says, asks Brave first and searches."""
    options: dict[str, Any] = {"api_keys": threaded_sim.api_keys()}
    ws = WebSearch(sim_settings(threaded_sim), providers=["brave", "duckduckgo"], **options)
    result = ws.run_sync("python asyncio")
    assert result.response is not None and result.response.provider == "brave"
    assert [r.query_dict()["q"] for r in threaded_sim["brave"].requests] == ["python asyncio"]
