"""The bookkeeping around each provider request: skip, reserve, mark, forgive.

Both the sequential chain and the Public Web fan-out ask providers; both must skip a
provider that is out of quota or cooling down *without sending a request*, count what they
send against budgets, and leave the right mark when a request fails. :class:`Ledger` is that
one piece of policy over the state store, so the two cannot drift apart.

Reserve before send. :meth:`Ledger.reserve` is the step right before a request goes out:

1. The budget windows are checked and counted in one atomic store step, so any number of
   tasks and processes together never send more than a budget allows.
2. Under a rate limit (``[rate]`` in the config file), the next send time is booked in the
   store (shared by every process) and waited for; a slot further away than ``max_wait``
   refuses the provider instead. An in-process limiter (aiolimiter) keeps this process's
   own requests apart even when the store is unavailable.
3. A refusal raises :class:`ProviderSkippedError`; a reservation whose request is never
   sent (refused rate slot, cancellation while waiting, or :meth:`Ledger.release`) gives its
   budget count back, so counted requests equal the requests providers saw. A budget's
   reservation the store did not answer in time (the provider skipped as unchecked) is not
   kept either: the store withdraws it, or gives it back once it lands (see
   :class:`~websearch_core.state.StateStoreTimeoutError`).

A spent prepaid balance's mark is re-checked by one request once it may have been topped
up (:mod:`.credit_probe`): :meth:`Ledger.reserve` lets the one search that claims the
probe through, a success clears the mark and a failure renews it.

Marks carry the scope they were earned with (a fingerprint of the credential and endpoint,
:func:`mark_scope`): after a new key, another OAuth sign-in or another endpoint the provider
is tried again.
"""

import asyncio
import functools
import hashlib
import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Final, TypeAlias

from aiolimiter import AsyncLimiter

from ..deadline import format_seconds
from ..endpoint_variables import endpoint_variables
from ..errors import RateLimitedError, SearchProviderError
from ..providers.base import ProviderInfo
from ..state.base import ProviderMark, StateStore, UsageGrant, UsageWindow
from .credit_probe import due_probe, is_credit_mark, keep_recheck, rechecks, renewed
from .quota import (
    Budget,
    FailurePolicy,
    Period,
    Rate,
    brief_mark,
    describe_mark,
    is_transient,
    mark_for_failure,
    period_window,
)

if TYPE_CHECKING:
    from ..providers.base import ProviderContext

__all__ = [
    "DEFAULT_MAX_WAIT",
    "USAGE_PERIOD",
    "BudgetUncheckedError",
    "Ledger",
    "ProviderSkippedError",
    "Reservation",
    "mark_scope",
]

logger = logging.getLogger("websearch_core")
state_logger = logging.getLogger("websearch_core.state")
"""Where an uncounted request is said: the command line prints this logger's warnings."""

USAGE_PERIOD: Period = "month"
"""Every request is also counted per calendar month, for ``websearch providers``."""

DEFAULT_MAX_WAIT: Final = 10.0
"""Longest wait for a rate-limit slot when the caller gives no ``max_wait``."""

SCOPED_MARKS: Final = frozenset({"unauthorized"})
"""Mark kinds tied to the credential and endpoint they were earned with."""

SIGN_IN_MARKS: Final = frozenset({"rate_limited", "exhausted"})
"""Mark kinds tied to the account as well, when an OAuth sign-in earned them.

A key does not say whose account it is (two keys of one account share its quota), so a
rate limit or spent credits earned with a key stay the provider's. An OAuth sign-in does:
another sign-in (Gemini CLI beside Antigravity) or another account has its own quota.
"""

OAUTH_SCOPE_PREFIX: Final = "oauth:"
"""Starts the scope of a provider reached with an OAuth sign-in (see :func:`mark_scope`)."""

ScopeOf = Callable[[str], "str | None"]
"""Maps a provider id to its current mark scope (``None``: unknown)."""


