"""What each provider looks like right now: for ``websearch providers`` and dashboards."""

import time
from dataclasses import dataclass

from .providers import SEARCH_PROVIDER_ORDER, ProviderContext, get_provider
from .quota import Budget, describe_mark, period_window
from .settings import Settings
from .state.base import ProviderMark, StateStore

__all__ = ["ProviderStatus", "collect_status"]


@dataclass(frozen=True, slots=True)
class ProviderStatus:
    """One provider's state: usable or not, and why."""

    id: str
    label: str
    kind: str
    available: bool
    """Configured for the auto chain (or explicitly usable without credentials)."""
    reason: str
    """Why it is or is not usable right now, in one line."""
    mark: ProviderMark | None
    used_this_month: int
    budget: str | None
    budget_used: int | None


async def collect_status(
    context: ProviderContext, store: StateStore, settings: Settings
) -> list[ProviderStatus]:
    """Availability, marks, usage and budgets of every registered provider."""
    now = time.time()
    month, _ = period_window("month", now)
    statuses: list[ProviderStatus] = []
    for provider_id in SEARCH_PROVIDER_ORDER:
        provider = get_provider(provider_id)
        info = provider.info
        available = provider.is_available(context)
        explicit = provider.is_explicitly_available(context)
        mark = await store.get_mark(provider_id, now)
        budget_text = settings.budget.get(provider_id)
        budget_used: int | None = None
        if budget_text is not None:
            window, _ = Budget.parse(provider_id, budget_text).window(now)
            budget_used = await store.get_usage(provider_id, f"budget:{window}")
        if provider_id in settings.exclude:
            reason = "excluded by settings"
        elif mark is not None:
            reason = describe_mark(info.label, mark).removesuffix(" skipped without a request.")
        elif available:
            reason = "ready"
        elif explicit:
            reason = "explicit selection only"
        else:
            names = " or ".join(info.env_vars)
            hint = info.setup_hint or (f"set {names}" if names else None)
            reason = f"not configured ({hint})" if hint else "not configured"
        statuses.append(
            ProviderStatus(
                id=provider_id,
                label=info.label,
                kind=info.kind,
                available=available and mark is None and provider_id not in settings.exclude,
                reason=reason,
                mark=mark,
                used_this_month=await store.get_usage(provider_id, month),
                budget=budget_text,
                budget_used=budget_used,
            )
        )
    return statuses
