"""Which providers to try, in what order, and the sequential fallback loop.

Resolution follows the spec: a forced provider runs alone when it is explicitly available
and otherwise falls back to the auto chain; a preferred provider goes first (gated by its
explicit availability), then the auto order minus it, each gated by ``is_available``;
excluded providers never run. An ordered ``providers`` list replaces the auto order with
exactly those providers, and ``fallback = false`` pins the preferred provider alone.

The loop stops at the first response with something a model can read. Before each
provider it consults the state store: a provider that is out of quota, rate limited,
refusing its key, cooling down after repeated failures, or over its request budget is
skipped **without a request**, and the skip is reported like a failure. Cancellation is
never recorded as a failure: it propagates.
"""

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .deadline import Deadline
from .errors import (
    ConfigurationError,
    DeadlineExceededError,
    ProviderNotConfiguredError,
    SearchProviderError,
)
from .format import NO_PROVIDER_MESSAGE, format_failures, format_provider_failure
from .ledger import Ledger, ProviderSkippedError, mark_scope
from .models import Attempt, SearchParams, SearchResponse
from .orchestration.attempt import attempt_timeout, call_redactor, context_secrets, run_attempt
from .providers import SEARCH_PROVIDER_ORDER, ProviderContext, SearchProvider, get_provider
from .quota import Budget, FailurePolicy, Rate
from .redaction import Redactor
from .state.base import StateStore

__all__ = [
    "ChainOutcome",
    "ChainPlan",
    "ChainRunner",
    "ProviderSkippedError",
    "context_secrets",
    "resolve_candidates",
]

logger = logging.getLogger("websearch_core")

MIN_ATTEMPT_SECONDS = 0.05
"""Less time than this left in the deadline is no time for another provider."""


@dataclass(slots=True)
class ChainPlan:
    """The providers to try in order, and what resolution left out."""

    providers: list[SearchProvider]
    skipped: list[Attempt] = field(default_factory=list)
    forced: bool = False
    failures: list[tuple[SearchProvider, BaseException]] = field(default_factory=list)


@dataclass(slots=True)
class ChainOutcome:
    """What the loop produced: a response, or the failures in attempt order."""

    response: SearchResponse | None
    failures: list[tuple[SearchProvider, BaseException]] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)

    @property
    def last_provider(self) -> str:
        """The id of the last provider tried, or ``"none"``."""
        return self.failures[-1][0].info.id if self.failures else "none"

    def failure_message(self) -> str:
        """The spec's final error text for this outcome."""
        return format_failures(
            (provider.info.id, format_provider_failure(error, provider.info.label))
            for provider, error in self.failures
        )


def resolve_candidates(
    context: ProviderContext,
    *,
    forced: str | None = None,
    preferred: str | None = None,
    excluded: Iterable[str] = (),
    listed: Sequence[str] = (),
    fallback: bool = True,
    order: Sequence[str] = SEARCH_PROVIDER_ORDER,
) -> ChainPlan:
    """The providers to try, in order, plus a ``skipped`` attempt for each one left out.

    Args:
        context: Used for availability checks.
        forced: A provider id an internal caller insists on (``"auto"`` means none).
        preferred: The configured preferred provider, tried first.
        excluded: Ids never returned, not even as fallbacks.
        listed: An explicit ordered chain; replaces ``order`` and makes each entry explicit.
        fallback: ``False`` pins ``preferred`` alone, with no silent switching.
        order: The auto-chain order.

    Raises:
        ConfigurationError: Some id is unknown; the message names every unknown id.
    """
    excluded_ids = set(excluded)
    _check_known([forced, preferred, *excluded_ids, *listed])
    plan = ChainPlan(providers=[])
    if forced and forced != "auto":
        if _force(plan, get_provider(forced), context, excluded_ids):
            return plan
        preferred = None
    if preferred:
        # Pinned (no fallback): an unavailable preferred provider is reported, not skipped.
        pinned = not fallback
        _add_explicit(
            plan, get_provider(preferred), context, excluded_ids, report_unavailable=pinned
        )
        if pinned:
            return plan
    # An explicit list replaces the auto order, and each entry is explicit.
    rest = [pid for pid in (dict.fromkeys(listed) if listed else order) if pid != preferred]
    for provider_id in rest:
        provider = get_provider(provider_id)
        if listed:
            _add_explicit(plan, provider, context, excluded_ids, report_unavailable=True)
        elif provider_id not in excluded_ids and provider.is_available(context):
            plan.providers.append(provider)
    if forced and not plan.providers and len(plan.failures) == 1:
        # The forced provider's why, then what the (empty) fallback chain had to say.
        provider, error = plan.failures[0]
        if isinstance(error, ProviderNotConfiguredError):
            error.message = f"{error.message}: {NO_PROVIDER_MESSAGE}"
            error.args = (error.message,)
    return plan