class ProviderSkippedError(SearchProviderError):
    """The provider was not asked: marked out, over budget, or no rate slot in time.

    Args:
        provider: The provider id.
        message: The skip sentence (what holds it back, until when).
        brief: The same in a few words (``rate limited until 16:33:34 UTC``), for a list
            of many engines, where the whole sentence of each would bury the ids.
        dated_brief: ``brief`` with the whole date its hold ends (``rate limited until
            2026-12-04 16:33:34 UTC``), for such a list with room for it; ``None`` when
            ``brief`` says no time or says it whole already.
    """

    def __init__(
        self,
        provider: str,
        message: str,
        *,
        brief: str | None = None,
        dated_brief: str | None = None,
    ) -> None:
        super().__init__(provider, message)
        self.brief = brief
        self.dated_brief = dated_brief


class BudgetUncheckedError(ProviderSkippedError):
    """Skipped because the state store cannot check the provider's budget (it is down).

    Not a refusal like a spent budget's: the provider may well have budget left, only no
    one can count the request. It is held back while another provider can answer, and
    asked after all, uncounted, when none did (see :mod:`.last_resort`), since a broken
    store must never be what fails a search.
    """


@dataclass(slots=True)
class Reservation:
    """A granted request slot: what was counted, so it can be given back if never used.

    Attributes:
        provider: The provider id.
        windows: The usage windows counted for this request (none when ``uncounted``).
        waited: Seconds spent waiting for the rate-limit slot.
        failures: The provider's consecutive-failure counter at reservation time.
        uncounted: Why the request is not counted, when its budget could not be checked
            and it is asked as the last resort (``reserve(accept_unchecked=True)``); the
            text for the attempt's detail and the response's notes. ``None``: counted.
        probing: The spent prepaid balance's mark this request re-checks (its probe
            claimed, see :mod:`.credit_probe`); ``None`` for a usual request.
    """

    provider: str
    windows: tuple[UsageWindow, ...]
    waited: float = 0.0
    failures: int = 0
    uncounted: str | None = None
    probing: ProviderMark | None = None
    released: bool = field(default=False, repr=False)


