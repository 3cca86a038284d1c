"""The sequential fallback loop: each planned provider in turn, through the ledger.

The loop stops at the first response with something a model can read. Before each
provider it consults the ledger: a provider that is out of quota, rate limited, refusing
its key, cooling down after repeated failures, or over its request budget is skipped
**without a request**, and the skip is reported like a failure. Cancellation is never
recorded as a failure: it propagates. A provider that asks other providers (a
:class:`~websearch_core.orchestration.fanout.FanOutProvider`, the Public Web) is handed
this loop's ledger for the call, so its engines obey the same marks and budgets.

A budget the state store cannot check (it is down or stuck) is the one skip that is not
final (:mod:`.last_resort`): the provider is skipped while another provider may answer, and
when none did, the providers skipped only for that are asked after all, in chain order,
within the deadline and uncounted; the attempt's detail and the response's notes (or the
final error's text) say so. A
chain's last provider with no such skip before it (a pinned or forced provider, a chain of
one) is asked so at once: nothing after it could answer. A Public Web fan-out applies the
same rule to its engines, told by the chain which pass it runs in.
"""

import asyncio
import contextlib
import enum
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from contextvars import Token
from dataclasses import dataclass, field, replace
from typing import Final, cast

from ..bug_traces import ProviderBug, bug_trace
from ..chain_unseen import with_passed_over
from ..clauses import join_clauses
from ..deadline import (
    CallBounds,
    Deadline,
    StoreWaitsWithin,
    bound_store_waits,
    leave_call,
    not_tried_text,
    store_share,
)
from ..errors import (
    AuthorizationError,
    ConfigurationError,
    DeadlineExceededError,
    OAuthTokenError,
    ProviderNotConfiguredError,
    SearchProviderError,
)
from ..format import (
    format_failures,
    format_not_configured,
    format_provider_failure,
    with_lone_host_hint,
    with_offline_hint,
)
from ..kept_failures import detach, kept_failure
from ..models import Attempt, SearchParams, SearchResponse
from ..note_bound import notes_update
from ..providers.base import ProviderContext, SearchProvider
from ..redaction import Redactor
from ..said_once import first_time
from ..state.base import StateStore
from .attempt import AttemptAnswer, LiveRedactor, answer_attempt, attempt_timeout, scrub_error
from .fanout import FanOutProvider
from .last_resort import LastResort, awaits_last_resort
from .ledger import Ledger, ProviderSkippedError, Reservation, ScopeOf, mark_scope
from .offline import (
    hint_cause,
    is_unreached,
    lone_unreached_cause,
    offline_cause,
    proxy_source,
    sent_nothing,
    unreached_count,
)
from .plan import ChainPlan
from .quota import Budget, FailurePolicy, Rate

__all__ = ["MIN_ATTEMPT_SECONDS", "ChainOutcome", "ChainRunner", "CredentialSkippedError"]

logger = logging.getLogger("websearch_core")

MIN_ATTEMPT_SECONDS = 0.05
"""Less time than this left in the deadline is no time for another provider."""


class _NotTried(enum.Enum):
    """The marker of a provider the deadline ran out on before it was asked."""

    NOT_TRIED = enum.auto()


_NOT_TRIED: Final = _NotTried.NOT_TRIED


class CredentialSkippedError(ProviderSkippedError, ProviderNotConfiguredError):
    """Skipped without a request: its credential cannot be sent (a key with a line break).

    A skip, as a marked provider's is (the provider was not asked), and a provider not
    configured, as one without its key is: a chain that had nothing else to ask failed
    for its setup, not for a provider's answer (:attr:`ChainOutcome.nothing_could_run`).
    """


