"""The contract: every provider, every fault, the same guarantees.

Each test runs once per registered provider (``provider_id`` is parametrised in conftest), a
search forced to that provider against the loopback simulator answering with one fault.
Whatever the provider, a fault ends in a typed :class:`SearchProviderError` inside
``AllProvidersFailedError`` (never another exception, never a hang), within the provider's
time; rate-limit hints of any shape leave state that reads back; redirects never carry
credentials off their origin; and no secret reaches text, metadata, errors or logs.
"""

import asyncio
import json
import logging
import math
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from aiohttp import web

from tests.contract.conftest import KEY, OAUTH_ONLY, TOKEN, contract_client
from tests.contract.spec_texts import (
    BOT_WALL_STATUSES,
    BROWSER_OFF_ENDING,
    BROWSER_SEARCH_FAILED,
    CHALLENGE_PAGES,
    plain_fetch_failure,
    raw_status_message,
    status_error_text,
    timeout_text,
    too_large_text,
)
from websearch_core import AllProvidersFailedError, SearchProviderError, SearchToolResult
from websearch_core.errors import (
    AuthorizationError,
    ChallengeError,
    CreditsSpentError,
    ProviderConnectionError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    ResponseTooLargeError,
)
from websearch_core.sanitize import is_clean_url
from websearch_core.testing import Fault, Framing, Simulator
from websearch_core.transport import CREDENTIAL_HEADERS

QUERY = "python asyncio"
MONTH = 31 * 86_400
EXPECTED_CLASS: dict[int, type[SearchProviderError]] = {
    400: SearchProviderError,
    401: AuthorizationError,
    402: QuotaExhaustedError,
    403: AuthorizationError,
    404: SearchProviderError,
    500: ProviderUnavailableError,
    502: ProviderUnavailableError,
    503: ProviderUnavailableError,
}
"""What the shared classifier makes of each status, for every provider alike."""
PREPAID_402 = frozenset({"anthropic", "exa", "gemini", "jina"})
"""Providers whose own documents call a 402 a spent prepaid balance (RESULTS "Stop 45
(creditprobe2)", Gemini's key in "Stop 46 (prepaid2)"): a :class:`CreditsSpentError`,
re-checked rather than held to next month."""
DOCUMENTED_RETRIES = frozenset({"gemini"})
"""Providers whose spec'd behaviour is to resend the same request after a failure."""


async def _failure(
    sim: Simulator, provider_id: str, tmp_path: Path, fault: Fault, **overrides: object
) -> SearchProviderError:
    sim[provider_id].always(fault)
    async with contract_client(sim, provider_id, tmp_path, **overrides) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider=provider_id)
    failure = caught.value.failures[-1]
    assert isinstance(failure, SearchProviderError)
    assert failure.provider == provider_id
    return failure


async def _outcome(
    sim: Simulator, provider_id: str, tmp_path: Path, fault: Fault, **overrides: object
) -> tuple[str, SearchProviderError]:
    """The text the model reads for ``fault``, then the typed failure behind it."""
    sim[provider_id].always(fault)
    async with contract_client(sim, provider_id, tmp_path, **overrides) as ws:
        result = await ws.run(QUERY, provider=provider_id)
    assert result.error is not None
    assert result.text == f"Error: {result.error}"
    assert result.response.provider == provider_id
    return result.error, await _failure(sim, provider_id, tmp_path, fault, **overrides)


