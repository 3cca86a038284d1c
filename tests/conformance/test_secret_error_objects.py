"""What an error object carries after a failure with a key: no shape of the key, anywhere.

Messages were masked on every failure path (stops 49, 50); these tests read what else a
caller's ``except`` block, a logger or an error tracker takes from what we raise or log:
``str``, ``repr``, ``args``, ``__notes__``, the ``__cause__``/``__context__`` chain, every
attribute of every error and of what it holds, ``traceback.format_exception``, the locals
of the library's frames in each traceback (a tracker records those), and each DEBUG
record whole (``extra`` fields, ``exc_info``). Each provider kind is driven on the loopback
simulator into failures whose bodies echo the request: a key in a header (Brave), a
Bearer key (Jina), a Bearer sign-in (Codex's stored token), Basic (SearXNG), and a key in
the query string of the SearXNG endpoint (a gateway that signs in by query parameter).
"""

import base64
import json
import logging
import pathlib
import traceback

import pytest

from tests.conformance._leaks import echo_forms_seen, library_logs, reachable_texts
from websearch_core import AllProvidersFailedError, WebSearch, providers
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.models import SearchParams, SearchResponse
from websearch_core.providers.brave import BraveProvider
from websearch_core.settings import Settings
from websearch_core.testing import Fault, Simulator
from websearch_core.transport import HttpResponse

KEY = "sk-proj-Q7fK2mVt9XbL4nRw8ZcJ1pHs6dGy3uEa"
"""A key of a real provider's shape (OpenAI's project keys): 40 characters."""
USER = "alice"
STATUSES = (401, 403, 429, 500)


def _sign_in(account: str) -> str:
    """A Codex sign-in token of the real shape (a JWT naming its account), ending in KEY."""
    claims = {"https://api.openai.com/auth": {"chatgpt_account_id": account}}
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"eyJhbGciOiJSUzI1NiJ9.{payload}.{KEY[3:]}"


def _echo(secret: str, query_name: str = "key") -> str:
    """The request as a failing upstream quotes it: every place a key may travel."""
    basic = base64.b64encode(f"{USER}:{secret}".encode()).decode()
    return json.dumps(
        {
            "error": {
                "message": (
                    f"refused GET /search?{query_name}={secret}&q=python; "
                    f"Authorization: Bearer {secret}; Authorization: Basic {basic}; "
                    f"X-Subscription-Token: {secret}"
                )
            }
        }
    )


def _fault(status: int, secret: str, query_name: str = "key") -> Fault:
    """A failure of ``status`` echoing the request in its body and a header."""
    headers = {"Content-Type": "application/json", "X-Echo": secret}
    return Fault.http(status, body=_echo(secret, query_name), headers=headers)


async def _seen(
    sim: Simulator, provider_id: str, settings: Settings, api_keys: dict[str, str]
) -> list[str]:
    """A tool call and a raising search: everything reachable from what they give back."""
    async with WebSearch(settings, api_keys=api_keys) as ws:
        result = await ws.run("python asyncio", provider=provider_id)
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search("python asyncio", provider=provider_id, use_cache=False)
    assert sim[provider_id].requests, "the provider should have been asked"
    assert result.error is not None, "every fault here is a failure"
    return [result.text, repr(result), *reachable_texts(caught.value)]


def _logged(records: list[logging.LogRecord]) -> list[str]:
    """Each library record whole, and everything reachable from an error it carries."""
    seen = library_logs(records)
    for record in records:
        if record.exc_info and record.exc_info[1] is not None:
            seen.extend(reachable_texts(record.exc_info[1]))
    return seen


