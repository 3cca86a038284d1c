"""The fan-out: one query to several providers at once, bounded by two deadlines, merged.

The Public Web aggregate (:mod:`websearch_core.providers.public`) is a registered provider
whose module holds only its facts (the :class:`~websearch_core.providers.base.ProviderInfo`,
engine order, deadlines); asking other providers is orchestration, so the running lives
here, next to the sequential chain, and shares its attempt step
(:func:`~websearch_core.orchestration.attempt.run_attempt`) and its ledger.

* :func:`fan_out` runs every engine concurrently and returns at the earliest of: every
  engine settled; the soft deadline once at least one engine has returned sources; the
  hard deadline. Engines still running are cancelled and awaited; cancelling the caller
  cancels every engine and the cancellation propagates.
* :func:`merged_search` is a whole fan-out search: no engines left after exclusion is a
  400 (:data:`ALL_EXCLUDED_MESSAGE`), every engine failing is a 503
  (:class:`PublicEnginesFailedError`, ``All public engines failed: <id>: <why>; ...``, each
  engine's failure in a few words, engines failing alike named together
  (:mod:`.engine_failures`)),
  otherwise the consensus merge of :func:`websearch_core.aggregate.merge_results` in engine
  priority order, marked ``partial`` when any engine failed or was cut off, with a note
  naming those engines and why (:data:`NOT_ANSWERED_PREFIX`). Results found and all
  dropped by the filter checks (each engine's own, before the merge, or the aggregate's)
  fail with the filters' text (204), as a single provider's would.
* The ledger is passed in explicitly: the chain hands a :class:`FanOutProvider` its own
  ledger for the call (:meth:`FanOutProvider.with_ledger`), so an engine that is cooling
  down or over budget is not asked, what is asked is counted, and a failure leaves the
  same mark it would in the chain. Without a ledger every engine is asked.
* An engine whose budget the state store cannot check is skipped like the chain's providers,
  and asked, uncounted, only when nothing else can answer (:mod:`.last_resort`): the chain
  says which pass the fan-out runs in (:class:`~.last_resort.LastResort`), and is handed
  the requests sent uncounted (below) to say so. In the first pass, a fan-out that found
  nothing it keeps (its own filter checks judge) while holding an engine back says so
  (:class:`PublicEnginesHeldError`, the empty answer's text), so the chain comes back for
  that engine when nothing after it answered.
  That pass asks the held engines alone and reports the others as they ended in the first
  (:attr:`FanOutProvider.earlier`, kept on the first pass's error), so its answer or error
  reads as one pass's would; the requests it sent uncounted are handed to the chain
  (:attr:`FanOutProvider.uncounted`), which says them once: in the attempt's detail and
  the answer's notes or the error's text.
"""

import asyncio
import copy
import dataclasses
import logging
import math
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Self

from ..aggregate import EngineResult, merge_results
from ..deadline import Deadline, StoreWaitsWithin, remaining_budget, store_share
from ..errors import (
    EmptyResponseError,
    HostNotReachedError,
    ProviderUnavailableError,
    SearchProviderError,
)
from ..filters.plan import engines_record, locally_kept
from ..filters.post import Dropped
from ..filters.support import ALL_FILTERS
from ..format import format_no_content, format_no_match, format_provider_failure
from ..kept_failures import kept_failure
from ..lookup_waits import record_requests
from ..models import Attempt, FilterName, SearchParams, SearchResponse, SearchSource
from ..note_bound import bounded_notes, own_notes
from ..providers.base import ProviderContext, ProviderInfo, SearchProvider, clamp_count
from .attempt import AttemptAnswer, answer_attempt, call_redactor, scrub_error
from .engine_failures import engines_failed_text
from .last_resort import LastResort, unchecked_engines
from .ledger import Ledger, ProviderSkippedError, Reservation
from .offline import is_unreached, proxy_source, sent_nothing, unreached_count
from .quota import REASON_LIMIT

__all__ = [
    "ALL_EXCLUDED_MESSAGE",
    "ALL_FAILED_PREFIX",
    "ENGINE_DEFAULT_RESULTS",
    "NOT_ANSWERED_PREFIX",
    "EngineOutcome",
    "EngineReport",
    "FanOutProvider",
    "PublicEnginesFailedError",
    "PublicEnginesHeldError",
    "engine_params",
    "fan_out",
    "merged_search",
    "registered_engines",
]

logger = logging.getLogger("websearch_core.providers.public")

CUT_OFF_GRACE_SECONDS = 1.0
"""How far past the hard deadline an engine's own attempt bound sits (cut off, not failed)."""

SPENT_SECONDS = 0.001
"""Less than this left of the fan-out's own time when an engine fails: it was cut off.

The hard deadline is often the fan-out's whole time (a ``timeout_seconds`` or the call's
deadline below the 30 s cap), and an engine's time can reach no further, so its request
timed out at the very instant the wait for it ended. Which of the two the event loop
happened to run first decided the text: ``All public engines failed: ...; bing: Bing
search timed out after 0.5s`` (503) or ``Public Web returned no renderable search
content.`` (204); 20 runs of one 503 engine and one hanging engine gave 11, 8 and 1 of
three texts. An engine stopped by the end of that time was still running at the hard
deadline, so it is cut off, whichever came first."""