class Ledger:
    """Skips, reserves, counts and marks providers in a state store.

    Args:
        store: Where marks and counters live.
        policy: Cooldown numbers.
        budgets: Per-provider request budgets.
        rates: Per-provider request rates, enforced before sending.
        clock: Epoch seconds (injectable for tests).
        sleep: Awaitable sleep (injectable for tests).
        scope_of: The current mark scope of a provider (see :func:`mark_scope`); without
            it marks are not scoped.
        max_wait: Longest wait for a rate slot in :meth:`count_request`, which takes none.
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
        scope_of: ScopeOf | None = None,
        max_wait: float = DEFAULT_MAX_WAIT,
    ) -> None:
        self.store = store
        self.policy = policy or FailurePolicy()
        self.budgets = dict(budgets or {})
        self.rates = dict(rates or {})
        self.clock = clock
        self.sleep = sleep
        self.scope_of = scope_of
        self.max_wait = max_wait
        self._failures_seen: dict[str, int] = {}
        self._probing: dict[str, ProviderMark] = {}
        """Per provider, the mark its claimed probe re-checks, until the outcome is recorded."""
        self._forced_past: dict[str, ProviderMark] = {}
        """Per provider, the prepaid balance's mark a forced request was sent past: its
        success clears the mark as a probe's does, its failure leaves the mark as it was."""
        self._recheck_began: dict[str, float] = {}
        """Per provider, when the probe or forced request above was reserved: its success
        clears only a mark set before then, not one another search left meanwhile."""

    def _scope(self, provider_id: str, scope: str | None) -> str | None:
        if scope is not None or self.scope_of is None:
            return scope
        try:
            return self.scope_of(provider_id)
        except Exception:  # a fingerprint must never cost a search: the mark stays unscoped
            logger.debug("no mark scope for %s", provider_id, exc_info=True)
            return None

    async def skip_reason(
        self, info: ProviderInfo, *, scope: str | None = None
    ) -> ProviderSkippedError | None:
        """Why ``info``'s provider must not be asked now, or ``None`` when it may be.

        A cheap read-only look for skipping early; :meth:`reserve` is what actually holds
        the budget, so two callers that both pass here cannot both overspend.

        Args:
            info: The provider.
            scope: Its current credential/endpoint scope (default: ``scope_of``).
        """
        now = self.clock()
        mark = await self.store.get_mark(info.id, now)
        # A mark whose re-check is due does not skip: reserve decides who makes the check.
        if (
            mark is not None
            and mark.applies_to(self._scope(info.id, scope))
            and await due_probe(self.store, info.id, mark, now) is None
        ):
            return _marked_out(info, mark, now)
        budget = self.budgets.get(info.id)
        if budget is not None:
            window, _ = budget.window(now)
            used = await self.store.get_usage(info.id, f"budget:{window}")
            if used >= budget.limit:
                return _over_budget(info.id, info.label, budget, used)
        return None

    def _windows(self, provider_id: str, now: float) -> tuple[UsageWindow, ...]:
        month = _month_windows(*period_window(USAGE_PERIOD, now))
        budget = self.budgets.get(provider_id)
        if budget is None:
            return month
        window, ends = budget.window(now)
        return (*month, UsageWindow(f"budget:{window}", ends, limit=budget.limit))

    async def reserve(
        self,
        info: ProviderInfo | str,
        *,
        max_wait: float | None = None,
        skip_marked: bool = False,
        accept_unchecked: bool = False,
        retry_of: Reservation | None = None,
    ) -> Reservation:
        """Reserve one request to ``info``'s provider, waiting for its rate slot if any.

        Call it right before sending; give the slot back with :meth:`release` if the
        request is then not sent after all.

        Args:
            info: The provider (or its id).
            max_wait: Longest acceptable wait for a rate-limit slot, in seconds: pass what
                remains of the call's deadline. ``None`` means :attr:`max_wait`.
            skip_marked: Refuse a provider whose mark applies, as :meth:`skip_reason`
                would, in the same store step as the reservation (one step instead of two
                on every request of the chain).
            accept_unchecked: Grant a budget the store cannot check, uncounted (the
                reservation's ``uncounted`` says so, a warning too, and there is nothing
                to release): for the last resort, when no other provider answered.
            retry_of: The reservation of the request this one retries (after a short
                rate limit). A counted one is followed by a reservation of its own: the
                retry is one more request its budget counts. An uncounted one is reused
                (its rate slot still waited for): the retry is the same last resort, so
                neither a second store step nor a second warning says it again.

        Raises:
            ProviderSkippedError: The provider is marked out (``skip_marked``), the budget
                is spent, or no rate slot is free in time; nothing was counted.
            BudgetUncheckedError: The budget cannot be checked (the store is unavailable)
                and ``accept_unchecked`` is false; nothing was counted.
        """
        provider_id, label = _id_and_label(info)
        limit = self.max_wait if max_wait is None else max(0.0, max_wait)
        reused = retry_of if retry_of is not None and retry_of.uncounted is not None else None
        reservation = reused or await self._counted(
            info, provider_id, label, skip_marked=skip_marked, accept_unchecked=accept_unchecked
        )
        rate = self.rates.get(provider_id)
        if rate is not None:
            try:
                reservation.waited = await self._wait_for_slot(provider_id, label, rate, limit)
                if reservation.waited > 0:  # while it waited, an earlier request may have a 429
                    now = self.clock()
                    mark = await self.store.get_mark(provider_id, now)
                    applies = mark is not None and mark.applies_to(self._scope(provider_id, None))
                    if mark is not None and applies and not _probes(reservation, mark):
                        raise _marked_out(info, mark, now)
            except BaseException:  # refused, cancelled, or the store broke: nothing was sent
                await asyncio.shield(self.release(reservation))
                raise
        if reservation.uncounted is not None and reused is None:
            # Said once the request is sure to go: the spend is real and no budget saw it
            # (the command line prints this logger's warnings).
            state_logger.warning("%s", reservation.uncounted)
        return reservation

    async def _counted(
        self,
        info: ProviderInfo | str,
        provider_id: str,
        label: str,
        *,
        skip_marked: bool,
        accept_unchecked: bool,
    ) -> Reservation:
        """The store's step of :meth:`reserve`: the mark, the budget and the count, or a skip."""
        now = self.clock()
        windows = self._windows(provider_id, now)
        # A forced search too starts with the step that may count behind: without a
        # budget it is a read (SQLite writes its counts later), where reserve_usage is a
        # write that waited for another process's write lock and then gave up on the store.
        grant = await self.store.reserve_unless_marked(provider_id, windows, now)
        marked = grant.mark
        if marked is not None:
            applies = marked.applies_to(self._scope(provider_id, None))
            if skip_marked and applies:
                return await self._probe(info, label, windows, marked, now, accept_unchecked)
            # Forced, or earned with another key or endpoint: it is asked after all.
            grant = await self.store.reserve_usage(provider_id, windows)
            if applies and await is_credit_mark(self.store, provider_id, marked, now):
                self._forced_past[provider_id] = marked  # its success is the re-check's proof
                self._recheck_began[provider_id] = now
        reservation = self._granted(provider_id, label, windows, grant, accept_unchecked)
        self._failures_seen[provider_id] = grant.failures
        return reservation

    async def _probe(
        self,
        info: ProviderInfo | str,
        label: str,
        windows: tuple[UsageWindow, ...],
        mark: ProviderMark,
        now: float,
        accept_unchecked: bool,
    ) -> Reservation:
        """The reservation re-checking ``mark``'s spent prepaid balance, or its skip.

        The probe's window (limit one) is counted with the request's own in one atomic
        store step, so among any number of searches and processes one claims it; the
        rest are skipped as the mark says, as before its re-check was due.
        """
        provider_id = info.id if isinstance(info, ProviderInfo) else info
        probe = await due_probe(self.store, provider_id, mark, now)
        if probe is None:
            raise _marked_out(info, mark, now)
        claimed = (probe, *windows)
        grant = await self.store.reserve_usage(provider_id, claimed)
        if not grant.granted and (grant.unchecked or not grant.counts or grant.counts[0] >= 1):
            raise _marked_out(info, mark, now)  # another search holds the probe
        reservation = self._granted(provider_id, label, claimed, grant, accept_unchecked)
        self._failures_seen[provider_id] = grant.failures
        reservation.probing = mark
        self._probing[provider_id] = mark
        self._recheck_began[provider_id] = now
        logger.info("web search provider %s: re-checking its spent credits", provider_id)
        return reservation

    def _granted(
        self,
        provider_id: str,
        label: str,
        windows: tuple[UsageWindow, ...],
        grant: UsageGrant,
        accept_unchecked: bool,
    ) -> Reservation:
        """The reservation ``grant`` makes, or the skip it stands for (see :meth:`reserve`)."""
        if grant.granted:
            return Reservation(provider_id, windows, failures=grant.failures)
        budget = self.budgets[provider_id]
        if not grant.unchecked:
            raise _over_budget(provider_id, label, budget, grant.counts[-1])
        if not accept_unchecked:
            raise _budget_unchecked(provider_id, label, budget)
        return _uncounted(provider_id, label, budget)

    async def _wait_for_slot(self, provider_id: str, label: str, rate: Rate, limit: float) -> float:
        started = time.monotonic()
        wait = await self.store.take_rate_slot(provider_id, rate.interval, limit)
        if wait is None:
            raise _rate_refusal(provider_id, label, rate, limit)
        if wait > 0:
            await self.sleep(wait)
        limiter = _local_limiter(self.store, provider_id, rate)
        if not self.store.degraded:
            # The store booked this slot, spaced from every process's sends: it goes now.
            # The in-process limiter only keeps count, to pace alone should the store fail
            # later; waiting on it here would pace this send from the previous one's
            # *wake-up*, and a waiter woken late by a busy loop would push the next past
            # its wait and skip a provider whose booked slot fitted.
            if limiter.has_capacity():
                await limiter.acquire()
            return time.monotonic() - started
        # The store is unavailable and booked nothing: the in-process pacing is all there is.
        remaining = limit - (time.monotonic() - started)
        if not limiter.has_capacity():
            try:
                async with asyncio.timeout(max(remaining, 0.0)):
                    await limiter.acquire()
            except TimeoutError:
                raise _rate_refusal(provider_id, label, rate, limit) from None
        else:
            await limiter.acquire()
        return time.monotonic() - started

    async def release(self, reservation: Reservation) -> None:
        """Give back a reservation whose request was never sent (idempotent)."""
        if reservation.released:
            return
        reservation.released = True
        self._forced_past.pop(reservation.provider, None)  # unsent: it proves nothing
        self._recheck_began.pop(reservation.provider, None)
        if reservation.probing is not None:  # unsent: the probe is free for another search
            self._probing.pop(reservation.provider, None)
        await self.store.release_usage(reservation.provider, reservation.windows)

    async def count_request(self, provider_id: str) -> None:
        """Reserve one request now (see :meth:`reserve`), waiting up to :attr:`max_wait`.

        Kept for callers written before :meth:`reserve`: the check and the count are one
        atomic step, so concurrent callers cannot overspend a budget either.

        Raises:
            ProviderSkippedError: The budget is spent or no rate slot is free in time.
        """
        await self.reserve(provider_id)

    def owes_forgiveness(self, provider_id: str) -> bool:
        """Whether :meth:`record_success` would write (clear failures) for ``provider_id``.

        The chain bounds the store's wait only around a success that writes; the usual
        one writes nothing and is spared setting up the bound (about 2 us a search).
        """
        return (
            provider_id in self._probing
            or provider_id in self._forced_past
            or self._failures_seen.get(provider_id, 1) > 0
        )

    async def record_success(self, provider_id: str) -> None:
        """A success closes the circuit breaker, and one past a spent balance clears its mark.

        The failure counter read at reservation time says whether there is anything to
        forgive; the usual success therefore writes nothing. A re-check's success, or a
        forced search's sent past a prepaid balance's mark, proves the balance topped up.
        """
        probing = self._probing.pop(provider_id, None)
        probing = self._forced_past.pop(provider_id, None) or probing
        began = self._recheck_began.pop(provider_id, None)
        if self._failures_seen.pop(provider_id, 1) > 0:
            await self.store.reset_failures(provider_id)
        if probing is not None and began is not None:  # the balance was topped up
            await self._clear_mark_set_before(provider_id, began)

    async def _clear_mark_set_before(self, provider_id: str, began: float) -> None:
        """Clear the provider's mark if it was set before ``began`` (a re-check's start).

        A search that failed while this one was in flight (a spent balance again, a rate
        limit) set a mark this success knows nothing of: clearing it would send the next
        searches to a provider that has just refused. One that fails between this read and
        the clear does too, so the clear is the store's compare-and-clear: it removes only
        the mark read here, never one set since.
        """
        now = self.clock()
        mark = await self.store.get_mark(provider_id, now)
        if mark is None:
            return
        if mark.set_at > began:
            logger.info("web search provider %s answered; a newer mark stays", provider_id)
            return
        await self.store.clear_mark_if_unchanged(provider_id, mark, now)
        logger.info(
            "web search provider %s has credits again; its mark cleared unless replaced since",
            provider_id,
        )

    async def record_failure(
        self, provider_id: str, error: BaseException, *, scope: str | None = None
    ) -> None:
        """Leave the mark ``error`` calls for (cooldown, exhaustion, open breaker), if any.

        Args:
            provider_id: The provider that failed.
            error: What it raised.
            scope: The credential/endpoint scope it was used with (default: ``scope_of``).
        """
        self._failures_seen.pop(provider_id, None)
        self._forced_past.pop(provider_id, None)  # a forced failure proves nothing: no renewal
        self._recheck_began.pop(provider_id, None)
        probing = self._probing.pop(provider_id, None)
        failures = await self.store.record_failure(provider_id) if is_transient(error) else 0
        now = self.clock()
        mark = mark_for_failure(error, now=now, failures=failures, policy=self.policy)
        recheck = rechecks(error)
        if mark is None and probing is not None:  # the re-check told nothing: wait again
            mark, recheck = renewed(probing, now), True
        if mark is not None:
            # An authorization cooldown belongs to the key and endpoint that earned it; a
            # rate limit or a spent quota to the OAuth sign-in that earned it, if one did;
            # an open breaker (and a key's rate limit or quota) is the provider's.
            scoped = mark.kind in SCOPED_MARKS or mark.kind in SIGN_IN_MARKS
            current = self._scope(provider_id, scope) if scoped else None
            if current and (mark.kind in SCOPED_MARKS or current.startswith(OAUTH_SCOPE_PREFIX)):
                mark = _with_scope(mark, current)
            await self.store.set_mark(provider_id, mark)
            if recheck:
                await keep_recheck(self.store, provider_id, mark)
            logger.info("web search provider %s marked %s: %s", provider_id, mark.kind, mark.reason)

    async def record_unresolved(
        self, failures: Sequence[tuple[str, BaseException]], *, offline: bool
    ) -> None:
        """Count the failures that reached no host a search held back, unless it was offline.

        A host name that did not resolve, or a connection refused or without a route, is
        the provider's failure (or its mistyped base URL's) only when the network works:
        counted at once, every failure of a machine without a network opened every
        provider's breaker, and the first search once it was back sent nothing. The caller
        holds them until the search has ended (or was cancelled) and says whether it
        showed this machine offline
        (:func:`~websearch_core.orchestration.offline.machine_offline`).

        Args:
            failures: ``(provider id, error)`` for each failure held back, in order.
            offline: Whether the failures may be this machine's network: nothing counts.
        """
        if offline:
            if failures:
                logger.info(
                    "web search providers %s not marked: no host was reached (offline)",
                    ", ".join(provider_id for provider_id, _ in failures),
                )
            return
        for provider_id, error in failures:
            await self.record_failure(provider_id, error)

    def short_wait(self, error: BaseException) -> float | None:
        """The ``Retry-After`` worth waiting out before one retry, or ``None``."""
        if (
            isinstance(error, RateLimitedError)
            and error.retry_after is not None
            and error.retry_after <= self.policy.rate_limit_wait_budget
        ):
            return error.retry_after
        return None


