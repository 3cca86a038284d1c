"""A search parameter named as another search API names it is answered with the one it means.

``run("q", count=5)`` (Brave's and Bing's name for the result count) was refused with ``did
you mean country?``, and ``timelimit=`` (duckduckgo_search's) with ``did you mean limit?``:
spelling picked a wrong parameter. The parameter named now does the job the other API's
name did: ``limit=5`` reaches Brave as its ``count``.
"""

import asyncio

import pytest
from pydantic import ValidationError

from websearch_core import WebSearch
from websearch_core.testing import Simulator


def _refusal(**params: object) -> str:
    """What ``WebSearch.run`` says of ``params``, a search that must be refused."""

    async def search() -> None:
        async with WebSearch() as client:
            await client.run("rust", **params)  # type: ignore[arg-type]

    with pytest.raises(ValidationError) as error:
        asyncio.run(search())
    ((name, message),) = [(e["loc"][0], e["msg"]) for e in error.value.errors()]
    assert name in params
    return message


@pytest.mark.parametrize(
    ("given", "meant"), [("count", "limit"), ("timelimit", "recency"), ("gl", "country")]
)
def test_another_apis_name_is_answered_with_the_parameter_it_means(
    brave: Simulator, given: str, meant: str
) -> None:
    assert _refusal(**{given: 5}) == f"not a search parameter; did you mean {meant}?"
    assert brave["brave"].requests == []


def test_the_parameter_named_for_count_reaches_brave_as_its_count(brave: Simulator) -> None:
    """``count`` is Brave's name: the parameter the refusal names is sent as it."""
    meant = _refusal(count=5).rsplit(" ", 1)[1].rstrip("?")

    async def search() -> None:
        async with WebSearch() as client:
            await client.run("rust", **{meant: 5})  # type: ignore[arg-type]

    asyncio.run(search())
    (request,) = brave["brave"].requests
    assert request.query_dict()["count"] == "5"


def test_every_name_means_a_parameter_there_is() -> None:
    """The table's own check (it is new, so this cannot run before): no name points nowhere,
    and none is a parameter's own name."""
    from websearch_core.models import SearchParams
    from websearch_core.param_names import OTHER_API_NAMES

    assert set(OTHER_API_NAMES.values()) <= set(SearchParams.model_fields)
    assert not set(OTHER_API_NAMES) & set(SearchParams.model_fields)


@pytest.mark.parametrize(
    ("given", "meant"), [("limt", "; did you mean limit?"), ("safesearch", "")]
)
def test_other_names_keep_the_nearest_spelling(brave: Simulator, given: str, meant: str) -> None:
    """A guard (passes before and after): a typo still gets the name it is near."""
    assert _refusal(**{given: 5}) == f"not a search parameter{meant}"
