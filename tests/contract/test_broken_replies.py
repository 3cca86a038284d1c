"""The contract for replies that break after they began, for every provider kind.

Each test runs once per registered provider, as :mod:`tests.contract.test_faults` does: a
reply cut after its headers, one that stalls after its first bytes (a slow loris), an HTML
error page sent as a 200, a charset that lies, a redirect loop. Whatever the provider (JSON
API, streaming answer engine, HTML engine), each ends in a typed failure with the spec's
text (never a traceback, never a hang) or, for a charset, in an answer that reads right
(or, for bytes that are not UTF-8, with U+FFFD where they are not);
no secret reaches a message or a log line; and a chain moves on to the next provider.
"""

import inspect
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from tests.contract.conftest import KEY, OAUTH_ONLY, TOKEN, contract_client
from tests.contract.spec_texts import (
    API_SEARCH_FAILED,
    LABEL,
    SCRAPERS,
    plain_fetch_failure,
    timeout_text,
)
from websearch_core import AllProvidersFailedError, SearchProviderError, WebSearch
from websearch_core.errors import (
    ProviderConnectionError,
    ProviderTimeoutError,
    ResponseParseError,
)
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.transport import MAX_REDIRECTS

QUERY = "python asyncio"
STREAMING = frozenset({"perplexity", "gemini", "codex", "zai"})
"""Providers whose answer is an event stream (the spec's SSE transports and Z.AI's)."""


def _content_type(provider_id: str) -> str:
    """What the provider's own answer is sent as: a stream, a page or JSON."""
    if provider_id in STREAMING:
        return "text/event-stream"
    if provider_id in SCRAPERS:
        return "text/html; charset=utf-8"
    return "application/json"


def _head(provider_id: str, first_bytes: bytes = b"") -> bytes:
    """A 200's status line and headers promising 5000 bytes, then ``first_bytes`` of them."""
    return b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: 5000\r\n\r\n%s" % (
        _content_type(provider_id).encode(),
        first_bytes,
    )


def _secret(provider_id: str) -> str:
    return TOKEN if provider_id in OAUTH_ONLY else KEY


async def _failure(
    sim: Simulator,
    provider_id: str,
    tmp_path: Path,
    fault: Fault,
    caplog: pytest.LogCaptureFixture,
    **overrides: object,
) -> tuple[str, SearchProviderError]:
    """The text the model reads for ``fault`` and the typed failure behind it, no secret in
    either or in any log line."""
    caplog.set_level(logging.DEBUG)
    sim[provider_id].always(fault)
    async with contract_client(sim, provider_id, tmp_path, **overrides) as ws:
        result = await ws.run(QUERY, provider=provider_id)
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider=provider_id)
    assert result.error is not None and result.text == f"Error: {result.error}"
    failure = caught.value.failures[-1]
    assert isinstance(failure, SearchProviderError) and failure.provider == provider_id
    seen = "\n".join([result.text, str(caught.value), *(r.getMessage() for r in caplog.records)])
    assert _secret(provider_id) not in seen
    assert "Traceback" not in seen
    return result.error, failure