def _force(
    plan: ChainPlan, provider: SearchProvider, context: ProviderContext, excluded: set[str]
) -> bool:
    """Put a forced provider alone in the plan; False (and a skip) when it cannot run."""
    provider_id = provider.info.id
    if provider_id not in excluded and provider.is_explicitly_available(context):
        plan.providers.append(provider)
        plan.forced = True
        return True
    error = ProviderNotConfiguredError(
        provider_id,
        f"{provider.info.label} was forced but cannot run ({_why_unavailable(provider, excluded)});"
        " fell back to the auto chain",
    )
    # Listed first in a failure, so the caller reads why before what the fallback did.
    plan.failures.append((provider, error))
    plan.skipped.append(Attempt(provider=provider_id, outcome="skipped", detail=error.message))
    return False


def _why_unavailable(provider: SearchProvider, excluded: set[str]) -> str:
    """What keeps ``provider`` from running: exclusion, or the setup it is missing."""
    info = provider.info
    if info.id in excluded:
        return "it is excluded by the exclude setting or WEBSEARCH_EXCLUDE"
    if info.setup_hint:
        return f"not configured: {info.setup_hint}"
    if info.env_vars:
        return f"no API key: set {' or '.join(info.env_vars)}"
    return "not configured"


def _check_known(ids: Iterable[str | None]) -> None:
    from .providers import PROVIDER_REGISTRY

    unknown = sorted({i for i in ids if i and i != "auto" and i not in PROVIDER_REGISTRY})
    if unknown:
        known = ", ".join(SEARCH_PROVIDER_ORDER)
        raise ConfigurationError(f"Unknown search provider: {', '.join(unknown)} (known: {known})")


def _add_explicit(
    plan: ChainPlan,
    provider: SearchProvider,
    context: ProviderContext,
    excluded: set[str],
    *,
    report_unavailable: bool,
) -> None:
    provider_id = provider.info.id
    if provider_id in excluded:
        plan.skipped.append(Attempt(provider=provider_id, outcome="skipped", detail="excluded"))
    elif provider.is_explicitly_available(context):
        plan.providers.append(provider)
    elif report_unavailable:
        # The spec's text for an explicitly chosen provider that cannot run.
        error = ProviderNotConfiguredError(
            provider_id,
            f"{provider.info.label} web search is unavailable. Configure its credentials or "
            "select the automatic provider chain.",
        )
        plan.failures.append((provider, error))
        plan.skipped.append(Attempt(provider=provider_id, outcome="skipped", detail=error.message))
    else:
        plan.skipped.append(
            Attempt(provider=provider_id, outcome="skipped", detail="not configured")
        )