@pytest.mark.parametrize("status", [429, 500])
@pytest.mark.parametrize("name", ["token", "api_key", "key"])
async def test_a_key_in_the_endpoints_query_never_shows(
    name: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """A key the SearXNG endpoint carries in its query string (``?token=...``).

    The search URL keeps the endpoint's query, so the key leaves with every request; only
    a URL's userinfo was taken for a secret, so a gateway quoting the refused request put
    the key whole in the error (str, repr, args, traceback), each failure in it, the
    tool's text and the DEBUG line. Failed before the fix, for each name and status.
    """
    caplog.set_level(logging.DEBUG)
    async with Simulator(["searxng"]) as sim:
        origin = sim["searxng"].base_url
        sim["searxng"].always(_fault(status, KEY, name))
        settings = sim.settings(
            rate_limit_wait_seconds=0, searxng={"endpoint": f"{origin}/?{name}={KEY}"}
        )
        seen = await _seen(sim, "searxng", settings, {})
        sent = sim["searxng"].requests[0].query_dict()
    assert sent[name] == KEY, "the endpoint's query is sent: the echo is of a real request"
    assert echo_forms_seen(KEY, [*seen, *_logged(caplog.records)]) == []


def _kinds(sim: Simulator, tmp_path: pathlib.Path) -> dict[str, tuple[Settings, dict[str, str]]]:
    """Settings and keys for each provider kind, its key or sign-in ending in KEY."""
    origin = sim["searxng"].base_url
    credentials = tmp_path / "credentials.json"
    CredentialStore(credentials).set_oauth("codex", OAuthToken(access_token=_sign_in("acct-x")))
    basic = {"endpoint": origin, "basic_username": USER, "basic_password": KEY}
    plain = sim.settings(rate_limit_wait_seconds=0)
    return {
        "brave": (plain, {"brave": KEY}),
        "jina": (plain, {"jina": KEY}),
        "codex": (sim.settings(rate_limit_wait_seconds=0, credentials_file=credentials), {}),
        "searxng": (sim.settings(rate_limit_wait_seconds=0, searxng=basic), {}),
    }


FAULTS = {
    **{f"http{status}": status for status in STATUSES},
    "reset": None,
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
@pytest.mark.parametrize("provider_id", ["brave", "codex", "jina", "searxng"])
async def test_guard_no_error_object_carries_the_key(
    provider_id: str, fault: str, tmp_path: pathlib.Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A guard (it passed before this round's fix too): header, Bearer, sign-in and Basic.

    Each provider error is detached from aiohttp's exception and its frames where the
    chain keeps it (``kept_failures.detach``), and the error a search raises is built afresh
    from their texts, raised outside any ``except`` block: no ``__cause__`` or
    ``__context__``, no ``request_info``, and the library's frames in its traceback
    (``WebSearch.search`` and below) hold no key in any local a tracker records (the
    client is recorded by its ``repr``, which names no key).
    """
    caplog.set_level(logging.DEBUG)
    async with Simulator(["brave", "codex", "jina", "searxng"]) as sim:
        settings, api_keys = _kinds(sim, tmp_path)[provider_id]
        status = FAULTS[fault]
        secret = KEY if provider_id != "codex" else _sign_in("acct-x")
        sim[provider_id].always(Fault.reset() if status is None else _fault(status, secret))
        seen = await _seen(sim, provider_id, settings, api_keys)
    assert echo_forms_seen(secret, [*seen, *_logged(caplog.records)]) == []
    assert echo_forms_seen(KEY, [*seen, *_logged(caplog.records)]) == []


class _BuggyBrave(BraveProvider):
    """Brave with a bug: it reads a 2xx body as JSON without the checks the real one has.

    The request is the real one (the key in ``X-Subscription-Token``), sent through the
    real transport; only the parse is wrong, as a provider's bug would be.
    """

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        return SearchResponse.model_validate(json.loads(response.body))


async def test_a_providers_bug_hands_out_nothing_it_held(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug (no provider error) on a 200 page quoting the request: no key reachable.

    The chain logs a bug with its traceback (``exc_info``), and the search's failure names
    it as its cause. Before the fix both were the bug's own exception: its frames' locals
    (the flow, the response quoting the key, in the library's request loop) went to any
    handler or tracker reading the record's ``exc_info``, and ``json.JSONDecodeError.doc``
    (the whole body) hung off ``failures[0].__cause__``. The traceback's lines stay.
    """
    caplog.set_level(logging.DEBUG)
    monkeypatch.setitem(providers._instances, "brave", _BuggyBrave())
    page = f"<html><body>Gateway: GET /res/v1/web/search X-Subscription-Token: {KEY}</body>"
    async with Simulator(["brave"]) as sim:
        sim["brave"].always(Fault.http(200, body=page, headers={"Content-Type": "text/html"}))
        seen = await _seen(sim, "brave", sim.settings(rate_limit_wait_seconds=0), {"brave": KEY})
    logged = [record.exc_info for record in caplog.records if record.exc_info]
    assert len(logged) == 2, "the tool call's and the search's bug, each logged"
    for exc_info in logged:
        traced = "".join(traceback.format_exception(*exc_info))
        assert "JSONDecodeError" in traced and "parse_response" in traced, "the bug is findable"
    assert echo_forms_seen(KEY, [*seen, *_logged(caplog.records)]) == []
