"""Public Web: one query fanned out to every credential-free engine, merged by consensus.

* **Service:** no upstream of its own. It runs the credential-free scrapers that are
  registered (in priority order ``duckduckgo``, ``bing``, ``yahoo``, ``startpage``,
  ``google``, ``ecosia``, ``mojeek``; any whose :attr:`ProviderInfo.kind` is not
  ``scraper`` is ignored), minus the ids in ``settings.exclude``, concurrently, each through
  its own ``search`` with the caller's parameters. With every engine excluded it fails at
  once: ``Every credential-free engine is excluded by settings.`` (400).
* **Availability:** explicit selection only. :meth:`PublicProvider.is_available` is
  ``False``, so the auto chain never fans out; :meth:`~PublicProvider.is_explicitly_available`
  is ``True`` (``provider="public"`` or ``settings.provider = "public"``). No key, no env vars.
* **Count:** ``clamp(num_search_results ?? limit)``, default 15, at most 30 merged results.
  Each engine is asked for its own default unless the caller asked for more, then for the
  requested count up to that engine's maximum (20 for the scrapers).
* **Deadlines:** it returns at the earliest of: every engine settled; the soft deadline
  (5 s) once at least one engine has returned sources; the hard cap (30 s, and never past
  this provider's own time: ``settings.timeout_seconds`` or the aggregate default, bounded
  by what remains of the whole call's deadline). Engines still running are
  cancelled and awaited before it returns; cancelling the caller cancels every engine and
  the cancellation propagates. Both deadlines are constructor arguments (and class
  attributes) so tests can shorten them.
* **Failure:** only when every engine failed: ``All public engines failed: <id>: <error>;
  ...`` (503, a :class:`PublicEnginesFailedError` whose ``failures`` holds each engine's
  error). Reaching the hard cap with nothing found, or engines that found nothing, gives an
  empty response, which the chain reports as ``Public Web returned no renderable search
  content.`` (204). A challenge page is an engine failure, never an empty success.
* **Merge:** :func:`websearch_core.aggregate.merge_results`, in engine priority order (not
  completion order): canonical-URL de-duplication, ranking by distinct upstream indexes
  that returned the URL, then best per-engine rank, then first-seen order; the longest
  snippet wins; each source's ``engines`` lists every engine that returned it and at what
  (1-based) rank. The response has ``provider="public"`` and sources, no answer; it is
  marked ``partial`` when any engine failed or was cut off (so it is never cached).

Differences from the reference (§8.23) and deliberate choices:

* Engine order is the spec's scraper order above; the reference lists ``startpage,
  google, duckduckgo, ecosia, mojeek`` (no Bing, no Yahoo).
* The canonical key also drops tracking parameters (``utm_*``, ``gclid``, ``fbclid``, ...)
  and sorts the remaining ones, and engines sharing an upstream index (DuckDuckGo, Bing and
  Yahoo serve Bing's; Startpage, Ecosia and Google serve Google's) count as one vote.
* The soft deadline ends the wait only when some engine returned at least one source; an
  engine's genuine empty page does not stop the others from being waited for.
* The hard cap is also bounded by the provider's time and the call's deadline.

Docs: https://url.spec.whatwg.org/ (the URL parsing the canonical key follows); the
engines' own docs are on their :class:`~websearch_core.providers.base.ProviderInfo`.
"""

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass

from ..aggregate import EngineResult, merge_results
from ..deadline import remaining_budget
from ..errors import ProviderUnavailableError, SearchProviderError
from ..format import format_provider_failure
from ..models import SearchParams, SearchResponse
from .base import ProviderContext, ProviderInfo, SearchProvider, clamp_count

__all__ = [
    "ALL_EXCLUDED_MESSAGE",
    "DEFAULT_RESULTS",
    "ENGINE_ORDER",
    "HARD_DEADLINE_SECONDS",
    "INFO",
    "MAX_RESULTS",
    "SOFT_DEADLINE_SECONDS",
    "EngineOutcome",
    "PublicEnginesFailedError",
    "PublicProvider",
    "engine_params",
    "fan_out",
    "registered_engines",
]

_CUT_OFF_GRACE_SECONDS = 1.0
logger = logging.getLogger("websearch_core.providers.public")

ENGINE_ORDER: tuple[str, ...] = (
    "duckduckgo",
    "bing",
    "yahoo",
    "startpage",
    "google",
    "ecosia",
    "mojeek",
)
"""The credential-free engines, in priority order (the merge visits them in this order)."""

