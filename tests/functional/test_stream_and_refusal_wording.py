"""A broken stream, a redirect loop and a request not sent read as a failed search.

firstusers21 and firstusers22 gave every transport failure the stem ``<Label> search
failed: ...`` (a failed connection, a cut body, a reply that is not HTTP); the stream
reader's failures, the redirect bound and the transport's refusals to send still led with
the label alone (``Perplexity stream ended in the middle of an event``, ``Brave redirected
more than 5 times``, ``Codex request was not sent: ...``), so one listing of failures read
two ways. No spec or reference text words any of them. Each is driven through the loopback
simulator (or, for a header aiohttp refuses, a transport built by hand, as the settings
refuse such a key first), with the class and status each failure carries beside its text.
"""

from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest

from tests.proxied_sign_ins import stored_sign_in
from websearch_core import WebSearch
from websearch_core.errors import (
    AllProvidersFailedError,
    ProviderConnectionError,
    ResponseTooLargeError,
    SearchProviderError,
)
from websearch_core.sse import DEFAULT_MAX_EVENT_BYTES
from websearch_core.testing import Fault, Simulator
from websearch_core.transport import MAX_REDIRECTS, HttpRequest, Transport

QUERY = "python asyncio"
EVENT_STREAM = {"Content-Type": "text/event-stream"}
CUT_EVENT = 'data: {"id": "x", "choices": [{"delta": {"content": "Hal'


async def _failure(pid: str, fault: Fault) -> tuple[SearchProviderError, str]:
    """The typed failure of a search ``fault`` answers, and the text ``run`` gives for it."""
    async with Simulator([pid]) as sim:
        sim[pid].always(fault)
        settings = sim.settings(cache=False, rate_limit_wait_seconds=0)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            result = await ws.run(QUERY, provider=pid)
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search(QUERY, provider=pid)
    assert result.error is not None
    failure = caught.value.failures[-1]
    assert isinstance(failure, SearchProviderError) and failure.provider == pid
    return failure, result.error


async def test_a_stream_cut_mid_event_is_a_failed_search() -> None:
    """Failed before: ``Perplexity stream ended in the middle of an event``."""
    failure, said = await _failure("perplexity", Fault.http(200, CUT_EVENT, EVENT_STREAM))
    expected = "Perplexity search failed: the stream ended in the middle of an event"
    assert failure.message == said == expected
    assert type(failure) is ProviderConnectionError and failure.status is None


async def test_a_stream_of_blank_lines_is_a_failed_search() -> None:
    """Failed before: ``Perplexity stream ended before its first event: ...``."""
    failure, said = await _failure("perplexity", Fault.http(200, "\n" * 200, EVENT_STREAM))
    expected = (
        "Perplexity search failed: the stream ended before its first event: "
        "200 bytes of blank lines"
    )
    assert failure.message == said == expected
    assert type(failure) is ProviderConnectionError and failure.status is None


async def test_a_stream_event_past_its_cap_is_a_failed_search() -> None:
    """Failed before: ``Perplexity stream event larger than 4194304 bytes``."""
    big = "data: " + "x" * (DEFAULT_MAX_EVENT_BYTES + 1) + "\n\n"
    failure, said = await _failure("perplexity", Fault.http(200, big, EVENT_STREAM))
    expected = (
        f"Perplexity search failed: a stream event was larger than {DEFAULT_MAX_EVENT_BYTES} bytes"
    )
    assert failure.message == said == expected
    assert type(failure) is ResponseTooLargeError and failure.status == 500


@pytest.mark.parametrize(("pid", "label"), [("brave", "Brave"), ("bing", "Bing")])
async def test_a_redirect_loop_is_a_failed_search(pid: str, label: str) -> None:
    """Failed before for both: ``Brave redirected more than 5 times`` (an engine alike)."""
    failure, said = await _failure(pid, Fault.redirect("/loop", 302))
    expected = f"{label} search failed: the request was redirected more than {MAX_REDIRECTS} times"
    assert failure.message == said == expected
    assert type(failure) is SearchProviderError and failure.status == 302


@pytest.mark.parametrize(("pid", "label"), [("brave", "Brave"), ("bing", "Bing")])
async def test_a_redirect_to_another_scheme_is_a_failed_search(pid: str, label: str) -> None:
    """Failed before for both: ``Brave redirected to a file: location; not followed``."""
    failure, said = await _failure(pid, Fault.redirect("file:///etc/passwd"))
    expected = f"{label} search failed: the request was redirected to a file: location; not "
    assert failure.message == said == f"{expected}followed"
    assert type(failure) is SearchProviderError and failure.status == 307


async def test_a_credentialed_redirect_to_another_origin_is_a_failed_search() -> None:
    """Failed before: ``Brave redirected to another origin (127.0.0.2:9); not followed ...``.

    Brave's request carries its key, so the redirect is refused before anything is sent
    there (nothing listens at port 9).
    """
    failure, said = await _failure("brave", Fault.redirect("http://127.0.0.2:9/x"))
    assert failure.message == said
    assert said.startswith(
        "Brave search failed: the request was redirected to another origin (127.0.0.2:9); "
        "not followed, so credentials and the request body stay with 127.0.0.1:"
    ), said
    assert type(failure) is SearchProviderError and failure.status == 307


async def test_a_header_aiohttp_refuses_is_a_request_not_sent() -> None:
    """Failed before: ``Brave request was not sent: a header value holds ...``.

    The settings and the credential check refuse a key with a line break before any
    request; a header built by a provider itself is what is left, so the transport is
    driven by hand.
    """
    async with Simulator(["brave"]) as sim, aiohttp.ClientSession() as session:
        transport = Transport(
            session,
            timeout_seconds=2,
            max_response_bytes=1 << 20,
            base_urls={"brave": sim["brave"].base_url},
        )
        request = HttpRequest(method="GET", url="https://api.example/ok", headers={"X": "a\nb"})
        with pytest.raises(SearchProviderError) as caught:
            await transport.send("brave", "Brave", request)
    assert sim["brave"].requests == []
    assert caught.value.message == (
        "Brave search failed: the request was not sent: a header value holds a line break "
        "or another control character; check the provider's API key for a pasted newline"
    )
    assert type(caught.value) is SearchProviderError and caught.value.status is None


async def test_a_loopback_request_a_session_would_proxy_is_a_request_not_sent(
    tmp_path: Path,
) -> None:
    """Failed before: ``OpenAI request was not sent: the HTTP session given to ...``.

    (Codex's label is ``OpenAI``; its transport failures say the reference's ``Codex
    request failed:``, firstusers25.)
    """
    store = stored_sign_in(
        tmp_path / "credentials.json", "codex", "access-0123456789", refresh_token="r"
    )
    remote = "http://user:hunter2@proxy.example.invalid:3128"
    async with Simulator(["codex"]) as sim:
        host = urlsplit(sim["codex"].base_url).hostname
        session = aiohttp.ClientSession(proxy=remote)
        settings = sim.settings(credentials_file=store, cache=False)
        async with session, WebSearch(settings, api_keys={}, session=session) as ws:
            result = await ws.run(QUERY, provider="codex")
    assert sim["codex"].requests == []
    assert result.error is not None
    assert result.error.startswith(
        "Codex request failed: the request was not sent: the HTTP session given to WebSearch "
        f"would send it to the loopback address {host} through the proxy "
        "http://proxy.example.invalid:3128,"
    ), result.error
    assert "hunter2" not in result.error
