"""One attempt at one provider: bounded in time, its response capped, cleaned and masked.

Both the chain and the Public Web fan-out call :func:`run_attempt`, the one step between
"this provider may be asked" and "this is what it answered". The provider's own code runs
inside an attempt scope (:mod:`websearch_core.deadline`), so its requests, retries, waits and
any headless escalation see the same budget, and a hard stop (:mod:`.hard_stop`) ends
whatever is still running when the budget and a short grace are spent.
"""

from dataclasses import dataclass

from ..call_secrets import call_redactor, context_secrets, settings_secrets
from ..dates import iso_sources
from ..deadline import Deadline, enter_attempt, leave_attempt
from ..error_bound import bounded_message
from ..errors import EmptyResponseError, ProviderTimeoutError, SearchProviderError
from ..filters import apply_plan, plan_filters, unmatched_filters
from ..filters.cited import shown_cited
from ..filters.post import Dropped
from ..format import format_no_content, format_no_match
from ..models import SearchParams, SearchResponse
from ..providers.base import ProviderContext, ProviderInfo, SearchProvider
from ..redaction import Redactor
from ..sanitize import clean_response, source_cap
from .hard_stop import start_hard_stop

__all__ = [
    "AttemptAnswer",
    "LiveRedactor",
    "answer_attempt",
    "attempt_timeout",
    "call_redactor",
    "context_secrets",
    "run_attempt",
    "scrub_error",
    "settings_secrets",
]

HARD_STOP_GRACE_SECONDS = 0.1
"""Loop time a provider has, after its own time ran out, to finish with its own answer."""


class LiveRedactor:
    """A call's redactor, rebuilt as soon as its credentials hand out another secret.

    A key may be read for the first time inside an attempt (a provider that can run
    without one reads it only when it builds its request; a token refreshed after a 401);
    the text built after that attempt (its error, the log line, the mark, the response)
    must mask it too. :meth:`current` compares one integer
    (:attr:`Credentials.secrets_version <websearch_core.credentials.Credentials.secrets_version>`)
    and rebuilds only when it moved.

    Args:
        context: The call's context (its credentials and settings).
        redactor: The redactor of every secret known now, when the caller keeps one.
    """

    __slots__ = ("_context", "_redactor", "_version")

    def __init__(self, context: ProviderContext, redactor: Redactor | None = None) -> None:
        self._context = context
        self._version = context.credentials.secrets_version
        self._redactor = call_redactor(context) if redactor is None else redactor

    def current(self) -> Redactor:
        """The redactor of every secret handed out by now."""
        version = self._context.credentials.secrets_version
        if version != self._version:
            self._version = version
            self._redactor = call_redactor(self._context)
        return self._redactor


def _live(context: ProviderContext, redactor: Redactor | None) -> LiveRedactor | None:
    """A :class:`LiveRedactor` of ``redactor``, for a caller that keeps none (or ``None``)."""
    return LiveRedactor(context, redactor) if redactor is not None else None


def scrub_error(error: Exception, redactor: Redactor) -> None:
    """Remove credentials from an error's message in place, whatever raised it.

    Then hold it to :data:`~websearch_core.error_bound.MESSAGE_LIMIT`: a text quoting a 2xx
    body (SearXNG's engines, a stream's error event) had no bound; masked first, a key
    across the cut is masked whole.
    """
    if isinstance(error, SearchProviderError):
        error.message = bounded_message(redactor(error.message))
        error.args = (error.message,)
    else:
        error.args = tuple(bounded_message(redactor(str(arg))) for arg in error.args)


def attempt_timeout(
    provider: SearchProvider, context: ProviderContext, deadline: Deadline
) -> float:
    """The lesser of the provider's own timeout and what remains of the call's deadline."""
    return min(context.settings.provider_timeout(provider.info.kind), deadline.remaining())