@dataclass(slots=True)
class ChainOutcome:
    """What the loop produced: a response, or the failures in attempt order."""

    response: SearchResponse | None
    failures: list[tuple[SearchProvider, BaseException]] = field(default_factory=list)
    """Each failed or skipped provider and its error, in attempt order, as
    :func:`~websearch_core.kept_failures.kept_failure` keeps it: the library's errors
    detached from their chain and frames, a provider's bug as the
    :class:`~websearch_core.errors.SearchProviderError` the client raises for it (caused by
    its :func:`~websearch_core.bug_traces.bug_trace`), never the bug itself."""
    attempts: list[Attempt] = field(default_factory=list)
    texts: list[tuple[BaseException, str]] = field(default_factory=list)
    """The failures whose text the chain said otherwise than the error's own (a last
    resort's, with its uncounted note), each by its error: the final message reads the
    text the attempt's detail did. Matched by identity (an error may compare equal to
    another); a list, as few failures have one."""
    store_problem: str | None = None
    """Why the plan passed providers over for an unreadable credential store, if it did."""
    passed_over: str | None = None
    """The plan's note of auto-chain providers passed over with their keys set in
    ``os.environ`` alone (:func:`~websearch_core.chain_unseen.passed_over_note`): the
    answer's last note, or the end of :meth:`failure_message`."""

    @property
    def last_provider(self) -> str:
        """The id of the last provider asked, or ``"none"`` (the spec's ``provider``).

        A provider skipped without a request (cooling down, over budget) was not asked:
        a chain whose last entry was skipped names the one before it that failed. When
        every provider was skipped, the last of them is named.
        """
        if not self.failures:
            return "none"
        for provider, error in reversed(self.failures):
            if not isinstance(error, ProviderSkippedError):
                return provider.info.id
        return self.failures[-1][0].info.id

    def text_of(self, provider: SearchProvider, error: BaseException) -> str:
        """The text ``provider``'s failure ``error`` ended its turn with."""
        for said, text in self.texts:
            if said is error:
                return text
        return format_provider_failure(error, provider.info.label)

    @property
    def nothing_could_run(self) -> bool:
        """No provider was asked, each one chosen lacking its setup (a key, an endpoint).

        A listed, pinned or forced provider without its key, or with a credential that
        cannot be sent, and nothing else to ask: the settings, not a provider, failed. A
        provider that was asked (an attempt that is not a skip) or one skipped for its
        state (a cooldown, a spent budget, the deadline) makes it a failure to search.
        """
        return (
            bool(self.failures)
            and all(isinstance(error, ProviderNotConfiguredError) for _, error in self.failures)
            and all(attempt.outcome == "skipped" for attempt in self.attempts)
        )

    @property
    def offline_cause(self) -> str | None:
        """How two or more providers asked all failed alike before reaching their hosts.

        ``dns`` (no host name resolved), ``connect`` (every connection refused or without
        a route) or ``proxy`` (the proxy refused them all): this machine's network, not
        the providers; ``None`` otherwise. One alone may be a mistyped base URL or a
        provider that is down, so it takes two. Skips (a cooldown, a budget) and providers
        that could not run (a preferred one without its key) sent nothing, so they neither
        count nor spoil it (:func:`~websearch_core.orchestration.offline.offline_cause`).
        """
        return offline_cause(error for _, error in self.failures)

    @property
    def no_host_resolved(self) -> bool:
        """Two or more providers were asked, and not one of their hosts was reached.

        The name is older than the refused connections and the proxy it also covers
        (:attr:`offline_cause`).
        """
        return self.offline_cause is not None

    def failure_texts(self) -> list[tuple[str, str]]:
        """Each failed (or passed over) provider's id and the text its turn ended with.

        In attempt order, as the final message joins them; the command prints them a line
        each from here (:func:`~websearch_core.cli_output.failure_lines`) rather than cut
        the joined message apart again.
        """
        return [
            (provider.info.id, self.text_of(provider, error)) for provider, error in self.failures
        ]

    def failure_message(self) -> str:
        """The spec's final error text for this outcome.

        When :attr:`nothing_could_run`, the spec's ``No web search provider configured.``
        comes first, then each provider's reason and what to set; the command exits 2 on
        it, as for any configuration error. When :attr:`offline_cause` is known, the spec's
        text is followed by that cause's hint (:func:`~websearch_core.format.with_offline_hint`):
        a search on a machine without a network otherwise reads as every provider broken.
        One provider asked alone that reached no host (a forced one offline) gets the
        one-host hint instead (:func:`~websearch_core.format.with_lone_host_hint`), which
        allows for a wrong host: one failure cannot prove the machine offline.
        """
        pairs = self.failure_texts()
        text = (format_not_configured if self.nothing_could_run else format_failures)(pairs)
        errors = [error for _, error in self.failures]
        cause = self.offline_cause
        if cause is not None:
            text = with_offline_hint(text, hint_cause(cause, errors), proxy_source(errors))
        elif (lone := lone_unreached_cause(errors)) is not None:
            text = with_lone_host_hint(text, hint_cause(lone, errors))
        # Last: the providers the auto chain passed over never ran, so no text above is
        # theirs (stop 53, streams56).
        return with_passed_over(text, self.passed_over)


