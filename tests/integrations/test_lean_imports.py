"""Importing an adapter, and building its tool, loads no HTTP stack, parser or database.

``import langchain_websearch`` runs at every agent's start-up; issue 11 holds it to 1.15x
the import of LangChain's own ``BaseTool``. aiohttp alone (~80 ms) is more than that whole
allowance, so the network stack, the HTML parser and the state database must load on
first use. Each check runs in a fresh interpreter: this process has imported all of them.
"""

import json
import subprocess
import sys

import pytest
from pydantic import ValidationError

from langchain_websearch import WebSearchTool
from websearch_core import Settings

HEAVY = ("aiohttp", "yarl", "lxml", "sqlite3", "dateutil")
"""Third-party stacks (and the state database) that only a search or a fetch needs."""


def _loaded_after(code: str) -> set[str]:
    """The module names loaded once ``code`` has run in a fresh interpreter."""
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))\n"
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    return set(json.loads(completed.stdout.splitlines()[-1]))


def _heavy(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] in HEAVY}


@pytest.mark.parametrize(
    "code",
    [
        "import langchain_websearch",
        "import llamaindex_websearch",
        "from websearch_core import SearchParams, SearchToolResult, Settings",
        "import websearch_core.content",
    ],
)
def test_importing_loads_no_network_stack_parser_or_database(code: str) -> None:
    loaded = _loaded_after(code)
    assert _heavy(loaded) == set()
    # Nor the client, its providers or the content fetcher: defining a tool needs none.
    ours = {name for name in loaded if name.startswith("websearch_core.")}
    assert not ours & {
        "websearch_core.client",
        "websearch_core.providers",
        "websearch_core.content.fetch",
        "websearch_core.content.extract",
    }


@pytest.mark.parametrize("package", ["langchain_websearch", "llamaindex_websearch"])
def test_defining_the_tools_does_not_load_the_settings_stack(package: str) -> None:
    loaded = _loaded_after(f"import {package}")
    assert not {"pydantic_settings", "dotenv", "websearch_core.settings"} & loaded


@pytest.mark.parametrize(
    "code",
    [
        "from langchain_websearch import WebSearchTool; WebSearchTool()",
        "from llamaindex_websearch import create_web_search_tool; create_web_search_tool()",
    ],
)
def test_building_a_tool_still_leaves_aiohttp_to_the_first_search(code: str) -> None:
    loaded = _loaded_after(code)
    assert "websearch_core.client" in loaded  # the tool is ready to search...
    assert _heavy(loaded) == set()  # ...and the HTTP session opens with the first call


def test_building_a_client_leaves_the_chain_and_store_to_the_first_call() -> None:
    """``WebSearch()`` is often built where a loop runs (a notebook cell, a request handler).

    Its settings' budget and rate checks imported their parser, and with it the chain and
    the SQLite store, even with no budget or rate set: 0.2-0.4 s on the event loop, where
    the first search imports them on a worker thread.
    """
    loaded = _loaded_after("from websearch_core import WebSearch; WebSearch()")
    assert not {"websearch_core.orchestration", "websearch_core.state", "sqlite3"} & loaded


def test_a_budget_is_still_checked_as_the_client_is_built() -> None:
    with pytest.raises(ValidationError, match=r"budget\.brave"):
        Settings(budget={"brave": "lots"})


def test_the_lazy_packages_still_export_every_public_name() -> None:
    code = (
        "import websearch_core, websearch_core.content as content\n"
        "for package in (websearch_core, content):\n"
        "    for name in package.__all__:\n"
        "        getattr(package, name)\n"
        "from websearch_core.content import SafeResolver, PageFetcher, extract_content\n"
    )
    loaded = _loaded_after(code)
    assert {"aiohttp", "lxml"} <= loaded  # the fetcher and extractor did load, on demand


def test_the_resolver_keeps_its_old_address_without_loading_aiohttp_early() -> None:
    code = (
        "import sys\n"
        "import websearch_core.content.safety as safety\n"
        "assert 'aiohttp' not in sys.modules\n"
        "from websearch_core.content.resolver import SafeResolver\n"
        "assert safety.SafeResolver is SafeResolver\n"
    )
    assert "aiohttp" in _loaded_after(code)


def test_settings_are_still_validated_as_the_settings_model() -> None:
    # Checked on the value now (the class is not imported to define the tool), with the
    # errors a nested Settings field gives: located under ``settings``.
    settings = Settings()
    assert WebSearchTool(settings=settings).settings is settings
    with pytest.raises(ValidationError) as caught:
        WebSearchTool(settings={"timeout_seconds": "soon"})
    (error,) = caught.value.errors()
    assert (error["loc"], error["type"]) == (("settings", "timeout_seconds"), "float_parsing")
    with pytest.raises(ValidationError) as caught:
        WebSearchTool(settings=5)
    (error,) = caught.value.errors()
    assert (error["loc"], error["type"]) == (("settings",), "settings_type")
    assert error["msg"].startswith("settings must be a websearch_core.Settings, not int; ")


def test_web_search_must_still_be_a_websearch_client() -> None:
    # The field's class is checked on the value (the class is not imported to define the
    # tool); the error is worded as every adapter words it (LlamaIndex's factories said
    # what to do; pydantic's ``is_instance_of`` did not).
    with pytest.raises(ValidationError) as caught:
        WebSearchTool(web_search="not a client")
    (error,) = caught.value.errors()
    assert error["loc"] == ("web_search",)
    assert error["type"] == "web_search_type"
    assert error["msg"] == (
        "web_search must be a websearch_core.WebSearch, not str; leave it out to have the "
        "tool build its own"
    )