MIN_LAST_RESORT_SECONDS = 0.05
"""Less of the fan-out's time than this left: no time to ask the unchecked engines."""

ENGINE_DEFAULT_RESULTS = 10
"""An engine's count when its :class:`ProviderInfo` does not say."""

ALL_EXCLUDED_MESSAGE = "Every credential-free engine is excluded by settings."
ALL_FAILED_PREFIX = "All public engines failed: "
NOT_ANSWERED_PREFIX = "Engines that did not answer: "
"""How the note of a partial answer starts, before each engine and why."""


class EngineReport:
    """What a fan-out's error says of its engines: the base of Public Web's two errors.

    :class:`PublicEnginesFailedError` and :class:`PublicEnginesHeldError` derive from
    different provider errors (a 503, a 204) and report their engines alike: the chain's
    last resort reads ``failures`` (:func:`~.last_resort.awaits_last_resort`) and the
    fan-out's second pass ``outcomes`` (:attr:`FanOutProvider.earlier`) from either.
    """

    failures: tuple[tuple[str, BaseException], ...]
    """``(engine id, error)`` pairs of the engines that failed or were skipped, in engine
    order (the held ones among them)."""
    outcomes: tuple["EngineOutcome", ...]
    """Every engine's outcome, for the chain's last-resort pass."""

    def _report(
        self,
        failures: Sequence[tuple[str, BaseException]],
        outcomes: Sequence["EngineOutcome"],
    ) -> None:
        self.failures = tuple(failures)
        self.outcomes = tuple(outcomes)


class PublicEnginesFailedError(EngineReport, ProviderUnavailableError):
    """Every engine failed; ``failures`` holds each engine's error, in engine order.

    Args:
        failures: ``(engine id, error)`` pairs.
        message: The aggregated text.
        provider: The aggregate's id (``public``).
        outcomes: Every engine's outcome, for the chain's last-resort pass (see
            :attr:`FanOutProvider.earlier`).
    """

    def __init__(
        self,
        failures: Sequence[tuple[str, BaseException]],
        message: str,
        provider: str = "public",
        outcomes: Sequence["EngineOutcome"] = (),
    ) -> None:
        super().__init__(provider, message, 503)
        self._report(failures, outcomes)


class PublicEnginesUnresolvedError(PublicEnginesFailedError, HostNotReachedError):
    """Every engine asked failed before reaching its host, and none of it was counted.

    Two or more failing alike are this machine's network; one engine asked alone whose
    own host name did not resolve may be too (:func:`~.offline.unreached_count`). Same
    text and status as :class:`PublicEnginesFailedError`; being a
    :class:`~websearch_core.errors.HostNotReachedError` (one for each engine asked, with
    their common cause: unresolved, refused, or the proxy) lets the chain add the offline
    hint (two or more) and leave the aggregate's own breaker alone, as it does for the
    engines.
    """

    @property
    def cause(self) -> str:
        """What every engine met: ``dns``, ``connect`` or ``proxy`` (one engine's alone too)."""
        causes = {e.cause for _, e in self.failures if isinstance(e, HostNotReachedError)}
        return causes.pop() if len(causes) == 1 else self._CAUSE

    @property
    def proxy_source(self) -> str | None:
        """What named the proxy every engine failed to reach, when one setting did."""
        return proxy_source(error for _, error in self.failures)

    @property
    def loopback(self) -> bool:
        """Every engine asked was refused at a loopback address (nothing listens there)."""
        return all(
            isinstance(error, HostNotReachedError) and error.loopback
            for _, error in self.failures
            if is_unreached(error)
        )

    @property
    def hosts(self) -> int:
        """The engines asked, every one of which failed before reaching its host."""
        return sum(1 for _, error in self.failures if is_unreached(error))


class PublicEnginesHeldError(EngineReport, EmptyResponseError):
    """No engine found anything, and some were held back for budgets the store cannot check.

    Public Web's answer was empty (the others found nothing, failed or were cut off) in
    the chain's first pass: the text is the empty answer's (:func:`format_no_content`),
    and ``failures`` (the failed engines' ``(engine id, error)`` pairs, the held ones
    among them) tells the chain to ask Public Web again, for those engines alone, if no
    provider after it answers (:func:`~.last_resort.awaits_last_resort`). Before, the
    empty answer ended Public Web's part, and the held engine was never asked.

    Args:
        failures: ``(engine id, error)`` pairs of the engines that failed or were skipped.
        message: The empty answer's text.
        provider: The aggregate's id (``public``).
        outcomes: Every engine's outcome, for the chain's last-resort pass (see
            :attr:`FanOutProvider.earlier`).
    """

    def __init__(
        self,
        failures: Sequence[tuple[str, BaseException]],
        message: str,
        provider: str = "public",
        outcomes: Sequence["EngineOutcome"] = (),
    ) -> None:
        super().__init__(provider, message)
        self._report(failures, outcomes)


