"""The filters' record reaches both adapters: the LangChain artifact and LlamaIndex's raw output."""

from langchain_core.messages import ToolMessage
from langchain_core.messages.tool import ToolCall

from langchain_websearch import WebSearchTool
from llamaindex_websearch import WebSearchToolSpec
from tests.integrations._helpers import sim_settings
from websearch_core.testing import SimResult, Simulator

PAGES = [
    SimResult("Laravel", "https://github.com/laravel/laravel", "The PHP framework."),
    SimResult("Laravel guide", "https://builtin.com/laravel", "A guide."),
]
RECORD = [{"name": "include_domains", "value": "github.com", "applied": ["query", "post"]}]


async def test_langchain_artifact_carries_the_filters(sim: Simulator) -> None:
    sim["brave"].results = list(PAGES)
    tool = WebSearchTool(settings=sim_settings(sim), api_keys=sim.api_keys())
    call = ToolCall(
        name="web_search", args={"query": "laravel site:github.com"}, id="c1", type="tool_call"
    )
    message = await tool.ainvoke(call)
    assert isinstance(message, ToolMessage)
    assert message.artifact["response"]["filters"] == RECORD
    assert "builtin.com" not in message.content
    assert sim["brave"].requests[0].query_dict()["q"] == "laravel site:github.com"


async def test_llamaindex_raw_output_carries_the_filters(sim: Simulator) -> None:
    sim["brave"].results = list(PAGES)
    spec = WebSearchToolSpec(settings=sim_settings(sim), api_keys=sim.api_keys())
    (tool,) = spec.to_tool_list()
    try:
        output = await tool.acall(query="laravel site:github.com")
    finally:
        await spec.aclose()
    assert output.raw_output["response"]["filters"] == RECORD
    assert [s["url"] for s in output.raw_output["response"]["sources"]] == [PAGES[0].url]
