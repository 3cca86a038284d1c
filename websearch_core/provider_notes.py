"""Notes a provider's searches keep in the state store for ``websearch providers``.

Why this exists: what a search learns about a provider can matter to the providers table
of another process. Gemini replaces a default model its OAuth account is not served, and
that pick lived only in the searching client's memory, so ``websearch providers`` (a new
client every time) never showed it. A hook of the request loop is synchronous and knows no
store, so it only records a :class:`KeptNote` on the search's ``Flow``; the loop hands it
to the client's :class:`ProviderNotes`, which writes it as the store's note
(:meth:`~websearch_core.state.base.StateStore.set_note`) and the table reads it back. A
provider's ``prepare`` (asynchronous) may read it too (:meth:`ProviderNotes.read`): a new
client then starts from what another one learnt.

A note names no secret: its name carries a sign-in's fingerprint
(:func:`~websearch_core.oauth_identity.sign_in_fingerprint`), never a token. Keeping a note
must not cost a search: the store is the chain's fail-safe one (a failing store loses the
note, nothing else), and a note kept again unchanged within half its lifetime is not
written again.
"""

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .state.base import StateStore

__all__ = ["REWRITE_AFTER", "KeptNote", "ProviderNotes"]

REWRITE_AFTER: Final = 0.5
"""The share of a note's lifetime after which keeping it unchanged writes it again: a
process that searches for days keeps its note alive with one write per half-lifetime,
not one per search."""


@dataclass(frozen=True, slots=True)
class KeptNote:
    """A note a search asks to keep, as a hook records it on the search's ``Flow``.

    Attributes:
        name: Which of the provider's notes (``StateStore.set_note``'s ``name``): free of
            secrets, and telling one credential's note from another's.
        text: The line the providers table adds to the provider's row.
        lifetime: Seconds the note holds from when it is written.
    """

    name: str
    text: str
    lifetime: float


class ProviderNotes:
    """Where one client's searches keep their notes: the store the chain runs with.

    :attr:`store` is set by the client for each search (its fail-safe store); until then,
    and for a call run without the chain, notes are not kept.
    """

    __slots__ = ("_written", "store")

    def __init__(self) -> None:
        self.store: StateStore | None = None
        self._written: dict[tuple[str, str, str], float] = {}
        """``(provider, name, text)``: when it was last written (monotonic seconds)."""

    async def keep(self, provider: str, note: KeptNote) -> None:
        """Write ``note`` as ``provider``'s, unless it was written unchanged recently."""
        store = self.store
        if store is None:
            return
        key = (provider, note.name, note.text)
        now = time.monotonic()
        written = self._written.get(key)
        if written is not None and now - written < note.lifetime * REWRITE_AFTER:
            return
        await store.set_note(provider, note.name, note.text, time.time() + note.lifetime)
        self._written[key] = now

    async def read(self, provider: str, name: str) -> str | None:
        """``provider``'s note ``name`` as the store holds it now; ``None`` without one.

        What another process's searches learnt, for this search to start from (Gemini's
        replacement model). No store (no search yet, or a call run without the chain) and
        a failing one (the fail-safe store answers ``None``) read as no note.
        """
        store = self.store
        return None if store is None else await store.get_note(provider, name, time.time())
