"""A byte-order mark is dropped where a body's head is read, and named where an id holds one.

What ``test_json_bom_rule`` left: Kagi's error label showed a code in text as sent
(``Kagi API error (\\ufeff429): ...``, a mark inside the parentheses); SearXNG decoded an
error page's head itself, keeping the mark, so an HTML page led by one was not told as
HTML (a bot check, a disabled ``json`` format and a page's title were all lost to a raw
quote), and a 2xx page led by one read as invalid JSON; Codex read its "model is not
supported" phrase from its own decode too. All now read through
``transport.body_head_text`` / ``json_decode.without_bom``, the rule ``error_head`` and
``json_loads`` already used. A provider id led by the mark was refused with ``did you mean
brave?`` and nothing to see; the refusal now names the character by its code point.

Each case goes through the public API against the loopback simulator.
"""

import json
import time
from typing import Any, Final

import pytest

from tests.functional._sim_helpers import chatgpt_token, failure_after, sim_client
from tests.websearch_process import run_websearch
from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import RateLimitedError
from websearch_core.providers.codex import DEFAULT_MODELS
from websearch_core.testing import Fault, SimResult, Simulator

BOM: Final = "\ufeff"
JSON: Final = {"Content-Type": "application/json"}
HTML: Final = {"Content-Type": "text/html; charset=utf-8"}
FORBIDDEN_PAGE: Final = (
    "<!DOCTYPE html><html><head><title>403 Forbidden</title></head>"
    "<body><h1>Forbidden</h1></body></html>"
)
CHALLENGE_PAGE: Final = (
    "<!DOCTYPE html><html><head><title>Just a moment...</title></head>"
    '<body><div class="cf-turnstile"></div></body></html>'
)


async def _kagi_failure(code: Any) -> Exception:
    body = {"data": None, "error": [{"code": code, "msg": "Too many requests"}]}
    fault = Fault.http(200, json.dumps(body), JSON)
    async with Simulator(["kagi"]) as sim:
        return await failure_after(sim, "kagi", "bom label", fault, always=True, cache=False)


@pytest.mark.parametrize("code", [f"{BOM}429", f"{BOM}429{BOM}", f" {BOM}429\n"])
async def test_kagi_s_label_shows_a_code_led_by_a_bom_without_it(code: str) -> None:
    """Failed before: the label held the code as sent, the mark inside the parentheses."""
    failure = await _kagi_failure(code)

    assert isinstance(failure, RateLimitedError)
    assert str(failure).startswith("Kagi API error (429): Too many requests")


async def test_kagi_s_code_with_spaces_was_already_a_status() -> None:
    """A guard (held before outputs59): ``str.strip`` took the spaces off, as the field rule
    does. (A code led by a BOM read as its status, which failed before outputs59, is the
    rows above: moved here from ``test_json_bom_rule.py`` so one helper drives Kagi's code.)"""
    failure = await _kagi_failure(" 429\n")

    assert isinstance(failure, RateLimitedError)


async def test_kagi_s_label_shows_a_code_that_is_no_status_trimmed() -> None:
    """Failed before: ``\\ufeffE42`` was shown as sent."""
    failure = await _kagi_failure(f"{BOM}E42 ")

    assert str(failure) == "Kagi API error (E42): Too many requests"


async def test_kagi_s_label_gives_the_status_for_a_blank_code() -> None:
    """Failed before: a code of a mark alone showed as ``()``, a label with nothing in it."""
    failure = await _kagi_failure(BOM)

    assert str(failure) == "Kagi API error (200): Too many requests"


async def test_kagi_s_label_shows_a_numeric_code_as_sent() -> None:
    """A guard (held before): a number is shown as it came."""
    assert str(await _kagi_failure(7)) == "Kagi API error (7): Too many requests"
    assert str(await _kagi_failure(-1)) == "Kagi API error (-1): Too many requests"


@pytest.mark.parametrize("code", [0, 0.0, False, ""])
async def test_kagi_s_label_gives_the_status_for_a_falsy_code(code: Any) -> None:
    """Failed before for 0 (``Kagi API error (0): ...``): the reference's label is
    ``first.code || status``, and JavaScript finds 0 falsy as it does ``false`` and ``""``
    (those three rows are guards: they gave the status already)."""
    failure = await _kagi_failure(code)

    assert str(failure) == "Kagi API error (200): Too many requests"