@dataclass(frozen=True, slots=True)
class EngineOutcome:
    """How one engine's run ended: a response, an error, or cut off at a deadline.

    Cut off is neither: the engine was still running at the deadline that applied, or
    was stopped by the end of the fan-out's own time (``_CutOffError``), and left no
    mark. :func:`merged_search` counts it, as it counts a failure, toward ``partial``.
    """

    engine: SearchProvider
    response: SearchResponse | None = None
    """The engine's response; ``None`` when it failed or was cut off."""
    error: BaseException | None = None
    """Why the engine failed; ``None`` when it answered or was cut off."""
    ms: float = 0.0
    """How long the engine ran, to its answer, its failure or its cut-off, in milliseconds."""
    unmatched: Dropped = ()
    """The filters whose local check dropped every result the engine found, each with how
    many it dropped (empty when one was kept or none found): its empty answer is the
    filters', which Public Web's empty answer then says."""

    def attempt(self) -> Attempt:
        """This engine's run as the chain records a provider's: what its log line carries.

        The chain's attempt records carry ``provider``, ``outcome``, ``status`` and ``ms``
        as fields (:meth:`Attempt.log_fields`); an engine's line carried only its sentence.
        An engine skipped for its mark is ``skipped``, one cut off ``failed`` without a
        status, as neither answered.
        """
        engine_id = self.engine.info.id
        if self.error is None:
            outcome = "success" if self.response is not None else "failed"
            return Attempt(provider=engine_id, outcome=outcome, ms=self.ms)
        status = self.error.status if isinstance(self.error, SearchProviderError) else None
        return Attempt(
            provider=engine_id,
            outcome="skipped" if isinstance(self.error, ProviderSkippedError) else "failed",
            status=None if isinstance(self.error, ProviderSkippedError) else status,
            ms=self.ms,
            detail=format_provider_failure(self.error, self.engine.info.label),
        )


class FanOutProvider(SearchProvider):
    """A provider that asks other providers; the orchestration layer lends it the ledger.

    Registered instances are shared by concurrent calls, so the ledger is never stored on
    them: :meth:`with_ledger` returns a copy for one call.
    """

    ledger: Ledger | None = None
    """The calling chain's ledger; ``None`` asks every engine unconditionally."""
    last_resort: LastResort = LastResort.HOLD
    """What to do with engines whose budget the store cannot check (the chain's pass)."""
    earlier: tuple[EngineOutcome, ...] = ()
    """In the chain's last-resort pass, every engine's outcome in its first pass: the
    engines not asked again are reported as they ended then, beside those that are, so
    the answer or the error says what became of each engine, as one pass would."""
    uncounted: list[str] | None = None
    """The notes of this call's engine requests asked uncounted, as they are granted (a
    list on a copy :meth:`with_ledger` made): the chain says them (the attempt's detail,
    and the answer's notes or the error's text), as it says a budgeted provider's own."""
    unresolved: list[tuple[str, BaseException]] | None = None
    """The calling chain's failures that reached no host, held until its search ends: the
    engines' that the fan-out cannot count by itself join them (see :func:`fan_out`)."""

    def with_ledger(
        self,
        ledger: Ledger | None,
        last_resort: LastResort = LastResort.HOLD,
        first_pass: BaseException | None = None,
        unresolved: list[tuple[str, BaseException]] | None = None,
    ) -> Self:
        """A copy of this provider that runs its engines through ``ledger``.

        Args:
            ledger: The calling chain's ledger.
            last_resort: Whether engines whose budget cannot be checked are held back,
                asked after the others failed, or asked alone (the chain's last pass).
            first_pass: In the last-resort pass, this provider's error from the first
                (its engines' outcomes become :attr:`earlier`).
            unresolved: The chain's failures that reached no host, which it counts or not
                once its search has ended (:attr:`unresolved`).
        """
        bound = copy.copy(self)
        bound.ledger = ledger
        bound.last_resort = last_resort
        bound.earlier = _first_pass_outcomes(first_pass)
        bound.uncounted = []
        bound.unresolved = unresolved
        return bound


def _first_pass_outcomes(error: BaseException | None) -> tuple[EngineOutcome, ...]:
    """The engines' outcomes a fan-out's error from the chain's first pass kept, if any."""
    if isinstance(error, EngineReport):
        return error.outcomes
    return ()


def registered_engines(order: Sequence[str]) -> list[SearchProvider]:
    """The credential-free engines registered now, in ``order``.

    Engines are looked up at call time, so one registered later joins without a change
    here. An engine whose module fails to import is logged and left out; one whose kind is
    not ``scraper`` is ignored.
    """
    from ..providers import PROVIDER_REGISTRY, get_provider  # the registry is built lazily

    engines: list[SearchProvider] = []
    for engine_id in order:
        if engine_id not in PROVIDER_REGISTRY:
            continue
        try:
            engine = get_provider(engine_id)
        except Exception:
            logger.exception("public: engine %s could not be loaded; leaving it out", engine_id)
            continue
        if engine.info.kind == "scraper":
            engines.append(engine)
    return engines


def engine_params(engine: SearchProvider, params: SearchParams) -> SearchParams:
    """``params`` as one engine gets them: its own default count unless more was asked for.

    Example:
        >>> from websearch_core.providers.duckduckgo import DuckDuckGoProvider
        >>> engine_params(DuckDuckGoProvider(), SearchParams(query="q", limit=25)).result_count
        20
    """
    requested = params.result_count
    default = engine.info.default_results or ENGINE_DEFAULT_RESULTS
    maximum = max(default, engine.info.max_results or default)
    count = None if requested is None or requested <= default else min(requested, maximum)
    if count == params.num_search_results and params.limit is None:
        return params
    return params.model_copy(update={"limit": None, "num_search_results": count})