DEFAULT_RESULTS = 15
MAX_RESULTS = 30
SOFT_DEADLINE_SECONDS = 5.0
HARD_DEADLINE_SECONDS = 30.0
ENGINE_DEFAULT_RESULTS = 10
"""An engine's count when its :class:`ProviderInfo` does not say."""

ALL_EXCLUDED_MESSAGE = "Every credential-free engine is excluded by settings."
ALL_FAILED_PREFIX = "All public engines failed: "

INFO = ProviderInfo(
    id="public",
    label="Public Web",
    kind="aggregate",
    description=(
        "No key needed, explicit selection only: runs every credential-free engine in "
        "parallel and merges their results by cross-engine consensus"
    ),
    docs_url="https://url.spec.whatwg.org/",
    honours=frozenset({"query", "recency", "limit", "num_search_results", "language", "country"}),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
)


class PublicEnginesFailedError(ProviderUnavailableError):
    """Every public engine failed; ``failures`` holds each engine's error, in engine order.

    Args:
        failures: ``(engine id, error)`` pairs.
        message: The aggregated text.
    """

    def __init__(self, failures: Sequence[tuple[str, BaseException]], message: str) -> None:
        super().__init__(INFO.id, message, 503)
        self.failures = tuple(failures)


@dataclass(frozen=True, slots=True)
class EngineOutcome:
    """How one engine's run ended: a response, an error, or cut off at a deadline."""

    engine: SearchProvider
    response: SearchResponse | None = None
    error: BaseException | None = None

    @property
    def cancelled(self) -> bool:
        """Still running at the deadline, so cancelled (neither succeeded nor failed)."""
        return self.response is None and self.error is None


def registered_engines() -> list[SearchProvider]:
    """The credential-free engines registered now, in :data:`ENGINE_ORDER`.

    Engines are looked up at call time, so one registered later joins without a change
    here. An engine whose module fails to import is logged and left out.
    """
    from . import PROVIDER_REGISTRY, get_provider  # the registry imports this module lazily

    engines: list[SearchProvider] = []
    for engine_id in ENGINE_ORDER:
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


def _found_sources(task: "asyncio.Task[SearchResponse]") -> bool:
    return (
        task.done()
        and not task.cancelled()
        and task.exception() is None
        and bool(task.result().sources)
    )