SEARXNG_PAGES: Final = [
    pytest.param(403, FORBIDDEN_PAGE, "does not serve the JSON format", id="json-disabled"),
    pytest.param(503, FORBIDDEN_PAGE, "SearXNG API error (503): 403 Forbidden", id="title"),
    pytest.param(429, CHALLENGE_PAGE, 'bot-check page ("Just a moment...")', id="challenge"),
    pytest.param(200, FORBIDDEN_PAGE, "SearXNG returned HTML instead of JSON", id="2xx-html"),
]
"""A status, the HTML page served with it, and what the error must say of it."""


@pytest.mark.parametrize(("status", "page", "expected"), SEARXNG_PAGES)
async def test_a_searxng_page_led_by_a_bom_is_told_as_without_it(
    status: int, page: str, expected: str
) -> None:
    """Failed before: the page was not seen as HTML and its raw text (or "invalid JSON") shown."""
    async with Simulator(["searxng"]) as sim:
        sim["searxng"].enqueue(Fault.http(status, page, HTML), Fault.http(status, BOM + page, HTML))
        async with sim_client(sim) as ws:
            plain = await ws.run("bom page", provider="searxng", use_cache=False)
            marked = await ws.run("bom page", provider="searxng", use_cache=False)

    assert expected in plain.text
    assert marked.text == plain.text


async def test_codex_moves_past_a_bom_led_unsupported_model_refusal() -> None:
    """A guard (held before): the phrase is searched for, so a mark before it never hid it."""
    refusal = json.dumps({"detail": "The 'gpt-5.5' model is not supported when using Codex"})
    async with Simulator(["codex"]) as sim:
        sim["codex"].results = [
            SimResult(
                title="asyncio",
                url="https://docs.python.org/3/library/asyncio.html",
                snippet="asyncio writes concurrent code.",
            )
        ]
        token = OAuthToken(
            access_token=chatgpt_token("acct-bom"), refresh_token="r", expires_at=time.time() + 3600
        )
        CredentialStore(sim.settings().resolved_credentials_file()).set_oauth("codex", token)
        sim["codex"].enqueue(Fault.http(400, BOM + refusal, JSON))
        async with sim_client(sim) as ws:
            response = await ws.search("bom model", provider="codex")
        models = [request.json()["model"] for request in sim["codex"].requests]

    assert models == list(DEFAULT_MODELS[:2])
    assert response.model == DEFAULT_MODELS[1]


NAMED: Final = "'\\ufeffbrave' holds an invisible character (U+FEFF ZERO WIDTH NO-BREAK SPACE)"
"""How the refusal shows the id: by ``repr``, the mark escaped, then named."""


def test_a_provider_setting_led_by_a_bom_names_the_mark() -> None:
    """Failed before: ``Unknown search provider: \\ufeffbrave ...; did you mean brave?``."""
    with pytest.raises(ValueError, match="Unknown search provider") as raised:
        WebSearch(provider=f"{BOM}brave")

    assert f"{NAMED} at character 1; did you mean brave?" in str(raised.value)


def test_a_provider_list_entry_with_a_zero_width_space_names_it() -> None:
    """Failed before: ``unknown provider id bra\\u200bve ...; did you mean brave?``."""
    with pytest.raises(ValueError, match="unknown provider id") as raised:
        WebSearch(providers=["tavily", "bra\u200bve"])

    named = "'bra\\u200bve' holds an invisible character (U+200B ZERO WIDTH SPACE) at character 4"
    assert f"{named}; did you mean brave?" in str(raised.value)


async def test_a_call_s_provider_led_by_a_bom_names_the_mark() -> None:
    """Failed before: the call's argument was refused in the same unseen words."""
    async with Simulator(["brave"]) as sim, sim_client(sim) as ws:
        with pytest.raises(ValueError, match="Unknown search provider") as raised:
            await ws.search("bom id", provider=f"{BOM}brave")

    assert f"{NAMED} at character 1; did you mean brave?" in str(raised.value)


def test_the_command_s_provider_led_by_a_bom_names_the_mark() -> None:
    """Failed before: ``websearch --provider`` refused it in the same unseen words."""
    done = run_websearch(["--provider", f"{BOM}brave", "bom id"])

    assert done.returncode != 0
    assert f"{NAMED} at character 1; did you mean brave?" in done.stderr


def test_an_ascii_typo_is_answered_as_before() -> None:
    """A guard (held before): nothing is added for an id that holds no unseen character."""
    with pytest.raises(ValueError) as raised:
        WebSearch(provider="bravo")

    assert "invisible" not in str(raised.value)
    assert "(known: perplexity," in str(raised.value)
    assert "did you mean brave? [type=value_error]" in str(raised.value)
