"""A keyed provider words its other transport failures as every key-free engine does.

firstusers21 gave the API providers the engines' ``<Label> search failed: the connection
failed (...)``; a reply cut short, one whose body would not decode and one that was not
HTTP still led with the label alone (``Brave connection closed before the response was
complete (...)``) where an engine said ``Bing search failed: the connection closed ...``.
Each fault is served by the loopback simulator to several API providers and to Bing, whose
text must not move; the class and status each failure carries are checked beside it. The
transport's catch-all (an aiohttp error of no kind it names) is driven at the transport:
settings refuse the base URL that raises one.
"""

from urllib.parse import urlsplit

import aiohttp
import pytest

from websearch_core import WebSearch
from websearch_core.errors import (
    AllProvidersFailedError,
    ProviderConnectionError,
    ProviderUnavailableError,
    SearchProviderError,
)
from websearch_core.providers import get_provider
from websearch_core.testing import Fault, Simulator
from websearch_core.transport import HttpRequest, Transport

KEYED = ["brave", "tavily", "kagi", "serper", "exa"]
CLOSED = "the connection closed before the response was complete ({host})"
UNDECODABLE = (
    "the response could not be decoded ({host}): its Content-Encoding gzip is broken or "
    "not supported"
)
INVALID = "it sent an invalid HTTP response ({host}): Bad status line"
FAULTS = [
    pytest.param(Fault.truncate(), CLOSED, ProviderConnectionError, None, id="cut-short"),
    pytest.param(
        Fault.undecodable("gzip"), UNDECODABLE, ProviderUnavailableError, 502, id="undecodable"
    ),
    pytest.param(
        Fault.not_http(b"HELLO\r\n\r\n"), INVALID, ProviderUnavailableError, 502, id="not-http"
    ),
]


async def _failure(pid: str, fault: Fault) -> tuple[SearchProviderError, str, str]:
    """The typed failure, the text the model reads for it, and the host it names."""
    async with Simulator([pid]) as sim:
        sim[pid].always(fault)
        host = urlsplit(sim[pid].base_url).netloc
        async with WebSearch(sim.settings(cache=False), api_keys=sim.api_keys()) as ws:
            result = await ws.run("python asyncio", provider=pid)
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider=pid)
    assert result.error is not None
    failure = caught.value.failures[-1]
    assert isinstance(failure, SearchProviderError) and failure.provider == pid
    return failure, result.error, host


@pytest.mark.parametrize("pid", KEYED)
@pytest.mark.parametrize(("fault", "clause", "kind", "status"), FAULTS)
async def test_an_api_provider_says_the_engines_wording(
    pid: str, fault: Fault, clause: str, kind: type[SearchProviderError], status: int | None
) -> None:
    """Failed before on each: ``Brave connection closed ...``, ``Brave response could not
    be decoded ...``, ``Brave sent an invalid HTTP response ...``; class and status stood."""
    failure, said, host = await _failure(pid, fault)
    label = get_provider(pid).info.label
    expected = f"{label} search failed: {clause.format(host=host)}"
    assert failure.message == expected
    assert said == expected
    assert type(failure) is kind and failure.status == status


@pytest.mark.parametrize(("fault", "clause", "kind", "status"), FAULTS)
async def test_an_engine_says_what_it_said(
    fault: Fault, clause: str, kind: type[SearchProviderError], status: int | None
) -> None:
    """A guard: Bing's text for each fault, the wording the API providers now share."""
    failure, said, host = await _failure("bing", fault)
    assert failure.message == said == f"Bing search failed: {clause.format(host=host)}"
    assert type(failure) is kind and failure.status == status


async def test_an_error_of_no_named_kind_says_the_same_stem() -> None:
    """Failed before: ``Brave request failed (127.0.0.1:99999): InvalidUrlClientError ...``.

    Port 99999 passes a transport built by hand (settings refuse it) and aiohttp refuses it
    as an invalid URL, which no branch before the catch-all names.
    """
    async with aiohttp.ClientSession() as session:
        transport = Transport(
            session,
            timeout_seconds=2,
            max_response_bytes=1 << 20,
            base_urls={"brave": "http://127.0.0.1:99999"},
        )
        with pytest.raises(ProviderUnavailableError) as caught:
            await transport.send(
                "brave", "Brave", HttpRequest(method="GET", url="https://api.example/ok")
            )
    assert caught.value.message == (
        "Brave search failed: the request failed (127.0.0.1:99999): "
        "InvalidUrlClientError http://127.0.0.1:99999/ok"
    )
    assert caught.value.status is None