@dataclass(frozen=True, slots=True)
class AttemptAnswer:
    """What an attempt produced, and what its one copy must still change.

    Each step after the provider's parse (filters, clean-up, ISO dates) used to copy the
    response; the ISO dates now wait here so that the chain attaches them together with
    the attempts, in one ``model_copy``.

    Attributes:
        response: Capped, clean and masked; its dates as the provider wrote them.
        update: Fields the final response replaces (``sources`` with ISO dates), or empty.
        unmatched: When a local check dropped every result the provider found, the
            filters that dropped some, each with how many (a filter every result met is
            not named; empty otherwise): the response is empty because of the filters, not
            because nothing was found. The chain says so in its error, and the Public Web
            fan-out, whose engines' empty answers are taken as they are, in its own.
    """

    response: SearchResponse
    update: dict[str, object]
    unmatched: Dropped = ()

    def final(self, **more: object) -> SearchResponse:
        """The finished response: ``update`` and ``more`` applied in one copy (none if empty)."""
        update = {**self.update, **more} if more else self.update
        return self.response.model_copy(update=update) if update else self.response


async def run_attempt(
    provider: SearchProvider,
    params: SearchParams,
    context: ProviderContext,
    *,
    timeout: float,
    redactor: Redactor | None = None,
    require_content: bool = True,
) -> SearchResponse:
    """Ask ``provider`` within ``timeout`` seconds; the finished response.

    :func:`answer_attempt` with its update applied (the fan-out's engines take this).
    """
    answer = await answer_attempt(
        provider,
        params,
        context,
        timeout=timeout,
        redactor=redactor,
        require_content=require_content,
    )
    return answer.final()


def _cleaned(
    info: ProviderInfo, filtered: SearchResponse, cap: int, redactor: Redactor | None
) -> SearchResponse:
    """``filtered`` through the sanitiser, its answer citing only the sources it kept.

    The sanitiser cuts the sources to ``cap`` and drops a URL it refuses, knowing nothing
    of an answer that numbers or links them (:func:`~..filters.cited.shown_cited`).
    """
    response = clean_response(filtered, cap=cap, redactor=redactor)
    if len(response.sources) < len(filtered.sources):
        numbers, links = info.answer_numbers_sources, info.answer_links_sources
        response = shown_cited(response, filtered.sources, numbers=numbers, links=links)
    return response


def _hard_stopped(provider: SearchProvider, granted: float) -> ProviderTimeoutError:
    """The failure of a search the hard stop ended, as the provider words its timeouts.

    Its text and status both (:meth:`~websearch_core.providers.base.SearchProvider.
    timed_out_text`, :attr:`~websearch_core.providers.base.SearchProvider.timed_out_status`):
    a browser engine's is the reference's ``Ecosia search timed out.`` with its 504.
    """
    text = provider.timed_out_text(granted)
    return ProviderTimeoutError(provider.info.id, text, provider.timed_out_status)