@dataclass(slots=True)
class _Call:
    """What every turn of one search shares, handed to each turn whole.

    Not frozen: a frozen dataclass sets each field through ``object.__setattr__`` (1 us of
    every search for these seven, 0.4 unfrozen); only the two lists below are assigned
    after it is made, each when first written.
    """

    params: SearchParams
    context: ProviderContext
    outcome: ChainOutcome
    masks: LiveRedactor
    deadline: Deadline
    skip_marked: bool
    unresolved: list[tuple[str, BaseException]] | None = None
    """Host-not-found failures, counted once the search shows it was not offline; ``None``
    until the first (:meth:`unresolved_list`). Most searches have none, and an empty list
    made for every search is one more object each search in flight holds across its
    request for the collector to walk (``benchmarks/bench_held_objects.py``)."""
    held: list[SearchProvider] | None = None
    """The providers the first pass skipped only because the store could not check their
    budget, asked in a last-resort pass; ``None`` until the first (the usual search holds
    none), for the same reason."""

    def unresolved_list(self) -> list[tuple[str, BaseException]]:
        """:attr:`unresolved`, made now if no failure was put in it yet.

        A fan-out's engines are lent it before they run (they add theirs to it), so
        binding one makes it.
        """
        if self.unresolved is None:
            self.unresolved = []
        return self.unresolved


