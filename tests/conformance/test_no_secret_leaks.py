"""No provider lets its key reach the model's text, the metadata, an error or a log line.

Each keyed provider is driven through the simulator with a server that echoes the key back
in an error body and in a malformed success body. SearXNG's instance secrets are echoed in
what a success carries besides results (its unanswered engines' reasons: the response's
notes and the warning naming them), and the command line is read in each output form. The
tests named ``guard`` passed before their fix too: they hold channels found clean.
"""

import logging
import traceback
import warnings
from typing import cast

import pytest

from tests.conformance._leaks import everything_logged as _everything_logged
from websearch_core import AllProvidersFailedError, WebSearch
from websearch_core.cli import EXIT_FAILED, EXIT_OK, main
from websearch_core.providers import PROVIDER_REGISTRY, SEARCH_PROVIDER_ORDER, get_provider
from websearch_core.testing import PROTOCOLS, Fault, Simulator
from websearch_core.testing.protocols.parallel import ParallelProtocol
from websearch_core.testing.protocols.searxng import SearxngProtocol

pytestmark = pytest.mark.usefixtures("short_gemini_backoff")  # its resends' waits: 1/100

KEY = "sk-live-0123456789abcdef"
KEYED = [
    pid for pid in SEARCH_PROVIDER_ORDER if pid in PROTOCOLS and get_provider(pid).info.env_vars
]


@pytest.mark.parametrize("provider_id", KEYED)
@pytest.mark.parametrize("status", [400, 401, 429, 500])
async def test_an_echoed_key_never_leaks(
    provider_id: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with Simulator([provider_id]) as sim:
        sim[provider_id].always(Fault.http(status, body=f'{{"error": "bad key {KEY}"}}'))
        settings = sim.settings(rate_limit_wait_seconds=0)
        async with WebSearch(settings, api_keys={provider_id: KEY}) as ws:
            result = await ws.run("python asyncio", provider=provider_id)
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider=provider_id, use_cache=False)
    assert result.error is not None
    assert sim[provider_id].requests, "the provider should have been asked"
    seen = "\n".join(
        [
            result.text,
            result.response.model_dump_json(),
            str(caught.value),
            repr(caught.value.failures),
            *map(_everything_logged, caplog.records),
        ]
    )
    assert KEY not in seen


# --- what an upstream quotes outside an error: notes, their log line, the command line ---

SEARXNG_TOKEN = "searx-token-5a1b2c3d4e5f6a7b"
SEARXNG_PASSWORD = "basic-pw-8c9d0e1f2a3b4c5d"
SEARXNG_SECRETS = {"token": SEARXNG_TOKEN, "basic_password": SEARXNG_PASSWORD}


def _searxng_echoing(sim: Simulator) -> None:
    """SearXNG reports two engines that failed, each reason quoting one of its secrets."""
    protocol = cast(SearxngProtocol, sim["searxng"].protocol)
    protocol.unresponsive_engines = [
        ["google", f"token {SEARXNG_TOKEN} refused"],
        ["qwant", f"auth u:{SEARXNG_PASSWORD} rejected"],
    ]


