"""The count of notes left out is the core's own, never read back from a note's text.

Stop 53 (caps54) held every note of a response to 20, the last saying how many more were
left out, and folded a count said before into the next one by reading any note that
matched ``N more notes were left out.``. A provider's note with those very words was
taken for a count: dropped from its place and its number added to the core's. Here a
provider (the extension interface every adapter implements) sends such a note among 25,
through the real attempt (its cleaning and cut); and the count is kept through the
result cache's row, where nothing but the field can carry it.
"""

from typing import ClassVar, Final

from tests.providers._helpers import key_context
from websearch_core.cache import dump_response, load_response
from websearch_core.cli_output import search_json
from websearch_core.models import SearchParams, SearchResponse, SearchToolResult
from websearch_core.orchestration import run_attempt
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider

MAX_NOTES: Final = 20
LOOKALIKE: Final = "3 more notes were left out."
"""A provider's note in the core's words for its count."""


class _Noting(SearchProvider):
    """Answers one source and the notes it was given, as a provider sends them."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="noting", label="Noting", kind="api", description="n", docs_url="https://x"
    )

    def __init__(self, notes: tuple[str, ...]) -> None:
        self.notes = notes

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        return SearchResponse(provider=self.info.id, answer="An answer.", notes=self.notes)


async def _attempt(notes: tuple[str, ...]) -> SearchResponse:
    """``notes`` through one real attempt: the cleaning and the cut of every response."""
    return await run_attempt(
        _Noting(notes), SearchParams(query="q"), key_context("noting", None), timeout=5.0
    )


async def test_a_provider_note_in_the_count_s_words_is_a_note_not_a_count() -> None:
    """25 notes, the second reading ``3 more notes were left out.``: 19 kept, 6 counted.

    Before, the look-alike was taken out and its 3 added: 19 others kept, ``9 more``.
    """
    sent = ("engine a did not answer", LOOKALIKE, *(f"engine {n} down" for n in range(23)))
    response = await _attempt(sent)
    assert len(response.notes) == MAX_NOTES
    assert response.notes[:19] == sent[:19]  # the look-alike kept in its place
    assert response.notes[-1] == "6 more notes were left out."  # 25 - 19
    assert response.notes_left_out == 6


async def test_a_note_in_the_count_s_words_within_the_bound_stays_in_its_place() -> None:
    """Three notes, the first a look-alike: kept first, nothing counted.

    Before, the cleaning (run for the terminal escape) took it for a count and moved it
    last, as if the core had cut three notes.
    """
    sent = (LOOKALIKE, "engine a did not answer", "engine b \x1b[31mred\x1b[0m")
    response = await _attempt(sent)
    assert response.notes == (LOOKALIKE, "engine a did not answer", "engine b red")
    assert response.notes_left_out == 0


async def test_the_count_survives_the_cache_row_and_the_json_keeps_its_shape() -> None:
    """The count read back from a cache row is the field's, the JSON shape as before."""
    response = await _attempt(tuple(f"engine {n} down" for n in range(30)))
    assert response.notes_left_out == 11
    stored = load_response(dump_response(response))
    assert stored is not None and stored.notes_left_out == 11
    assert stored.notes == response.notes
    shown = search_json(SearchToolResult(text="t", response=response))
    assert "notes_left_out" not in str(shown)
    assert response.notes[-1] == "11 more notes were left out."
