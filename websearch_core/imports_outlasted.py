"""A first search whose imports outlasted its deadline ends as the deadline says, none asked.

A client or tool not entered imports the chain and its plan's providers at its first
search, on a worker thread (0.2 s idle, 0.3-0.6 s at load 4-5, seconds on a very loaded
machine). That search's deadline counts from the call's start, so the wait for them ends
by it; when it passes first, the search ends with the text the chain gives a deadline that
ran out before its providers were asked (``the 1s deadline for the whole search ran out;
not tried: brave``), and the import goes on for the next call. Built from the settings
alone: the chain and the providers are what is still being imported, and importing them
here, on the loop, would wait for that same import.

The providers named are those the chain would have named: the plan's
(:meth:`ChainOrder.resolve <websearch_core.chain_plan.ChainOrder.resolve>`, the one rule),
asked of the client's credentials. The plan's module is imported first, then the providers
in the order the plan looks at them (:meth:`ChainOrder.asked
<websearch_core.chain_plan.ChainOrder.asked>`), then the rest of the chain. When the
deadline passes while a provider's module is still being imported, the plan is known up to
that provider and no further: which of it and those after it can run (a key, an endpoint)
only their modules know. The text names the plan up to there, then counts the rest and
names them as the candidates they are (``not tried: exa, and maybe 2 more (jina,
brave)``); it named every provider the plan looks at, some with no key, or behind one that
would have answered. With none of it known (every provider it looks at still importing,
or a forced one that cannot run falling back to an order not imported), the plan's order,
known from the settings alone, is named the same way (``not tried: any of 2 providers
(exa, brave)``), five at most (:func:`~websearch_core.deadline.not_tried_text`): not
filtered by the keys set, since which providers run without one (Exa and Firecrawl when
listed, the free engines, sign-ins) and which variables a key is read from are in their
modules.
"""

import logging
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from .deadline import Deadline, not_tried_text
from .errors import AllProvidersFailedError, ConfigurationError, DeadlineExceededError
from .imports_advice import with_imports_advice
from .models import Attempt, ProviderFailure, SearchResponse, SearchToolResult
from .provider_imports import planned_ids
from .providers import ProviderContext, is_loaded
from .settings import Settings
from .settings_conflicts import with_conflicts

if TYPE_CHECKING:
    from .credentials import Credentials
    from .transport import Transport

__all__ = ["ImportsOutlastedDeadline"]

logger = logging.getLogger("websearch_core")


class ImportsOutlastedDeadline(Exception):
    """A search's deadline passed while its first imports were under way: no provider asked.

    Args:
        settings: The client's settings, which decide the providers it would have asked.
        forced: The search's ``provider`` argument.
        deadline: The search's deadline, which passed.
        credentials: The client's keys, which decide who of them can run; ``None``
            names every provider the plan looks at.

    Attributes:
        provider_ids: The providers not tried, in the order the plan reaches them, as far
            as the plan is known (named in the text).
        unknown: The providers the plan looks at after those, whose modules were still
            being imported: whether it would have tried them is not known (counted and
            named as candidates).
        first: The provider the failure is recorded for: the first of either.
        failure: The first provider's failure, as the chain records a deadline's.
        message: The final error text: the failure's, then the settings' contradictions,
            then what avoids it (:func:`~websearch_core.imports_advice.with_imports_advice`;
            in the log too, where the user meets it first).
    """

    def __init__(
        self,
        settings: Settings,
        forced: str | None,
        deadline: Deadline,
        credentials: "Credentials | None" = None,
    ) -> None:
        self.provider_ids, self.unknown = not_tried(settings, forced, credentials)
        said = not_tried_text(deadline, self.provider_ids, unknown=self.unknown)
        self.first = (*self.provider_ids, *self.unknown)[0]
        self.failure = DeadlineExceededError(self.first, said)
        self.message = with_imports_advice(with_conflicts(said, settings))
        super().__init__(self.message)
        logger.warning("web search %s", self.message)

    def search_error(self) -> AllProvidersFailedError:
        """What :meth:`WebSearch.search <websearch_core.WebSearch.search>` raises for it."""
        return AllProvidersFailedError(self.message, (self.failure,))

    def tool_result(self) -> SearchToolResult:
        """What :meth:`WebSearch.run <websearch_core.WebSearch.run>` returns for it."""
        first = self.first
        attempts = tuple(
            Attempt(provider=provider_id, outcome="skipped", detail="deadline reached")
            for provider_id in self.provider_ids
        )
        return SearchToolResult(
            text=f"Error: {self.message}",
            response=SearchResponse(provider=first, attempts=attempts),
            error=self.message,
            failures=(ProviderFailure(provider=first, error=self.failure.message),),
        )


