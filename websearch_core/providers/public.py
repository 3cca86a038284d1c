"""Public Web: one query fanned out to every credential-free engine, merged by consensus.

This module holds Public Web's facts (its :class:`ProviderInfo`, engine order, deadlines,
counts); running the engines is orchestration and lives in
:mod:`websearch_core.orchestration.fanout`, which shares the chain's attempt step and ledger.

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
* **Failure:** only when every engine failed: ``All public engines failed: <id>: <why>;
  ...``, each engine's failure in a few words (``blocked by a bot challenge``, ``rate
  limited (HTTP 429)``), engines failing alike named together (503, a
  :class:`PublicEnginesFailedError` whose ``failures`` holds each engine's error).
  Reaching the hard cap with nothing found, or engines that found nothing, gives an
  empty response, which the chain reports as ``Public Web returned no renderable search
  content.`` (204) followed by its note of the engines that did not answer
  (``Engines that did not answer: <id>: <why>; ...``; a partial answer has it too).
  When the engines found results and the filter checks (each engine's own, before the
  merge, or Public Web's) dropped every one, it fails with ``Public Web returned no
  results matching the filters (<name> dropped <n>, ...).`` (204, an
  :class:`EmptyResponseError`), each count summed over the engines' results, the same
  note after it, as a single provider's answer would.
  When an engine among them was held back only because the state store could not check
  its budget, the same text comes as a :class:`PublicEnginesHeldError`, so the chain asks
  that engine as the last resort if no provider after Public Web answers.
  An engine whose time ran out with the aggregate's own (the hard cap when
  ``timeout_seconds`` or the call's deadline is below 30 s) was cut off at the cap,
  whichever timer fired first, so the text does not depend on timing. A challenge page is
  an engine failure, never an empty success.
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

from collections.abc import Sequence

from ..deadline import remaining_budget
from ..filters import QUERY_OPERATORS, FilterSupport
from ..models import SearchParams, SearchResponse
from ..orchestration.fanout import (
    ALL_EXCLUDED_MESSAGE,
    ALL_FAILED_PREFIX,
    ENGINE_DEFAULT_RESULTS,
    EngineOutcome,
    FanOutProvider,
    PublicEnginesFailedError,
    PublicEnginesHeldError,
    engine_params,
    fan_out,
    merged_search,
)
from ..orchestration.fanout import registered_engines as _registered_in
from ..provider_ids import FREE_ENGINE_ORDER
from .base import ProviderContext, ProviderInfo, SearchProvider

__all__ = [
    "ALL_EXCLUDED_MESSAGE",
    "ALL_FAILED_PREFIX",
    "DEFAULT_RESULTS",
    "ENGINE_DEFAULT_RESULTS",
    "ENGINE_ORDER",
    "HARD_DEADLINE_SECONDS",
    "INFO",
    "MAX_RESULTS",
    "SOFT_DEADLINE_SECONDS",
    "EngineOutcome",
    "PublicEnginesFailedError",
    "PublicEnginesHeldError",
    "PublicProvider",
    "engine_params",
    "fan_out",
    "registered_engines",
]

ENGINE_ORDER: tuple[str, ...] = FREE_ENGINE_ORDER
"""The credential-free engines, in priority order (the merge visits them in this order);
the same list the auto chain ends with (:mod:`websearch_core.provider_ids`)."""

DEFAULT_RESULTS = 15
MAX_RESULTS = 30
SOFT_DEADLINE_SECONDS = 5.0
HARD_DEADLINE_SECONDS = 30.0

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
    filters=FilterSupport(
        native=frozenset({"recency", "language", "country"}),
        query=QUERY_OPERATORS | {"date_after", "date_before"},
    ),
)


def registered_engines() -> list[SearchProvider]:
    """The credential-free engines registered now, in :data:`ENGINE_ORDER`."""
    return _registered_in(ENGINE_ORDER)


class PublicProvider(FanOutProvider):
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
        """Fan out to this call's engines (see :func:`merged_search`)."""
        soft, hard = self.deadlines(context)
        return await merged_search(
            INFO,
            self.engines(context),
            params,
            context,
            soft_deadline=soft,
            hard_deadline=hard,
            ledger=self.ledger,
            last_resort=self.last_resort,
            earlier=self.earlier,
            uncounted=self.uncounted,
            unresolved=self.unresolved,
        )
