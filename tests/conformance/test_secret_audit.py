"""An audit of every failure path: a provider's key shows nowhere a user can look.

Each keyed provider gets its own sentinel key and is driven, on the loopback simulator,
into each failure: error statuses whose bodies echo the request (the key as a header, in a
query string, in a JSON body), a redirect carrying the key, a malformed or truncated body,
a reset, a reply that is not HTTP (TLS bytes among them), an event stream that errors or
breaks mid-way, a timeout. The bodies are the real error envelopes in the captures
(Parallel's and TinyFish's), with the echo in their message. What is read afterwards: the
result's text, its structured response and ``repr``, the error raised with its traceback
and cause chain, every log record at DEBUG, every warning, and the SQLite state store's
files. The tests named ``guard`` passed before the redaction fix of this audit too.
"""

import base64
import json
import logging
import os
import pathlib
import warnings
from collections.abc import Callable
from urllib.parse import quote

import pytest

from tests.conformance._leaks import failure_texts, library_logs, shapes_seen, stored_texts
from tests.conftest import read_capture
from tests.websearch_process import run_websearch
from websearch_core import AllProvidersFailedError, WebSearch
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider
from websearch_core.testing import PROTOCOLS, Fault, Simulator

pytestmark = pytest.mark.usefixtures("short_gemini_backoff")

KEYED = [
    pid for pid in SEARCH_PROVIDER_ORDER if pid in PROTOCOLS and get_provider(pid).info.env_vars
]
STATUSES = (400, 401, 403, 404, 422, 429, 500, 503)
ENVELOPES = ("parallel/v1_search_error_doc_example.json", "tinyfish/error_doc_example_generic.json")


def sentinel(provider_id: str) -> str:
    """A key no text holds by chance, distinct per provider."""
    return f"sk-SENTINEL-{provider_id}-7f3a9c2e5b41d8"


def _echo(key: str) -> str:
    """The request as an upstream's error message quotes it: header, query string, body."""
    return (
        f"invalid request: Authorization: Bearer {key}; x-api-key: {key}; "
        f"GET /search?api_key={quote(key, safe='')}&key={key}; body {json.dumps({'key': key})}"
    )


def _envelope(status: int, key: str) -> str:
    """A captured error envelope with its message replaced by :func:`_echo`."""
    body = json.loads(read_capture(ENVELOPES[status % 2]))
    body["error"]["message"] = _echo(key)
    return json.dumps(body)


def _head(content_type: str, body: str) -> bytes:
    """A status line and headers for a 200 of ``content_type``, then ``body``."""
    return f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\r\n{body}".encode()


def _first_stream_event() -> str:
    """The first event of a real captured stream (Gemini's), as sent."""
    stream = read_capture("gemini/stream_generate_content_google_search.sse").decode()
    # The capture ends its events with CRLF pairs: cut at the first blank line either way.
    return stream.replace("\r\n", "\n").split("\n\n", 1)[0] + "\n\n"


def _stream_error(key: str) -> str:
    message = {
        "error": {"code": 401, "message": f"API key not valid: {key}", "status": "UNAUTHENTICATED"}
    }
    return f"event: error\ndata: {json.dumps(message)}\n\n"


FaultFor = Callable[[str, str], Fault]
"""A fault for a sentinel key and the simulated provider's origin."""


def _status(status: int) -> FaultFor:
    """``status`` with a captured envelope echoing the key, and the key in a header too."""

    def fault(key: str, _: str) -> Fault:
        headers = {"Content-Type": "application/json", "X-Echo": key}
        return Fault.http(status, body=_envelope(status, key), headers=headers)

    return fault


FAULTS: dict[str, FaultFor] = {
    **{f"http{status}": _status(status) for status in STATUSES},
    "http401_basic": lambda key, _: Fault.http(
        401,
        body=f'{{"error": "bad Authorization: Basic {base64.b64encode(key.encode()).decode()}"}}',
        headers={"WWW-Authenticate": f'Bearer error="{key}"'},
    ),
    "http400_text": lambda key, _: Fault.http(
        400, body=f"Bad Request\n{_echo(key)}", headers={"Content-Type": "text/plain"}
    ),
    "redirect_query": lambda key, origin: Fault.redirect(f"{origin}/moved?api_key={key}"),
    "redirect_userinfo": lambda key, origin: Fault.redirect(
        origin.replace("http://", f"http://user:{quote(key, safe='')}@") + "/moved"
    ),
    "malformed": lambda key, _: Fault.malformed(),
    "malformed_echo": lambda key, _: Fault.http(
        200, body=f'{{"results": [{{"echo": "{key}", ', headers={"Content-Type": "application/json"}
    ),
    "truncated": lambda key, _: Fault.truncate(),
    "cut_echo": lambda key, _: Fault.cut(_head("application/json", f'{{"echo": "{key}')),
    "reset": lambda key, _: Fault.reset(),
    "not_http": lambda key, _: Fault.not_http(f"HELLO {key}\r\n\r\n".encode()),
    "tls_bytes": lambda key, _: Fault.not_http(b"\x16\x03\x01\x00\x31\x02\x00\x00\x2d\x03\x03"),
    "stream_error_midway": lambda key, _: Fault.http(
        200,
        body=_first_stream_event() + _stream_error(key),
        headers={"Content-Type": "text/event-stream"},
    ),
    "stream_cut_midway": lambda key, _: Fault.cut(
        _head("text/event-stream", _first_stream_event() + f'data: {{"echo": "{key}')
    ),
    "timeout": lambda key, _: Fault.hang(),
    "stall_echo": lambda key, _: Fault.stall(_head("application/json", f'{{"echo": "{key}')),
}