@pytest.mark.parametrize("setting", sorted(SEARXNG_SECRETS))
async def test_an_engine_reason_quoting_the_instances_secret_never_leaks(
    setting: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A partial answer's notes and the warning naming its engines come out masked.

    The reasons are SearXNG's upstream text; the core masked every other text of a
    response but not its ``notes``, and the parser logged the reasons before any mask.
    Failed before the fix: the secret was in ``response.notes`` and in the log line.
    """
    caplog.set_level(logging.DEBUG)
    secret = SEARXNG_SECRETS[setting]
    async with Simulator(["searxng"]) as sim:
        _searxng_echoing(sim)
        searxng = {"endpoint": sim["searxng"].base_url, setting: secret}
        if setting == "basic_password":
            searxng["basic_username"] = "u"
        async with WebSearch(sim.settings(searxng=searxng)) as ws:
            with warnings.catch_warnings(record=True) as warned:
                warnings.simplefilter("always")
                result = await ws.run("python asyncio", provider="searxng")
    assert result.error is None and result.response.partial
    assert len(result.response.notes) == 2 and "***" in " ".join(result.response.notes)
    assert any("answered without these engines" in m for m in caplog.messages)
    seen = "\n".join(
        [
            result.text,
            result.response.model_dump_json(),
            *result.response.notes,
            *map(_everything_logged, caplog.records),
            *(str(warning.message) for warning in warned),
        ]
    )
    assert secret not in seen


@pytest.mark.parametrize("form", [["--json", "-v"], ["-v"], ["--json"]])
def test_the_command_line_never_prints_an_engine_reason_quoting_a_secret(
    form: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``websearch`` in each output form: the JSON (notes) and ``-v``'s log lines masked.

    Failed before the fix: ``--json`` printed the notes with the token, ``-v`` the log line.
    """
    with Simulator(["searxng"]).running_in_thread() as sim:
        _searxng_echoing(sim)
        monkeypatch.setenv("SEARXNG_ENDPOINT", sim["searxng"].base_url)
        monkeypatch.setenv("SEARXNG_TOKEN", SEARXNG_TOKEN)
        monkeypatch.setenv("WEBSEARCH_EXCLUDE", _all_but("searxng"))
        assert main(["python asyncio", "--provider", "searxng", "--no-cache", *form]) == EXIT_OK
    printed = capsys.readouterr()
    assert "qwant: auth" in printed.out + printed.err  # the notes or the log line
    assert SEARXNG_TOKEN not in printed.out + printed.err


@pytest.mark.parametrize("form", [["--json", "-v"], ["-v"]])
def test_guard_the_command_line_never_prints_an_echoed_key(
    form: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard (it passed before the fix too): a key echoed in an error body and headers.

    Brave's 401 quotes the key in its body and in two headers; the command's error, its
    ``--json`` failure and ``-v``'s attempt log must all show it masked.
    """
    with Simulator(["brave"]).running_in_thread() as sim:
        echoed = {"X-Echo": KEY, "WWW-Authenticate": f'Bearer error="{KEY}"'}
        sim["brave"].always(Fault.http(401, body=f'{{"error": "bad key {KEY}"}}', headers=echoed))
        monkeypatch.setenv("BRAVE_API_KEY", KEY)
        monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", sim["brave"].base_url)
        monkeypatch.setenv("WEBSEARCH_EXCLUDE", _all_but("brave"))
        assert main(["python asyncio", "--provider", "brave", "--no-cache", *form]) == EXIT_FAILED
    printed = capsys.readouterr()
    assert "Brave" in printed.out + printed.err
    assert KEY not in printed.out + printed.err


@pytest.mark.parametrize("provider_id", KEYED)
async def test_guard_the_raised_error_and_its_traceback_hold_no_echoed_key(
    provider_id: str,
) -> None:
    """A guard (it passed before the fix too): what a caller's ``except`` block may print.

    The error raised for an echoed key, formatted as a traceback with its whole
    ``__cause__``/``__context__`` chain, each failure's ``repr`` and its chain too, and
    the warnings the search issued.
    """
    async with Simulator([provider_id]) as sim:
        sim[provider_id].always(Fault.http(401, body=f'{{"error": "bad key {KEY}"}}'))
        settings = sim.settings(rate_limit_wait_seconds=0)
        async with WebSearch(settings, api_keys={provider_id: KEY}) as ws:
            with warnings.catch_warnings(record=True) as warned:
                warnings.simplefilter("always")
                with pytest.raises(AllProvidersFailedError) as caught:
                    await ws.search("python asyncio", provider=provider_id, use_cache=False)
    seen = [*traceback.format_exception(caught.value), *(str(w.message) for w in warned)]
    for failure in caught.value.failures:
        seen.extend([repr(failure), *traceback.format_exception(failure)])
    assert KEY not in "".join(seen)


def _all_but(provider_id: str) -> str:
    """``WEBSEARCH_EXCLUDE`` for every registered provider but ``provider_id``."""
    return ",".join(pid for pid in PROVIDER_REGISTRY if pid != provider_id)


PROXY_PASSWORD = "proxy-pw-6e7f8a9b0c1d2e3f"


@pytest.mark.parametrize("provider_id", ["parallel", "searxng"])
async def test_a_note_quoting_another_secret_of_the_call_never_leaks(
    provider_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A note quoting the proxy's password: masked in the notes and in the log line alike.

    Parallel masked its own key only, in both. Failed before: Parallel's log line and
    notes, SearXNG's notes and log line, all held the password.
    """
    caplog.set_level(logging.DEBUG)
    async with Simulator([provider_id]) as sim:
        quoted = f"sent via u:{PROXY_PASSWORD} upstream"
        if provider_id == "parallel":
            protocol = cast(ParallelProtocol, sim[provider_id].protocol)
            protocol.warnings = [{"type": "warning", "message": quoted, "detail": None}]
        else:
            cast(SearxngProtocol, sim[provider_id].protocol).unresponsive_engines = [
                ["google", quoted]
            ]
        # A loopback endpoint is reached directly: the proxy is a secret, never used.
        settings = sim.settings(proxy=f"http://u:{PROXY_PASSWORD}@proxy.example:8080")
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            result = await ws.run("python asyncio", provider=provider_id)
    assert result.error is None and len(result.response.notes) == 1
    assert "sent via *** upstream" in result.response.notes[0]
    assert any("sent via *** upstream" in message for message in caplog.messages)
    seen = "\n".join([result.response.model_dump_json(), *map(_everything_logged, caplog.records)])
    assert PROXY_PASSWORD not in seen


async def test_the_adapters_pass_on_no_engine_reason_quoting_a_secret() -> None:
    """What each adapter hands an agent for SearXNG's echoing answer holds no secret.

    LangChain's tool message (content and artifact) and retriever documents, LlamaIndex's
    tool output and retriever nodes, metadata included. Failed before the fix: the tool
    message's artifact and the tool output's ``raw_output`` (the structured response)
    carried the notes with the token; the documents and nodes did not.
    """
    langchain = pytest.importorskip("langchain_websearch")
    llamaindex = pytest.importorskip("llamaindex_websearch")
    async with Simulator(["searxng"]) as sim:
        _searxng_echoing(sim)
        settings = sim.settings(
            searxng={"endpoint": sim["searxng"].base_url, "token": SEARXNG_TOKEN}
        )
        tool = langchain.WebSearchTool(settings=settings)
        call = {"type": "tool_call", "id": "1", "name": tool.name}
        message = await tool.ainvoke({**call, "args": {"query": "python asyncio"}})
        documents = await langchain.WebSearchRetriever(settings=settings).ainvoke("asyncio")
        output = await llamaindex.create_web_search_tool(settings=settings).acall(
            query="python asyncio"
        )
        nodes = await llamaindex.WebSearchRetriever(settings=settings).aretrieve("asyncio")
    assert "asyncio" in message.content and documents and nodes
    seen = [repr(message), repr(message.artifact), repr(documents), repr(output)]
    seen += [repr(output.raw_output), repr(nodes), *(repr(n.node.metadata) for n in nodes)]
    assert SEARXNG_TOKEN not in "".join(seen)
