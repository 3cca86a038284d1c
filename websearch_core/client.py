"""``WebSearch``: the one object applications hold.

It owns the HTTP session (one per instance, reused across calls), the settings and the
credentials, and exposes:

* :meth:`WebSearch.search`: returns a :class:`SearchResponse` or raises
  :class:`AllProvidersFailedError` / :class:`NoProviderConfiguredError`.
* :meth:`WebSearch.run`: what tools call; never raises for provider failures and returns the
  model-facing text (``Error: ...`` on failure) with the structured response.
* ``search_sync`` / ``run_sync``: the same from synchronous code. An aiohttp session is bound
  to the loop that made it, so the sync bridge runs on its own loop with its own session
  and closes both, even when called from inside a running loop (LangChain's executor,
  LlamaIndex's worker threads).

Importing this module stays light: the chain, the state stores, the status report, the
browser and the page fetcher are imported where first used, so an adapter that only
defines its tool (``langchain_websearch``) does not pay for them at import time.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import logging
import os
import threading
import time
import weakref
from collections.abc import AsyncGenerator, Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import SecretStr, ValidationError
from typing_extensions import TypedDict, Unpack

from .abandoned import close_on_its_loop, close_when_collected
from .bug_traces import bug_trace
from .build_deadline import BuildBound
from .cache import cache_key, dump_response, load_response, settings_scope, variables_scope
from .chain_unseen import with_plans_note
from .client_arguments import check_client_arguments
from .config_read import ConfigRead, handing
from .content.enrich import (
    DEFAULT_CONTENT_SOURCES,
    add_page_content,
    check_content_limit,
    content_text,
)
from .content.errors import FetchError
from .content.fetch_call import call_seconds, checked_concurrency, page_urls, too_late
from .content.models import PageContent
from .content.tool_text import fence_results
from .credentials import Credentials, CredentialStore, TokenRefresher, explicit_keys
from .deadline import (
    Deadline,
    StoreWaitsWithin,
    call_started,
    enter_call,
    leave_call,
    store_share,
)
from .env_names import report_unknown_variables, variables_waiting
from .errors import (
    AllProvidersFailedError,
    ConfigurationError,
    NoProviderCanRunError,
    NoProviderConfiguredError,
    SearchProviderError,
    WebSearchError,
)
from .format import format_for_llm
from .imports_outlasted import ImportsOutlastedDeadline
from .key_names import key_checks_waiting, left_out, report_misnamed_key_variables
from .key_shapes import imported_infos, report_key_shapes
from .loop_run import run_to_end
from .loop_runners import note_loop_runner
from .loop_servers import blocked_origin, sync_call_blocks_server
from .loop_worker import run_on_worker_thread
from .models import (
    Attempt,
    ProviderFailure,
    SearchOptions,
    SearchParams,
    SearchResponse,
    SearchToolResult,
)
from .note_bound import notes_update
from .own_session import open_own_session
from .pending_call import awaitable_method
from .provider_ids import KEY_IDS, unknown_ids, unknown_ids_message
from .provider_imports import (
    import_for_build,
    import_for_build_sync,
    import_for_fetch,
    import_for_status,
    import_off_loop,
    plan_imported,
)
from .providers import ProviderContext, get_provider, is_loaded, loaded_count
from .search_closing import SearchClosing
from .settings import APP_NAME, Settings, SettingsOverrides
from .settings_conflicts import with_conflicts
from .store_unreadable import with_store_problem

if TYPE_CHECKING:
    from types import TracebackType

    import aiohttp

    from .browser import HeadlessBrowser
    from .call_setup import CallSetup
    from .env_proxies import EnvironmentProxies
    from .lookups import PendingLookups
    from .orchestration import ChainOutcome
    from .state import StateStore
    from .status import ProviderStatus

__all__ = [
    "WEB_SEARCH_OPTION_NAMES",
    "FetchManyOptions",
    "FetchOptions",
    "LoopBoundClient",
    "WebSearch",
    "WebSearchOptions",
]

logger = logging.getLogger("websearch_core")
_T = TypeVar("_T")


class FetchOptions(TypedDict, total=False):
    """The keyword arguments of :meth:`WebSearch.fetch`, for ``fetch_sync(url, **options)``.

    Typed, so that ``fetch_sync(url, timeout=5)`` fails under mypy, not only when it runs;
    a test keeps the keys and their types equal to ``fetch``'s keyword arguments.
    """

    timeout_seconds: float | None
    use_cache: bool
    use_browser: bool
    allow_private_addresses: bool | None
    allowed_networks: Sequence[str]
    max_bytes: int | None


class FetchManyOptions(FetchOptions, total=False):
    """The keyword arguments of :meth:`WebSearch.fetch_many`, for ``fetch_many_sync``."""

    concurrency: int


class WebSearchOptions(SettingsOverrides, total=False):
    """The keyword arguments of ``WebSearch(...)``, for a tool that builds one later.

    ``create_web_search_tool(**options)`` and the like keep them until the first call;
    typed, a mistyped one fails under mypy where it is written (and, for the LlamaIndex
    tools, when they are built). A test keeps the keys and their types equal to
    ``WebSearch``'s arguments.
    """

    settings: Settings | None
    api_keys: Mapping[str, str | SecretStr] | None
    session: aiohttp.ClientSession | None
    browser: HeadlessBrowser | None
    oauth_refreshers: Mapping[str, TokenRefresher] | None


WEB_SEARCH_OPTION_NAMES: frozenset[str] = WebSearchOptions.__optional_keys__
"""The keywords :class:`WebSearchOptions` holds: what a tool that keeps them checks on build."""


class WebSearch(SearchClosing):
    """Search the web through the first provider that answers.

    Args:
        settings: Resolved settings; by default read from the environment and config file.
        api_keys: Keys given in code, ranked above the environment (``{"brave": "..."}``).
        session: An aiohttp session to use instead of the instance's own (not closed here).
        browser: A headless browser to share instead of the instance's own (not closed here).
        oauth_refreshers: Per-provider hooks that refresh an expired OAuth token
            (see :data:`websearch_core.credentials.TokenRefresher`).
        **overrides: Settings fields to override (``provider="brave"``, ``timeout_seconds=30``).

    Raises:
        TypeError: ``settings``, ``session`` or ``oauth_refreshers`` is not what it takes
            (``WebSearch("brave")`` for ``WebSearch(provider="brave")``); the message says
            what to pass, never repeating the value.
        ConfigurationError: An ``api_keys`` entry or a setting is wrong.

    Example:
        >>> async with WebSearch() as ws:  # doctest: +SKIP
        ...     result = await ws.run("latest aiohttp release")
        ...     print(result.text)
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        api_keys: Mapping[str, str | SecretStr] | None = None,
        session: aiohttp.ClientSession | None = None,
        browser: HeadlessBrowser | None = None,
        oauth_refreshers: Mapping[str, TokenRefresher] | None = None,
        **overrides: Unpack[SettingsOverrides],
    ) -> None:
        # A mistyped WEBSEARCH_ variable would set nothing (of providers imported: below).
        report_unknown_variables(asks=is_loaded)
        check_client_arguments(settings, session, oauth_refreshers)
        if settings is None:
            settings = Settings(**overrides)
        elif overrides:
            settings = Settings(**{**settings.model_dump(), **overrides})
        self.settings = settings
        self._api_keys = explicit_keys(api_keys)
        unknown = unknown_ids(list(self._api_keys), KEY_IDS)
        if unknown:  # a mistyped id would leave its key unused, silently
            from .key_variable_names import KEY_VARIABLES  # as data: no provider imported

            message = unknown_ids_message(unknown, KEY_IDS, KEY_VARIABLES)
            raise ConfigurationError(f"api_keys: {message}")
        self._refreshers = dict(oauth_refreshers or {})
        self.credentials = Credentials(
            explicit=self._api_keys,
            configured=settings.api_keys,
            store=CredentialStore(settings.resolved_credentials_file()),
            refreshers=self._refreshers,
        )
        # A key under a name nothing reads (BRAVE_SEARCH_API_KEY, LangChain's own tool's)
        # would leave the provider out, silently. Both checks ask the providers imported
        # only: each reads a provider's module, and a build has no deadline to bound its
        # import by (a tool's is built at its first call, on the loop: a module whose
        # import hung held the loop and the call with no limit). The rest are checked at
        # the first search, after its imports, which end by its deadline.
        report_misnamed_key_variables(self._has_key, asks=is_loaded)
        # A key shaped like another provider's (a tvly- key in BRAVE_API_KEY): of those
        # imported here, and again at the first search, after its imports.
        report_key_shapes(imported_infos(), os.environ)
        self._shapes_waiting = True
        """Whether the key shapes are still to be checked once the first search's plan is
        imported (:meth:`_begin`)."""
        self._checks_waiting = _checks_waiting()
        """Whether the environment names a provider not imported at the build: checked at
        a search whose imports brought in a provider since (:meth:`_begin`)."""
        self._loaded_at_check = loaded_count()
        """How many providers were imported when the environment was last checked."""
        self._session = session
        """The session the latest search used (a caller's, or one of ``_loop_sessions``)."""
        self._owns_session = session is None
        self._session_loop: asyncio.AbstractEventLoop | None = None
        self._session_lock = threading.Lock()
        """Guards the three maps below: loops in several threads may search at once."""
        self._loop_sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession] = {}
        """The session this instance opened on each loop it runs on (one belongs to its loop)."""
        self._reapers: dict[asyncio.AbstractEventLoop, weakref.finalize] = {}  # type: ignore[type-arg]
        """Per loop: closes its session there if this instance is collected with it open."""
        self._guards: dict[asyncio.AbstractEventLoop, _LoopGuard] = {}
        """Per loop: what closes this instance's part when that loop shuts down."""
        self._loop_lookups: dict[asyncio.AbstractEventLoop, PendingLookups] = {}
        """Per loop: the lookups under way of the session this instance opened there."""
        self._store: StateStore | None = None
        self._lent_store: StateStore | None = None
        """The store of the instance whose synchronous call built this one: never closed here."""
        self._lender: WebSearch | None = None
        """The instance whose synchronous call built this one: its store is borrowed at the
        first use (:meth:`_shared_store`), within the call's deadline."""
        self._store_lock = threading.Lock()
        self._loop_setups: dict[asyncio.AbstractEventLoop, CallSetup] = {}
        """Per loop: what its searches share (its session's transport, the kept plan)."""
        self._fetch_proxies: EnvironmentProxies | None = None
        """The environment's proxy for page fetches (made on the first): see :meth:`fetch_many`."""
        self._kept_settings_scope: tuple[Settings, str] | None = None
        self._store_problems_said: set[str] = set()
        """The unreadable credential store problems this client has logged (once each)."""
        proxy = self.settings.proxy.get_secret_value() if self.settings.proxy else None
        self._owns_browser = browser is None
        if browser is None:
            from .browser import HeadlessBrowser

            browser = HeadlessBrowser(proxy=proxy)
        self._browser = browser

    def __repr__(self) -> str:
        return f"WebSearch(provider={self.settings.provider!r}, exclude={self.settings.exclude!r})"

    def __copy__(self) -> WebSearch:
        """This client itself: a client is a handle on open sessions and a state store.

        Frameworks copy the tools that hold one (LangChain and LangGraph deep-copy tools and
        state); a copy of its locks, sessions and store could not be used, and a second
        client would not be the one its owner closes. So a copied tool that was given this
        client shares it, as the tool never closes a client it was given.
        """
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> WebSearch:
        """This client itself, as :meth:`__copy__` says why."""
        return self

    def __reduce__(self) -> str | tuple[Any, ...]:
        """Refuse to be pickled, saying what to do instead.

        Its sessions, store and locks belong to this process, and it holds the keys it was
        given; pickle failed deep inside (``Can't pickle local object``) naming none of it.
        What may cross instead is named: its ``settings`` (refused only when they hold a
        secret) or a tool built without ``web_search=``.

        Raises:
            TypeError: Always.
        """
        raise TypeError(
            "cannot pickle WebSearch: it holds this process's HTTP sessions, state store and "
            "keys; build one in the process that uses it (send its settings, which pickle "
            "when they hold no secret, or a tool built without web_search=; see "
            "websearch_core.tool_pickles)"
        )

    async def aclose(self) -> None:
        """Close the HTTP sessions, browser and store this instance opened (injected ones stay).

        Optional: without it (no ``async with``), what the instance opened is closed when
        the event loop it was opened on shuts down (:meth:`_close_with_loop`). A session
        opened on another loop (the instance searched from loops in other threads too) is
        closed on that loop, as aiohttp requires, or as that loop shuts down.
        """
        loop = asyncio.get_running_loop()
        with self._session_lock:
            self._loop_setups = {}  # they hold sessions; the next search builds its own
            guards, self._guards = self._guards, {}
            sessions, self._loop_sessions = self._loop_sessions, {}
            reapers, self._reapers = self._reapers, {}
            if self._owns_session:
                self._session = None
        for reaper in reapers.values():
            reaper.detach()  # closed here: nothing left for it to close
        for session_loop, session in sessions.items():
            if session_loop is loop:
                await session.close()
            else:
                close_on_its_loop(session, session_loop)
        await self._close_shared()
        guard = guards.get(loop)
        if guard is not None:
            await guard.generator.aclose()  # what it guarded is closed: let it go now

    def close(self) -> None:
        """:meth:`aclose` for synchronous code (safe inside a running event loop).

        A script that searches with :meth:`run_sync` has no loop to await :meth:`aclose`
        on, and ``ws.close()`` or ``with WebSearch() as ws:`` (as ``requests`` and
        ``httpx`` clients are closed) said ``'WebSearch' object has no attribute 'close'``
        or ``does not support the context manager protocol``. The client stays usable:
        a later search opens what it needs again.
        """
        _run_blocking(self.aclose())

    def __enter__(self) -> WebSearch:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    async def _close_shared(self) -> None:
        """Close what every loop's searches share: the browser and the state store."""
        if self._owns_browser:
            await self._browser.aclose()
        with self._session_lock:
            store, self._store = self._store, None
        if store is not None and store is not self._lent_store:
            await store.aclose()

    async def _close_with_loop(self) -> None:
        """Have the running loop close this instance's part when it shuts down, unless closed.

        ``ws = WebSearch(); await ws.run(...)`` in a script or notebook never reaches
        :meth:`aclose`, and aiohttp then reports the session as unclosed when it is
        collected (a Redis store's connections likewise). An async generator parked at its
        first ``yield`` is finalised by the loop's ``shutdown_asyncgens()``, which
        ``asyncio.run`` (and every ``asyncio.Runner``) awaits before closing the loop. Runs
        when a session, a store or a page fetch is opened: once per loop and session.

        Each loop has its own guard: the loop that ends closes its own session, and the
        last one to end (no other loop holding a session of this instance) closes the
        browser and the store too. A loop ending in one thread used to close the session
        and store that a search still running on another loop was using.
        """
        loop = asyncio.get_running_loop()
        with self._session_lock:
            session = self._loop_sessions.get(loop) if self._owns_session else None
            current = self._guards.get(loop)
            if current is not None and current.session is session:
                return
            guard = _LoopGuard(loop, session)
            guard.generator = self._close_at_loop_end(guard)
            self._guards[loop] = guard
        note_loop_runner(loop)  # whose code runs it, for the words if it is closed unshut
        await anext(guard.generator)  # the loop now tracks it and finalises it on shutdown
        _watch_at_exit(guard)

    async def _close_at_loop_end(self, guard: _LoopGuard) -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            # Collected without its loop running (a loop never shut down, as nest_asyncio's
            # asyncio.run leaves it), nothing can be awaited here: awaiting anyway is
            # Python's "async generator ignored GeneratorExit" (_close_left_open runs it).
            if _running_loop() is guard.loop:
                await self._release(guard)

    async def _release(self, guard: _LoopGuard) -> None:
        """Close what ``guard`` stands for, on its loop; the shared parts with the last loop."""
        loop = guard.loop
        with self._session_lock:
            leaving = self._guards.get(loop) is guard
            reaper = None
            if leaving:  # this loop is done with the instance
                del self._guards[loop]
                session = self._loop_sessions.pop(loop, None)
                self._loop_lookups.pop(loop, None)
                self._loop_setups.pop(loop, None)
                reaper = self._reapers.pop(loop, None)
                if session is self._session and self._owns_session:
                    self._session = None
                last = not self._guards
            else:  # replaced: it only holds a session this loop no longer uses, if any
                session = None
                last = False
            left_behind = guard.session
            if left_behind is session or left_behind is self._loop_sessions.get(loop):
                left_behind = None
        if reaper is not None:
            reaper.detach()
        for closing in (session, left_behind):
            if closing is not None and not closing.closed:
                await closing.close()
        if last:
            await self._close_shared()

    def _open_session(self, loop: asyncio.AbstractEventLoop) -> aiohttp.ClientSession:
        """The session for ``loop`` (the running one), opened (or reopened) when it has none.

        Opening one also lets go of those left on loops closed without shutting down (see
        :meth:`_left_on_closed_loops`).
        """
        with self._session_lock:
            given = self._session
            if not self._owns_session and given is not None and not given.closed:
                return given
            session = self._loop_sessions.get(loop)
            if session is not None and not session.closed:
                self._session, self._session_loop = session, loop
                return session
            left = self._left_on_closed_loops()
            from .lookups import PendingLookups, system_resolver

            # A timeout during a lookup is a host not reached (see lookups). The system
            # resolver (getaddrinfo in a thread) holds nothing to close with the session.
            lookups = PendingLookups(system_resolver())
            # Its proxy is chosen per request, and it never re-sends a request silently.
            session = open_own_session(resolver=lookups)
            self._loop_sessions[loop] = session
            self._loop_lookups[loop] = lookups
            self._owns_session = True
            replaced = self._reapers.pop(loop, None)
            if replaced is not None:
                replaced.detach()  # it held the closed session this one replaces
            self._reapers[loop] = close_when_collected(self, session, loop)
            self._session, self._session_loop = session, loop
        if left:
            from .closed_loops import close_left_on_closed_loop  # only when one was left

            for closed_loop, closing in left:
                close_left_on_closed_loop(closing, closed_loop)
        return session

    def _left_on_closed_loops(
        self,
    ) -> list[tuple[asyncio.AbstractEventLoop, aiohttp.ClientSession]]:
        """Forget the loops closed without shutting down; their sessions, to close without them.

        LlamaIndex's synchronous call of an async tool inside a running loop runs each call
        on a new loop in a thread and closes it unshut: the instance kept every such loop,
        with its session and open sockets, until it was collected or the process ended.
        Called with the lock held, when a session is opened.
        """
        left = []
        for loop in [loop for loop in self._loop_sessions if loop.is_closed()]:
            session = self._loop_sessions.pop(loop)
            self._guards.pop(loop, None)
            self._loop_lookups.pop(loop, None)
            self._loop_setups.pop(loop, None)
            reaper = self._reapers.pop(loop, None)
            if reaper is not None:
                reaper.detach()  # its session is closed here instead
            if session is self._session:
                self._session = None
            left.append((loop, session))
        return left

    def _setup(self) -> CallSetup:
        """What this search shares with the last on its loop: rebuilt for new sessions or settings.

        A new event loop opens a new session (:meth:`_open_session`), so the transport is
        never one of a finished loop. Each loop keeps its own: with one setup for all, loops
        in two threads searching in turn rebuilt it (the transport, the plan, the ledger's
        settings) on most of their searches. A secret resolved since the last build (a key
        exported after the client was made, or read inside an attempt) needs none: the
        transport asks the credentials for their secrets whenever it scrubs a text.
        """
        return self._setup_on(asyncio.get_running_loop())

    def _setup_on(self, loop: asyncio.AbstractEventLoop) -> CallSetup:
        """:meth:`_setup` for ``loop``, the running loop, which the caller has at hand."""
        session = self._open_session(loop)
        setup = self._loop_setups.get(loop)
        if setup is None or not setup.serves(session, self.settings, self.credentials):
            from .call_setup import CallSetup  # with the chain: first search only

            setup = CallSetup(
                session,
                self.settings,
                self.credentials,
                self._browser,
                own_session=self._owns_session,
                lookups=self._loop_lookups.get(loop) if self._owns_session else None,
            )
            with self._session_lock:
                self._loop_setups[loop] = setup
        return setup

    def _context(self) -> ProviderContext:
        """What providers get for this search: the shared transport, settings and keys."""
        return self._setup().context

    async def _open(self) -> CallSetup:
        """:meth:`_setup` for this loop; a session opened on it is closed with it at the latest."""
        setup, guarded = self._opened()
        if not guarded:
            await self._close_with_loop()
        return setup

    def _opened(self) -> tuple[CallSetup, bool]:
        """:meth:`_setup` for this loop, and whether the loop already closes what it opened.

        :meth:`_open` without its coroutine, for the search, which awaits
        :meth:`_close_with_loop` itself only when the answer is ``False`` (a loop's first
        search, or one after its session was replaced): every other search skips a
        coroutine and a second ``get_running_loop``.
        """
        loop = asyncio.get_running_loop()
        setup = self._setup_on(loop)
        if not self._owns_session:
            return setup, True
        guard = self._guards.get(loop)
        return setup, guard is not None and guard.session is self._loop_sessions.get(loop)

    async def state(self) -> StateStore:
        """The state store (opened on first use): cooldowns, budgets, usage, cache."""
        if self._store is None:
            store = self._shared_store()
            await self._close_with_loop()
            return store
        return self._store

    async def _begin(
        self, query: str | SearchParams, params: SearchOptions, *, fetches: bool
    ) -> tuple[SearchParams, Deadline]:
        """The search's parameters, and its deadline, begun at the call's start.

        A process's first search imports the chain and the providers its plan asks (on a
        worker thread): 0.1-0.2 s, and seconds on a loaded machine. The deadline bounds
        the whole call, so it counts them: the wait for them ends by it, and a search
        whose deadline passed first ends as the deadline says (none asked), then says
        what avoids it (:mod:`~websearch_core.imports_advice`), the import going on for
        the next call. Before, the deadline began after them, and a call
        with ``timeout=1`` ended 0.2-0.6 s past it. A search that ``fetches`` its
        results' pages (``include_content``) imports the fetcher here too, before any
        provider is asked. A tool's call starts before its client is built
        (:class:`~websearch_core.deadline.CallClock`): it counts from there.

        Raises:
            ImportsOutlastedDeadline: The deadline passed during the imports.
        """
        deadline = Deadline(self.settings.deadline_seconds, started=call_started())
        searched = _params(query, params)
        try:
            if not plan_imported(self.settings, searched.provider):  # no coroutine after
                await import_off_loop(self.settings, searched.provider, deadline)
            if fetches:
                await import_for_fetch(deadline)
        except TimeoutError:
            raise ImportsOutlastedDeadline(
                self.settings, searched.provider, deadline, self.credentials
            ) from None
        if self._checks_waiting and loaded_count() != self._loaded_at_check:
            self._check_key_variables()  # the plan's providers are imported: no import here
        if self._shapes_waiting:  # once a client, after its first plan's imports
            self._shapes_waiting = False
            report_key_shapes(imported_infos(), os.environ)
        return searched, deadline

    def _check_key_variables(self) -> None:
        """Say the environment's misnamed variables of the providers imported, each once.

        Checked again at every search that imported a provider since, while a variable
        still names one not imported: a first search forced to one provider
        (``provider="mojeek"``) imports it alone, and the auto searches after it then
        passed over Brave, keyed under ``BRAVE_SEARCH_API_KEY``, without a word.
        """
        report_unknown_variables(asks=is_loaded)
        report_misnamed_key_variables(self._has_key, asks=is_loaded)
        self._loaded_at_check = loaded_count()
        self._checks_waiting = _checks_waiting()

    def _say_store_problem(self, outcome: ChainOutcome) -> None:
        """Add what an unreadable credential store left out to ``outcome``'s answer; log it once.

        The problem is logged once per client (it stays true for every search until the
        file is fixed) and added to the answer's notes after the notes it had (a cached
        answer says it too: the plan that found it left the same providers out). A plain
        call after the search, not a coroutine around it: every search pays for one.
        """
        problem = outcome.store_problem
        if problem is None:
            return
        if problem not in self._store_problems_said:
            self._store_problems_said.add(problem)
            logger.warning("web search: %s", problem)
        if outcome.response is not None and problem not in outcome.response.notes:
            update = notes_update(outcome.response, (problem,))
            outcome.response = outcome.response.model_copy(update=update)

    def _failure_message(self, outcome: ChainOutcome) -> str:
        """The spec's failure text, then why the settings contradict, then the store's problem."""
        message = with_conflicts(outcome.failure_message(), self.settings)
        return with_store_problem(message, outcome.store_problem)

    async def _execute(
        self, params: SearchParams, use_cache: bool, deadline: Deadline
    ) -> tuple[ChainOutcome, list[str]]:
        """The chain's outcome for ``params`` (or the cache's), and notes for the model.

        ``deadline`` is the call's, begun when the call was: opening the store and the
        cache lookup spend it too, so a slow store leaves the providers less time rather
        than the call more. Every wait on the store is bounded by it (see
        :func:`~websearch_core.deadline.store_patience`): the lookups before and after the
        chain, the ledger's writes and the cache write. The cache lookup before the chain
        and the cache write after it get a small share of it only
        (:func:`~websearch_core.deadline.store_share`): the first must leave the providers
        their time (as the chain's reservations without a budget must), and the second
        holds an answer already made. A store that does not answer in time is searched
        without, as a broken one is, and a write it was given still lands when it answers.
        """
        # The search's frames are its cost on every call: the deadline is entered here,
        # around the body, rather than by a coroutine of its own around another.
        token = enter_call(deadline)
        try:
            setup, guarded = self._opened()
            if not guarded:
                await self._close_with_loop()
            plan = setup.plan(params.provider)
            # A broken ledger must not cost an answer: the chain sees a store that degrades.
            # An open store is taken as it is (state() only opens one; no coroutine per search).
            store = setup.guarded(self._store if self._store is not None else await self.state())
            key: str | None = None
            if self.settings.cache and use_cache:
                providers = ",".join(p.info.id for p in plan.providers)
                variables = variables_scope(plan.providers, self.credentials.env)
                key = cache_key(params, f"{providers}|{self._settings_scope()}|{variables}")
                wait = store_share(deadline, self.settings.state_wait_seconds)
                with StoreWaitsWithin(wait):  # leave the providers their time
                    hit = await self._from_cache(store, key, allow_stale=False)
                if hit is not None:
                    served = Attempt(provider=hit[0].provider, outcome="cached")
                    # As the chain's ``_served``: the fields are built only for a logger that
                    # takes the line (``logger.info`` checks the level after its arguments).
                    if logger.isEnabledFor(logging.INFO):
                        logger.info(
                            "web search served from cache (%s)",
                            served.provider,
                            extra=served.log_fields(),
                        )
                    # What planning left out comes first, as in a search the chain ran: a
                    # forced provider that cannot run says why, cache hit or not.
                    attempts = (*plan.skipped, served)
                    response = hit[0].model_copy(update={"cached": True, "attempts": attempts})
                    # What this plan says of providers passed over, not what the stored one said.
                    response = with_plans_note(response, plan.passed_over)
                    return setup.outcome(response, attempts, plan.store_problem), []
            runner = setup.runner(store)
            outcome = await runner.run(
                plan, params, setup.context, deadline, redactor=setup.redactor()
            )
            if key is None:
                return outcome, []
            if outcome.response is None:
                return outcome, await self._serve_stale(store, key, outcome)
            if not outcome.response.partial:
                wait = store_share(deadline, self.settings.state_wait_seconds)
                with StoreWaitsWithin(wait):  # the answer is ready: no more
                    await store.cache_set_deferred(  # serialised off this thread where it can be
                        key,
                        functools.partial(dump_response, outcome.response),
                        now=time.time(),
                        ttl=self.settings.cache_ttl_seconds,
                        keep_stale_for=self.settings.cache_stale_seconds,
                    )
            return outcome, []
        finally:
            leave_call(token)

    def _settings_scope(self) -> str:
        """:func:`~websearch_core.cache.settings_scope` of the current settings, kept."""
        kept = self._kept_settings_scope
        if kept is None or kept[0] is not self.settings:
            kept = self._kept_settings_scope = (self.settings, settings_scope(self.settings))
        return kept[1]

    async def _serve_stale(self, store: StateStore, key: str, outcome: ChainOutcome) -> list[str]:
        """Answer a failed chain from an expired cache entry; the notes for the model."""
        stale = await self._from_cache(store, key, allow_stale=True)
        if stale is None:
            return []
        cached, stored_at = stale
        # The failure's plan said what it passed over; the stored answer said its own plan's.
        cached = with_plans_note(cached, outcome.passed_over)
        served = Attempt(provider=cached.provider, outcome="cached", detail="stale")
        logger.warning(
            "every web search provider failed; serving a stale cached answer",
            extra=served.log_fields(),
        )
        outcome.attempts.append(served)
        when = datetime.fromtimestamp(stored_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
        note = f"every provider failed; this cached answer is from {when}"
        # In the response's notes too: --json and the tools' artifacts said "stale" with no
        # word of how old the answer is, which only the text's Note line gave.
        outcome.response = cached.model_copy(
            update={
                "cached": True,
                "stale": True,
                "attempts": tuple(outcome.attempts),
                **notes_update(cached, (note,)),
            }
        )
        return [note]

    async def _from_cache(
        self, store: StateStore, key: str, *, allow_stale: bool
    ) -> tuple[SearchResponse, float] | None:
        entry = await store.cache_get(key, time.time(), allow_stale=allow_stale)
        if entry is None:
            return None
        response = load_response(entry.value)
        return (response, entry.stored_at) if response is not None else None

    def _has_key(self, provider_id: str, env_vars: tuple[str, ...]) -> bool:
        """Whether ``provider_id`` has a key from any source (for the misnamed-key warning).

        One the settings leave out needs none: its key is not missed.
        """
        if left_out(provider_id, self.settings.exclude, self.settings.providers):
            return True
        try:
            return self.credentials.api_key(provider_id, env_vars) is not None
        except (ConfigurationError, OSError):  # the store: its search will say what is wrong
            return True

    async def provider_status(self) -> list[ProviderStatus]:
        """Each registered provider: available or why not, marks, usage and budget."""
        await import_for_status()  # every provider: a first call held the loop 0.2-0.4 s
        from .status import collect_status

        context = (await self._open()).context
        store = await self.state()
        return await collect_status(context, store, self.settings)

    async def reset_provider(self, provider_id: str) -> None:
        """Clear a provider's cooldown, exhaustion mark, failure count and usage counters.

        Waits for the state store :data:`~websearch_core.status.STATE_WAIT_SECONDS` (3 s)
        at most, as ``websearch providers reset`` does: behind another process's lock on
        the SQLite file it waited out the busy timeout (10 s), then failed anyway. A store
        this process already knows to be silent (a call given up on, a search's, is still
        unanswered) is not waited for: the error is raised at once.

        Args:
            provider_id: A registered provider id (``brave``).

        Raises:
            ConfigurationError: ``provider_id`` is not a registered provider.
            websearch_core.state.StateStoreTimeoutError: The store did not answer within
                3 s, or is known silent; the message names it. The clear is withdrawn
                (``withdrawn`` is true: nothing is cleared later) unless it had begun, which
                the message says too.
            websearch_core.state.StateStoreError: The store failed (unreadable, damaged,
                unreachable).
        """
        from .state.base import StateStoreTimeoutError
        from .status import STATE_WAIT_SECONDS, clear_unless_silent, not_cleared

        get_provider(provider_id)
        store = await self.state()
        try:
            with StoreWaitsWithin(STATE_WAIT_SECONDS):
                await clear_unless_silent(store, provider_id)
        except StateStoreTimeoutError as exc:
            raise StateStoreTimeoutError(
                not_cleared(exc, provider_id), withdrawn=exc.withdrawn
            ) from exc

    @awaitable_method("search_sync")
    async def search(
        self,
        query: str | SearchParams,
        *,
        use_cache: bool = True,
        include_content: bool = False,
        content_limit: int = DEFAULT_CONTENT_SOURCES,
        **params: Unpack[SearchOptions],
    ) -> SearchResponse:
        """Search and return the first renderable response.

        Args:
            query: The query text, or a complete :class:`SearchParams`.
            use_cache: ``False`` bypasses the result cache for this call (fresh and stale).
            include_content: Also fetch the pages of the first ``content_limit`` results,
                concurrently and within the same deadline, into each source's ``content``
                (a provider's own page text is used as is); a page that cannot be had
                leaves ``content`` empty and adds a note.
            content_limit: How many results' pages ``include_content`` gets (1-20).
            **params: Other :class:`SearchParams` fields when ``query`` is text.

        Raises:
            pydantic.ValidationError: A parameter is invalid; the error names it.
            ValueError: ``content_limit`` is not 1-20.
            NoProviderConfiguredError: No provider could run: none was configured, or
                (:class:`NoProviderCanRunError`, an ``AllProvidersFailedError`` too) each
                one chosen lacks its setup; the message says what to set.
            AllProvidersFailedError: Every provider failed; ``failures`` has each error.
        """
        if include_content:
            check_content_limit(content_limit, "content_limit")
        try:
            searched, deadline = await self._begin(query, params, fetches=include_content)
        except ImportsOutlastedDeadline as outlasted:
            raise outlasted.search_error() from None
        outcome, _ = await self._execute(searched, use_cache, deadline)
        self._say_store_problem(outcome)
        if outcome.response is not None:
            if include_content:
                paged = await add_page_content(
                    self, outcome.response, seconds=deadline.remaining(), limit=content_limit
                )
                return paged.response
            return outcome.response
        if not outcome.failures:
            raise NoProviderConfiguredError(self._failure_message(outcome))
        errors = tuple(
            error if isinstance(error, SearchProviderError) else _wrapped(provider.info.id, error)
            for provider, error in outcome.failures
        )
        message = self._failure_message(outcome)
        if outcome.nothing_could_run:
            raise NoProviderCanRunError(message, errors)
        raise AllProvidersFailedError(message, errors)

    @awaitable_method("run_sync")
    async def run(
        self,
        query: str | SearchParams,
        *,
        use_cache: bool = True,
        include_content: bool = False,
        content_limit: int = DEFAULT_CONTENT_SOURCES,
        **params: Unpack[SearchOptions],
    ) -> SearchToolResult:
        """Search and return the tool result: text for the model plus the structured details.

        Provider failures come back as ``Error: ...`` text, never as an exception;
        invalid parameters still raise, and cancellation propagates. With
        ``include_content`` the pages of the first ``content_limit`` results follow the
        search text, each fenced as untrusted data (see :meth:`search`); with the
        ``fence_results`` setting the search text is fenced too.

        Args:
            query: The query text, or a complete :class:`SearchParams`.
            use_cache: ``False`` bypasses the result cache for this call (fresh and stale).
            include_content: Also fetch the pages of the first ``content_limit`` results.
            content_limit: How many results' pages ``include_content`` gets (1-20).
            **params: Other :class:`SearchParams` fields when ``query`` is text
                (``recency``, ``limit``, ``include_domains``...; ``provider`` forces one).

        Returns:
            ``text`` for the model and ``response``, the structured details; when no
            provider answered, ``text`` is ``Error: ...`` and ``error`` holds the message.

        Raises:
            pydantic.ValidationError: A parameter is invalid; the error names it.
            ValueError: ``content_limit`` is not 1-20.
        """
        if include_content:
            check_content_limit(content_limit, "content_limit")
        try:
            searched, deadline = await self._begin(query, params, fetches=include_content)
        except ImportsOutlastedDeadline as outlasted:
            return outlasted.tool_result()
        outcome, notes = await self._execute(searched, use_cache, deadline)
        self._say_store_problem(outcome)
        if outcome.response is not None:
            response = outcome.response
            text = format_for_llm(response, notes)
            if self.settings.fence_results:
                text = fence_results(text)
            if include_content:
                paged = await add_page_content(
                    self, response, seconds=deadline.remaining(), limit=content_limit
                )
                response = paged.response
                text = f"{text}\n\n{content_text(paged.pages)}"
            return SearchToolResult(text=text, response=response)
        # The spec's text, then why the settings left nothing (or only this) to ask, if so.
        message = self._failure_message(outcome)
        response = SearchResponse(provider=outcome.last_provider, attempts=tuple(outcome.attempts))
        failures = tuple(
            ProviderFailure(provider=provider, error=text)
            for provider, text in outcome.failure_texts()
        )
        return SearchToolResult(
            text=f"Error: {message}", response=response, error=message, failures=failures
        )

    def search_sync(
        self,
        query: str | SearchParams,
        *,
        use_cache: bool = True,
        include_content: bool = False,
        content_limit: int = DEFAULT_CONTENT_SOURCES,
        **params: Unpack[SearchOptions],
    ) -> SearchResponse:
        """:meth:`search` for synchronous code (safe inside a running event loop).

        Args:
            query: The query text, or a complete :class:`SearchParams`.
            use_cache: ``False`` bypasses the result cache for this call, as in :meth:`search`.
            include_content: Also fetch the top results' pages, as in :meth:`search`.
            content_limit: How many results' pages ``include_content`` gets (1-20).
            **params: Other :class:`SearchParams` fields when ``query`` is text.

        Raises:
            RuntimeError: Called on a running event loop that serves one of the settings'
                endpoints (a simulator under ``async with``), which it would block: await
                :meth:`search` there instead.
        """
        _refuse_blocking_a_server("search_sync", "search", _endpoints(self.settings))
        content = {"include_content": include_content, "content_limit": content_limit}
        return _run_blocking(
            self._fresh()._search_and_close(_params(query, params), use_cache, content)
        )

    def run_sync(
        self,
        query: str | SearchParams,
        *,
        use_cache: bool = True,
        include_content: bool = False,
        content_limit: int = DEFAULT_CONTENT_SOURCES,
        **params: Unpack[SearchOptions],
    ) -> SearchToolResult:
        """:meth:`run` for synchronous code (safe inside a running event loop).

        Args:
            query: The query text, or a complete :class:`SearchParams`.
            use_cache: ``False`` bypasses the result cache for this call, as in :meth:`run`.
            include_content: Also fetch the top results' pages, as in :meth:`run`.
            content_limit: How many results' pages ``include_content`` gets (1-20).
            **params: Other :class:`SearchParams` fields when ``query`` is text.

        Raises:
            RuntimeError: Called on a running event loop that serves one of the settings'
                endpoints (a simulator under ``async with``), which it would block: await
                :meth:`run` there instead.
        """
        _refuse_blocking_a_server("run_sync", "run", _endpoints(self.settings))
        content = {"include_content": include_content, "content_limit": content_limit}
        return _run_blocking(
            self._fresh()._run_and_close(_params(query, params), use_cache, content)
        )

    # --- page content (websearch_core.content) ----------------------------------------------

    @awaitable_method("fetch_sync")
    async def fetch(
        self,
        url: str,
        *,
        timeout_seconds: float | None = None,
        use_cache: bool = True,
        use_browser: bool = True,
        allow_private_addresses: bool | None = None,
        allowed_networks: Sequence[str] = (),
        max_bytes: int | None = None,
    ) -> PageContent:
        """Fetch one page and extract its main text, Markdown and metadata.

        Only public http(s) addresses are fetched unless ``allow_private_addresses`` (or
        ``WEBSEARCH_FETCH_ALLOW_PRIVATE=1``) says otherwise; see
        :mod:`websearch_core.content.fetch` for the whole policy.

        Args:
            url: The page's absolute http(s) URL.
            timeout_seconds: Deadline for the whole call, at most 900 s (default: the
                sooner of the settings' ``deadline_seconds`` and ``timeout_seconds``).
            use_cache: ``False`` neither reads nor writes the page cache.
            use_browser: ``False`` never escalates to headless Chromium.
            allow_private_addresses: Also fetch loopback and private addresses.
            allowed_networks: Non-public networks to allow (``"10.1.2.0/24"``).
            max_bytes: Body size cap (default 10 MiB).

        Raises:
            FetchRefusedError: The policy refused the URL (the message says which rule).
            FetchTimeoutError: The deadline passed.
            FetchFailedError: An error status, a network failure or an unreadable document.
        """
        pages = await self.fetch_many(
            [url],
            concurrency=1,
            timeout_seconds=timeout_seconds,
            use_cache=use_cache,
            use_browser=use_browser,
            allow_private_addresses=allow_private_addresses,
            allowed_networks=allowed_networks,
            max_bytes=max_bytes,
        )
        if isinstance(pages[0], FetchError):
            raise pages[0]
        return pages[0]

    @awaitable_method("fetch_many_sync")
    async def fetch_many(
        self,
        urls: Sequence[str],
        *,
        concurrency: int = 4,
        timeout_seconds: float | None = None,
        use_cache: bool = True,
        use_browser: bool = True,
        allow_private_addresses: bool | None = None,
        allowed_networks: Sequence[str] = (),
        max_bytes: int | None = None,
    ) -> list[PageContent | FetchError]:
        """Fetch several pages, ``concurrency`` at a time, all within one deadline.

        Takes the same options as :meth:`fetch`, and ``concurrency``: how many pages are
        fetched at once (at least 1). Returns one entry per URL, in order: the page, or the
        :class:`FetchError` saying why there is none; a bad URL is such an entry, not an
        exception.

        Without ``WEBSEARCH_PROXY`` a page takes the environment's proxy
        (``HTTP(S)_PROXY``, ``NO_PROXY``), chosen per request as a search's is, and that
        proxy's credentials become this client's secrets: masked in the fetch's errors and
        pages, and in later searches' too.

        Raises:
            TypeError: ``urls`` (or ``allowed_networks``) is one string, not a list: a
                string is a sequence of its characters, each of which was fetched.
            ValueError: ``concurrency`` is below 1, or an allowed network is not one.
        """
        seconds = call_seconds(self.settings, timeout_seconds)
        deadline = Deadline(seconds, started=call_started())
        try:
            # The fetcher and its parsers, off the loop (a first call held it), and within
            # the deadline: a first fetch began its deadline after them, seconds late.
            await import_for_fetch(deadline)
        except TimeoutError:  # each page's turn came after the deadline, as the fetcher says
            pages = page_urls(urls)
            checked_concurrency(concurrency)
            return [too_late(url, seconds) for url in pages]
        from .content.service import fetch_pages, options_for
        from .env_proxies import EnvironmentProxies
        from .orchestration.attempt import settings_secrets

        await self._close_with_loop()  # the browser it may start, and the store
        from .state.failsafe import FailSafeStore

        options = options_for(
            self.settings,
            allow_private_addresses=allow_private_addresses,
            allowed_networks=allowed_networks,
            max_bytes=max_bytes,
            use_cache=use_cache,
            use_browser=use_browser,
        )
        store = FailSafeStore(await self.state()) if options.use_cache else None
        if self._fetch_proxies is None:
            self._fetch_proxies = EnvironmentProxies(self.credentials.add_secrets)
        credentials, settings = self.credentials, self.settings
        return await fetch_pages(
            urls,
            options=options,
            store=store,
            browser=self._browser,
            seconds=seconds,
            remaining=deadline.remaining(),
            concurrency=concurrency,
            proxies=self._fetch_proxies,
            # A word under a query name nothing reads is a gateway's key only where the
            # SearXNG endpoint's request is quoted; a fetch never sends it, and a page
            # holding the word holds the world's word.
            secrets=lambda: (
                *credentials.secrets(),
                *settings_secrets(settings, unread_words=False),
            ),
        )

    def fetch_sync(self, url: str, **options: Unpack[FetchOptions]) -> PageContent:
        """:meth:`fetch` for synchronous code (safe inside a running event loop)."""
        _refuse_blocking_a_server("fetch_sync", "fetch", (url, *_endpoints(self.settings)))
        return _run_blocking(self._fresh()._fetch_and_close(url, options))

    def fetch_many_sync(
        self, urls: Sequence[str], **options: Unpack[FetchManyOptions]
    ) -> list[PageContent | FetchError]:
        """:meth:`fetch_many` for synchronous code (safe inside a running event loop)."""
        listed = urls if isinstance(urls, list | tuple) else ()  # never consume an iterator
        _refuse_blocking_a_server(
            "fetch_many_sync", "fetch_many", (*listed, *_endpoints(self.settings))
        )
        return _run_blocking(self._fresh()._fetch_many_and_close(urls, options))

    async def _fetch_and_close(self, url: str, options: FetchOptions) -> PageContent:
        # Not ``async with``: entering imports the chain, which a fetch never uses, with no
        # time limit before the fetch's deadline began (a 3 s fetch waited out a slow
        # import). The fetch imports what it needs within its deadline, as a first
        # :meth:`fetch` does.
        try:
            return await self.fetch(url, **options)
        finally:
            await self.aclose()

    async def _fetch_many_and_close(
        self, urls: Sequence[str], options: FetchManyOptions
    ) -> list[PageContent | FetchError]:
        # Not ``async with``, as :meth:`_fetch_and_close`.
        try:
            return await self.fetch_many(urls, **options)
        finally:
            await self.aclose()

    def _fresh(self) -> WebSearch:
        """The instance one synchronous call runs on (its own loop and HTTP session).

        It borrows this instance's state store, so that cooldowns, the cache, the
        in-process rate limits and a broken store's "warned once" outlive the call: with
        ``state_backend="memory"`` each call used to start with no state at all, and a
        locked SQLite file or a silent Redis cost every call its wait. It borrows it at its
        first use, not here: opening it here imported the state store's modules (some 20)
        before the call's deadline began, on the caller's thread, and a first ``fetch_sync``
        on a slow import waited them out; the call imports them within its deadline.
        """
        fresh = WebSearch(self.settings, api_keys=self._api_keys, oauth_refreshers=self._refreshers)
        return self._lend_store(fresh)

    def _lend_store(self, borrower: WebSearch) -> WebSearch:
        """``borrower``, to use this instance's store, which it will never close.

        Borrowed at the borrower's first use of a store (:meth:`_shared_store`), not here:
        opening it here imports the state store's modules (some 20, and sqlite3) with no
        time limit, before the call that builds the borrower has begun its own imports,
        which take them within its deadline.
        """
        borrower._lender = self
        return borrower

    def _shared_store(self) -> StateStore:
        """This instance's store, opened (or borrowed) on first use; safe from several threads.

        One built for a synchronous call borrows its lender's store, never closed here.
        """
        with self._store_lock:
            if self._store is None:
                if self._lender is not None:
                    self._store = self._lent_store = self._lender._shared_store()
                else:
                    self._store = open_state_store(self.settings)
            return self._store

    async def _search_and_close(
        self, params: SearchParams, use_cache: bool, content: Mapping[str, Any]
    ) -> SearchResponse:
        # Not ``async with``: entering imports the chain with no time limit, before the
        # search's deadline; the search imports it within its deadline instead.
        try:
            return await self.search(params, use_cache=use_cache, **content)
        finally:
            await self.aclose()

    async def _run_and_close(
        self, params: SearchParams, use_cache: bool, content: Mapping[str, Any]
    ) -> SearchToolResult:
        try:
            return await self.run(params, use_cache=use_cache, **content)
        finally:
            await self.aclose()


def open_state_store(settings: Settings) -> StateStore:
    """The store the settings ask for: memory, Redis (``redis_url``) or SQLite (default)."""
    import platformdirs

    from .state import MemoryStore, open_store

    backend = settings.state_backend
    if backend == "memory":
        return MemoryStore()
    if backend == "redis" or (backend == "auto" and settings.redis_url):
        if not settings.redis_url:
            raise ConfigurationError("state_backend 'redis' needs redis_url (WEBSEARCH_REDIS_URL)")
        return open_store(redis_url=settings.redis_url, sqlite_path=None)
    directory = settings.state_dir or platformdirs.user_state_path(APP_NAME)
    return open_store(
        redis_url=None,
        sqlite_path=directory / "state.sqlite3",
        chosen_by=settings.state_dir_chosen_by(),
    )


def _params(query: str | SearchParams, params: SearchOptions) -> SearchParams:
    """The search ``run`` or ``search`` was asked, refusing a number given as text so.

    ``run("q", limit="5")`` was told ``Input should be a valid integer`` alone; now also
    ``got the text '5': write the number itself, limit=5``
    (:func:`~websearch_core.number_inputs.numbers_given_as_text`). Said here, not by
    ``SearchParams``: the command line says what its options were given in its own words.
    """
    try:
        if isinstance(query, SearchParams):
            if not params:
                return query
            return SearchParams.model_validate({**query.model_dump(), **params})
        return SearchParams(query=query, **params)
    except ValidationError as error:
        from .number_inputs import numbers_given_as_text  # only when the call is refused

        rewritten = numbers_given_as_text(error)
        if rewritten is None:
            raise
        raise rewritten from None


def _wrapped(provider_id: str, error: BaseException) -> SearchProviderError:
    """A non-provider error (a configuration problem, a bug) as a provider failure.

    Its cause is a bug's :func:`~websearch_core.bug_traces.bug_trace`, never the bug's own
    exception, whose attributes may hold what it was reading (``JSONDecodeError.doc``).
    """
    wrapped = SearchProviderError(provider_id, str(error) or type(error).__name__)
    wrapped.__cause__ = error if isinstance(error, WebSearchError) else bug_trace(error)
    return wrapped


@dataclass(slots=True, weakref_slot=True, eq=False)
class _LoopGuard:
    """What closes a :class:`WebSearch` when ``loop`` shuts down: see ``_close_with_loop``."""

    loop: asyncio.AbstractEventLoop
    session: aiohttp.ClientSession | None
    """The instance's own session when the guard was set (``None`` before its first search,
    or when the caller gave the session)."""
    generator: AsyncGenerator[None, None] = field(init=False)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


_GUARDS_AT_EXIT: weakref.WeakSet[_LoopGuard] = weakref.WeakSet()
"""Every guard still set, for :func:`_close_left_open` (weak: a client collected goes)."""


def _watch_at_exit(guard: _LoopGuard) -> None:
    """Close ``guard``'s instance at interpreter exit if its loop never shuts down."""
    if not _GUARDS_AT_EXIT:
        atexit.unregister(_close_left_open)  # registered once, however often it empties
        atexit.register(_close_left_open)
    _GUARDS_AT_EXIT.add(guard)


def _close_left_open() -> None:
    """At exit, close what clients opened on loops that never shut down.

    A loop that is run but never closed (``loop.run_until_complete`` alone, or
    ``nest_asyncio``'s ``asyncio.run`` in a notebook) never finalises the guard, and aiohttp
    then reports the session as unclosed as the interpreter exits. Such a loop is idle
    now, so each guard's closing is run on it here. A loop closed without being shut
    down can run nothing: its open session is closed without it and that is said, with
    what to change (:mod:`websearch_core.closed_loops`).
    """
    for guard in list(_GUARDS_AT_EXIT):
        loop = guard.loop
        if loop.is_closed():
            if guard.session is not None and not guard.session.closed:
                from .closed_loops import close_left_on_closed_loop  # only when one was left

                close_left_on_closed_loop(guard.session, loop)
            continue
        if loop.is_running():
            continue
        with contextlib.suppress(Exception):
            loop.run_until_complete(guard.generator.aclose())


def _endpoints(settings: Settings) -> tuple[str, ...]:
    """Every server the settings send requests to instead of a provider's own."""
    proxy = settings.proxy.get_secret_value() if settings.proxy is not None else None
    named = (*settings.base_urls.values(), settings.searxng.endpoint, proxy)
    return tuple(url for url in named if url)


def _refuse_blocking_a_server(call: str, awaited: str, urls: Iterable[str]) -> None:
    """Refuse ``call`` at once if it would block the running loop that serves one of ``urls``.

    The call would wait out its whole timeout for a server that cannot answer until it
    returns (see :mod:`~websearch_core.loop_servers`).

    Raises:
        RuntimeError: It would; the message names the server and what to write instead.
    """
    origin = blocked_origin(urls)
    if origin is not None:
        raise sync_call_blocks_server(call, awaited, origin)


def _run_blocking(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """``coroutine``'s value for a synchronous call: on a worker thread if a loop runs here.

    A running loop (a notebook cell) cannot run another to the end in its own thread.
    """
    if _running_loop() is None:
        return run_to_end(coroutine)
    return run_on_worker_thread(coroutine)


def _checks_waiting() -> bool:
    """Whether a variable of the environment names a provider not imported (still to check)."""
    return key_checks_waiting(os.environ, is_loaded) or variables_waiting(os.environ, is_loaded)


class LoopBoundClient:
    """The lazily built :class:`WebSearch` clients of a tool adapter: one per event loop.

    An aiohttp session belongs to the event loop that opened it. A tool used from a new
    loop (a second ``asyncio.run``, or LlamaIndex running sync calls on fresh loops) gets a
    client of that loop rather than one whose session died with the last loop; both
    framework adapters need exactly this, so it lives here once. Synchronous calls run on
    their own loop and session (:meth:`WebSearch.run_sync`), so :meth:`get` does not look
    at the loop. Every client shares one state store.

    A tool is often used without ever being closed (one ``ainvoke`` in an ``asyncio.run``,
    a framework's test suite): the client closes what it opened when that loop shuts down,
    as every :class:`WebSearch` does.
    """

    def __init__(self) -> None:
        self._base: WebSearch | None = None
        """Serves synchronous calls and owns the state store every client here shares."""
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, WebSearch] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()  # a tool may be called from several threads at once

    def __copy__(self) -> LoopBoundClient:
        """A new, empty set: a copied tool builds its own clients, on first use.

        Sharing these clients would let closing one copy close the other's sessions under
        a call in flight, and a copy made with other options (``model_copy(update=...)``)
        would search with the original's; copying them is not possible (a lock, sessions).
        """
        return LoopBoundClient()

    def __deepcopy__(self, memo: dict[int, Any]) -> LoopBoundClient:
        """A new, empty set, as :meth:`__copy__` says why."""
        return LoopBoundClient()

    def __reduce__(self) -> tuple[type[LoopBoundClient], tuple[()]]:
        """Unpickled as a new, empty set: a pickled tool opens its own clients where it runs.

        Its sessions and lock belong to this process; see :mod:`websearch_core.tool_pickles`.
        """
        return (LoopBoundClient, ())

    def get(
        self, build: Callable[[], WebSearch], deadline_seconds: float | BuildBound | None = None
    ) -> WebSearch:
        """The client for synchronous calls, built with ``build`` on first use.

        Building imports the settings' checks; a synchronous first call imported them on
        its own thread with no limit. With the call's deadline known
        (:func:`~websearch_core.build_deadline.known_deadline`) they are imported on the
        import thread, and the call stops waiting when it passes.

        Args:
            build: Builds the client (reads the settings when none were given).
            deadline_seconds: The call's deadline, or the options it is worked out from
                at the build (:class:`~websearch_core.build_deadline.BuildBound`: the config
                file read first, bounded, and handed to the build's settings, which read the
                disk no more: :mod:`~websearch_core.config_read`); ``None`` imports as
                building does.

        Raises:
            BuildImportsOutlastedError: ``deadline_seconds`` passed during the imports.
        """
        read = None
        if self._base is None and deadline_seconds is not None:
            read = import_for_build_sync(deadline_seconds)
        with self._lock:
            return self._base_client(build, read)

    def built(self) -> WebSearch | None:
        """The synchronous calls' client if it is built already, else ``None``.

        What :meth:`get` returns on every call but the first, without what only a first
        call needs: the caller's :class:`~websearch_core.build_deadline.BuildBound`, built
        for it on every call and read only while no client is built, and the lock. The
        client is set under the lock and only ever cleared (by :meth:`aclose`), so reading
        it without the lock gives the client the lock would have.
        """
        return self._base

    def _base_client(self, build: Callable[[], WebSearch], read: ConfigRead | None) -> WebSearch:
        if self._base is None:
            with handing(read):  # the file as the call read it: the build reads no more
                self._base = build()
        return self._base

    def built_for_running_loop(self) -> WebSearch | None:
        """The running loop's client if it is built already, else ``None``.

        What :meth:`for_running_loop` returns on every call but a loop's first, without
        what only a first call needs: a tool's caller builds the call's
        :class:`~websearch_core.build_deadline.BuildBound` for it (4 us at load 7, most of
        the ~8 us the lookup cost a search), and a coroutine, the lock and two lookups
        follow. A client is added to the set under the lock and never replaced, so reading
        it without the lock gives the same client the lock would.
        """
        return self._by_loop.get(asyncio.get_running_loop())

    async def for_running_loop(
        self, build: Callable[[], WebSearch], deadline_seconds: float | BuildBound | None = None
    ) -> WebSearch:
        """The client of the running loop, built on the loop's first call.

        One per loop (two long-lived loops in two threads alternate without rebuilding),
        each borrowing the one state store, so that cooldowns, the cache and rate limits
        hold across loops (a second ``asyncio.run``) as across calls. A client is closed
        when its loop shuts down, or by :meth:`aclose` on that loop. Building the first
        imports the settings' checks, which a tool not entered imported on the loop: they
        are imported on a worker thread first, by the call's deadline when the caller
        knows it (:func:`~websearch_core.build_deadline.known_deadline`: given, or the
        environment's, or the default until the settings are read), else with no limit. The
        client borrows the store at its first use, in its call, whose imports (the
        store's among them) end by the call's deadline; opened here, the store's import
        held a first call with no limit (a 3 s call waited out a 30 s held import).

        Args:
            build: Builds the client (reads the settings when none were given).
            deadline_seconds: The call's deadline as known before the build
                (:func:`~websearch_core.build_deadline.known_deadline`), or the options it
                is worked out from at the build
                (:class:`~websearch_core.build_deadline.BuildBound`: the config file read
                first, bounded, and handed to the build's settings, which read the disk no
                more): the build's imports end by it. ``None`` waits for them however long
                they take.

        Raises:
            BuildImportsOutlastedError: ``deadline_seconds`` passed during the imports.
        """
        loop = asyncio.get_running_loop()
        read = None
        if loop not in self._by_loop:  # its first call here: what building imports, off it
            read = await import_for_build(deadline_seconds)
        with self._lock:
            client = self._by_loop.get(loop)
            if client is None:
                base = self._base_client(build, read)
                with handing(read):  # the file as the call read it: the build reads no more
                    client = base._lend_store(build())
                self._by_loop[loop] = client
            return client

    async def aclose(self) -> None:
        """Close the clients built here and their store; the next use builds new ones.

        A client of another loop cannot be closed from this one and is only forgotten;
        its own loop closes it on shutdown.
        """
        with self._lock:
            base, self._base = self._base, None
            clients = list(self._by_loop.items())
            self._by_loop = weakref.WeakKeyDictionary()
        running = asyncio.get_running_loop()
        for loop, client in clients:
            if loop is running:
                await client.aclose()
        if base is not None:
            await base.aclose()