def _found_sources(task: "asyncio.Task[AttemptAnswer]") -> bool:
    return (
        task.done()
        and not task.cancelled()
        and task.exception() is None
        and bool(task.result().response.sources)
    )


async def fan_out(
    engines: Sequence[SearchProvider],
    params: SearchParams,
    context: ProviderContext,
    *,
    soft_deadline: float,
    hard_deadline: float,
    ledger: Ledger | None = None,
    accept_unchecked: bool = False,
    uncounted: list[str] | None = None,
    unresolved: list[tuple[str, BaseException]] | None = None,
) -> list[EngineOutcome]:
    """Run every engine concurrently and stop at the first deadline that applies.

    Returns when every engine has settled, or at ``soft_deadline`` seconds (or the first
    moment after it) once some engine has returned sources, or at ``hard_deadline``.
    Engines still running then are cancelled and awaited before returning.

    Args:
        engines: The engines, in priority order.
        params: The caller's parameters (each engine gets :func:`engine_params`).
        context: Passed to every engine.
        soft_deadline: Seconds after which one engine with sources is enough.
        hard_deadline: Seconds after which nothing more is waited for.
        ledger: Skips, counts and marks engines as the chain does; ``None`` asks them all.
        accept_unchecked: Ask an engine whose budget the store cannot check, uncounted
            (the last resort), instead of skipping it.
        uncounted: Receives the note of each request asked uncounted, as it is granted.
        unresolved: The calling chain's failures that reached no host. The engines' that
            the fan-out would not count (all unreached alike, one asked alone, or cut
            short) join them instead, and the chain counts them once its search has ended:
            a provider after Public Web that answers shows the network works, which the
            fan-out cannot know. Those it counts (an engine answered or reached its
            host) are counted at once. ``None``: the fan-out's verdict is the last.

    Returns:
        One outcome per engine, in the order of ``engines``.

    Raises:
        asyncio.CancelledError: The caller was cancelled (every engine is cancelled too;
            the failures held that reached no host count only if an engine had answered
            or reached its host).
    """
    loop = asyncio.get_running_loop()
    started = loop.time()
    # The URLs each engine's requests went to, for those cut off waiting for DNS.
    sent_to: list[set[str]] = [set() for _ in engines]
    # What each engine cut off before sending anything reads as (the engine's task says).
    unsent: dict[str, BaseException] = {}
    tasks = [
        asyncio.create_task(
            _ask(
                engine,
                engine_params(engine, params),
                context,
                hard_deadline,
                ledger,
                accept_unchecked=accept_unchecked,
                uncounted=uncounted,
                sent_to=urls,
                unsent=unsent,
            ),
            name=f"public:{engine.info.id}",
        )
        for engine, urls in zip(engines, sent_to, strict=True)
    ]
    # When each engine ended (a callback can run a moment after the task is seen done).
    ended: dict[asyncio.Task[AttemptAnswer], float] = {}
    for task in tasks:
        task.add_done_callback(lambda done: ended.setdefault(done, loop.time()))
    pending: set[asyncio.Task[AttemptAnswer]] = set(tasks)
    try:
        while pending:
            elapsed = loop.time() - started
            if elapsed >= hard_deadline:
                break
            if elapsed >= soft_deadline and any(_found_sources(task) for task in tasks):
                break
            until = soft_deadline if elapsed < soft_deadline else hard_deadline
            _, pending = await asyncio.wait(
                pending, timeout=until - elapsed, return_when=asyncio.FIRST_COMPLETED
            )
        cut_off = {task for task in tasks if _cut_off(task)}
    except asyncio.CancelledError:
        # The caller gave up: no verdict, what the engines that ended had shown decides
        # (an engine that answered or reached its host: the others' failures count).
        await _settle(tasks)
        settled = [
            _outcome(engine, task, _cut_off(task), 0.0)
            for engine, task in zip(engines, tasks, strict=True)
        ]
        await asyncio.shield(
            _record_unresolved(ledger, context, settled, ended=False, unresolved=unresolved)
        )
        raise
    finally:
        await _settle(tasks)
    if cut_off:
        logger.info(
            "public: cancelled %s after %.3fs",
            ", ".join(task.get_name().removeprefix("public:") for task in tasks if task in cut_off),
            loop.time() - started,
        )
    outcomes = [
        _unanswered(
            _outcome(engine, task, task in cut_off, _ms(ended.get(task, loop.time()) - started)),
            urls,
            context,
            hard_deadline,
            unsent.get(engine.info.id),
        )
        for engine, task, urls in zip(engines, tasks, sent_to, strict=True)
    ]
    await _record_unresolved(ledger, context, outcomes, unresolved=unresolved)
    return outcomes


