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
asked of the client's credentials, when the plan's module and every provider it may ask
are imported (they are imported first, the rest of the chain after them). Before, every
provider the plan looks at was named, a provider with no key that the chain skips too.
Only when the providers themselves are what is still being imported are they all named,
as the plan's rule cannot be asked without them.
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
from .providers import PROVIDER_REGISTRY, SEARCH_PROVIDER_ORDER, ProviderContext, is_loaded
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
        provider_ids: The providers not tried, in the order the plan reaches them.
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
        self.provider_ids = not_tried_ids(settings, forced, credentials)
        said = not_tried_text(deadline, self.provider_ids)
        self.failure = DeadlineExceededError(self.provider_ids[0], said)
        self.message = with_imports_advice(with_conflicts(said, settings))
        super().__init__(self.message)
        logger.warning("web search %s", self.message)

    def search_error(self) -> AllProvidersFailedError:
        """What :meth:`WebSearch.search <websearch_core.WebSearch.search>` raises for it."""
        return AllProvidersFailedError(self.message, (self.failure,))

    def tool_result(self) -> SearchToolResult:
        """What :meth:`WebSearch.run <websearch_core.WebSearch.run>` returns for it."""
        first = self.provider_ids[0]
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

    The plan's providers (:func:`planned_by_the_chain`) when it can be asked; else, as
    which of them can run (a key, an endpoint) only the providers' own modules know, every
    one the plan looks at, in its order, preferred first, without the excluded.
    """
    if credentials is not None:
        tried = planned_by_the_chain(settings, forced, credentials)
        if tried:
            return tried
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
) -> tuple[str, ...]:
    """The providers the chain's plan would try, in order; empty when it cannot be asked.

    It is asked only when its module and every provider it may reach are fully imported:
    anything else would import on the loop, behind the import under way. A plan that
    cannot be made (an unknown id, an unreadable credential store) is the chain's to
    report: empty here too.
    """
    reachable = {*planned_ids(settings, forced), *(settings.providers or SEARCH_PROVIDER_ORDER)}
    if not _fully_imported(_PLAN_MODULE) or not all(
        is_loaded(provider_id) for provider_id in reachable if provider_id in PROVIDER_REGISTRY
    ):
        return ()
    from .chain_plan import ChainOrder  # imported: found above

    # The plan asks the settings and the keys, never the transport: none is built yet.
    context = ProviderContext(
        transport=cast("Transport", None), settings=settings, credentials=credentials
    )
    try:
        order = ChainOrder.from_settings(settings)
        plan = order.resolve(context, forced)
    except ConfigurationError:  # an unreadable credential store's error among them
        return ()
    return tuple(provider.info.id for provider in plan.providers)


def _fully_imported(name: str) -> bool:
    """Whether module ``name`` is imported and done (not still running on another thread)."""
    module = sys.modules.get(name)
    # What importlib itself reads to tell a module still being initialised.
    return module is not None and not getattr(module.__spec__, "_initializing", False)