@functools.lru_cache(maxsize=2)
def _month_windows(period: str, expires_at: float) -> tuple[UsageWindow]:
    """The monthly usage counter every request counts in, as the windows of one without a budget.

    Every reservation needs it and it only changes once a month: the window (frozen, in a
    tuple, so safe to share) is built once per month instead of once per request, and the
    same tuple lets the store keep what it derives from it (``SQLiteStore._uncapped``).
    """
    return (UsageWindow(period, expires_at),)


def mark_scope(context: "ProviderContext", provider_id: str) -> str:
    """A secret-free fingerprint of how ``provider_id`` is reached in ``context``.

    It covers the key, a base URL override, the module's own endpoint variables
    (``FIRECRAWL_BASE_URL`` ...), for SearXNG the endpoint and its credentials, and each
    stored OAuth token a search would send: its store entry (which sign-in) and its
    sign-in's fingerprint (which account; stable across refreshes, so a refresh keeps the
    mark). Only a truncated SHA-256 digest is kept, so the state never holds a key; a scope
    with a sign-in in it starts with :data:`OAUTH_SCOPE_PREFIX`.
    """
    from ..providers import get_provider

    provider = get_provider(provider_id)
    sign_ins = provider.signed_in(context)
    # A key a stored token wins over is not sent (Gemini's with a sign-in): setting or
    # changing it must not lift a mark the sign-in earned.
    key_sent = not sign_ins or provider.tries_every_credential
    parts = [provider_id, (provider.api_key(context) or "") if key_sent else ""]
    parts.append(context.settings.base_urls.get(provider_id, ""))
    for name in endpoint_variables(provider):
        parts.append(f"{name}={context.credentials.env(name) or ''}")
    if provider_id == "searxng" and context.settings.searxng is not None:
        searxng = context.settings.searxng
        secrets = (searxng.token, searxng.basic_password)
        parts.append(str(searxng.endpoint or ""))
        parts.append(str(searxng.basic_username or ""))
        parts.extend(s.get_secret_value() if s is not None else "" for s in secrets)
    parts.extend(f"oauth {s.entry}={s.fingerprint}" for s in sign_ins)
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass"))
    return (OAUTH_SCOPE_PREFIX if sign_ins else "") + digest.hexdigest()[:16]


