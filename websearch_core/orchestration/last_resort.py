"""The last resort: a budget the state store cannot check is asked only when nothing else answered.

Two promises meet here. A budget is never spent unseen while another provider could answer,
so a provider whose budget the store cannot check (the store is down or stuck) is skipped
(:class:`~websearch_core.orchestration.ledger.BudgetUncheckedError`). And a broken store
degrades to "no state", never to a failed search, so when nothing answered and some provider
was held back only for that, it is asked after all, in chain order, within the deadline and
uncounted (``Ledger.reserve(accept_unchecked=True)``); the attempt's detail, the response's
notes and one warning say the request went uncounted.

The chain applies the rule to its providers and the Public Web fan-out to its engines: a
chain of budgeted providers alone, a pinned or forced one, or engines that all failed or
found nothing but a budgeted one, answer while the store is down. Public Web earlier in the
chain holds its budgeted engines while a provider after it may answer, as the chain holds
a budgeted provider: it fails (``PublicEnginesFailedError``, or ``PublicEnginesHeldError``
when its other engines found nothing), and the chain's last-resort pass asks it again for
those engines alone, in chain order with the providers it held. This module holds what
both read: whether an error waits for the last resort (:func:`awaits_last_resort`), and how
a fan-out treats its budgeted engines in each of the chain's passes (:class:`LastResort`).
"""

import enum
from collections.abc import Iterable

from .ledger import BudgetUncheckedError

__all__ = ["LastResort", "awaits_last_resort", "unchecked_engines"]


class LastResort(enum.Enum):
    """What a fan-out does with engines whose budget the store cannot check."""

    HOLD = "hold"
    """Skip them: a provider after the fan-out in the chain may still answer (the chain
    comes back to the fan-out, :attr:`ONLY`, when none does)."""
    AFTER_OTHERS = "after others"
    """Nothing after the fan-out can answer: ask them, uncounted, when no other engine
    returned sources."""
    ONLY = "only"
    """The chain's last-resort pass: the other engines were asked already, so ask only the
    budgeted ones, uncounted."""


def unchecked_engines(failures: Iterable[tuple[str, BaseException]]) -> tuple[str, ...]:
    """The ids among ``failures`` skipped only because their budget could not be checked."""
    return tuple(engine for engine, error in failures if isinstance(error, BudgetUncheckedError))


def awaits_last_resort(error: BaseException) -> bool:
    """Whether ``error`` held an answer back only for budgets the store could not check.

    A provider skipped as unchecked, or a fan-out none of whose engines found anything
    while some were skipped so: its error (an ``EngineReport``, the base of
    ``PublicEnginesFailedError`` and ``PublicEnginesHeldError``, whose module imports this
    one, hence no ``isinstance``) holds ``failures``, ``(engine id, error)`` pairs.
    """
    if isinstance(error, BudgetUncheckedError):
        return True
    failures = getattr(error, "failures", None)
    return (
        isinstance(failures, tuple)
        and all(isinstance(pair, tuple) and len(pair) == 2 for pair in failures)
        and bool(unchecked_engines(failures))
    )
