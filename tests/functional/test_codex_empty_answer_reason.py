"""A searched Codex answer with neither text nor a source: the refusal says what was missing.

The reference refuses every such answer as ``Codex returned image-only response``. Stop 51's
pair sweep (audit52) met that text 352 times on the real Responses objects of
``../shared/fixtures/openai`` (read there, not copied) whose message item had come broken:
no image was in any of them, so the text was untrue. Here each capture is served by the
loopback simulator with every message item broken one way, and the refusal must name that
way; an image placeholder, the one case the text is true of, keeps it (a guard).
"""

import copy
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import fault_failure
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.providers._codex_parse import IMAGE_ONLY
from websearch_core.testing import Fault, Simulator

CAPTURES: Final = (
    "openai/responses_web_search_url_citation_gpt5_2.json",
    "openai/responses_web_search_verbatim_gpt4o_mini.json",
)
"""The real Responses objects whose message item holds the only text and sources.

``responses_web_search_allowed_domains.json`` is not one: its ``open_page`` actions are
sources, so with its message broken it answers with them.
"""
JSON: Final = {"Content-Type": "application/json"}
NO_ANSWER: Final = "Codex returned no answer or sources"
BROKEN_CONTENT: Final = "the message item's content is not a list of parts"
NO_TEXT_PART: Final = "the message item has no output_text part holding text"
NO_MESSAGE: Final = "no message item came"

Item = dict[str, Any]


def _content(value: object) -> Callable[[Item], None]:
    def change(item: Item) -> None:
        item["content"] = copy.deepcopy(value)

    return change


def _drop(key: str) -> Callable[[Item], None]:
    def change(item: Item) -> None:
        item.pop(key)

    return change


def _each_part(key: str, value: object) -> Callable[[Item], None]:
    def change(item: Item) -> None:
        for part in item["content"]:
            part[key] = value

    return change


def _item_type(value: object) -> Callable[[Item], None]:
    def change(item: Item) -> None:
        item["type"] = value

    return change


BREAKS: Final = {
    "content 7": (_content(7), BROKEN_CONTENT),
    "content null": (_content(None), BROKEN_CONTENT),
    "content an object": (_content({"k": "v"}), BROKEN_CONTENT),
    "content deleted": (_drop("content"), BROKEN_CONTENT),
    "content empty": (_content([]), NO_TEXT_PART),
    "parts' type 7": (_each_part("type", 7), NO_TEXT_PART),
    "one part, text 7": (_content([{"type": "output_text", "text": 7}]), NO_TEXT_PART),
    "one part, text blank": (_content([{"type": "output_text", "text": " "}]), NO_TEXT_PART),
    "type 7": (_item_type(7), NO_MESSAGE),
    "type deleted": (_drop("type"), NO_MESSAGE),
}


def _broken(capture: str, change: Callable[[Item], None]) -> str:
    """The capture with ``change`` made to every message item (none is left whole)."""
    body = json.loads(read_capture(capture))
    messages = [item for item in body["output"] if item.get("type") == "message"]
    assert messages, capture
    for item in messages:
        change(item)
    return json.dumps(body)


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["codex"]) as simulator:
        CredentialStore(simulator.settings().resolved_credentials_file()).set_oauth(
            "codex", OAuthToken(access_token="sim-token", expires_at=time.time() + 3600)
        )
        yield simulator


@pytest.mark.parametrize("capture", CAPTURES)
@pytest.mark.parametrize("name", list(BREAKS))
async def test_the_refusal_names_what_the_message_lacked(
    sim: Simulator, capture: str, name: str
) -> None:
    """Failed before: each was ``Codex returned image-only response``, though no image came."""
    change, lack = BREAKS[name]
    failure = await fault_failure(
        sim, "codex", "python asyncio", Fault.http(200, _broken(capture, change), JSON)
    )
    assert (failure.message, failure.status) == (f"{NO_ANSWER}: {lack}", 502)
    assert "image" not in failure.message


@pytest.mark.parametrize("capture", CAPTURES)
async def test_an_image_placeholder_is_still_image_only(sim: Simulator, capture: str) -> None:
    """A guard: the reference's text stays where it is true (the text is a placeholder)."""
    placeholder = {"type": "output_text", "text": "See attached image.", "annotations": []}
    body = _broken(capture, _content([placeholder]))
    failure = await fault_failure(sim, "codex", "python asyncio", Fault.http(200, body, JSON))
    assert (failure.message, failure.status) == (IMAGE_ONLY, 502)