async def answer_attempt(
    provider: SearchProvider,
    params: SearchParams,
    context: ProviderContext,
    *,
    timeout: float,
    redactor: Redactor | None = None,
    require_content: bool = True,
    checked: bool = False,
    masks: LiveRedactor | None = None,
) -> AttemptAnswer:
    """Ask ``provider`` within ``timeout`` seconds; its answer capped, clean and masked.

    The filters the search asks for (query directives and parameters) are planned for
    this provider first: it is sent a query without the directives it cannot read and, when
    only a local check can apply a filter, a larger count; its results are then checked
    and the response records how each filter was applied (``filters``).

    Args:
        provider: Who to ask.
        params: The search.
        context: Passed to the provider.
        timeout: Seconds the attempt may take (see :func:`attempt_timeout`).
        redactor: Masks the call's secrets in what comes back; it must know every secret
            handed out when the attempt starts (one read during it is added here).
        require_content: Raise for a response with nothing renderable (the chain moves on);
            the fan-out takes empty answers as they are.
        checked: The caller has just run the provider's credential check and it found no
            problem (the chain, before its reservation): the provider is asked through
            its private unchecked entry, which does not run it again.
        masks: The caller's own :class:`LiveRedactor`, followed as it is (``redactor`` is
            then not read): the chain keeps one for the whole search, and a second built
            here from its current redactor would only repeat what it already does.

    Raises:
        ProviderTimeoutError: The provider had not finished when its time ran out.
        EmptyResponseError: It answered with nothing a model can read.
        SearchProviderError: Whatever the provider raised (other exceptions pass through).
    """
    plan = plan_filters(params, provider.info, provider.filter_support(context))
    failure: SearchProviderError | None = None
    # ``redactor`` (or ``masks``) knows every secret handed out by now; one read during the
    # attempt is added before the response is cleaned.
    masks = _live(context, redactor) if masks is None else masks
    # The attempt's scope (the budget every step below reads), opened and closed by hand:
    # this runs on every search, and a ``with attempt_scope(...)`` costs a generator more.
    granted, scope = enter_attempt(timeout)
    try:
        # The transport's own timeout (same expiry) names the request; this hard stop, a
        # moment later, ends whatever else is still running (waits, a browser).
        #
        # Two steps rather than one stop at granted + grace: when the event loop runs
        # late by more than the grace (a loaded machine), a single stop is due in the same
        # loop turn as the provider's own deadline and cancels the provider while its own,
        # more specific outcome (the fan-out's cut-off answer) is being delivered, which
        # the caller then saw as a generic "request timed out". The attempt's time only
        # starts the grace, which counts from when the loop actually got there; a
        # provider that ignores its timeout is still stopped at the grace's end, or as
        # soon after it as the loop runs. One timer of the loop watches every attempt
        # (:mod:`.hard_stop`): an ``asyncio.timeout`` and a timer of its own cost every
        # search ~7 us for a stop that almost never fires.
        stop = start_hard_stop(granted, HARD_STOP_GRACE_SECONDS)
        try:
            # Called in place, not named: a bound method kept in a local is one more object
            # every search in flight holds across its request (the collector walks each).
            response = await (
                provider._search_checked(plan.params, context)
                if checked
                else provider.search(plan.params, context)
            )
        except BaseException as error:
            if not stop.end(error):
                raise
            # The stop's cancel: the provider outlived its time and its grace.
            failure = _hard_stopped(provider, granted)
        else:
            stop.end(None)
    except TimeoutError:
        failure = _hard_stopped(provider, granted)
    finally:
        leave_attempt(scope)
    if failure is not None:
        raise failure  # outside the except block: no chained exception to carry along
    cap = source_cap(
        params, provider.info.max_results, limit_only=provider.info.sources_cut_by_limit
    )
    if plan.result_cap is not None:  # more was asked upstream than the caller wants
        cap = min(cap, plan.result_cap)
    found = response.sources
    redactor = masks.current() if masks is not None else None
    response = _cleaned(provider.info, apply_plan(plan, response), cap, redactor)
    unmatched: Dropped = ()
    if found and plan.checks and not response.sources:  # all failed a local check
        unmatched = unmatched_filters(plan, found)
    if require_content and not response.has_renderable_content():
        # What the answer's notes say of engines that did not answer (Public Web, SearXNG)
        # is the reason, after the text, whichever way the answer came out empty: those
        # engines' results might have matched the filters.
        label, notes = provider.info.label, response.notes
        if unmatched:
            text = format_no_match(label, unmatched, notes)
        else:
            text = format_no_content(label, notes)
        raise EmptyResponseError(provider.info.id, text)
    # Dates in ISO 8601 are kept as an update, applied with whatever the caller attaches.
    sources = iso_sources(response.sources)
    update: dict[str, object] = {} if sources is None else {"sources": sources}
    return AttemptAnswer(response, update, unmatched)