@pytest.mark.parametrize(
    "retry_after",
    [None, "7", "1e300", "inf", "-inf", "nan", "-5", "soon, maybe", "HTTP_DATE"],
)
async def test_any_retry_after_is_clamped_and_never_poisons_the_state(
    sim: Simulator, provider_id: str, tmp_path: Path, retry_after: str | None
) -> None:
    if retry_after == "HTTP_DATE":
        retry_after = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    headers = {} if retry_after is None else {"Retry-After": retry_after}
    sim[provider_id].always(Fault.http(429, "slow down", headers))
    state = {"state_backend": "sqlite", "state_dir": tmp_path / "state"}
    async with contract_client(sim, provider_id, tmp_path, **state) as ws:
        with pytest.raises(AllProvidersFailedError):
            await ws.search(QUERY, provider=provider_id)
        # A second search and the status table read the mark back without raising.
        with pytest.raises(AllProvidersFailedError):
            await ws.search(QUERY, provider=provider_id)
        rows = {row.id: row for row in await ws.provider_status()}
    mark = rows[provider_id].mark
    if mark is not None:
        assert math.isfinite(mark.until)
        assert mark.until <= time.time() + MONTH + 60


@pytest.mark.parametrize("status", [400, 401, 402, 403, 404, 500, 502, 503])
async def test_an_error_status_is_a_typed_failure_with_that_status(
    sim: Simulator, provider_id: str, tmp_path: Path, status: int
) -> None:
    # A body padded with white space: an API quotes it trimmed, an HTML engine leaves it out.
    text, failure = await _outcome(sim, provider_id, tmp_path, Fault.http(status, "  nope \n"))
    if status in BOT_WALL_STATUSES.get(provider_id, ()):
        # An engine that reads a 403 as its bot wall (Google, Ecosia): blocked, 429.
        assert isinstance(failure, ChallengeError) and failure.status == 429
        return
    assert failure.status == status
    prepaid = status == 402 and provider_id in PREPAID_402
    assert type(failure) is (CreditsSpentError if prepaid else EXPECTED_CLASS[status])
    # The spec's sentence: authorization for 401/403 (a keyless engine's block; Z.AI's own
    # words), credits for 402, the Anthropic 404 text, else the provider's status error.
    assert text == status_error_text(provider_id, status, "nope")
    # Behind the 401/403 sentence the failure keeps its own words; elsewhere it is the text.
    assert failure.message == raw_status_message(provider_id, status, "nope", text)


@pytest.mark.parametrize("retry_after", [None, 7])
async def test_a_429_is_a_rate_limit_carrying_its_hint(
    sim: Simulator, provider_id: str, tmp_path: Path, retry_after: int | None
) -> None:
    fault = Fault.rate_limited(retry_after=retry_after, body="slow down")
    text, failure = await _outcome(sim, provider_id, tmp_path, fault)
    assert failure.status == 429
    if 429 in BOT_WALL_STATUSES.get(provider_id, ()):
        assert isinstance(failure, ChallengeError)
        return
    assert isinstance(failure, RateLimitedError)
    assert failure.retry_after == retry_after
    assert text == status_error_text(provider_id, 429, "slow down")


@pytest.mark.parametrize(
    "fault", [Fault.server_error(), Fault.challenge()], ids=["500", "challenge"]
)
async def test_a_failure_is_not_remembered_by_the_next_search(
    sim: Simulator, provider_id: str, tmp_path: Path, fault: Fault
) -> None:
    sim[provider_id].always(fault)
    async with contract_client(sim, provider_id, tmp_path) as ws:
        first = await ws.run(QUERY, provider=provider_id)
        failed = [(r.method, r.path, r.body) for r in sim[provider_id].requests]
        sim[provider_id].always(None)
        second = await ws.search(QUERY, provider=provider_id, limit=2)
    assert first.is_error
    assert len(second.sources) == 2
    # The failure is final for the call: no step is sent twice, but for a documented retry
    # policy.
    if provider_id not in DOCUMENTED_RETRIES:
        assert len(failed) == len(set(failed))


