"""Codex's markdown links wrapped in blanks or a byte-order mark read as the reference reads them.

When a Codex answer carries no ``url_citation``, its markdown links and bare URLs are its
sources. The reference (``extractTextSources`` in oh-my-pi's ``codex.ts``) reads a link's
target up to its balanced ``)`` and trims it (JavaScript's ``trim``, U+FEFF included), and
reads a bare URL as ``https?://\\S+`` (JavaScript's ``\\s`` holds U+FEFF). Here a target
ended at its first blank: ``[site]( url )`` and ``[site](\\ufeffurl)`` were no links (the
title lost to the bare URL's), ``[site](url\\ufeff)`` gave a source whose address ended in
the invisible mark, and so did a bare URL with a mark after it. A citation's snippet
reduces links to their titles; one whose title had blanks around it (``[ site ](url)``)
stayed a raw link there, as the reduction looked for the link rebuilt from its trimmed
parts.

Each case is the real Codex capture in ``../shared/fixtures/openai`` (a Responses body
whose links have no blanks), one link edited, served by the loopback simulator.
"""

import json
from collections.abc import Callable
from typing import Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import codex_sign_in, sim_client
from websearch_core import SearchResponse
from websearch_core.testing import Fault, Simulator

CAPTURE: Final = "openai/responses_web_search_verbatim_gpt4o_mini.json"
JSON: Final = {"Content-Type": "application/json"}
FIRST: Final = "https://en.wikipedia.org/wiki/Demographics_of_Tokyo?utm_source=openai"
"""The first link's target in the capture's answer."""


def _body(edit: Callable[[str], str], *, cited: bool) -> str:
    """The capture with its answer edited; without its ``url_citation``s unless ``cited``."""
    data = json.loads(read_capture(CAPTURE))
    part = data["output"][1]["content"][0]
    before = part["text"]
    part["text"] = edit(before)
    if cited:
        grown = len(part["text"]) - len(before)
        for note in part["annotations"]:  # the edit lies inside the first cited span
            note["end_index"] += grown
            note["start_index"] += grown if note["start_index"] > 62 else 0
    else:
        part["annotations"] = []
    return json.dumps(data)


async def _search(body: str) -> SearchResponse:
    async with Simulator(["codex"]) as sim:
        codex_sign_in(sim)
        sim["codex"].enqueue(Fault.http(200, body, JSON))
        async with sim_client(sim) as ws:
            return await ws.search("tokyo population", provider="codex", use_cache=False)


def _pairs(response: SearchResponse) -> list[tuple[str, str]]:
    return [(source.title, source.url) for source in response.sources]


@pytest.mark.parametrize(
    "wrap",
    [
        " {} ",
        "\t{}  ",
        "\ufeff{}",
        "\ufeff {} \ufeff",
        "\u3000{}",
        "{}\ufeff",
    ],
    ids=["spaces", "tab", "bom-before", "both", "ideographic-space", "guard-bom-after"],
)
async def test_a_link_target_wrapped_in_blanks_reads_as_without_them(wrap: str) -> None:
    """Failed before: no link, the title lost to the bare URL's. ``guard-bom-after`` held
    before: the parser's URL ended in U+FEFF, but the address is trimmed on its way out
    (outputs58's field rule), so the search's answer was already as without it."""
    plain = await _search(_body(lambda text: text, cited=False))

    wrapped = await _search(
        _body(lambda text: text.replace(f"({FIRST})", f"({wrap.format(FIRST)})"), cited=False)
    )

    assert _pairs(plain)[0] == ("en.wikipedia.org", FIRST.removesuffix("?utm_source=openai"))
    assert _pairs(wrapped) == _pairs(plain)


@pytest.mark.parametrize("after", ["\ufeffnext", "\ufeff"], ids=["text-after", "guard-blank-after"])
async def test_a_bare_url_ends_at_a_byte_order_mark(after: str) -> None:
    """``text-after`` failed before: the URL ran on through the mark (Python's ``\\s`` lacks
    it) and the address, holding it, was dropped. ``guard-blank-after`` held before: a mark
    at the address's end is trimmed on its way out."""
    response = await _search(
        _body(lambda text: f"{text}More: https://example.org/tokyo{after} today.", cited=False)
    )

    assert response.sources[-1].url == "https://example.org/tokyo"


async def test_a_link_with_a_blank_inside_its_target_is_still_no_link() -> None:
    """A guard (held before): an address holds no blank, so the bare URL up to it is read."""
    inner = FIRST.replace("_of_", " of_")

    response = await _search(_body(lambda text: text.replace(FIRST, inner), cited=False))

    bare = "https://en.wikipedia.org/wiki/Demographics"
    assert (bare, bare) in _pairs(response)  # after the links: bare URLs come last
    assert "en.wikipedia.org" not in [title for title, _ in _pairs(response)]


async def test_a_cited_snippet_reduces_a_link_whose_title_has_blanks() -> None:
    """Failed before: the snippet kept ``[ en.wikipedia.org ](https://...)`` as written."""
    response = await _search(
        _body(lambda text: text.replace("[en.wikipedia.org]", "[ en.wikipedia.org ]"), cited=True)
    )

    first = response.sources[0]
    assert first.url == FIRST.removesuffix("?utm_source=openai")
    assert first.snippet is not None
    assert "](" not in first.snippet
    assert "14.2 million. ( en.wikipedia.org ) However" in first.snippet