async def fan_out(
    engines: Sequence[SearchProvider],
    params: SearchParams,
    context: ProviderContext,
    *,
    soft_deadline: float,
    hard_deadline: float,
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

    Returns:
        One outcome per engine, in the order of ``engines``.

    Raises:
        asyncio.CancelledError: The caller was cancelled (every engine is cancelled too).
    """
    loop = asyncio.get_running_loop()
    started = loop.time()
    tasks = [
        asyncio.create_task(
            _ask(engine, engine_params(engine, params), context, hard_deadline),
            name=f"public:{engine.info.id}",
        )
        for engine in engines
    ]
    pending: set[asyncio.Task[SearchResponse]] = set(tasks)
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
        cut_off = {task for task in tasks if not task.done()}
    finally:
        stragglers = [task for task in tasks if not task.done()]
        for task in stragglers:
            task.cancel()
        if stragglers:
            await asyncio.wait(stragglers)
        for task in tasks:  # retrieve every exception so none is reported as unhandled
            if task.done() and not task.cancelled():
                task.exception()
    if cut_off:
        logger.info(
            "public: cancelled %s after %.3fs",
            ", ".join(task.get_name().removeprefix("public:") for task in tasks if task in cut_off),
            loop.time() - started,
        )
    return [
        _outcome(engine, task, task in cut_off) for engine, task in zip(engines, tasks, strict=True)
    ]


async def _ask(
    engine: SearchProvider, params: SearchParams, context: ProviderContext, hard_deadline: float
) -> SearchResponse:
    """One engine's search, through the ledger when there is one.

    An engine that is cooling down or out of budget is not asked (its skip counts as its
    failure); what is asked is counted, and a failure leaves the same mark it would in the
    sequential chain, so the fan-out does not keep knocking on a closed door either.
    """
    from ..orchestration.attempt import call_redactor, run_attempt

    def attempt() -> Awaitable[SearchResponse]:
        # The chain's attempt step: the engine's results capped, cleaned and masked before
        # they are merged. The fan-out's hard cap cuts engines off (as not finished, not as
        # failed), so the attempt's own bound sits just past it.
        return run_attempt(
            engine,
            params,
            context,
            timeout=hard_deadline + _CUT_OFF_GRACE_SECONDS,
            redactor=call_redactor(context),
            require_content=False,
        )

    ledger = context.ledger
    if ledger is None:
        return await attempt()
    skip = await ledger.skip_reason(engine.info)
    if skip is not None:
        raise skip
    await ledger.reserve(engine.info, max_wait=remaining_budget(hard_deadline))
    try:
        response = await attempt()
    except Exception as error:
        await ledger.record_failure(engine.info.id, error)
        raise
    await ledger.record_success(engine.info.id)
    return response


def _outcome(
    engine: SearchProvider, task: "asyncio.Task[SearchResponse]", cut_off: bool
) -> EngineOutcome:
    if cut_off or task.cancelled():
        return EngineOutcome(engine)
    error = task.exception()
    if error is not None:
        return EngineOutcome(engine, error=error)
    return EngineOutcome(engine, response=task.result())


def _failure_text(outcome: EngineOutcome) -> str:
    assert outcome.error is not None
    return format_provider_failure(outcome.error, outcome.engine.info.label)


class PublicProvider(SearchProvider):
    """The Public Web aggregate: every credential-free engine at once, merged by consensus.

    Args:
        soft_deadline_seconds: Overrides :attr:`soft_deadline_seconds`.
        hard_deadline_seconds: Overrides :attr:`hard_deadline_seconds`.
        engines: Fixed engines, in priority order, instead of the registered ones (for
            tests and embedders); ``settings.exclude`` still applies.
    """

    info = INFO
    soft_deadline_seconds: float = SOFT_DEADLINE_SECONDS
    """After this, one engine with sources is enough."""
    hard_deadline_seconds: float = HARD_DEADLINE_SECONDS
    """After this, nothing more is waited for."""

    def __init__(
        self,
        *,
        soft_deadline_seconds: float | None = None,
        hard_deadline_seconds: float | None = None,
        engines: Sequence[SearchProvider] | None = None,
    ) -> None:
        if soft_deadline_seconds is not None:
            self.soft_deadline_seconds = soft_deadline_seconds
        if hard_deadline_seconds is not None:
            self.hard_deadline_seconds = hard_deadline_seconds
        if self.soft_deadline_seconds <= 0 or self.hard_deadline_seconds <= 0:
            raise ValueError("public deadlines must be positive")
        self._engines = tuple(engines) if engines is not None else None

    def is_available(self, context: ProviderContext) -> bool:
        """Never: the auto chain must not fan out to every engine implicitly."""
        return False

    def is_explicitly_available(self, context: ProviderContext) -> bool:
        """Always, when selected explicitly: no key is needed."""
        return True

    def engines(self, context: ProviderContext) -> list[SearchProvider]:
        """The engines this call runs, in priority order, without the excluded ones."""
        candidates = list(self._engines) if self._engines is not None else registered_engines()
        excluded = set(context.settings.exclude)
        return [engine for engine in candidates if engine.info.id not in excluded]

    def deadlines(self, context: ProviderContext) -> tuple[float, float]:
        """``(soft, hard)`` seconds for this call; the hard cap never passes the timeout."""
        own_time = remaining_budget(context.settings.provider_timeout(INFO.kind))
        hard = min(self.hard_deadline_seconds, own_time)
        return min(self.soft_deadline_seconds, hard), hard

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        """Fan out, wait for the deadlines, merge; fail only when every engine failed."""
        engines = self.engines(context)
        if not engines:
            raise SearchProviderError(INFO.id, ALL_EXCLUDED_MESSAGE, 400)
        count = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
        soft, hard = self.deadlines(context)
        outcomes = await fan_out(engines, params, context, soft_deadline=soft, hard_deadline=hard)
        failed = [outcome for outcome in outcomes if outcome.error is not None]
        for outcome in failed:
            logger.info("public: %s failed: %s", outcome.engine.info.id, _failure_text(outcome))
        if len(failed) == len(outcomes):
            text = "; ".join(f"{o.engine.info.id}: {_failure_text(o)}" for o in failed)
            raise PublicEnginesFailedError(
                [(o.engine.info.id, o.error) for o in failed if o.error is not None],
                f"{ALL_FAILED_PREFIX}{text}",
            )
        results = [
            EngineResult(
                engine=outcome.engine.info.id,
                sources=outcome.response.sources,
                index=outcome.engine.info.index,
            )
            for outcome in outcomes
            if outcome.response is not None
        ]
        partial = any(outcome.response is None for outcome in outcomes)
        return SearchResponse(
            provider=INFO.id, sources=tuple(merge_results(results, count)), partial=partial
        )