async def _everything_seen(
    provider_id: str, key: str, fault: Fault, state_dir: pathlib.Path, sim: Simulator
) -> list[str]:
    """A tool call and a raising search against ``fault``: all a user could see of both."""
    sim[provider_id].always(fault)
    settings = sim.settings(
        rate_limit_wait_seconds=0,
        timeout_seconds=0.25,  # the timeout fault's wait; no assertion is made on time
        state_backend="sqlite",
        state_dir=state_dir,
    )
    seen: list[str] = []
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        async with WebSearch(settings, api_keys={provider_id: key}) as ws:
            result = await ws.run("python asyncio", provider=provider_id)
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider=provider_id, use_cache=False)
            status = await ws.provider_status()
    assert result.error is not None, "every fault here is a failure"
    seen += [result.text, result.response.model_dump_json(), repr(result), repr(status)]
    seen += [json.dumps(result.to_metadata(), default=str)]
    seen += [str(result.error), repr(result.error), *failure_texts(caught.value)]
    seen += [str(warning.message) for warning in warned]
    return [*seen, *stored_texts(state_dir)]


@pytest.mark.parametrize("fault_name", sorted(FAULTS))
@pytest.mark.parametrize("provider_id", KEYED)
async def test_guard_no_failure_path_shows_the_key(
    provider_id: str,
    fault_name: str,
    tmp_path: pathlib.Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A guard (it passed before this audit's fix too): no shape of the key in any channel.

    The shapes are the key, URL-encoded, base64, JSON-escaped, and every run of 12 of its
    characters; a provider's last-four hint (``sk-...wxyz``) is not one (see RUN_LENGTH).
    """
    caplog.set_level(logging.DEBUG)
    key = sentinel(provider_id)
    async with Simulator([provider_id]) as sim:
        fault = FAULTS[fault_name](key, sim[provider_id].base_url)
        seen = await _everything_seen(provider_id, key, fault, tmp_path / "state", sim)
        assert sim[provider_id].requests, "the provider should have been asked"
    assert shapes_seen(key, [*seen, *library_logs(caplog.records)]) == []


@pytest.mark.parametrize("provider_id", KEYED)
async def test_a_key_echoed_without_its_type_prefix_never_shows(
    provider_id: str, tmp_path: pathlib.Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An upstream quoting the key with its ``sk-`` left out, or as ``****<tail>``.

    Failed before the fix, for all 16 keyed providers: only a run from the key's first
    character was masked, so ``SENTINEL-brave-7f3a...`` reached the log line of every
    failure (the upstream's message quoted), and the result's text where it quotes it.
    """
    caplog.set_level(logging.DEBUG)
    key = sentinel(provider_id)
    body = json.loads(read_capture(ENVELOPES[0]))
    body["error"]["message"] = f"key {key[3:]} revoked; key ****{key[-14:]} unknown"
    async with Simulator([provider_id]) as sim:
        fault = Fault.http(500, body=json.dumps(body), headers={"X-Echo": key[3:]})
        seen = await _everything_seen(provider_id, key, fault, tmp_path / "state", sim)
    assert shapes_seen(key, [*seen, *library_logs(caplog.records)]) == []


@pytest.mark.parametrize("fault_name", ["http401", "http500", "redirect_query", "reset"])
async def test_guard_the_agent_tools_show_no_key(
    fault_name: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A guard: what LangChain's and LlamaIndex's tools hand an agent for a failure.

    The tool message (content and artifact) or the exception a tool raised, and the
    LlamaIndex tool output with its ``raw_output``, for Brave failing with an echo.
    """
    langchain = pytest.importorskip("langchain_websearch")
    llamaindex = pytest.importorskip("llamaindex_websearch")
    caplog.set_level(logging.DEBUG)
    key = sentinel("brave")
    seen: list[str] = []
    async with Simulator(["brave"]) as sim:
        sim["brave"].always(FAULTS[fault_name](key, sim["brave"].base_url))
        settings = sim.settings(
            provider="brave", fallback=False, rate_limit_wait_seconds=0, api_keys={"brave": key}
        )
        tool = langchain.WebSearchTool(settings=settings)
        call = {"type": "tool_call", "id": "1", "name": tool.name, "args": {"query": "asyncio"}}
        try:
            message = await tool.ainvoke(call)
            seen += [repr(message), repr(getattr(message, "artifact", None))]
        except Exception as error:  # a tool may raise its failure: what an agent then logs
            seen += failure_texts(error)
        try:
            output = await llamaindex.create_web_search_tool(settings=settings).acall(
                query="asyncio"
            )
            seen += [repr(output), repr(output.raw_output), str(output)]
        except Exception as error:
            seen += failure_texts(error)
        assert len(sim["brave"].requests) >= 2, "both tools should have asked Brave"
    assert "Brave" in "".join(seen), "each tool should have told of Brave's failure"
    assert shapes_seen(key, [*seen, *library_logs(caplog.records)]) == []


CLI_RUNS = (
    ["python asyncio", "--no-cache", "--json", "-v"],
    ["python asyncio", "--no-cache", "-v"],
    ["providers"],
    ["auth", "list", "-v"],
)


@pytest.mark.parametrize(("provider_id", "source"), [("brave", "env"), ("zai", "file")])
def test_guard_the_command_line_shows_no_key_from_either_source(
    provider_id: str, source: str, tmp_path: pathlib.Path
) -> None:
    """A guard: ``websearch`` in a subprocess, its key from a variable or the credential file.

    A 500 then a 401, both echoing the key; each command's stdout and stderr (``-v`` logs
    each attempt), ``auth set``'s own output, and the state directory afterwards.
    """
    key = sentinel(provider_id)
    with Simulator([provider_id]).running_in_thread() as sim:
        body = _envelope(500, key)
        sim[provider_id].always(Fault.http(500, body=body, headers={"X-Echo": key}))
        sim[provider_id].enqueue(Fault.http(401, body=body))
        env = _cli_environment(provider_id, tmp_path, sim[provider_id].base_url)
        seen = []
        if source == "env":
            env[get_provider(provider_id).info.env_vars[0]] = key
        else:
            seen += _websearch(["auth", "set", provider_id, "-v"], env, stdin=f"{key}\n")
        for arguments in CLI_RUNS:
            forced = ["--provider", provider_id] if arguments[0] == "python asyncio" else []
            seen += _websearch([*arguments, *forced], env)
        assert sim[provider_id].requests, "the command should have asked the provider"
    assert "(500)" in "".join(seen) and "(401)" in "".join(seen)
    files = stored_texts(tmp_path / "state")
    assert files and shapes_seen(key, [*seen, *files]) == []


def _cli_environment(provider_id: str, home: pathlib.Path, base_url: str) -> dict[str, str]:
    """This environment without any setting or key, routed to ``provider_id`` alone."""
    from websearch_core.providers import PROVIDER_REGISTRY

    kept = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("WEBSEARCH_", "SEARXNG_")) and not name.endswith("_API_KEY")
    }
    return {
        **kept,
        "HOME": str(home),
        "WEBSEARCH_EXCLUDE": ",".join(pid for pid in PROVIDER_REGISTRY if pid != provider_id),
        "WEBSEARCH_STATE_DIR": str(home / "state"),
        "WEBSEARCH_CREDENTIALS_FILE": str(home / "credentials.json"),
        "WEBSEARCH_RATE_LIMIT_WAIT_SECONDS": "0",
        f"WEBSEARCH_{provider_id.upper()}_BASE_URL": base_url,
    }


def _websearch(arguments: list[str], env: dict[str, str], stdin: str = "") -> list[str]:
    """``websearch <arguments>`` in a subprocess: its stdout and stderr."""
    done = run_websearch(arguments, env=env, stdin=stdin)
    return [done.stdout, done.stderr]


PASSWORD = "pw-SENTINEL-5d4c3b2a19e8f7"


@pytest.mark.parametrize("place", ["proxy", "base_url"])
async def test_guard_a_password_in_a_proxy_or_base_url_never_shows(
    place: str, tmp_path: pathlib.Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A guard: ``http://user:pass@host`` as the proxy or as Brave's base URL.

    The loopback origin is reached directly (a proxy is never used for it), and the
    upstream's 401 quotes the password, the pair as a Basic header and the whole URL.
    """
    caplog.set_level(logging.DEBUG)
    key = sentinel("brave")
    async with Simulator(["brave"]) as sim:
        origin = sim["brave"].base_url
        basic = base64.b64encode(f"user:{PASSWORD}".encode()).decode()
        with_password = origin.replace("http://", f"http://user:{PASSWORD}@")
        message = f"auth Basic {basic} for user:{PASSWORD} at {with_password} proxy"
        sim["brave"].always(Fault.http(401, body=json.dumps({"error": message})))
        if place == "proxy":
            overrides = {"proxy": f"http://user:{PASSWORD}@proxy.example:8080"}
        else:
            overrides = {"base_urls": {**sim.base_urls(), "brave": with_password}}
        settings = sim.settings(rate_limit_wait_seconds=0, **overrides)
        async with WebSearch(settings, api_keys={"brave": key}) as ws:
            result = await ws.run("python asyncio", provider="brave")
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider="brave", use_cache=False)
        assert sim["brave"].requests, "Brave should have been asked"
    assert result.error is not None and "Brave" in result.text
    seen = [result.text, result.response.model_dump_json(), repr(result)]
    seen += [*failure_texts(caught.value), *library_logs(caplog.records)]
    assert shapes_seen(PASSWORD, seen) == [] and shapes_seen(key, seen) == []