def _probes(reservation: Reservation, mark: ProviderMark) -> bool:
    """Whether ``reservation`` is the re-check of ``mark`` (so the mark must not stop it)."""
    probing = reservation.probing
    return probing is not None and probing.set_at == mark.set_at and probing.kind == mark.kind


def _with_scope(mark: ProviderMark, scope: str) -> ProviderMark:
    return replace(mark, scope=scope)


def _id_and_label(info: ProviderInfo | str) -> tuple[str, str]:
    if isinstance(info, ProviderInfo):
        return info.id, info.label
    from ..providers import PROVIDER_REGISTRY, get_provider

    label = get_provider(info).info.label if info in PROVIDER_REGISTRY else info
    return info, label


def _marked_out(info: ProviderInfo | str, mark: ProviderMark, now: float) -> ProviderSkippedError:
    """The skip for a provider whose mark holds at ``now``, worded for its kind (keyed or not)."""
    if isinstance(info, str):
        from ..providers import PROVIDER_REGISTRY, get_provider

        if info not in PROVIDER_REGISTRY:
            text = describe_mark(info, mark, provider_id=info)
            return _mark_skip(info, text, mark, now, keyless=False)
        info = get_provider(info).info
    text = describe_mark(info.label, mark, provider_id=info.id, keyless=info.credential_free)
    return _mark_skip(info.id, text, mark, now, keyless=info.credential_free)