async def test_a_short_rate_limit_is_waited_out_once(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    bot_wall = 429 in BOT_WALL_STATUSES.get(provider_id, ())
    async with contract_client(sim, provider_id, tmp_path, rate_limit_wait_seconds=2) as ws:
        await ws.search(QUERY, provider=provider_id, limit=2)
        clean = len(sim[provider_id].requests)
        sim[provider_id].enqueue(Fault.rate_limited(retry_after=0.05))
        if bot_wall:
            # Google's and Ecosia's 429 is their bot wall: a block, not waited out or resent.
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search(QUERY, provider=provider_id, limit=2)
            assert isinstance(caught.value.failures[-1], ChallengeError)
            assert len(sim[provider_id].requests) == 2 * clean
            return
        response = await ws.search(QUERY, provider=provider_id, limit=2)
    assert response.has_renderable_content()
    # One request more than a clean search: the limited one, sent again once after the wait
    # (Startpage's tokenless fallback takes the limited homepage's place instead).
    extra = len(sim[provider_id].requests) - 2 * clean
    assert extra == (0 if provider_id == "startpage" else 1)


async def test_a_hang_ends_within_the_providers_time(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    """The search gives up on the hung request at its own 0.5 s, not when the server answers.

    Bound by events, not by the time taken (``elapsed < 2.5`` flipped on a loaded machine):
    the error names the provider's timeout (the give-up path; the search's deadline says
    otherwise), and the simulator still holds the hung request when the search ends (the
    server never answered it). The 5 s (ten times the timeout) only turns a hang into a
    failure: nothing should wait past the provider's time.
    """

    async def held_run() -> tuple[int, SearchToolResult]:
        sim[provider_id].always(Fault.hang())
        async with contract_client(sim, provider_id, tmp_path, timeout_seconds=0.5) as ws:
            result = await ws.run(QUERY, provider=provider_id)
            return len(sim[provider_id]._hanging), result

    # The text the model reads and the typed failure behind it, from two clients (state in
    # memory, each its own) whose hangs are waited out together: the claims are independent,
    # and one after the other paid the 0.5 s twice for each of the 25 providers.
    async with asyncio.timeout(10 * 0.5):  # a hang guard only
        (held, result), failure = await asyncio.gather(
            held_run(),
            _failure(sim, provider_id, tmp_path, Fault.hang(), timeout_seconds=0.5),
        )
    assert held >= 1  # still hung when the search ended: it gave up, nothing answered
    assert result.error == timeout_text(provider_id, "0.5")
    assert result.response.attempts[-1].outcome == "failed"
    assert isinstance(failure, ProviderTimeoutError)
    # The engines that may escalate to the browser time out the whole search: a gateway 504.
    assert failure.status == (504 if provider_id in BROWSER_SEARCH_FAILED else None)


async def test_a_reset_is_one_counted_request_and_a_connection_error(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    failure = await _failure(sim, provider_id, tmp_path, Fault.reset())
    assert isinstance(failure, ProviderConnectionError)
    connection = plain_fetch_failure(provider_id, "connection failed (127.0.0.1:")
    assert failure.message.startswith(connection)
    assert failure.status == (503 if provider_id in BROWSER_SEARCH_FAILED else None)
    # No hidden re-send: a multi-step provider may move on to its next step, never repeat one,
    # unless its documented retry policy says so (the spec's Gemini back-off).
    paths = [(r.method, r.path, r.body) for r in sim[provider_id].requests]
    if provider_id not in DOCUMENTED_RETRIES:
        assert len(paths) == len(set(paths))


async def test_a_truncated_body_is_a_connection_error(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    failure = await _failure(sim, provider_id, tmp_path, Fault.truncate())
    assert isinstance(failure, ProviderConnectionError)
    closed = plain_fetch_failure(provider_id, "connection closed before the response was complete")
    assert failure.message.startswith(closed)


async def test_a_reply_that_is_not_http_is_a_one_line_invalid_response(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    failure = await _failure(sim, provider_id, tmp_path, Fault.not_http(b"HELLO\x1b[2J\r\n\r\n"))
    assert isinstance(failure, ProviderUnavailableError)
    # A gateway's 502; the engines that may escalate wrap it in their 503 failure.
    assert failure.status == (503 if provider_id in BROWSER_SEARCH_FAILED else 502)
    host = urlsplit(sim[provider_id].base_url).netloc
    invalid = plain_fetch_failure(
        provider_id, f"sent an invalid HTTP response ({host}): Bad status"
    )
    assert failure.message == f"{invalid} line{BROWSER_OFF_ENDING.get(provider_id, '')}"
    assert "\n" not in failure.message and "HELLO" not in failure.message


@pytest.mark.parametrize("encoding", ["gzip", "br", "deflate"])
async def test_a_body_that_does_not_decode_says_so(
    sim: Simulator, provider_id: str, tmp_path: Path, encoding: str
) -> None:
    failure = await _failure(sim, provider_id, tmp_path, Fault.undecodable(encoding))
    assert isinstance(failure, ProviderUnavailableError)
    assert failure.status == (503 if provider_id in BROWSER_SEARCH_FAILED else 502)
    host = urlsplit(sim[provider_id].base_url).netloc
    assert failure.message == (
        plain_fetch_failure(provider_id, f"response could not be decoded ({host}): ")
        + f"its Content-Encoding {encoding} is broken or not supported"
        f"{BROWSER_OFF_ENDING.get(provider_id, '')}"
    )


async def test_a_malformed_body_is_a_parse_error(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    failure = await _failure(sim, provider_id, tmp_path, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.status == 502


async def test_a_challenge_is_a_block_or_a_plain_403(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    text, failure = await _outcome(sim, provider_id, tmp_path, Fault.challenge())
    if provider_id in CHALLENGE_PAGES:
        # An engine with a bot wall: a challenge (429) so the chain moves on, never a success.
        assert isinstance(failure, ChallengeError) and failure.status == 429
    else:
        # An API has no challenge page; its simulator answers 403, read as any 403.
        assert isinstance(failure, AuthorizationError) and failure.status == 403
        assert text == status_error_text(provider_id, 403, "Forbidden")


@pytest.mark.parametrize("framing", ["declared", "chunked", "gzip"])
async def test_an_oversized_body_is_refused_at_the_cap(
    sim: Simulator, provider_id: str, tmp_path: Path, framing: Framing
) -> None:
    # With a Content-Length, in chunks without one, or compressed (only its inflated size
    # is over): every provider's body is read through the one capped transport.
    oversized = Fault.oversized(size=300_000, framing=framing)
    text, failure = await _outcome(
        sim, provider_id, tmp_path, oversized, max_response_bytes=64 * 1024
    )
    assert isinstance(failure, ResponseTooLargeError)
    assert text == too_large_text(provider_id, "64 KiB")


@pytest.mark.parametrize("status", [401, 429, 503])
@pytest.mark.parametrize("framing", ["declared", "chunked"])
async def test_an_error_page_past_the_cap_is_still_that_status(
    sim: Simulator, provider_id: str, tmp_path: Path, framing: Framing, status: int
) -> None:
    # A 5xx (or 429, 401) whose body runs to megabytes: only its head is ever quoted, so the
    # status decides, never the size. A 429 keeps its wait; a 401 keeps its sign-in advice.
    headers = {"Retry-After": "7"} if status == 429 else {}
    error_page = Fault.oversized(size=300_000, framing=framing, status=status, headers=headers)
    text, failure = await _outcome(
        sim, provider_id, tmp_path, error_page, max_response_bytes=64 * 1024
    )
    assert not isinstance(failure, ResponseTooLargeError)
    if status in BOT_WALL_STATUSES.get(provider_id, ()):
        assert isinstance(failure, ChallengeError) and failure.status == 429
        return
    assert failure.status == status
    assert type(failure) is {401: AuthorizationError, 503: ProviderUnavailableError}.get(
        status, RateLimitedError
    )
    if isinstance(failure, RateLimitedError):
        assert failure.retry_after == 7
    # The spec's sentence for the status; an API quotes the head of the body, no more.
    assert text.startswith(status_error_text(provider_id, status, ""))
    assert len(text) < 16 * 1024


async def test_an_empty_result_is_never_a_success_with_nothing(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    sim[provider_id].results = []
    async with contract_client(sim, provider_id, tmp_path) as ws:
        result = await ws.run(QUERY, provider=provider_id)
    assert result.is_error or result.response.has_renderable_content()


async def test_ten_thousand_results_are_capped_at_the_limit(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    from websearch_core.testing import SimResult

    sim[provider_id].results = [
        SimResult(title=f"r{i}", url=f"https://r{i}.example.org/", snippet="s")
        for i in range(10_000)
    ]
    async with contract_client(sim, provider_id, tmp_path, max_response_bytes=8 << 20) as ws:
        result = await ws.run(QUERY, provider=provider_id, limit=3)
    assert len(result.response.sources) <= 3
    assert len(result.response.citations) <= 100
    assert len(result.text) < 64 * 1024


async def test_hostile_text_and_urls_are_cleaned(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    from websearch_core.testing import SimResult

    sim[provider_id].results = [
        SimResult(
            title="\x1b]0;pwned\x07Title\x1b[2J\u202eevil",
            url="https://ok.example.org/",
            snippet="line\x07 one\x1b[31m red",
        ),
        SimResult(title="userinfo", url="https://user:pw@bad.example.org/", snippet="s"),
        SimResult(title="nul", url="\x00https://bad.example.org/nul", snippet="s"),
        SimResult(title="rlo", url="https://bad.example.org/\u202egpj.exe", snippet="s"),
    ]
    async with contract_client(sim, provider_id, tmp_path) as ws:
        result = await ws.run(QUERY, provider=provider_id)
    text = result.text + result.response.model_dump_json()
    for forbidden in ("\x1b", "\x07", "\u202e", "\x00", "user:pw@"):
        assert forbidden not in text
    urls = [s.url for s in result.response.sources] + [c.url for c in result.response.citations]
    assert all(is_clean_url(url) for url in urls)
    # The userinfo, bidi and NUL-prefixed URLs are dropped, never repaired into a clean form
    # (urlsplit strips leading control characters, so a parser could rebuild one).
    assert not any(urlsplit(url).path.startswith("/\u202e") for url in urls)
    assert not any(urlsplit(url).username for url in urls)
    assert not any(url.endswith("/nul") for url in urls)


async def test_a_key_echoed_in_a_success_body_never_reaches_the_model_or_the_cache(
    sim: Simulator, provider_id: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from websearch_core.testing import SimResult

    caplog.set_level(logging.DEBUG)
    secret = TOKEN if provider_id in OAUTH_ONLY else KEY
    sim[provider_id].results = [
        SimResult(
            title=f"echo {secret.upper()} and {secret[:12]}...",
            url="https://ok.example.org/",
            snippet=f"your key is {secret} ({quote(secret, safe='')})",
        )
    ]
    async with contract_client(sim, provider_id, tmp_path) as ws:
        result = await ws.run(QUERY, provider=provider_id)
    seen = "\n".join(
        [result.text, result.response.model_dump_json(), *(r.getMessage() for r in caplog.records)]
    )
    assert secret.lower() not in seen.lower()
    assert secret[:12] not in seen


async def test_a_key_echoed_json_escaped_in_an_error_body_is_masked_everywhere(
    sim: Simulator, provider_id: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = TOKEN if provider_id in OAUTH_ONLY else KEY
    escaped = "".join(f"\\u{ord(char):04X}" for char in secret)  # every character escaped
    body = json.dumps({"error": {"message": "invalid key"}}).replace("invalid key", escaped)
    sim[provider_id].always(Fault.http(500, body, {"Content-Type": "application/json"}))
    state_dir = tmp_path / "state"
    async with contract_client(
        sim, provider_id, tmp_path, state_backend="sqlite", state_dir=state_dir
    ) as ws:
        results = [await ws.run(QUERY, provider=provider_id) for _ in range(3)]
        rows = await ws.provider_status()
    stored = b"".join(path.read_bytes() for path in state_dir.rglob("*") if path.is_file())
    seen = "\n".join(
        [
            *(result.text for result in results),
            *(result.response.model_dump_json() for result in results),
            *(row.reason for row in rows),
            *(record.getMessage() for record in caplog.records),
            stored.decode("utf-8", "replace"),
        ]
    )
    assert escaped.lower() not in seen.lower()
    assert escaped[:48].lower() not in seen.lower()  # nor a long enough piece of it
    assert secret.lower() not in seen.lower()


HOSTILE_ERROR_BODY = "\x1b]0;pwned\x07\x1b[2J\u202eevil\x00\x08\x08 error\r\n\tline two\x9b1m"
"""An error body that would retitle and clear a terminal and reverse the text after it."""


async def test_an_error_body_reaches_no_terminal_escape_or_control_anywhere(
    sim: Simulator, provider_id: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    sim[provider_id].always(Fault.http(500, HOSTILE_ERROR_BODY))
    state_dir = tmp_path / "state"
    async with contract_client(
        sim, provider_id, tmp_path, state_backend="sqlite", state_dir=state_dir
    ) as ws:
        results = [await ws.run(QUERY, provider=provider_id) for _ in range(3)]
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider=provider_id, use_cache=False)
        rows = await ws.provider_status()
    texts = [
        *(result.text for result in results),
        *(attempt.detail or "" for result in results for attempt in result.response.attempts),
        str(caught.value),
        *(failure.message for failure in caught.value.failures),
        *(row.reason for row in rows),
        *(record.getMessage() for record in caplog.records),
    ]
    for text in texts:  # line feeds and tabs may stay (a quoted body keeps its lines)
        assert text.replace("\n", "").replace("\t", "").isprintable(), repr(text)
        assert "\u202e" not in text and "pwned" not in text, repr(text)
    if "evil" in results[0].text:  # an API quotes the body: its words, its lines
        assert "evil error\n\tline two" in results[0].text


@pytest.fixture
async def foreign() -> AsyncIterator[tuple[str, list[web.Request]]]:
    """A server on another origin that records what reaches it."""
    seen: list[web.Request] = []

    async def record(request: web.Request) -> web.Response:
        await request.read()
        seen.append(request)
        return web.Response(status=200, text="{}", content_type="application/json")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", record)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.2", 0)
    await site.start()
    host, port = runner.addresses[-1][:2]
    yield f"http://{host}:{port}", seen
    await runner.cleanup()


@pytest.mark.parametrize("status", [302, 307])
async def test_a_redirect_to_another_origin_never_carries_credentials(
    sim: Simulator,
    provider_id: str,
    tmp_path: Path,
    foreign: "tuple[str, list[web.Request]]",
    status: int,
) -> None:
    origin, seen = foreign
    sim[provider_id].always(Fault.redirect(f"{origin}/steal", status))
    async with contract_client(sim, provider_id, tmp_path) as ws:
        result = await ws.run(QUERY, provider=provider_id)
    for request in seen:
        assert request.method == "GET"
        carried = "\n".join(f"{k}: {v}" for k, v in request.headers.items())
        assert KEY not in carried
        assert "authorization" not in carried.lower()
    credentialed = any(
        name.lower() in CREDENTIAL_HEADERS or KEY in value or TOKEN in value
        for r in sim[provider_id].requests
        for name, value in r.headers.items()
    )
    if credentialed:
        # A credentialed request is refused, with the other origin named.
        assert result.is_error
        assert "redirected to another origin (127.0.0.2:" in result.text


async def test_a_redirect_to_a_non_http_scheme_is_refused(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    failure = await _failure(sim, provider_id, tmp_path, Fault.redirect("file:///etc/passwd"))
    assert "redirected to a file: location; not followed" in failure.message