class ChainRunner:
    """Runs a plan against the state store: skips, budgets, waits, marks.

    Args:
        store: Where marks and counters live.
        policy: Cooldown numbers.
        budgets: Per-provider request budgets.
        rates: Per-provider request rates (``[rate]``), enforced before each request.
        clock: Epoch seconds (injectable for tests).
        sleep: Awaitable sleep (injectable for tests).
    """

    def __init__(
        self,
        store: StateStore,
        *,
        policy: FailurePolicy | None = None,
        budgets: Mapping[str, Budget] | None = None,
        rates: Mapping[str, Rate] | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.ledger = Ledger(store, policy=policy, budgets=budgets, rates=rates, clock=clock)
        self.sleep = sleep

    async def run(
        self,
        plan: ChainPlan,
        params: SearchParams,
        context: ProviderContext,
        deadline: Deadline | None = None,
    ) -> ChainOutcome:
        """Try each provider in turn until one returns renderable content.

        Args:
            plan: The providers to try.
            params: The search.
            context: Passed to each provider.
            deadline: The whole call's deadline (default: ``settings.deadline_seconds``
                from now); providers left when it passes are reported as not tried.
        """
        outcome = ChainOutcome(
            response=None, failures=list(plan.failures), attempts=list(plan.skipped)
        )
        if deadline is None:
            deadline = Deadline(context.settings.deadline_seconds)
        redactor = call_redactor(context)
        # Marks are tied to the key and endpoint they were earned with (a new one is tried).
        self.ledger.scope_of = functools.partial(mark_scope, context)
        for index, provider in enumerate(plan.providers):
            if deadline.remaining() < MIN_ATTEMPT_SECONDS:
                _out_of_time(outcome, plan.providers[index:], deadline)
                return outcome
            if not plan.forced:
                skip = await self.ledger.skip_reason(provider.info)
                if skip is not None:
                    _skipped(outcome, provider, skip)
                    continue
            response = await self._try(provider, params, context, outcome, redactor, deadline)
            if response is not None:
                outcome.response = response.model_copy(update={"attempts": tuple(outcome.attempts)})
                return outcome
        return outcome

    async def _try(
        self,
        provider: SearchProvider,
        params: SearchParams,
        context: ProviderContext,
        outcome: ChainOutcome,
        redactor: Redactor,
        deadline: Deadline,
    ) -> SearchResponse | None:
        provider_id = provider.info.id
        retried = False
        while True:
            started = time.perf_counter()
            try:
                # Reserve before send: budget and rate slot in one step, or a skip.
                await self.ledger.reserve(
                    provider.info, max_wait=deadline.remaining() - MIN_ATTEMPT_SECONDS
                )
            except ProviderSkippedError as skip:
                _skipped(outcome, provider, skip)
                return None
            try:
                response = await run_attempt(
                    provider,
                    params,
                    context,
                    timeout=attempt_timeout(provider, context, deadline),
                    redactor=redactor,
                )
            except Exception as error:  # every provider failure moves the chain on
                _scrub(error, redactor)
                elapsed = _ms(started)
                wait = self.ledger.short_wait(error)
                if (
                    wait is not None
                    and not retried
                    and wait + MIN_ATTEMPT_SECONDS < deadline.remaining()
                ):
                    retried = True
                    outcome.attempts.append(
                        _failed(provider, error, elapsed, f"rate limited; retrying after {wait:g}s")
                    )
                    logger.info(
                        "web search provider %s rate limited; retrying in %gs", provider_id, wait
                    )
                    _detach(error)
                    await self.sleep(wait)
                    continue
                await self.ledger.record_failure(provider_id, error)
                outcome.failures.append((provider, error))
                detail = format_provider_failure(error, provider.info.label)
                outcome.attempts.append(_failed(provider, error, elapsed, detail))
                logger.warning(
                    "web search provider %s failed (%s): %s",
                    provider_id,
                    getattr(error, "status", None),
                    detail,
                    exc_info=not isinstance(error, SearchProviderError | ConfigurationError),
                )
                _detach(error)
                return None
            await self.ledger.record_success(provider_id)
            outcome.attempts.append(
                Attempt(provider=provider_id, outcome="success", ms=_ms(started))
            )
            logger.info("web search served by %s", provider_id)
            return response


def _skipped(outcome: ChainOutcome, provider: SearchProvider, skip: ProviderSkippedError) -> None:
    outcome.failures.append((provider, skip))
    outcome.attempts.append(
        Attempt(provider=provider.info.id, outcome="skipped", detail=skip.message)
    )
    logger.info("web search provider %s skipped: %s", provider.info.id, skip.message)


def _out_of_time(outcome: ChainOutcome, left: Sequence[SearchProvider], deadline: Deadline) -> None:
    """Record the providers the deadline left untried, as one failure and one skip each."""
    names = ", ".join(provider.info.id for provider in left)
    message = f"the {deadline.seconds:g}s deadline for the whole search ran out; not tried: {names}"
    outcome.failures.append((left[0], DeadlineExceededError(left[0].info.id, message)))
    outcome.attempts.extend(
        Attempt(provider=provider.info.id, outcome="skipped", detail="deadline reached")
        for provider in left
    )
    logger.warning("web search %s", message)


def _failed(provider: SearchProvider, error: BaseException, ms: float, detail: str) -> Attempt:
    status = error.status if isinstance(error, SearchProviderError) else None
    return Attempt(provider=provider.info.id, outcome="failed", status=status, ms=ms, detail=detail)


def _scrub(error: Exception, redactor: Redactor) -> None:
    """Remove credentials from an error's message in place, whatever raised it."""
    if isinstance(error, SearchProviderError):
        error.message = redactor(error.message)
        error.args = (error.message,)
    else:
        error.args = tuple(redactor(str(arg)) for arg in error.args)


def _detach(error: BaseException) -> None:
    """Drop what an error we keep could leak: chained exceptions and frames with locals.

    A failure is kept in the outcome (and raised inside ``AllProvidersFailedError``); its
    chained aiohttp exceptions hold request headers in their ``repr``, and its traceback's
    frames hold the request itself.
    """
    error.__context__ = None
    error.__cause__ = None
    error.__traceback__ = None


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