async def _settle(tasks: Sequence["asyncio.Task[AttemptAnswer]"]) -> None:
    """Cancel the engines still running and wait for them, every exception retrieved."""
    stragglers = [task for task in tasks if not task.done()]
    for task in stragglers:
        task.cancel()
    if stragglers:
        await asyncio.wait(stragglers)
    for task in tasks:  # retrieve every exception so none is reported as unhandled
        if task.done() and not task.cancelled():
            task.exception()


async def _record_unresolved(
    ledger: Ledger | None,
    context: ProviderContext,
    outcomes: Sequence[EngineOutcome],
    *,
    ended: bool = True,
    unresolved: list[tuple[str, BaseException]] | None = None,
) -> None:
    """Count the engines' failures that reached no host, by the chain's rule.

    Every engine's host failing to resolve is this machine's network, as in the chain
    (:func:`~.offline.unreached_count`): counted, it would open every engine's breaker
    while offline. An engine that answered shows the network works; a fan-out cancelled
    before any engine reached its host counts nothing; an engine asked alone on its own
    host name is not counted. Without a ledger nothing is counted at all. Those not
    counted join the chain's ``unresolved``, when it lent one, for its verdict.
    """
    if ledger is None:
        return
    held = [
        (outcome.engine.info.id, outcome.error)
        for outcome in outcomes
        if outcome.error is not None and is_unreached(outcome.error)
    ]
    if not held:
        return
    counted = _unreached_count(context, outcomes, ended=ended)
    if not counted and unresolved is not None:
        # A provider after Public Web may yet answer (the network works: they count) or
        # the search end offline; the chain knows which when it ends, the fan-out does not.
        unresolved.extend(held)
        return
    await ledger.record_unresolved(held, offline=not counted)


def _unreached_count(
    context: ProviderContext, outcomes: Sequence[EngineOutcome], *, ended: bool = True
) -> bool:
    """:func:`~.offline.unreached_count` of the engines' outcomes."""
    failures = [(o.engine, o.error) for o in outcomes if o.error is not None]
    answered = any(outcome.response is not None for outcome in outcomes)
    unsettled = sum(1 for o in outcomes if o.error is None and o.response is None)
    return unreached_count(failures, context, answered=answered, ended=ended, unsettled=unsettled)


async def _ask(
    engine: SearchProvider,
    params: SearchParams,
    context: ProviderContext,
    hard_deadline: float,
    ledger: Ledger | None,
    *,
    accept_unchecked: bool = False,
    uncounted: list[str] | None = None,
    sent_to: set[str] | None = None,
    unsent: dict[str, BaseException] | None = None,
) -> AttemptAnswer:
    """One engine's search, through the ledger when there is one; its finished answer.

    An engine that is cooling down or out of budget is not asked (its skip counts as its
    failure); what is asked is counted, and a failure leaves the same mark it would in the
    sequential chain, so the fan-out does not keep knocking on a closed door either. An
    engine asked uncounted (``accept_unchecked``) adds the ledger's note to ``uncounted``
    when asked, whatever it answers (the request was sent uncounted either way); the
    chain says it, in the answer's notes or its error, once. The answer's
    ``unmatched`` says when the engine's own filter checks dropped every result it found.
    The URLs its requests go to are added to ``sent_to``
    (:mod:`~websearch_core.lookup_waits`); cut off before any was sent, its error goes to
    ``unsent``.
    """
    record_requests(sent_to)  # this task's context only

    def attempt() -> Awaitable[AttemptAnswer]:
        # The chain's attempt step: the engine's results capped, cleaned and masked before
        # they are merged. The fan-out's hard cap cuts engines off (as not finished, not as
        # failed), so the attempt's own bound sits just past it.
        return answer_attempt(
            engine,
            params,
            context,
            timeout=hard_deadline + CUT_OFF_GRACE_SECONDS,
            redactor=call_redactor(context),
            require_content=False,
        )

    if ledger is not None:
        # A mark or a spent budget raises ProviderSkippedError: the engine is not asked.
        # The store waits a share of the search's deadline, as for the chain's reservations:
        # behind a stuck store a budgeted engine's write held it until the fan-out cut it
        # off; given up on, its budget is not spent unchecked (the engine is skipped, and
        # asked uncounted only as the last resort).
        settings = context.settings
        with StoreWaitsWithin(
            store_share(Deadline(settings.deadline_seconds), settings.state_wait_seconds)
        ):
            reservation = await ledger.reserve(
                engine.info,
                max_wait=remaining_budget(hard_deadline),
                skip_marked=True,
                accept_unchecked=accept_unchecked,
            )
        if reservation.uncounted is not None and uncounted is not None:
            uncounted.append(reservation.uncounted)
    try:
        held = (ledger, reservation) if ledger is not None else None
        answer = await _given_back_if_cut_off_unsent(
            attempt(), engine, context, hard_deadline, held, sent_to, unsent
        )
    except Exception as error:
        if remaining_budget(math.inf) < SPENT_SECONDS and not is_unreached(error):
            # Stopped by the end of the fan-out's own time: cut off, as if cancelled at the
            # hard deadline (no mark either: a straggler cancelled there leaves none). One
            # that reached no host (its name had no answer) failed so whatever the time.
            raise _CutOffError from None
        if ledger is not None:
            # The mark may keep the message: masked first, with every secret handed out.
            scrub_error(error, call_redactor(context))
            if not is_unreached(error):  # offline or not: fan_out counts it at the end
                await ledger.record_failure(engine.info.id, error)
            elif sent_nothing(error):  # no request left this machine: the count gets it back
                await ledger.release(reservation)
        raise
    if ledger is not None:
        await ledger.record_success(engine.info.id)
    return AttemptAnswer(answer.final(), {}, answer.unmatched)


