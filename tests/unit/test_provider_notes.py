"""Notes a provider's searches keep for the providers table (:mod:`.provider_notes`)."""

import time
from types import SimpleNamespace

import pytest

from websearch_core import provider_notes
from websearch_core.provider_notes import KeptNote, ProviderNotes
from websearch_core.state import MemoryStore


class CountingStore(MemoryStore):
    """A memory store that counts its note writes."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[tuple[str, str, str, float]] = []

    async def set_note(self, provider: str, name: str, text: str, until: float) -> None:
        self.writes.append((provider, name, text, until))
        await super().set_note(provider, name, text, until)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The monotonic clock the keeper judges a rewrite by, moved by the test."""
    now = [1000.0]
    fake = SimpleNamespace(monotonic=lambda: now[0], time=time.time)
    monkeypatch.setattr(provider_notes, "time", fake)
    return now


async def test_a_note_is_written_with_its_lifetime_and_read_back() -> None:
    store = CountingStore()
    notes = ProviderNotes()
    notes.store = store
    before = time.time()
    await notes.keep("gemini", KeptNote("model:gemini-cli:f00d:m", "searches with 'x'", 3600.0))
    ((provider, name, text, until),) = store.writes
    assert (provider, name, text) == ("gemini", "model:gemini-cli:f00d:m", "searches with 'x'")
    assert before + 3600.0 <= until <= time.time() + 3600.0
    assert await store.get_note("gemini", name, time.time()) == "searches with 'x'"


async def test_an_unchanged_note_is_written_again_only_after_half_its_life(
    clock: list[float],
) -> None:
    # Every search that uses Gemini's replacement keeps the note: one write per search
    # would cost a store round trip (Redis) on each, for nothing new.
    store = CountingStore()
    notes = ProviderNotes()
    notes.store = store
    note = KeptNote("n", "same text", 100.0)
    await notes.keep("gemini", note)
    clock[0] += 49.0
    await notes.keep("gemini", note)
    assert len(store.writes) == 1
    await notes.keep("gemini", KeptNote("n", "another text", 100.0))  # changed: at once
    assert len(store.writes) == 2
    clock[0] += 1.0  # half the first note's life has passed
    await notes.keep("gemini", note)
    assert len(store.writes) == 3
