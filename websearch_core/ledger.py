"""The bookkeeping around each provider request: skip, count, mark, forgive.

Both the sequential chain and the Public Web fan-out ask providers; both must skip a
provider that is out of quota or cooling down *without sending a request*, count what they
send against budgets, and leave the right mark when a request fails. :class:`Ledger` is that
one piece of policy over the state store, so the two cannot drift apart.
"""

import logging
import time
from collections.abc import Callable, Mapping

from .errors import RateLimitedError, SearchProviderError
from .providers.base import ProviderInfo
from .quota import (
    Budget,
    FailurePolicy,
    Period,
    describe_mark,
    is_transient,
    mark_for_failure,
    period_window,
)
from .state.base import StateStore

__all__ = ["USAGE_PERIOD", "Ledger", "ProviderSkippedError"]

logger = logging.getLogger("websearch_core")

USAGE_PERIOD: Period = "month"
"""Every request is also counted per calendar month, for ``websearch providers``."""


class ProviderSkippedError(SearchProviderError):
    """The provider was not asked: it is marked out, or its budget is spent."""


class Ledger:
    """Skips, counts and marks providers in a state store.

    Args:
        store: Where marks and counters live.
        policy: Cooldown numbers.
        budgets: Per-provider request budgets.
        clock: Epoch seconds (injectable for tests).
    """

    def __init__(
        self,
        store: StateStore,
        *,
        policy: FailurePolicy | None = None,
        budgets: Mapping[str, Budget] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.policy = policy or FailurePolicy()
        self.budgets = dict(budgets or {})
        self.clock = clock

    async def skip_reason(self, info: ProviderInfo) -> ProviderSkippedError | None:
        """Why ``info``'s provider must not be asked now, or ``None`` when it may be."""
        now = self.clock()
        mark = await self.store.get_mark(info.id, now)
        if mark is not None:
            return ProviderSkippedError(info.id, describe_mark(info.label, mark))
        budget = self.budgets.get(info.id)
        if budget is not None:
            window, _ = budget.window(now)
            used = await self.store.get_usage(info.id, f"budget:{window}")
            if used >= budget.limit:
                return ProviderSkippedError(
                    info.id,
                    f"{info.label} budget of {budget} is spent ({used} used); "
                    "skipped without a request.",
                )
        return None

    async def count_request(self, provider_id: str) -> None:
        """Count one request this month and against the provider's budget, if any."""
        now = self.clock()
        window, ends = period_window(USAGE_PERIOD, now)
        await self.store.increment_usage(provider_id, window, ends)
        budget = self.budgets.get(provider_id)
        if budget is not None:
            budget_window, budget_ends = budget.window(now)
            await self.store.increment_usage(provider_id, f"budget:{budget_window}", budget_ends)

    async def record_success(self, provider_id: str) -> None:
        """A success closes the circuit breaker."""
        await self.store.reset_failures(provider_id)

    async def record_failure(self, provider_id: str, error: BaseException) -> None:
        """Leave the mark ``error`` calls for (cooldown, exhaustion, open breaker), if any."""
        failures = await self.store.record_failure(provider_id) if is_transient(error) else 0
        mark = mark_for_failure(error, now=self.clock(), failures=failures, policy=self.policy)
        if mark is not None:
            await self.store.set_mark(provider_id, mark)
            logger.info("web search provider %s marked %s: %s", provider_id, mark.kind, mark.reason)

    def short_wait(self, error: BaseException) -> float | None:
        """The ``Retry-After`` worth waiting out before one retry, or ``None``."""
        if (
            isinstance(error, RateLimitedError)
            and error.retry_after is not None
            and error.retry_after <= self.policy.rate_limit_wait_budget
        ):
            return error.retry_after
        return None