async def _given_back_if_cut_off_unsent(
    run: Awaitable[AttemptAnswer],
    engine: SearchProvider,
    context: ProviderContext,
    seconds: float,
    held: tuple[Ledger, Reservation] | None,
    sent_to: set[str] | None,
    unsent: dict[str, BaseException] | None,
) -> AttemptAnswer:
    """``run``'s answer; cut off before any request was sent, its count given back.

    Cut off while a host name its requests need had no answer, or while its connection
    was still being opened (read here, in the engine's own task, where the transport noted
    it): no request left this machine, so the month's usage gets it back, as it does for
    an engine whose own timeout came first (``held``: the ledger and its reservation), and
    the error goes to ``unsent`` under the engine's id for the fan-out's outcome.
    """
    try:
        return await run
    except asyncio.CancelledError:
        info = engine.info
        error = context.transport.cut_off_unsent(info.id, info.label, sent_to or (), seconds)
        if error is not None:
            if unsent is not None:
                unsent[info.id] = error
            if held is not None:
                ledger, reservation = held
                await asyncio.shield(ledger.release(reservation))
        raise


class _CutOffError(Exception):
    """An engine that ran until the fan-out's own time was spent: cut off, not failed."""


def _cut_off(task: "asyncio.Task[AttemptAnswer]") -> bool:
    """Still running, or stopped by the end of the fan-out's own time (see ``_ask``)."""
    return not task.done() or (not task.cancelled() and isinstance(task.exception(), _CutOffError))


def _outcome(
    engine: SearchProvider, task: "asyncio.Task[AttemptAnswer]", cut_off: bool, ms: float
) -> EngineOutcome:
    if cut_off or task.cancelled():
        return EngineOutcome(engine, ms=ms)
    error = task.exception()
    if error is not None:
        # Kept in the fan-out's report past the engine's run: its text, not its frames.
        kept = kept_failure(engine.info.id, error, message=str(error))
        return EngineOutcome(engine, error=kept, ms=ms)
    answer = task.result()
    return EngineOutcome(engine, response=answer.response, ms=ms, unmatched=answer.unmatched)


def _unanswered(
    outcome: EngineOutcome,
    sent_to: set[str],
    context: ProviderContext,
    seconds: float,
    unsent: BaseException | None = None,
) -> EngineOutcome:
    """``outcome``, or a host not reached when the engine was cut off before sending.

    An engine cut off while a name its requests needed still had no answer, or while its
    connection was still being opened (``unsent``: what its own task saw), reached no
    host: its failure is the offline rule's to count, as its own timeout's would have been
    had it come first (:mod:`~websearch_core.lookup_waits`). Otherwise ``outcome`` as it is.
    """
    if outcome.error is not None or outcome.response is not None or not sent_to:
        return outcome
    engine = outcome.engine.info
    error = unsent or context.transport.unanswered_lookup(engine.id, engine.label, sent_to, seconds)
    if error is None:
        return outcome
    return dataclasses.replace(outcome, error=kept_failure(engine.id, error, message=str(error)))


def _engine_sources(outcomes: Sequence[EngineOutcome]) -> list[SearchSource]:
    """Every source the engines returned, before the aggregate's own checks."""
    return [s for o in outcomes if o.response is not None for s in o.response.sources]


async def _ask_unchecked(
    info: ProviderInfo,
    outcomes: list[EngineOutcome],
    params: SearchParams,
    context: ProviderContext,
    *,
    soft_deadline: float,
    hard_deadline: float,
    ledger: Ledger | None,
    uncounted: list[str] | None,
    unresolved: list[tuple[str, BaseException]] | None,
) -> list[EngineOutcome]:
    """``outcomes`` with the engines skipped as unchecked asked, uncounted, if none answered.

    Only when no engine returned sources the aggregate keeps (its own checks of the
    filters, ``info``'s, drop results an engine passed on unchecked), and within what is
    left of the fan-out's time: the last resort of a fan-out nothing after which can
    answer (see :mod:`.last_resort`).
    """
    held = set(unchecked_engines((o.engine.info.id, o.error) for o in outcomes if o.error))
    if not held or hard_deadline < MIN_LAST_RESORT_SECONDS:
        return outcomes
    if locally_kept(params, info, _engine_sources(outcomes))[0]:
        return outcomes
    asked = await fan_out(
        [outcome.engine for outcome in outcomes if outcome.engine.info.id in held],
        params,
        context,
        soft_deadline=max(0.0, min(soft_deadline, hard_deadline)),
        hard_deadline=hard_deadline,
        ledger=ledger,
        accept_unchecked=True,
        uncounted=uncounted,
        unresolved=unresolved,
    )
    again = {outcome.engine.info.id: outcome for outcome in asked}
    return [again.get(outcome.engine.info.id, outcome) for outcome in outcomes]


