"""The key-free HTML engines: one description as data (:class:`HtmlEngine`), one provider.

An engine module (Bing, Yahoo, Startpage, Google, Ecosia, Mojeek, DuckDuckGo) states its
request, its page check and reader (usually a :class:`~._scraper.ResultPage`), an optional
setup step and whether it escalates to headless Chromium, and subclasses
:class:`HtmlEngineProvider` with nothing but ``info`` and ``engine``. No engine module
sends anything: the core's request loop does, through these hooks:

* ``prepare``: the setup step (Startpage's home page, for its form token), within its own
  share of the time, so a hanging setup still leaves time for the search; its failure is
  never fatal.
* ``first_request``: the search, built from the setup's answer when there is one.
* ``follow_up``: checks and reads each results page as it arrives and asks for the next
  page while fewer results than wanted were found (DuckDuckGo's next-page form); a later
  page's failure ends the paging and keeps what earlier pages gave.
* ``after_failure``: a transport failure of the first page escalates when the engine
  says so (:mod:`._escalation`), a later page's ends the paging; a timeout reports the
  provider's whole budget; any other failure of the first page is worded as every
  engine words it (:mod:`._engine_failures`: ``<Engine> search failed: the connection
  failed (<host>): ...``).

The module is private (leading underscore), so the registry's contract test does not read
it as a provider.
"""

import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import ClassVar, Protocol

from ..deadline import attempt_scope, remaining_budget, timed_out_text
from ..errors import ProviderTimeoutError, ProviderUnavailableError, SearchProviderError
from ..html import body_page
from ..models import SearchParams, SearchResponse, SearchSource
from ..provider_types import Exchange
from ..request_loop import send_step
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._engine_failures import engine_failure_texts, reworded, without_label
from ._escalation import (
    TIMED_OUT_STATUS,
    Escalation,
    NeedsBrowser,
    escalate_after_failure,
    escalate_after_response,
    fetch_in_browser,
)
from ._scraper import KeylessProvider, PageResults, collect_unique, result_count
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext

__all__ = ["HtmlEngine", "HtmlEngineProvider", "single_page"]

logger = logging.getLogger("websearch_core.providers.html_engine")


@dataclass(frozen=True, slots=True, kw_only=True)
class HtmlEngine:
    """One HTML engine, as data and pure functions; :class:`HtmlEngineProvider` runs it.

    The steps are the same for every engine: an optional setup request whose answer shapes
    the search (a form token), the search request, then each results page is checked and
    read and, while fewer results than wanted were found and the page links a next one,
    the next page is fetched. A blocked plain fetch goes to the headless browser when
    :attr:`escalation` is set.
    """

    request: Callable[[SearchParams], HttpRequest]
    """The search request (with a setup step: the one made when the setup failed)."""
    check: Callable[[HttpResponse], None]
    """Raise for a challenge or an error status, in the engine's order."""
    read: Callable[[HttpResponse], PageResults]
    """A checked page's sources and next-page request (raises for an unrecognised page)."""
    setup: Callable[[SearchParams], HttpRequest] | None = None
    """A request made before the search (Startpage's home page, for its ``sc`` token)."""
    after_setup: Callable[[SearchParams, HttpResponse], HttpRequest] | None = None
    """The search request built from the setup's answer, whatever its status (a setup
    that fails in transport leads to :attr:`request`)."""
    setup_share: float = 0.5
    """At most this share of the provider's time goes to the setup step."""
    escalation: Escalation | None = None
    """Headless escalation of a blocked plain fetch (a GET); ``None`` never escalates."""


class PageParser(Protocol):
    """An engine's parser of one page: its text, or the body it came as.

    :func:`single_page` hands it :func:`~websearch_core.html.body_page`: the body itself
    when its text is exactly its decoding, so the parser reads the bytes and never holds
    the whole text, else the text.
    """

    def __call__(self, page: str | bytes) -> list[SearchSource]: ...


def single_page(parse: PageParser) -> Callable[[HttpResponse], PageResults]:
    """:attr:`HtmlEngine.read` for an engine with one page and a parser of its text."""

    def read(response: HttpResponse) -> PageResults:
        return PageResults(parse(body_page(response.body)))

    return read


# Keys of Flow.state.
_BUDGET = "budget"
"""The provider's time when the search began (seconds)."""
_STARTED = "started"
"""``time.monotonic()`` when the search began: the browser gets what is left."""
_SETUP = "setup"
"""The setup step's response (absent without one, or when it failed in transport), until
the search request is built from it."""
_SOURCES = "sources"
"""Sources of the pages read so far (``None`` before the first results page)."""


