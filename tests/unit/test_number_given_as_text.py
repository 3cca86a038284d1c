"""``run("q", limit="5")`` is refused saying the number came as text, and what to write.

A count read from a form, a variable or argparse without ``type=int`` reached ``run`` as
``"5"`` and was refused with pydantic's ``Input should be a valid integer`` and its
documentation link: the user saw 5, an integer, and could not tell what was wrong.
"""

import asyncio

import pytest
from pydantic import ValidationError

from websearch_core import WebSearch
from websearch_core.testing import Simulator


def _refusals(**params: object) -> dict[str, str]:
    """Each refused parameter of ``WebSearch.run`` and its message (nothing is searched)."""

    async def search() -> None:
        async with WebSearch() as client:
            await client.run("rust", **params)  # type: ignore[arg-type]

    with pytest.raises(ValidationError) as error:
        asyncio.run(search())
    return {str(e["loc"][0]): e["msg"] for e in error.value.errors()}


@pytest.mark.parametrize(
    ("params", "told"),
    [
        (
            {"limit": "5"},
            "Input should be a valid integer, got the text '5': write the number itself, limit=5",
        ),
        ({"limit": 5.0}, "Input should be a valid integer, got 5.0: write limit=5"),
        ({"num_search_results": True}, "Input should be a valid integer, got True: write a number"),
        (
            {"temperature": "0.5"},
            "Input should be a valid number, got the text '0.5': write "
            "the number itself, temperature=0.5",
        ),
        ({"limit": "five"}, "Input should be a valid integer, got the text 'five'"),
    ],
    ids=["text", "fraction", "bool", "float-text", "word"],
)
def test_a_number_given_otherwise_is_said_as_given(
    brave: Simulator, params: dict[str, object], told: str
) -> None:
    (name,) = params
    assert _refusals(**params) == {name: told}
    assert brave["brave"].requests == []


def test_the_number_written_as_told_reaches_brave(brave: Simulator) -> None:
    """Written as the refusal says (its ``limit=5``), the count reaches Brave."""
    told = _refusals(limit="5")["limit"].rsplit(", ", 1)[1]
    name, number = told.split("=")

    async def search() -> None:
        async with WebSearch() as client:
            await client.run("rust", **{name: int(number)})  # type: ignore[arg-type]

    asyncio.run(search())
    (request,) = brave["brave"].requests
    assert request.query_dict()["count"] == "5"


def test_beside_an_unknown_name_each_keeps_its_own_words(brave: Simulator) -> None:
    refusals = _refusals(limit="5", count=3)
    assert refusals["limit"].endswith("write the number itself, limit=5")
    assert refusals["count"] == "not a search parameter; did you mean limit?"


def test_other_refusals_are_worded_as_before(brave: Simulator) -> None:
    """A guard (passes before and after): a number out of bounds keeps pydantic's words."""
    assert _refusals(limit=0) == {"limit": "must be at least 1 and at most 100 results"}