def _dropped_filters(
    info: ProviderInfo, params: SearchParams, outcomes: Sequence[EngineOutcome]
) -> Dropped | None:
    """Why nothing is kept: the filters that dropped what the engines found, and how many.

    Each engine checks the filters on its own results before the merge, and Public Web
    checks what they passed on unchecked (:func:`locally_kept`): results may be found and
    all dropped at either step. Before, an engine's check left only an empty answer, and
    Public Web said ``returned no renderable search content`` where a single provider
    said ``no results matching the filters``.

    Returns:
        ``None`` when some result survives every check; otherwise the filters that
        dropped results, in the order filters are listed (:data:`ALL_FILTERS`), as a
        single provider's text names them (empty: no engine found anything), each with
        the results it dropped, summed over the engines' checks and the aggregate's (the
        aggregate checks only what the engines passed on, so none is counted twice by
        one filter; a page two engines found counts once for each). Each
        engine names the checks that dropped its results, a filter its results all met
        not among them (results on ``site:github.com`` dropped for their dates name the
        date alone); gathered engine by engine, Mojeek's ``filetype`` ahead of Yahoo's
        ``recency`` read ``(recency, filetype)``.
    """
    sources = _engine_sources(outcomes)
    kept, dropping = locally_kept(params, info, sources)
    if kept:
        return None
    counts: dict[FilterName, int] = {}
    for name, count in (*(d for o in outcomes for d in o.unmatched), *dropping):
        counts[name] = counts.get(name, 0) + count
    return tuple((name, counts[name]) for name in ALL_FILTERS if name in counts)


def _hold_for_last_resort(
    info: ProviderInfo,
    outcomes: Sequence[EngineOutcome],
    dropped: Dropped,
    notes: Sequence[str],
) -> None:
    """Raise :class:`PublicEnginesHeldError` when an engine was held back for the last resort.

    In the chain's first pass, when no engine found anything the aggregate keeps
    (``dropped``, from :func:`_dropped_filters`): an engine skipped only because the
    store could not check its budget may still answer, and the chain asks it
    (:attr:`LastResort.ONLY`) once no provider after Public Web answered. The text is the
    one the chain gives such an answer, the filters' when they dropped what was found (an
    engine's own check or the aggregate's), else the empty answer's, the notes after it.
    """
    failures = [(o.engine.info.id, o.error) for o in outcomes if o.error is not None]
    if not unchecked_engines(failures):
        return
    if dropped:
        message = format_no_match(info.label, dropped, notes)
    else:
        message = format_no_content(info.label, notes)
    raise PublicEnginesHeldError(failures, message, info.id, outcomes)


def _refuse_empty(
    info: ProviderInfo,
    params: SearchParams,
    outcomes: Sequence[EngineOutcome],
    notes: Sequence[str],
    last_resort: LastResort,
) -> None:
    """Raise when nothing the engines found is kept and the error must say more than empty.

    An engine held back for the last resort in the chain's first pass is
    :func:`_hold_for_last_resort`'s; results the filters dropped raise the filters' text
    here (204), in every pass: the chain's own check sees only an empty merge when an
    engine's check dropped them, and would call it "no renderable search content". An
    answer with nothing found is returned empty, and the chain says so.
    """
    dropped = _dropped_filters(info, params, outcomes)
    if dropped is None:
        return
    if last_resort is LastResort.HOLD:
        _hold_for_last_resort(info, outcomes, dropped, notes)
    if dropped:
        raise EmptyResponseError(info.id, format_no_match(info.label, dropped, notes))


def _with_earlier(
    engines: Sequence[SearchProvider],
    asked: Sequence[EngineOutcome],
    earlier: Sequence[EngineOutcome],
) -> list[EngineOutcome]:
    """The outcome of each of ``engines``: asked now, else as it ended in the first pass.

    The last-resort pass asks the budgeted engines alone; the others failed, found
    nothing or were cut off in the first pass, and what became of them is still part of
    the answer (its partial note) or of the error (every engine failed). Before, the
    error of a last resort that failed too named the budgeted engines alone.
    """
    now = {outcome.engine.info.id: outcome for outcome in asked}
    before = {outcome.engine.info.id: outcome for outcome in earlier}
    combined = (now.get(e.info.id) or before.get(e.info.id) for e in engines)
    return [outcome for outcome in combined if outcome is not None]


def _failure_text(outcome: EngineOutcome) -> str:
    assert outcome.error is not None
    return format_provider_failure(outcome.error, outcome.engine.info.label)


