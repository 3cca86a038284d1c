"""Re-checking a spent prepaid balance with one request, instead of waiting for next month.

Why this exists: a spent quota without a reset time marks its provider out until the
start of next month (:func:`~.quota.mark_for_failure`), right for a free tier's monthly
quota. A prepaid balance (Anthropic's "credit balance is too low", xAI's spent credits,
Z.AI's arrears: :class:`~websearch_core.errors.CreditsSpentError`) comes back as soon as
its owner tops it up, and a user who did was skipped for weeks unless they knew
``websearch providers reset <id>``.

How: the mark stays as it is (an ``exhausted`` mark until next month), and a store note
(:data:`RECHECK_NOTE`) says it is a prepaid balance's, naming the mark by its ``set_at``.
From :data:`CREDIT_RECHECK_SECONDS` after the mark was set, a reservation may claim the
mark's probe: a usage window of limit one (:func:`probe_window`), so the store's atomic
reserve step lets exactly one request through, across tasks and processes. Its success
clears the mark; its failure renews the mark, and its probe comes due again after the
same time. Every store already has the two steps (notes and capped windows), so memory,
SQLite and Redis behave the same without a new column or script.
"""

from dataclasses import replace
from typing import Final

from ..errors import CreditsSpentError
from ..state.base import ProviderMark, StateStore, UsageWindow

__all__ = [
    "CREDIT_RECHECK_SECONDS",
    "PROBE_CLAIM_SECONDS",
    "RECHECK_NOTE",
    "due_probe",
    "is_credit_mark",
    "keep_recheck",
    "next_recheck",
    "probe_window",
    "rechecks",
    "renewed",
]

CREDIT_RECHECK_SECONDS: Final = 6 * 3600.0
"""How long a spent prepaid balance keeps its provider out before one request checks it.

Six hours: a top-up is picked up the same working day without a reset, while a balance
still empty costs one refused request four times a day.
"""

PROBE_CLAIM_SECONDS: Final = 600.0
"""How long a claimed probe stays claimed when its outcome is never written.

Longer than any search's deadline, so a probe in flight is never doubled; a process that
died mid-probe only delays the next probe by this much.
"""

RECHECK_NOTE: Final = "credit-recheck"
"""The store note (:meth:`~websearch_core.state.base.StateStore.set_note`) saying that a
provider's ``exhausted`` mark is a prepaid balance's; its text is the mark's ``set_at``."""


def rechecks(error: BaseException) -> bool:
    """Whether the mark ``error`` leaves is re-checked: a spent prepaid balance, no reset time."""
    return isinstance(error, CreditsSpentError) and error.reset_at is None


def _note_text(mark: ProviderMark) -> str:
    """Names the mark a note belongs to: a later mark (even of the same kind) is another."""
    return repr(mark.set_at)


def recheck_at(mark: ProviderMark) -> float:
    """When the probe of a prepaid balance's mark comes due (epoch seconds)."""
    return mark.set_at + CREDIT_RECHECK_SECONDS


async def keep_recheck(store: StateStore, provider: str, mark: ProviderMark) -> None:
    """Note that ``mark`` (just set) is a prepaid balance's, for as long as it holds."""
    await store.set_note(provider, RECHECK_NOTE, _note_text(mark), mark.until)


async def is_credit_mark(store: StateStore, provider: str, mark: ProviderMark, now: float) -> bool:
    """Whether ``mark`` is a spent prepaid balance's: ``exhausted``, and the note names it.

    A forced search that passes such a mark and succeeds proves the balance was topped
    up, as a probe's success does; a free tier's month has no note and stays.
    """
    if mark.kind != "exhausted":
        return False
    return await store.get_note(provider, RECHECK_NOTE, now) == _note_text(mark)


async def next_recheck(
    store: StateStore, provider: str, mark: ProviderMark, now: float
) -> float | None:
    """When ``mark``'s probe comes due, or ``None`` when the mark is not re-checked.

    A read of the note: the mark must be ``exhausted`` and the note must name it.
    """
    if recheck_at(mark) >= mark.until:
        return None
    return recheck_at(mark) if await is_credit_mark(store, provider, mark, now) else None


async def due_probe(
    store: StateStore, provider: str, mark: ProviderMark, now: float
) -> UsageWindow | None:
    """The probe window to claim for ``mark`` at ``now``, or ``None`` when none is due.

    Reads the store only once the probe's time has come (a mark of any other kind, or one
    whose time has not come, costs nothing).
    """
    if mark.kind != "exhausted" or now < recheck_at(mark) or now >= mark.until:
        return None
    if await next_recheck(store, provider, mark, now) is None:
        return None
    return probe_window(mark, now)


def probe_window(mark: ProviderMark, now: float) -> UsageWindow:
    """The window of limit one whose count says ``mark``'s probe is claimed.

    Keyed by the mark, so a renewed mark has a fresh probe; it ends after
    :data:`PROBE_CLAIM_SECONDS` so a probe whose outcome was lost is tried again.
    """
    return UsageWindow(f"credit-probe:{_note_text(mark)}", now + PROBE_CLAIM_SECONDS, limit=1)


def renewed(mark: ProviderMark, now: float) -> ProviderMark:
    """``mark`` set again at ``now``: its probe failed without a mark of its own.

    A probe that met a timeout or a plain error says nothing about the balance; the mark
    is renewed (its end kept) so the next probe comes after the same wait.
    """
    return replace(mark, set_at=now)