def _mark_skip(
    provider_id: str, text: str, mark: ProviderMark, now: float, *, keyless: bool
) -> ProviderSkippedError:
    """The skip of a marked provider, with its brief in both lengths."""
    return ProviderSkippedError(
        provider_id,
        text,
        brief=brief_mark(mark, keyless=keyless, now=now),
        dated_brief=brief_mark(mark, keyless=keyless, now=now, dated=True),
    )


def _over_budget(provider_id: str, label: str, budget: Budget, used: int) -> ProviderSkippedError:
    return ProviderSkippedError(
        provider_id,
        f"{label} budget of {budget} is spent ({used} used); skipped without a request.",
        brief=f"budget of {budget} spent",
    )


def _budget_unchecked(provider_id: str, label: str, budget: Budget) -> BudgetUncheckedError:
    """The skip for a budgeted provider while the state store cannot count its requests."""
    return BudgetUncheckedError(
        provider_id,
        f"{label} budget of {budget} cannot be checked while the state store is unavailable; "
        "skipped without a request.",
        brief=f"budget of {budget} unchecked: state store unavailable",
    )


def _uncounted(provider_id: str, label: str, budget: Budget) -> Reservation:
    """The last resort's reservation of a budget the store cannot check: nothing counted.

    Nothing was counted, so nothing is given back (released from the start).
    """
    note = (
        f"{label} budget of {budget} not checked (state store unavailable); asked as the "
        "last resort, the request uncounted."
    )
    return Reservation(provider_id, (), uncounted=note, released=True)