async def merged_search(
    info: ProviderInfo,
    engines: Sequence[SearchProvider],
    params: SearchParams,
    context: ProviderContext,
    *,
    soft_deadline: float,
    hard_deadline: float,
    ledger: Ledger | None = None,
    last_resort: LastResort = LastResort.HOLD,
    earlier: Sequence[EngineOutcome] = (),
    uncounted: list[str] | None = None,
    unresolved: list[tuple[str, BaseException]] | None = None,
) -> SearchResponse:
    """Fan out, wait for the deadlines, merge; fail only when every engine failed.

    Engines whose budget the state store cannot check are skipped (:attr:`LastResort.HOLD`),
    asked uncounted once no other engine returned sources (``AFTER_OTHERS``), or asked
    alone, uncounted (``ONLY``); each uncounted request's note goes to ``uncounted``, for
    the chain to say.

    Args:
        info: The aggregate's facts: its id tags the response and errors, its default and
            maximum result counts bound the merge.
        engines: The engines to ask, in priority order (exclusions already applied).
        params: The caller's search.
        context: Passed to every engine.
        soft_deadline: See :func:`fan_out`.
        hard_deadline: See :func:`fan_out`.
        ledger: See :func:`fan_out`.
        last_resort: Which pass of the chain this is (see :class:`LastResort`).
        earlier: In the last-resort pass (``ONLY``), the engines' outcomes in the first:
            those not asked again count as they ended then.
        uncounted: Receives the note of each engine request asked uncounted.
        unresolved: See :func:`fan_out`.

    Raises:
        SearchProviderError: No engine is left to ask (400).
        PublicEnginesFailedError: Every engine failed (503).
        PublicEnginesHeldError: In the chain's first pass (``HOLD``), no engine found
            anything kept and some were held back as unchecked (204): the chain may come
            back for them.
        EmptyResponseError: The engines found results and the filter checks (theirs or
            the aggregate's) dropped them all: ``Public Web returned no results matching
            the filters (...)`` (204), the note of the engines that did not answer after it.
    """
    if not engines:
        raise SearchProviderError(info.id, ALL_EXCLUDED_MESSAGE, 400)
    default = info.default_results or ENGINE_DEFAULT_RESULTS
    count = clamp_count(params.result_count, default, info.max_results or default)
    only = last_resort is LastResort.ONLY
    asking = engines
    if only and ledger is not None:
        # The other engines failed in the chain's first pass: only the budgeted are asked.
        asking = [engine for engine in engines if engine.info.id in ledger.budgets] or engines
    started = asyncio.get_running_loop().time()
    outcomes = await fan_out(
        asking,
        params,
        context,
        soft_deadline=soft_deadline,
        hard_deadline=hard_deadline,
        ledger=ledger,
        accept_unchecked=only,
        uncounted=uncounted,
        unresolved=unresolved,
    )
    if last_resort is LastResort.AFTER_OTHERS:
        spent = asyncio.get_running_loop().time() - started
        outcomes = await _ask_unchecked(
            info,
            outcomes,
            params,
            context,
            soft_deadline=soft_deadline - spent,
            hard_deadline=hard_deadline - spent,
            ledger=ledger,
            uncounted=uncounted,
            unresolved=unresolved,
        )
    for outcome in outcomes:  # those of the first pass were logged then
        if outcome.error is not None:
            attempt = outcome.attempt()
            logger.info(
                "public: %s failed: %s",
                attempt.provider,
                attempt.detail,
                extra=attempt.log_fields(),
            )
    if only and earlier:
        outcomes = _with_earlier(engines, outcomes, earlier)
    failed = [outcome for outcome in outcomes if outcome.error is not None]
    if len(failed) == len(outcomes):
        failures = [(o.engine.info.id, o.error) for o in failed if o.error is not None]
        # Each in a few words, so every engine is named within what a mark keeps.
        text = engines_failed_text(failures, room=REASON_LIMIT - len(ALL_FAILED_PREFIX))
        # Not counted for the engines (this machine, maybe): not for the aggregate either.
        held = not _unreached_count(context, failed)
        failed_as = PublicEnginesUnresolvedError if held else PublicEnginesFailedError
        raise failed_as(failures, f"{ALL_FAILED_PREFIX}{text}", info.id, outcomes)
    answered = [outcome.response for outcome in outcomes if outcome.response is not None]
    # Only engines whose results are in the merge decide how far a filter held.
    contributing = [response for response in answered if response.sources] or answered
    results = [
        EngineResult(
            engine=outcome.engine.info.id,
            sources=outcome.response.sources,
            index=outcome.engine.info.index,
        )
        for outcome in outcomes
        if outcome.response is not None
    ]
    unanswered = [(o.engine.info.id, o.error) for o in outcomes if o.response is None]
    # Which engines did not answer, and why: the structured answer's note, and the reason
    # an empty answer's error gives (it named no engine).
    notes: tuple[str, ...] = ()
    if unanswered:
        notes = (f"{NOT_ANSWERED_PREFIX}{engines_failed_text(unanswered)}",)
    # Each engine's notes without its count, the counts summed: said once, last. Bounded
    # before an empty answer's error says them, as the answer would hold them: the error
    # listed every engine's kept notes (38 of two SearXNG engines) and none of the count.
    notes += tuple(note for response in answered for note in own_notes(response))
    notes, left_out = bounded_notes(notes, (), sum(r.notes_left_out for r in answered))
    _refuse_empty(info, params, outcomes, notes, last_resort)
    return SearchResponse(
        provider=info.id,
        sources=tuple(merge_results(results, count)),
        partial=bool(unanswered),
        notes=notes,
        notes_left_out=left_out,
        filters=engines_record(
            [(response.provider, response.filters) for response in contributing]
        ),
    )


def _ms(seconds: float) -> float:
    """Seconds as the milliseconds an :class:`Attempt` records (as the chain rounds them)."""
    return round(seconds * 1000, 3)
