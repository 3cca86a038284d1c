"""Every tool, spec and retriever pickles as its configuration, and never as a secret.

``pickle.dumps(tool)`` (a ``multiprocessing`` worker, a pickling checkpointer) failed with
``Can't pickle local object 'WeakKeyDictionary.__init__.<locals>.remove'``, naming nothing to
do. The rule (``websearch_core.tool_pickles``): the unpickled object opens its own session
and reads keys from the environment where it runs; one holding a secret or a live object
given in code is refused with a ``TypeError`` that names it, never its value.
"""

import multiprocessing
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import aiohttp
import pytest

import langchain_websearch as lc
import llamaindex_websearch as li
from tests.integrations._helpers import sim_settings
from websearch_core import Settings, WebSearch
from websearch_core.testing import Simulator

SECRET = "sk-pickled-test-6b2f"


async def _searches(adapter: Any) -> bool:
    """One search through any adapter we ship; whether it returned the simulated results."""
    if isinstance(adapter, li.WebSearchFunctionTool):
        output = await adapter.acall(query="python")
        return not output.is_error and output.content.startswith("[1] python result 1")
    if isinstance(adapter, li.WebSearchToolSpec):
        return (await adapter.aweb_search("python")).text.startswith("[1] python result 1")
    if isinstance(adapter, lc.WebSearchTool):
        return str(await adapter.ainvoke({"query": "python"})).startswith("[1] python result 1")
    if isinstance(adapter, lc.WebSearchRetriever):
        return len(await adapter.ainvoke("python")) == 5
    return len(await adapter.aretrieve("python")) == 5


SEARCHERS: dict[str, Callable[..., Any]] = {
    "langchain tool": lc.WebSearchTool,
    "langchain retriever": lc.WebSearchRetriever,
    "llamaindex tool": li.create_web_search_tool,
    "llamaindex spec": li.WebSearchToolSpec,
    "llamaindex retriever": li.WebSearchRetriever,
}
FETCHERS: dict[str, Callable[..., Any]] = {
    "langchain fetch tool": lc.WebFetchTool,
    "llamaindex fetch tool": li.create_web_fetch_tool,
}
EVERY = {**SEARCHERS, **FETCHERS}