def _rate_refusal(provider_id: str, label: str, rate: Rate, limit: float) -> ProviderSkippedError:
    return ProviderSkippedError(
        provider_id,
        f"{label} rate limit of {rate} has no free slot within {format_seconds(limit)}s; "
        "skipped without a request.",
        brief=f"no free slot of its rate {rate}",
    )


# In-process limiters, one per (store, event loop, provider, rate): the client wraps its
# store anew for each search, so they hang off the store underneath, and an aiolimiter
# waits on futures of the loop that created them.
_LoopLimiters: TypeAlias = (
    "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, Rate], AsyncLimiter]]"
)
_limiters: "weakref.WeakKeyDictionary[object, _LoopLimiters]" = weakref.WeakKeyDictionary()


def _local_limiter(store: StateStore, provider_id: str, rate: Rate) -> AsyncLimiter:
    root: object = getattr(store, "inner", store)
    per_loop = _limiters.setdefault(root, weakref.WeakKeyDictionary())
    limiters = per_loop.setdefault(asyncio.get_running_loop(), {})
    key = (provider_id, rate)
    limiter = limiters.get(key)
    if limiter is None:
        # Capacity one, refilled every interval: the same even spacing as the store's booking.
        limiter = limiters[key] = AsyncLimiter(1, rate.interval)
    return limiter