class ChainRunner:
    """Runs a plan against the state store: skips, budgets, waits, marks.

    Args:
        store: Where marks and counters live.
        policy: Cooldown numbers.
        budgets: Per-provider request budgets.
        rates: Per-provider request rates (``[rate]``), enforced before each request.
        clock: Epoch seconds (injectable for tests).
        sleep: Awaitable sleep (injectable for tests).
        scope: A context and its :func:`mark_scope` reader, made once by a caller that runs
            a search after another with the same context (the client's call setup): a
            ``run`` given that context uses it rather than build a partial of its own, an
            object each search would hold until it ends. Another context gets its own.
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
        scope: tuple[ProviderContext, ScopeOf] | None = None,
    ) -> None:
        self.ledger = Ledger(store, policy=policy, budgets=budgets, rates=rates, clock=clock)
        self.sleep = sleep
        self._scope = scope

    async def run(
        self,
        plan: ChainPlan,
        params: SearchParams,
        context: ProviderContext,
        deadline: Deadline | None = None,
        *,
        redactor: Redactor | None = None,
    ) -> ChainOutcome:
        """Try each provider in turn until one returns renderable content.

        Args:
            plan: The providers to try.
            params: The search.
            context: Passed to each provider.
            deadline: The whole call's deadline (default: ``settings.deadline_seconds``
                from now); providers left when it passes are reported as not tried.
            redactor: Masks every secret of ``context`` known now (default:
                :func:`~websearch_core.orchestration.attempt.call_redactor` of it); a client
                that keeps one per set of secrets passes it in. A secret first handed out
                during the call (a key read inside an attempt, a refreshed token) is added
                before any text is built from that attempt (:class:`LiveRedactor`).
        """
        outcome = ChainOutcome(
            response=None,
            failures=list(plan.failures),
            attempts=list(plan.skipped),
            store_problem=plan.store_problem,
            passed_over=plan.passed_over,
        )
        if deadline is None:
            deadline = Deadline(context.settings.deadline_seconds)
        masks = LiveRedactor(context, redactor)
        # Marks are tied to the key and endpoint they were earned with (a new one is tried).
        kept = self._scope
        if kept is not None and kept[0] is context:
            self.ledger.scope_of = kept[1]
        else:
            self.ledger.scope_of = functools.partial(mark_scope, context)
        call = _Call(params, context, outcome, masks, deadline, skip_marked=not plan.forced)
        try:
            # Those skipped only because the store could not check their budget
            # (``call.held``) are asked in a last-resort pass.
            if not await self._in_turn(plan.providers, call, first_pass=True) and call.held:
                await self._in_turn(call.held, call, first_pass=False)
        except asyncio.CancelledError:
            # No verdict was reached: count what was held only if the search had already
            # shown the network works (see unreached_count), then let the cancel through.
            counted = unreached_count(outcome.failures, context, ended=False)
            await asyncio.shield(
                self.ledger.record_unresolved(call.unresolved or (), offline=not counted)
            )
            raise
        if call.unresolved:  # the usual search held none back: nothing to judge or count
            answered = outcome.response is not None
            counted = unreached_count(outcome.failures, context, answered=answered)
            await self.ledger.record_unresolved(call.unresolved, offline=not counted)
        if plan.passed_over is not None and outcome.response is not None:
            _note_passed_over(outcome, plan.passed_over)
        return outcome

    async def _in_turn(
        self, providers: Sequence[SearchProvider], call: _Call, *, first_pass: bool
    ) -> bool:
        """Ask ``providers`` in turn; whether the search ended (an answer, or out of time).

        The first pass collects in ``call.held`` the providers skipped only because the
        store could not check their budget; its last provider, when none is held before
        it, may be asked so at once (nothing after it could answer). Not ``first_pass``:
        the last-resort pass over those, each asked uncounted, its skip replaced by what
        it does.
        """
        outcome, deadline = call.outcome, call.deadline
        last = len(providers) - 1
        # By index: ``enumerate`` keeps itself, a list iterator and a pair alive across every
        # turn's awaits (a range's iterator is not tracked), three objects each search in
        # flight holds for the collector to walk; no closure here reads ``provider``, which
        # would make it a cell for the whole turn.
        for index in range(last + 1):
            provider = providers[index]
            if deadline.remaining() < MIN_ATTEMPT_SECONDS:
                _out_of_time(outcome, providers[index:], deadline)
                return True
            first_error: BaseException | None = None
            if not first_pass:
                mode = LastResort.ONLY
                first_error = _held_error(outcome, provider)
                _drop_held(outcome, provider)
            elif index == last and not call.held:
                mode = LastResort.AFTER_OTHERS
            else:
                mode = LastResort.HOLD
            # Unless forced, a marked provider is skipped by the first reservation's step.
            answer = await self._try(provider, call, mode, first_error)
            if answer is _NOT_TRIED:
                _out_of_time(outcome, providers[index:], deadline)
                return True
            if answer is not None:
                # One copy: the attempt's pending update (ISO dates) and the attempts.
                outcome.response = answer.final(attempts=tuple(outcome.attempts))
                return True
            if first_pass and _held_back(outcome, provider):
                if call.held is None:
                    call.held = []
                call.held.append(provider)
        return False

    def _bound(
        self,
        provider: SearchProvider,
        last_resort: LastResort,
        first_pass: BaseException | None = None,
        call: _Call | None = None,
    ) -> SearchProvider:
        """``provider`` as this call runs it: one that asks others gets the ledger.

        And the chain's pass, which says what it does with engines whose budget the
        store cannot check, in the last-resort pass its error from the first (what
        became of the engines it does not ask again), and the search's list of failures
        that reached no host (``call``'s, made here if none is yet), which its engines'
        join when the fan-out alone cannot say whether they count.
        """
        # The class's MRO rather than isinstance: every search asks this of a provider
        # that is not a fan-out, and an ABC's isinstance goes through ABCMeta in Python.
        if _fans_out(provider):
            fan_out = cast(FanOutProvider, provider)
            unresolved = None if call is None else call.unresolved_list()
            return fan_out.with_ledger(self.ledger, last_resort, first_pass, unresolved)
        return provider

    async def _try(
        self,
        provider: SearchProvider,
        call: _Call,
        last_resort: LastResort,
        first_pass: BaseException | None,
    ) -> AttemptAnswer | _NotTried | None:
        """One provider's turn: its answer, ``None`` when it failed or was skipped.

        :data:`_NOT_TRIED` when its reservation took the time left (a state store that did
        not answer before the deadline): the provider was never asked, so the deadline,
        not a provider timeout of 0 s, is what the caller reports. Unless ``last_resort``
        is :attr:`LastResort.HOLD`, a budget the store cannot check is asked uncounted,
        and its attempt's detail (and the answer's notes) say so, the budgeted engines
        of a fan-out asked so as well as the provider's own. ``first_pass`` is the
        provider's error from the first pass, in the last-resort pass. A host name that
        did not resolve is put in ``unresolved`` instead of being marked: the caller
        counts it once the search shows whether the machine was offline.
        """
        # The search's shared parts as locals: the turn reads them many times.
        params, context, outcome, masks = call.params, call.context, call.outcome, call.masks
        deadline, skip_marked = call.deadline, call.skip_marked
        provider_id = provider.info.id
        checked = provider.credential_check(context)
        if checked.problem is not None:
            # Skipped like a marked provider, without a request and without a mark: the
            # key cannot go into a header, and the text says where to fix it.
            _skipped(outcome, provider, CredentialSkippedError(provider_id, checked.problem))
            return None
        passed_over = (
            _passed_over(provider_id, checked.passed_over) if checked.passed_over else None
        )
        retried: Reservation | None = None  # the reservation of a request rate limited
        while True:
            started = time.perf_counter()
            try:
                # Reserve before send: mark (first time only), budget and rate slot in one
                # step, or a skip. A stuck store is given up on early (see _store_wait).
                bounded = _store_wait(deadline, context.settings.state_wait_seconds)
                try:
                    reservation = await self.ledger.reserve(
                        provider.info,
                        max_wait=deadline.remaining() - MIN_ATTEMPT_SECONDS,
                        skip_marked=skip_marked and retried is None,
                        accept_unchecked=last_resort is not LastResort.HOLD,
                        retry_of=retried,
                    )
                finally:
                    leave_call(bounded)
                    # The token is spent: kept in the name, it would stay alive through
                    # the attempt, one more object each search in flight holds.
                    del bounded
            except ProviderSkippedError as skip:
                _skipped(outcome, provider, skip)
                return None
            if deadline.expired:
                await self.ledger.release(reservation)
                return _NOT_TRIED
            bound = self._bound(provider, last_resort, first_pass, call)
            try:
                answer = await answer_attempt(
                    bound,
                    params,
                    context,
                    timeout=attempt_timeout(provider, context, deadline),
                    # The search's own: it follows the secrets until the answer is cleaned.
                    masks=masks,
                    checked=True,  # above, before the reservation
                )
            except Exception as error:  # every provider failure moves the chain on
                # Before anything is built from it (attempt, log, mark), with every secret
                # handed out by now: the attempt may have read a key for the first time.
                scrub_error(error, masks.current())
                elapsed = _ms(started)
                wait = self.ledger.short_wait(error)
                if (
                    wait is not None
                    and retried is None
                    and wait + MIN_ATTEMPT_SECONDS < deadline.remaining()
                ):
                    retried = reservation
                    retrying = f"rate limited; retrying after {wait:g}s"
                    attempt = _failed(
                        provider, error, elapsed, _joined(retrying, reservation.uncounted)
                    )
                    outcome.attempts.append(attempt)
                    logger.info(
                        "web search provider %s rate limited; retrying in %gs",
                        provider_id,
                        wait,
                        extra=attempt.log_fields(),
                    )
                    detach(error)
                    try:
                        await self.sleep(wait)
                    except asyncio.CancelledError:
                        # The caller gave up during the wait: leave the mark the wait
                        # stood for, or the next call would ask the provider at once.
                        await asyncio.shield(self.ledger.record_failure(provider_id, error))
                        raise
                    continue
                # The failure's writes wait a share of the call, as the reservation did
                # (see _store_waits_within): the next provider's time is not theirs.
                with _store_waits_within(deadline, context.settings.state_wait_seconds):
                    if retried is None and sent_nothing(error):
                        # No connection was opened, so no request left this machine: the
                        # provider's monthly count (a free tier's) gets the request back.
                        await self.ledger.release(reservation)
                    if is_unreached(error):
                        # Offline? Seen at the end.
                        call.unresolved_list().append((provider_id, error))
                    else:
                        await self.ledger.record_failure(provider_id, error)
                # A bug is logged with its trace and kept as the client hands it out.
                bug = _bug_trace(error)
                kept = error if bug is None else kept_failure(provider_id, error, bug=bug)
                outcome.failures.append((provider, kept))
                hint = await _key_hint(provider, context, error, deadline)
                said = format_provider_failure(error, provider.info.label) + hint
                detail = _with_uncounted(
                    outcome,
                    kept,
                    said,
                    _uncounted(bound, reservation),
                    kept is not error or bool(hint),
                )
                attempt = _failed(provider, error, elapsed, detail)
                outcome.attempts.append(attempt)
                status = getattr(error, "status", None)
                logger.warning(
                    "web search provider %s failed%s: %s",
                    provider_id,
                    "" if status is None else f" ({status})",
                    said,  # an uncounted note has its own warning, once (the ledger's)
                    # A bug keeps its traceback's lines, not what its frames held.
                    exc_info=bug,
                    extra=attempt.log_fields(),
                )
                detach(error)
                return None
            setting = context.settings.state_wait_seconds
            with _forgiveness_bound(self.ledger, provider_id, deadline, setting):
                await self.ledger.record_success(provider_id)  # the answer is ready
            uncounted = _uncounted(bound, reservation)
            # The common case (nothing passed over, counted) joins nothing.
            notes = _joined(passed_over, *uncounted) if uncounted else passed_over
            _served(outcome, provider_id, _ms(started), notes)
            return _noted(answer, uncounted)


def _note_passed_over(outcome: ChainOutcome, note: str) -> None:
    """Say the auto chain's providers passed over for unread keys after the answer's notes.

    Once: an answer that already says it (a cached one, found by a plan that said it) is
    left as it is. Without it, an answer from another provider was all the user read of a
    provider whose key they had set (:mod:`~websearch_core.chain_unseen`).
    """
    response = outcome.response
    if response is not None and note not in response.notes:
        outcome.response = response.model_copy(update=notes_update(response, (note,)))


def _served(outcome: ChainOutcome, provider_id: str, ms: float, detail: str | None) -> None:
    """Record and log the attempt that answered the search.

    Every answered search ends here: the log line's fields are built only for a logger
    that takes the line (``logger.info`` checks the level after its arguments are made).
    """
    attempt = Attempt(provider=provider_id, outcome="success", ms=ms, detail=detail)
    outcome.attempts.append(attempt)
    if logger.isEnabledFor(logging.INFO):
        logger.info("web search served by %s", provider_id, extra=attempt.log_fields())


def _store_wait(deadline: Deadline, setting: float | None) -> Token[CallBounds | None]:
    """Bound the state store's waits in a reservation to a share of the call.

    Without a cache lookup first (``use_cache=False``, ``cache = false``) the reservation
    is the search's first store call: on a SQLite file another process held locked before
    its first use, opening it took the whole deadline and the search failed, "not tried",
    as the cache lookup used to (see :func:`~websearch_core.deadline.store_share`). A
    budgeted provider's reservation, a write, waited as long behind a lock taken later,
    and the next provider, whose answer the search could have had, was never asked. Given
    up on, the fail-safe store grants a reservation without a budget (cooldowns are not
    read while the store is bypassed, as for a store that failed) and refuses one with a
    budget as unchecked (:func:`~websearch_core.state.failsafe.unchecked_grant`): that
    provider is skipped while another provider may answer, and asked uncounted only as
    the last resort (:mod:`.last_resort`).
    """
    return bound_store_waits(store_share(deadline, setting))


def _store_waits_within(deadline: Deadline, setting: float | None) -> StoreWaitsWithin:
    """Bound the state store's waits in a provider's bookkeeping after its attempt.

    A failure's count and mark, and a success's forgiveness of earlier failures, are
    writes. Behind a SQLite file another process held the write lock of, each waited what
    remained of the deadline: a failed provider's count took the time of the next
    provider, which was never asked ("the 4s deadline for the whole search ran out; not
    tried"), and a success that forgave a failure held its answer until the deadline. They
    now wait the share a reservation waits (:func:`_store_wait`). Given up on, the write
    still lands on the store's thread once the lock is free, or is journaled at close for
    the next process (:mod:`~websearch_core.state._journal`), and the fail-safe store is
    bypassed for the rest of the call, as after a reservation given up on.
    """
    return StoreWaitsWithin(store_share(deadline, setting))


_NO_BOUND: Final = contextlib.nullcontext()
"""What bounds a success that writes nothing (reusable: it holds no state)."""


def _forgiveness_bound(
    ledger: Ledger, provider_id: str, deadline: Deadline, setting: float | None
) -> AbstractContextManager[None]:
    """:func:`_store_waits_within` for a success that forgives failures (a write), else none.

    The usual success writes nothing (:meth:`Ledger.owes_forgiveness`): setting up and
    leaving the bound for it cost about 2 us of every search.
    """
    if ledger.owes_forgiveness(provider_id):
        return _store_waits_within(deadline, setting)
    return _NO_BOUND


def _fans_out(provider: SearchProvider) -> bool:
    """Whether ``provider`` asks other providers (:class:`FanOutProvider`)."""
    return FanOutProvider in type(provider).__mro__


def _uncounted(provider: SearchProvider, reservation: Reservation) -> tuple[str, ...]:
    """Why each request of this turn went uncounted: the provider's own, its engines'.

    A budgeted provider asked as the last resort says it in its attempt's detail; a
    fan-out whose budgeted engines were asked so says theirs the same way (before, only
    the answer's notes did, and a last resort that failed said it nowhere).
    """
    own = () if reservation.uncounted is None else (reservation.uncounted,)
    if not _fans_out(provider):
        return own
    return (*own, *(cast(FanOutProvider, provider).uncounted or ()))


def _held_error(outcome: ChainOutcome, provider: SearchProvider) -> BaseException | None:
    """``provider``'s error from the first pass that held it back, if it is one."""
    held = [error for failed, error in outcome.failures if _is_held((failed, error), provider)]
    return held[-1] if held else None


def _held_back(outcome: ChainOutcome, provider: SearchProvider) -> bool:
    """Whether ``provider``'s turn just ended held back only by a budget left unchecked."""
    return bool(outcome.failures) and _is_held(outcome.failures[-1], provider)


def _drop_held(outcome: ChainOutcome, provider: SearchProvider) -> None:
    """Take ``provider``'s held failure out of ``outcome``: the last-resort pass says its own."""
    outcome.failures[:] = [f for f in outcome.failures if not _is_held(f, provider)]


def _is_held(failure: tuple[SearchProvider, BaseException], provider: SearchProvider) -> bool:
    return failure[0] is provider and awaits_last_resort(failure[1])


def _joined(*parts: str | None) -> str | None:
    """An attempt's detail of several parts (``None`` when there is none).

    Joined by :func:`~websearch_core.clauses.join_clauses`: a failure's full stop before
    the uncounted note read ``...(HTTP 503).; Bing budget ...``.
    """
    return join_clauses(parts) or None


def _noted(answer: AttemptAnswer, uncounted: tuple[str, ...]) -> AttemptAnswer:
    """``answer`` with the notes of its requests sent ``uncounted`` after its own notes.

    The provider's own and a fan-out's engines' (:func:`_uncounted`): said here only, as
    :func:`_with_uncounted` says them of a failure, so no text says one twice.

    Right after the answer's own notes (Public Web's engines that did not answer first):
    the spec and the reference say nothing of this note's place (they know only the notes
    of relaxed constraints), and a reader expects what the chain adds about the request
    after what the provider said of its answer, as a failure's text reads (its error,
    then the uncounted note). Notes added after the search (a page that could not be
    fetched, a stale answer's age) follow, in the order they happened.
    """
    if not uncounted:
        return answer
    notes = notes_update(answer.response, uncounted)  # the one bound on every note
    return replace(answer, update={**answer.update, **notes})


def _with_uncounted(
    outcome: ChainOutcome,
    error: BaseException,
    said: str,
    uncounted: tuple[str, ...],
    own_text: bool = False,
) -> str:
    """The text a failed turn ends with: its error's (``said``), then its uncounted notes.

    The attempt's detail and the final error both read it (recorded in ``outcome``), as
    an answer's notes say the same notes (:func:`_noted`). Before, a fan-out engine's note
    was also among the fan-out's notes, which an empty answer's error text repeats: the
    detail said it twice, and the final error said it only when that engine had answered.
    ``own_text``: ``said`` is not the error's formatted text alone (a key's hint follows
    it), so it is recorded even without notes.
    """
    if not uncounted:
        if own_text:
            outcome.texts.append((error, said))
        return said
    text = join_clauses([said, *uncounted])
    outcome.texts.append((error, text))
    return text


async def _key_hint(
    provider: SearchProvider, context: ProviderContext, error: BaseException, deadline: Deadline
) -> str:
    """What a refused key's text adds when the key looks like another provider's, or ``""``.

    Only a refusal of a key (not of a sign-in, which has its own text) is looked at, so a
    search that is answered or fails otherwise pays nothing (:mod:`~websearch_core.
    key_shapes`).
    """
    if not isinstance(error, AuthorizationError) or isinstance(error, OAuthTokenError):
        return ""
    from ..key_shapes import refusal_hint_for  # only on a refusal's path

    return await refusal_hint_for(provider, context, max(deadline.remaining(), 0.0))


def _passed_over(provider_id: str, notes: Sequence[str]) -> str | None:
    """The attempt's ``detail`` for the credentials a provider runs without, if any.

    Each is also logged as a warning, once per process and credential (the note names
    the credential, never its value): the setup it describes holds for every search, and
    each attempt's detail already says it. Asked only when there are some (Perplexity's
    bad key behind working cookies), so a search pays nothing for an empty list.
    """
    for note in notes:
        if first_time(("passed over", provider_id, note)):
            logger.warning("web search provider %s passes over a credential: %s", provider_id, note)
    return join_clauses(f"passed over: {note}" for note in notes) or None


def _skipped(outcome: ChainOutcome, provider: SearchProvider, skip: ProviderSkippedError) -> None:
    outcome.failures.append((provider, skip))
    attempt = Attempt(provider=provider.info.id, outcome="skipped", detail=skip.message)
    outcome.attempts.append(attempt)
    logger.info(
        "web search provider %s skipped: %s",
        provider.info.id,
        skip.message,
        extra=attempt.log_fields(),
    )


def _out_of_time(outcome: ChainOutcome, left: Sequence[SearchProvider], deadline: Deadline) -> None:
    """Record the providers the deadline left untried, as one failure and one skip each."""
    message = not_tried_text(deadline, (provider.info.id for provider in left))
    outcome.failures.append((left[0], DeadlineExceededError(left[0].info.id, message)))
    outcome.attempts.extend(
        Attempt(provider=provider.info.id, outcome="skipped", detail="deadline reached")
        for provider in left
    )
    logger.warning("web search %s", message)


def _failed(
    provider: SearchProvider, error: BaseException, ms: float, detail: str | None
) -> Attempt:
    status = error.status if isinstance(error, SearchProviderError) else None
    return Attempt(provider=provider.info.id, outcome="failed", status=status, ms=ms, detail=detail)


def _bug_trace(error: BaseException) -> ProviderBug | None:
    """What the failure's log line carries of ``error``: a bug's trace, else nothing."""
    if isinstance(error, SearchProviderError | ConfigurationError):
        return None  # a failure its message explains: no traceback
    return bug_trace(error)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