@pytest.mark.parametrize("name", list(SEARCHERS))
async def test_an_unpickled_adapter_searches_on_its_own_session_with_the_environment_key(
    name: str, sim: Simulator, sessions: list[aiohttp.ClientSession], monkeypatch: Any
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", sim.api_keys()["brave"])
    original = SEARCHERS[name](settings=sim_settings(sim))
    assert await _searches(original)  # its clients are open, holding the key read
    data = pickle.dumps(original)
    assert sim.api_keys()["brave"].encode() not in data
    duplicate = pickle.loads(data)
    opened = len(sessions)
    assert await _searches(duplicate)
    assert len(sessions) > opened, "the unpickled copy searched through the original's session"
    assert sim["brave"].requests[-1].headers["X-Subscription-Token"] == sim.api_keys()["brave"]
    await original.aclose()
    assert await _searches(duplicate)  # closing the original left the copy's session open
    await duplicate.aclose()
    assert all(session.closed for session in sessions)


@pytest.mark.parametrize("name", list(FETCHERS))
def test_an_unpickled_fetch_tool_keeps_its_address_policy(name: str) -> None:
    duplicate = pickle.loads(pickle.dumps(FETCHERS[name](allow_private_addresses=True)))
    if name.startswith("langchain"):
        assert duplicate.allow_private_addresses is True
    else:
        assert duplicate._fetcher._allow_private is True


@pytest.mark.parametrize("name", list(EVERY))
@pytest.mark.parametrize(
    ("options", "where"),
    [
        ({"api_keys": {"brave": SECRET}}, "api_keys.brave"),
        ({"settings": Settings(proxy=f"http://user:{SECRET}@127.0.0.1:3128")}, "settings.proxy"),
        (
            {"settings": Settings(searxng={"endpoint": "http://127.0.0.1:1", "token": SECRET})},
            "settings.searxng.token",
        ),
        (
            {"settings": Settings(redis_url=f"redis://:{SECRET}@127.0.0.1:6379/0")},
            "settings.redis_url",
        ),
        ({"settings": Settings(api_keys={"brave": SECRET})}, "settings.api_keys.brave"),
    ],
    ids=["api_keys", "proxy", "searxng token", "redis password", "config file key"],
)
def test_an_adapter_holding_a_secret_is_refused_naming_where_it_is(
    name: str, options: dict[str, Any], where: str
) -> None:
    adapter = EVERY[name](**options)
    with pytest.raises(TypeError) as caught:
        pickle.dumps(adapter)
    message = str(caught.value)
    assert f"it holds a secret given in code ({where})" in message
    assert "the environment or the credential store" in message
    assert SECRET not in message


@pytest.mark.parametrize(
    ("options", "where"),
    [
        ({"proxy": f"http://user:{SECRET}@127.0.0.1:3128"}, "proxy"),
        ({"redis_url": f"redis://:{SECRET}@127.0.0.1:6379/0"}, "redis_url"),
        ({"searxng": {"token": SECRET}}, "searxng.token"),
        ({"base_urls": {"brave": f"http://u:{SECRET}@127.0.0.1:1"}}, "base_urls.brave"),
    ],
)
@pytest.mark.parametrize("build", [li.create_web_search_tool, li.create_web_fetch_tool])
def test_a_llamaindex_tool_holding_a_secret_setting_is_refused(
    build: Callable[..., Any], options: dict[str, Any], where: str
) -> None:
    # Its settings are kept as given (plain strings) until the first call.
    with pytest.raises(TypeError, match=rf"\({where}\)") as caught:
        pickle.dumps(build(**options))
    assert SECRET not in str(caught.value)


def test_settings_without_a_secret_pickle() -> None:
    # A Redis or base URL without a password is no secret; a proxy is, as in the settings.
    settings = Settings(
        redis_url="redis://user@127.0.0.1:1/0", base_urls={"brave": "http://127.0.0.1:1"}
    )
    duplicate = pickle.loads(pickle.dumps(li.create_web_search_tool(settings=settings)))
    assert duplicate._spec._kwargs["settings"] == settings
    with pytest.raises(TypeError, match=r"\(proxy\)"):
        pickle.dumps(li.create_web_search_tool(proxy="http://127.0.0.1:3128"))


@pytest.mark.parametrize("name", list(EVERY))
async def test_an_adapter_given_a_client_is_refused(name: str) -> None:
    async with WebSearch() as web_search:
        with pytest.raises(TypeError, match="holds a web_search given in code"):
            pickle.dumps(EVERY[name](web_search=web_search))


async def test_a_llamaindex_tool_given_a_session_is_refused() -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises(TypeError, match="holds a session given in code"):
            pickle.dumps(li.create_web_search_tool(session=session))


def test_a_client_itself_is_refused_saying_what_to_do() -> None:
    with pytest.raises(TypeError, match="build one in the process that uses it") as caught:
        pickle.dumps(WebSearch(api_keys={"brave": SECRET}))
    assert SECRET not in str(caught.value)


async def test_what_a_refused_client_says_to_send_instead_can_be_sent(sim: Simulator) -> None:
    # "send its settings": they cross, and a client built from them searches there.
    async with WebSearch(sim_settings(sim), api_keys=sim.api_keys()) as web_search:
        with pytest.raises(TypeError, match="send its settings, which pickle when they hold"):
            pickle.dumps(web_search)
        settings = pickle.loads(pickle.dumps(web_search.settings))
    assert settings == web_search.settings
    async with WebSearch(settings, api_keys=sim.api_keys()) as rebuilt:
        assert (await rebuilt.run("python")).text.startswith("[1] python result 1")


def _search_in_worker(tool: Any) -> str:
    """Run in a spawned worker process: the tool arrived pickled; search synchronously."""
    if isinstance(tool, li.WebSearchFunctionTool):
        return str(tool.call(query="python").content)
    return str(tool.invoke({"query": "python"}))


def test_a_tool_sent_to_a_worker_process_searches_there(
    threaded_sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", threaded_sim.api_keys()["brave"])  # the worker's too
    settings = sim_settings(threaded_sim)
    tools = [lc.WebSearchTool(settings=settings), li.create_web_search_tool(settings=settings)]
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        texts = list(pool.map(_search_in_worker, tools))
    assert all(text.startswith("[1] python result 1") for text in texts), texts
    assert len(threaded_sim["brave"].requests) == 2


SECRET_SETTINGS: dict[str, tuple[dict[str, Any], str]] = {
    "config file key": ({"api_keys": {"brave": SECRET}}, "api_keys.brave"),
    "proxy": ({"proxy": f"http://user:{SECRET}@127.0.0.1:3128"}, "proxy"),
    "redis password": ({"redis_url": f"redis://:{SECRET}@127.0.0.1:6379/0"}, "redis_url"),
    "searxng token": ({"searxng": {"token": SECRET}}, "searxng.token"),
    "base url password": (
        {"base_urls": {"brave": f"http://u:{SECRET}@127.0.0.1:1"}},
        "base_urls.brave",
    ),
}


@pytest.mark.parametrize("name", list(SECRET_SETTINGS))
def test_settings_holding_a_secret_refuse_to_be_pickled_naming_the_field(name: str) -> None:
    # Settings pickled on their own wrote every key into the pickle in clear text.
    options, where = SECRET_SETTINGS[name]
    with pytest.raises(TypeError) as caught:
        pickle.dumps(Settings(**options))
    message = str(caught.value)
    assert message.startswith(f"cannot pickle Settings: it holds a secret ({where}), ")
    assert "build the settings in the process that uses them" in message
    assert SECRET not in message


def test_settings_read_from_the_environment_refuse_a_secret_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Wherever a secret came from, pickle would write it: the settings cannot tell.
    monkeypatch.setenv("SEARXNG_TOKEN", SECRET)
    with pytest.raises(TypeError, match=r"\(searxng\.token\)") as caught:
        pickle.dumps(Settings())
    assert SECRET not in str(caught.value)


def test_searxng_settings_holding_a_secret_refuse_to_be_pickled() -> None:
    from websearch_core.settings import SearxngSettings

    with pytest.raises(TypeError, match=r"^cannot pickle SearxngSettings: .* \(basic_password\)"):
        pickle.dumps(SearxngSettings(basic_password=SECRET))
    plain = SearxngSettings(endpoint="http://127.0.0.1:1", categories="general")
    assert pickle.loads(pickle.dumps(plain)) == plain


def test_settings_without_a_secret_pickle_whole() -> None:
    settings = Settings(
        provider="brave",
        timeout_seconds=7,
        redis_url="redis://user@127.0.0.1:1/0",
        base_urls={"brave": "http://127.0.0.1:1"},
        searxng={"endpoint": "http://127.0.0.1:2"},
    )
    assert pickle.loads(pickle.dumps(settings)) == settings


@pytest.mark.parametrize("name", list(SECRET_SETTINGS))
def test_copies_of_settings_and_of_tools_holding_them_keep_the_secret(name: str) -> None:
    # Frameworks copy tools (LangGraph state, binding): copies are not pickles.
    import copy

    settings = Settings(**SECRET_SETTINGS[name][0])
    for duplicate in (
        copy.copy(settings),
        copy.deepcopy(settings),
        settings.model_copy(),
        settings.model_copy(deep=True),
    ):
        assert duplicate == settings
    tool = lc.WebSearchTool(settings=settings)
    assert copy.deepcopy(tool).settings == settings
    assert (
        copy.copy(li.create_web_search_tool(settings=settings))._spec._kwargs["settings"]
        == settings
    )