def not_tried_ids(
    settings: Settings, forced: str | None, credentials: "Credentials | None" = None
) -> Sequence[str]:
    """The providers the chain would name had its deadline passed before its first attempt.

    Those :func:`not_tried` names, else (none known) those it counts.
    """
    named, unknown = not_tried(settings, forced, credentials)
    return named or unknown


def not_tried(
    settings: Settings, forced: str | None, credentials: "Credentials | None" = None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The providers to name as not tried, and those after them whose part is not known.

    The plan's providers (:func:`planned_by_the_chain`) as far as it can be asked; the
    rest it looks at are not known. When it cannot be asked at all (no credentials, an
    unknown id, an unreadable credential store, or nothing it would try), every provider
    it looks at is named, in its order, preferred first, without the excluded. A single
    provider not known is named: the plan looks at it alone (forced, pinned, listed alone).
    """
    if credentials is not None:
        named, unknown = planned_by_the_chain(settings, forced, credentials)
        if len(unknown) == 1 and not named:
            return unknown, ()
        if named or unknown:
            return named, unknown
    return _looked_at(settings, forced), ()


def _looked_at(settings: Settings, forced: str | None) -> tuple[str, ...]:
    """Every provider the plan looks at, in its order, preferred first, less the excluded."""
    planned = planned_ids(settings, forced)
    excluded = set(settings.exclude)
    kept = [provider_id for provider_id in planned if provider_id not in excluded]
    preferred = settings.provider
    if not (forced and forced != "auto") and preferred in kept:
        kept.remove(preferred)
        kept.insert(0, preferred)
    return tuple(dict.fromkeys(kept)) or tuple(planned)


_PLAN_MODULE = "websearch_core.chain_plan"


def planned_by_the_chain(
    settings: Settings, forced: str | None, credentials: "Credentials"
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The providers the chain's plan would try, in order, and those it cannot tell about.

    The plan is asked as far as its providers are imported, in the order it looks at them
    (:meth:`ChainOrder.asked <websearch_core.chain_plan.ChainOrder.asked>`): asking it of
    one not yet imported would import it here, on the loop, behind the import under way.
    The first not imported, and those after it but the excluded, are returned second. With
    its own module not imported, all of them are. A plan that cannot be made (an unknown
    id, an unreadable credential store) is the chain's to report: both empty.
    """
    if not _fully_imported(_PLAN_MODULE):
        return (), _looked_at(settings, forced)
    from .chain_plan import ChainOrder  # imported: found above

    # The plan asks the settings and the keys, never the transport: none is built yet.
    context = ProviderContext(
        transport=cast("Transport", None), settings=settings, credentials=credentials
    )
    try:
        order = ChainOrder.from_settings(settings)
        asked = order.asked(forced)
        waiting = next((at for at, pid in enumerate(asked) if not is_loaded(pid)), len(asked))
        unknown = tuple(pid for pid in asked[waiting:] if pid not in settings.exclude)
        if waiting == 0:  # the first it looks at, forced or preferred: nothing known
            return (), unknown
        if waiting < len(asked):
            order = order.cut_before(asked[waiting])
        plan = order.resolve(context, forced)
    except ConfigurationError:  # an unreadable credential store's error among them
        return (), ()
    # A forced provider that runs runs alone: the plan looks at nothing after it.
    return tuple(provider.info.id for provider in plan.providers), () if plan.forced else unknown


def _fully_imported(name: str) -> bool:
    """Whether module ``name`` is imported and done (not still running on another thread)."""
    module = sys.modules.get(name)
    # What importlib itself reads to tell a module still being initialised.
    return module is not None and not getattr(module.__spec__, "_initializing", False)
