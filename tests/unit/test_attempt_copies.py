"""The attempt's steps after the parse share one copy of the response, and lose nothing.

A provider's response used to be copied once for its ISO dates and again for the
attempts; the chain now applies both in one ``model_copy``. These tests pin what the
caller gets (the same dates ``iso_date`` gives, the attempts) and that the chain copies
the response once, whether or not a date needs rewriting.
"""

from typing import Any, ClassVar

import pytest

from tests.providers._helpers import key_context
from websearch_core.dates import iso_date
from websearch_core.models import SearchParams, SearchResponse, SearchSource
from websearch_core.orchestration import ChainPlan, ChainRunner, run_attempt
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.state import MemoryStore

DATES = ("May 1, 2023", None, "2024-03-29T12:00:00Z", "3 days ago", "Mon, 02 Jun 2025 10:00:00 GMT")


class _Dated(SearchProvider):
    """Answers with the dates it was given, one source each."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="dated", label="Dated", kind="api", description="d", docs_url="https://x"
    )

    def __init__(self, dates: tuple[str | None, ...]) -> None:
        self.dates = dates

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        sources = tuple(
            SearchSource(title=f"t{n}", url=f"https://a.example/{n}", published_date=date)
            for n, date in enumerate(self.dates)
        )
        return SearchResponse(provider=self.info.id, sources=sources)


def _copies(monkeypatch: pytest.MonkeyPatch) -> list[SearchResponse]:
    """Every response ``model_copy`` is called on from now on (the copy still happens)."""
    seen: list[SearchResponse] = []
    original = SearchResponse.model_copy

    def counting(self: SearchResponse, **kwargs: Any) -> SearchResponse:
        seen.append(self)
        return original(self, **kwargs)

    monkeypatch.setattr(SearchResponse, "model_copy", counting)
    return seen


async def _chain(dates: tuple[str | None, ...]) -> SearchResponse:
    outcome = await ChainRunner(MemoryStore()).run(
        ChainPlan(providers=[_Dated(dates)]), SearchParams(query="q"), key_context("dated", None)
    )
    assert outcome.response is not None
    return outcome.response


@pytest.mark.parametrize("dates", [DATES, ("2024-03-29", None), (None,)])
async def test_the_chain_copies_once_for_dates_and_attempts(
    dates: tuple[str | None, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    copies = _copies(monkeypatch)
    response = await _chain(dates)
    assert [s.published_date for s in response.sources] == [iso_date(d) or d for d in dates]
    assert [a.provider for a in response.attempts] == ["dated"]
    assert response.attempts[0].outcome == "success"
    assert len(copies) == 1


async def test_run_attempt_alone_still_gives_iso_dates() -> None:
    for dates in (DATES, ("2024-03-29", None)):
        provider = _Dated(dates)
        response = await run_attempt(
            provider, SearchParams(query="q"), key_context("dated", None), timeout=5.0
        )
        assert [s.published_date for s in response.sources] == [iso_date(d) or d for d in dates]
        assert response.attempts == ()
