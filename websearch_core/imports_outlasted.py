"""A first search whose imports outlasted its deadline ends as the deadline says, none asked.

A client or tool not entered imports the chain and its plan's providers at its first
search, on a worker thread (0.2 s idle, 0.3-0.6 s at load 4-5, seconds on a very loaded
machine). That search's deadline counts from the call's start, so the wait for them ends
by it; when it passes first, the search ends with the text the chain gives a deadline that
ran out before its providers were asked (``the 1s deadline for the whole search ran out;
not tried: brave``), and the import goes on for the next call. Built from the settings
alone: the chain and the providers are what is still being imported, and importing them
here, on the loop, would wait for that same import.
"""

import logging
from collections.abc import Sequence

from .deadline import Deadline, not_tried_text
from .errors import AllProvidersFailedError, DeadlineExceededError
from .models import Attempt, ProviderFailure, SearchResponse, SearchToolResult
from .provider_imports import planned_ids
from .settings import Settings
from .settings_conflicts import with_conflicts

__all__ = ["ImportsOutlastedDeadline"]

logger = logging.getLogger("websearch_core")


class ImportsOutlastedDeadline(Exception):
    """A search's deadline passed while its first imports were under way: no provider asked.

    Args:
        settings: The client's settings, which decide the providers it would have asked.
        forced: The search's ``provider`` argument.
        deadline: The search's deadline, which passed.

    Attributes:
        provider_ids: The providers not tried, in the order the plan reaches them.
        failure: The first provider's failure, as the chain records a deadline's.
        message: The final error text: the failure's, then the settings' contradictions.
    """

    def __init__(self, settings: Settings, forced: str | None, deadline: Deadline) -> None:
        self.provider_ids = not_tried_ids(settings, forced)
        said = not_tried_text(deadline, self.provider_ids)
        self.failure = DeadlineExceededError(self.provider_ids[0], said)
        self.message = with_conflicts(said, settings)
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


def not_tried_ids(settings: Settings, forced: str | None) -> Sequence[str]:
    """The providers the search's plan would reach, in its order, without the excluded.

    Which of them can run (a key, an endpoint) only the providers' own modules know, and
    those are what is being imported: every one the plan looks at is named.
    """
    planned = planned_ids(settings, forced)
    excluded = set(settings.exclude)
    kept = [provider_id for provider_id in planned if provider_id not in excluded]
    preferred = settings.provider
    if not (forced and forced != "auto") and preferred in kept:
        kept.remove(preferred)
        kept.insert(0, preferred)
    return tuple(dict.fromkeys(kept)) or tuple(planned)
