"""A query holding a character no search can be sent is refused by name, with no request.

A NUL, an escape or another control character went out in every provider's URL, form or
body; the provider's answer then failed the search as ``returned no renderable search
content``, naming neither the query nor the character. A lone surrogate (what a byte that
is not UTF-8 becomes in the command's arguments) was refused as pydantic's ``unable to
parse raw data as a unicode string``. Tabs and line breaks are text and are searched.
The property tests are derandomized, so CI draws the same examples every run.
"""

from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from langchain_websearch import WebSearchTool
from llamaindex_websearch import create_web_search_tool
from tests.functional._sim_helpers import sim_client
from websearch_core.cli import EXIT_USAGE, main
from websearch_core.models import MAX_QUERY_LENGTH, SearchParams
from websearch_core.testing import Simulator

UNSENDABLE = [*map(chr, range(0x09)), "\x0b", "\x0c", *map(chr, range(0x0E, 0x20))]
UNSENDABLE += [*map(chr, range(0x7F, 0xA0)), "\ud800", "\udbff", "\udc80", "\udfff"]
"""C0 controls but tab, line feed and carriage return; DEL; C1 controls; lone surrogates."""
BIDI_CONTROLS = [*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))]
"""The bidirectional embeddings, overrides and isolates: invisible, they show a query in
another order than the one it is sent in."""

_SENDABLE_TEXT = st.text(
    st.characters(exclude_categories=("Cc", "Cs"), exclude_characters="".join(BIDI_CONTROLS))
    | st.sampled_from("\t\n\r"),
    max_size=60,
)
"""Any text a person or a model could write, line breaks and tabs included."""


def _query_error(error: ValidationError) -> str:
    """The one error's message, which must be about the query."""
    (only,) = error.errors()
    assert only["loc"] == ("query",)
    return str(only["msg"])


@settings(derandomize=True, max_examples=300, deadline=None)
@given(before=_SENDABLE_TEXT, char=st.sampled_from(UNSENDABLE), after=_SENDABLE_TEXT)
def test_an_unsendable_character_is_named_with_its_place(
    before: str, char: str, after: str
) -> None:
    query = f"q{before}{char}{after}"
    with pytest.raises(ValidationError) as caught:
        SearchParams(query=query)
    message = _query_error(caught.value)
    assert f"(U+{ord(char):04X}) at character {len(before) + 2}" in message
    kind = "lone surrogate" if 0xD800 <= ord(char) <= 0xDFFF else "control character"
    assert message.startswith(f"Value error, query holds a {kind} ")


@settings(derandomize=True, max_examples=200, deadline=None)
@given(before=_SENDABLE_TEXT, char=st.sampled_from(BIDI_CONTROLS), after=_SENDABLE_TEXT)
def test_a_bidirectional_control_is_named_with_its_place(
    before: str, char: str, after: str
) -> None:
    """``"abc\u202edef"`` reads ``abcfed`` but is sent as ``abcdef``: refused, as a control
    character is, with the code point and where it is (it was sent to every provider)."""
    with pytest.raises(ValidationError) as caught:
        SearchParams(query=f"q{before}{char}{after}")
    message = _query_error(caught.value)
    assert message.startswith(
        f"Value error, query holds a bidirectional control (U+{ord(char):04X}) "
        f"at character {len(before) + 2}, "
    )


@settings(derandomize=True, max_examples=300, deadline=None)
@given(text=_SENDABLE_TEXT)
def test_text_without_one_is_taken_unchanged(text: str) -> None:
    """Guard: printable text, tabs and line breaks pass as they are (before and after)."""
    query = f"q{text}"[:MAX_QUERY_LENGTH]
    assert SearchParams(query=query).query == query


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        yield simulator


@pytest.mark.parametrize("query", ["a\x00b", "rust \x1b[2J", "x\udcff", "sudo \u202erm\u202c"])
async def test_each_entry_point_refuses_it_before_any_request(sim: Simulator, query: str) -> None:
    async with sim_client(sim) as ws:
        for call in (ws.search, ws.run):
            with pytest.raises(ValidationError) as caught:
                await call(query, provider="brave")
            assert "query holds a " in _query_error(caught.value)
    assert sim["brave"].requests == []


def test_the_sync_calls_refuse_it_too(sim: Simulator) -> None:
    ws = sim_client(sim)
    for call in (ws.search_sync, ws.run_sync):
        with pytest.raises(ValidationError) as caught:
            call("a\x07b", provider="brave")
        assert "control character (U+0007) at character 2" in _query_error(caught.value)
    assert sim["brave"].requests == []


async def test_the_tools_answer_the_model_with_the_character(sim: Simulator) -> None:
    keys: dict[str, Any] = {"settings": sim.settings(), "api_keys": sim.api_keys()}
    texts = [
        str(await WebSearchTool(**keys).ainvoke({"query": "a\x00b"})),
        str(await create_web_search_tool(**keys).acall(query="a\x00b")),
    ]
    for text in texts:
        assert text.startswith("Error: invalid web_search arguments: query: ")
        assert "control character (U+0000) at character 2" in text
    assert sim["brave"].requests == []


def test_the_command_names_a_byte_that_is_not_utf8(
    sim: Simulator, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shell passes ``a\\xffb``; Python reads the byte as the lone surrogate U+DCFF."""
    monkeypatch.setenv("BRAVE_API_KEY", sim.api_keys()["brave"])
    monkeypatch.setenv("WEBSEARCH_BASE_URLS", f'{{"brave": "{sim["brave"].base_url}"}}')
    argv = [b"a\xffb".decode("utf-8", "surrogateescape"), "--provider", "brave"]
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "lone surrogate (U+DCFF) at character 2" in err, err
    assert sim["brave"].requests == []