async def test_a_reply_cut_after_its_headers_is_a_connection_error(
    sim: Simulator, provider_id: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The headers arrive and promise a body; the connection drops before any of it.
    text, failure = await _failure(
        sim, provider_id, tmp_path, Fault.cut(_head(provider_id)), caplog
    )
    assert isinstance(failure, ProviderConnectionError)
    closed = plain_fetch_failure(provider_id, "connection closed before the response was complete")
    assert failure.message.startswith(closed)
    assert text.startswith(closed)


async def test_a_reply_stalled_after_its_first_bytes_ends_at_the_deadline(
    sim: Simulator, provider_id: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A slow loris: the reply starts at once, then nothing more comes. Only a deadline over
    # the whole exchange ends it, and the failure says so (not a connection error: the
    # simulator holds the connection open until it closes). Each provider's two calls wait
    # the whole timeout, so it is short: 0.2 s, not the 0.5 s it was (about 17 s of a
    # suite's time across the providers); a reply that stalls waits it out whatever it is.
    first = (
        b"<html>" if provider_id in SCRAPERS else b"data: {" if provider_id in STREAMING else b'{"'
    )
    stalled = Fault.stall(_head(provider_id, first))
    text, failure = await _failure(sim, provider_id, tmp_path, stalled, caplog, timeout_seconds=0.2)
    assert isinstance(failure, ProviderTimeoutError)
    assert text == timeout_text(provider_id, "0.2")


NGINX_502 = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)
"""A proxy's error page, as nginx writes it."""


async def test_an_error_page_sent_as_a_200_is_never_an_answer(
    sim: Simulator, provider_id: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A proxy in front of an API answers 200 with its own HTML error page.
    page = Fault.http(200, NGINX_502, {"Content-Type": "text/html"})
    text, failure = await _failure(sim, provider_id, tmp_path, page, caplog)
    assert isinstance(failure, ResponseParseError)
    assert "Bad Gateway" not in text  # the page is not quoted back as if it were an answer


async def test_a_redirect_loop_stops_at_the_bound(
    sim: Simulator, provider_id: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    text, failure = await _failure(sim, provider_id, tmp_path, Fault.redirect("/loop", 302), caplog)
    stem = API_SEARCH_FAILED.get(provider_id, f"{LABEL[provider_id]} search failed: ")
    assert failure.message == (f"{stem}the request was redirected more than {MAX_REDIRECTS} times")
    assert text == failure.message
    # Each request the provider started was followed to the bound and no further.
    paths = [r.path for r in sim[provider_id].requests]
    started = len(paths) - paths.count("/loop")
    assert started >= 2  # one for run(), one for search()
    assert paths.count("/loop") == MAX_REDIRECTS * started


ACCENTED = SimResult(
    title="Café crème à la façon naïve",
    url="https://accents.example.org/cafe",
    snippet="Déjà vu, über alles.",
)
_ESCAPED = re.compile(r"\\u00([89a-fA-F][0-9a-fA-F])")
"""A JSON escape of a Latin-1 letter (``\\u00e9``), which a body may carry literally instead."""


def _recharset(sim: Simulator, provider_id: str, encoding: str, declared: str) -> None:
    """Make the simulator send its own answers as ``encoding`` bytes declared ``declared``.

    JSON escapes of accented letters are written out first, so the bytes differ by encoding.
    """
    protocol = sim[provider_id].protocol
    answer = protocol.answer

    async def relabelled(request: RecordedRequest, results: list[SimResult]) -> Any:
        sent = answer(request, results)
        response = await sent if inspect.isawaitable(sent) else sent
        if not isinstance(response, web.Response) or not isinstance(response.body, bytes):
            return response  # a stream or an empty reply (Z.AI's session steps): as it is
        text = _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), response.body.decode("utf-8"))
        media = (response.headers.get("Content-Type") or "text/plain").split(";")[0]
        headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
        headers["Content-Type"] = f"{media}; charset={declared}"
        return web.Response(status=response.status, body=text.encode(encoding), headers=headers)

    protocol.answer = relabelled  # type: ignore[method-assign]


async def test_utf8_declared_latin1_still_reads_right(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    # A server labels its UTF-8 as ISO-8859-1. JSON is UTF-8 whatever the label says, and
    # the engines' pages are read as the bytes say: the accents come through unmangled.
    sim[provider_id].results = [ACCENTED] * 3
    _recharset(sim, provider_id, "utf-8", "iso-8859-1")
    async with contract_client(sim, provider_id, tmp_path) as ws:
        result = await ws.run(QUERY, provider=provider_id)
    assert not result.is_error, result.text
    assert "Ã" not in result.text  # no UTF-8 read as Latin-1 ("CafÃ©")
    assert "\ufffd" not in result.text


async def test_latin1_declared_utf8_is_an_answer_with_replacement_characters(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    # The reverse: Latin-1 bytes labelled UTF-8 are not UTF-8. Every provider reads them as
    # the reference's fetch does, UTF-8 with U+FFFD for the bytes that are not, and keeps
    # the rest of its answer (a JSON body too: it used to be refused as invalid JSON).
    # Never mangled into "Ã", never a traceback.
    sim[provider_id].results = [ACCENTED] * 3
    # (windows-1252: Latin-1 that also writes the "›" of Yahoo's page.)
    _recharset(sim, provider_id, "windows-1252", "utf-8")
    async with contract_client(sim, provider_id, tmp_path) as ws:
        result = await ws.run(QUERY, provider=provider_id)
    assert not result.is_error, result.text
    assert "accents.example.org" in result.text
    # The title, or for an answer engine the snippet its answer quotes, damaged only there.
    assert "Caf\ufffd cr\ufffdme" in result.text or "D\ufffdj\ufffd vu" in result.text
    assert "Traceback" not in result.text and "Ã" not in result.text


@pytest.mark.parametrize("first", ["perplexity", "brave", "duckduckgo"])
@pytest.mark.parametrize("fault_name", ["cut", "stall", "error page", "redirect loop"])
async def test_the_next_provider_answers_after_a_broken_reply(
    first: str, fault_name: str, tmp_path: Path
) -> None:
    # One provider of each kind breaks; the chain records its failure and moves on.
    faults = {
        "cut": Fault.cut(_head(first)),
        "stall": Fault.stall(_head(first, b"{")),
        "error page": Fault.http(200, NGINX_502, {"Content-Type": "text/html"}),
        "redirect loop": Fault.redirect("/loop", 302),
    }
    # Only the stall needs a short timeout, and the timeout is every provider's: Exa's
    # answer must fit in it too, which 0.5 s did not on a loaded machine (its connection
    # was not made in time). The other faults end at once and keep the default.
    timeout = 3.0 if fault_name == "stall" else None
    async with Simulator([first, "exa"]) as sim:
        sim[first].always(faults[fault_name])
        settings = sim.settings(
            provider=first, cache=False, rate_limit_wait_seconds=0, timeout_seconds=timeout
        )
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            response = await ws.search(QUERY)
    assert response.provider == "exa" and response.sources
    assert [a.provider for a in response.attempts] == [first, "exa"]
    assert response.attempts[0].outcome == "failed"