class HtmlEngineProvider(KeylessProvider, ProtocolProvider):
    """Every key-free HTML engine: the core's request loop runs its :class:`HtmlEngine`.

    A subclass gives ``info`` and ``engine`` and nothing else.
    """

    engine: ClassVar[HtmlEngine]

    @property
    def escalates_to_browser(self) -> bool:
        """Whether the engine's blocked pages go to headless Chromium (``escalation``)."""
        return self.engine.escalation is not None

    def timed_out_text(self, seconds: float) -> str:
        """An escalating engine's own timeout text (the reference's), else the common one.

        The reference words a browser engine's timeout ``Ecosia search timed out.``, its
        hard timeout's included; the attempt's hard stop said ``Ecosia search timed out
        after <N>s`` where the engine's own stops said the reference's text.
        """
        escalation = self.engine.escalation
        if escalation is None:
            return super().timed_out_text(seconds)
        return escalation.failure.timed_out

    @property
    def timed_out_status(self) -> int | None:
        """An escalating engine's 504 (the reference's, beside its timeout text), else none.

        The hard stop said the engine's text with no status where the engine's own stops
        (its plain fetch's, its browser's) gave 504, so one timeout read two ways.
        """
        return None if self.engine.escalation is None else TIMED_OUT_STATUS

    async def prepare(self, flow: Flow) -> None:
        """Note the time, and make the setup step within its share of it."""
        budget = flow.context.transport.timeout_seconds
        flow.state.update({_BUDGET: budget, _STARTED: time.monotonic(), _SOURCES: None})
        setup = self.engine.setup
        if setup is None:
            return
        # The loop gives every step the whole remaining time; the setup gets its share
        # only, so a hanging home page still leaves time for the search.
        with attempt_scope(budget * self.engine.setup_share):
            try:
                response = await send_step(self, setup(flow.params), flow.context)
            except SearchProviderError as error:
                logger.info("%s: setup failed, searching without it: %s", self.info.id, error)
                return
        flow.state[_SETUP] = response.as_http()

    def first_request(self, flow: Flow) -> HttpRequest | None:
        """The search request (from the setup's answer when there was one).

        The setup's answer is let go here: it is read once, and a large page would
        otherwise be held through every page of the search.
        """
        after_setup = self.engine.after_setup
        setup = flow.state.pop(_SETUP, None)
        if after_setup is not None and setup is not None:
            return after_setup(flow.params, setup)
        return self.engine.request(flow.params)

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """Check and read the page that came; the next page's request while more are wanted."""
        exchange = flow.last
        response = exchange.response
        http = response.as_http()
        first = flow.state[_SOURCES] is None
        headless = exchange.request.fetch_with is not None
        escalation = self.engine.escalation
        if first and escalation is not None and not headless:
            started = flow.state[_STARTED]
            try:
                escalate_after_response(escalation, flow.context, exchange.request, http, started)
            except NeedsBrowser as needed:
                return self._headless(escalation, needed)
        try:
            self.engine.check(http)
            page = self.engine.read(http)
        except SearchProviderError as error:
            if not first:  # a later page ends the paging, not the search
                self._log_later_failure(flow, error)
            return None  # a first page's failure is raised by parse, the loop's last step
        before: list[SearchSource] = flow.state[_SOURCES] or []
        sources = collect_unique([*before, *page.sources], lambda source: source)
        flow.state[_SOURCES] = sources
        # Read: only its sources are wanted from now on (parse reads a body only when the
        # first page failed), so its body is not held while the next page arrives.
        flow.exchanges[-1] = Exchange(request=exchange.request, response=replace(http, body=b""))
        enough = len(sources) >= result_count(self.info, flow.params)
        if headless or enough or len(sources) == len(before) or remaining_budget(math.inf) <= 0:
            return None  # a rendered page is read alone, as the browser left it
        return page.next_request

    def after_failure(
        self, flow: Flow, request: HttpRequest, error: SearchProviderError
    ) -> HttpRequest | None:
        """Keep earlier pages, escalate when the engine says so, or name the whole budget."""
        if request.fetch_with is not None:
            return None  # the browser's own failure text stands
        if flow.state[_SOURCES] is not None:
            self._log_later_failure(flow, error)
            flow.done = True
            return None
        escalation = self.engine.escalation
        if escalation is not None:
            started = flow.state[_STARTED]
            try:
                escalate_after_failure(self.info, escalation, flow.context, request, error, started)
            except NeedsBrowser as needed:
                return self._headless(escalation, needed)
        if isinstance(error, ProviderTimeoutError):
            # Raised here, not left to the loop: a timeout carries no status an error map
            # could read, and the transport's text names only what was left of the time
            # (after a setup step, a share of it), where the engine's names its whole budget.
            message = timed_out_text(self.info.label, flow.state[_BUDGET])
            raise ProviderTimeoutError(self.info.id, message, error.status) from None
        label = self.info.label
        if isinstance(error, ProviderUnavailableError):  # as an escalating engine says it
            failure, detail = engine_failure_texts(label), without_label(error.message, label)
            raise reworded(error, failure, detail, error.status) from None
        return None

    def check(self, response: HttpResponse | SseResponse, errors: ErrorMap | None = None) -> None:
        """Nothing here: each page is checked as it arrives, in :meth:`follow_up`.

        The engine's own check (challenge markers before statuses, in its order) runs
        there; for a failed first page :meth:`parse` runs it again and raises what it
        found, so no hook raises for a status. A failed later page ends the paging
        instead of the search, so the last response alone does not decide.
        """

    def parse(self, flow: Flow) -> SearchResponse:
        """The sources of every page read, de-duplicated, cut to the requested count."""
        found: list[SearchSource] | None = flow.state.get(_SOURCES)
        if found is None:  # the first page failed its check or could not be read
            return self.parse_response(flow.last.response.as_http(), flow.params)
        sources = found
        wanted = result_count(self.info, flow.params)
        return SearchResponse(provider=self.info.id, sources=tuple(sources[:wanted]))

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """One results page alone: checked, read, cut to the requested count."""
        self.engine.check(response)
        sources = self.engine.read(response).sources
        wanted = result_count(self.info, params)
        return SearchResponse(provider=self.info.id, sources=tuple(sources[:wanted]))

    def _headless(self, escalation: Escalation, needed: NeedsBrowser) -> HttpRequest:
        """The same URL again, as a step the browser fetcher makes (see ``fetch_with``)."""
        blocked = needed.request
        info = self.info

        def fetch(context: ProviderContext) -> Awaitable[HttpResponse]:
            return fetch_in_browser(info, escalation, context, needed)

        return HttpRequest(method="GET", url=blocked.url, params=blocked.params, fetch_with=fetch)

    def _log_later_failure(self, flow: Flow, error: SearchProviderError) -> None:
        kept = len(flow.state[_SOURCES] or [])
        logger.info("%s: a later page failed, keeping %d results: %s", self.info.id, kept, error)
