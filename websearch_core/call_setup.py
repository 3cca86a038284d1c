"""What every search of one client shares: built once, rebuilt when what it rests on changes.

A search used to build its transport, its provider context, its ledger's policy, budgets and
rates, and its redactor anew, and to import the chain's names inside the functions that run
per search; together a dozen microseconds of every call, for objects that depend only on
the client. :class:`CallSetup` holds them for one HTTP session, one settings object, one
credentials resolver; :meth:`WebSearch._setup <websearch_core.client.WebSearch>` builds a
new one when any of those changes (a new event loop opens a new session). The secrets are
not part of that: they may grow in the middle of a search (a key first read inside an
attempt), so the transport asks the credentials for them whenever it scrubs a text, and the
redactor is rebuilt when :attr:`Credentials.secrets_version
<websearch_core.credentials.Credentials.secrets_version>` moves.

Only immutable parts are shared. The :class:`~websearch_core.orchestration.ChainRunner`
and its ledger (which counts failures per call) are still made per search, so concurrent
searches never see each other's counts.

This module imports the chain and the state wrapper at its top; the client imports it on
its first search, so importing the client stays light.
"""

import functools
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from .credentials import Credentials
from .env_proxies import EnvironmentProxies
from .errors import ConfigurationError
from .models import Attempt, SearchResponse
from .orchestration import (
    Budget,
    ChainOutcome,
    ChainPlan,
    ChainRunner,
    FailurePolicy,
    Rate,
    call_redactor,
    resolve_candidates,
)
from .orchestration.attempt import settings_secrets
from .orchestration.ledger import mark_scope
from .orchestration.plan import ChainOrder
from .prompts import SEARCH_SYSTEM_PROMPT
from .provider_notes import ProviderNotes
from .providers import ProviderContext
from .redaction import Redactor
from .settings import DEFAULT_TIMEOUT_SECONDS, ENV_PREFIX, Settings
from .state.base import StateStore
from .state.failsafe import FailSafeStore
from .transport import Transport

if TYPE_CHECKING:
    import aiohttp

    from .browser import HeadlessBrowser
    from .lookups import PendingLookups

__all__ = ["CallSetup"]

_LedgerConfig = tuple[FailurePolicy, dict[str, Budget], dict[str, Rate]]


class _KeptPlan(NamedTuple):
    """The last plan that reported nothing, and what it was worked out from."""

    key: tuple[str | None, Hashable]
    """``(forced, Credentials.sources_version())`` when it was worked out."""
    plan: ChainPlan
    """A copy of it, handed to every search that finds the same key: the chain only reads
    a plan, and a copy a search held three lists and itself through its requests."""


def environment_proxies(
    session: "aiohttp.ClientSession", settings: Settings, credentials: Credentials, *, own: bool
) -> EnvironmentProxies | None:
    """Where the transport learns the environment's proxies; ``None`` when no request takes one.

    The client's own session (``own``) trusts no environment (aiohttp would add
    ``~/.netrc`` logins to requests, see :mod:`websearch_core.env_proxies`): its requests
    take the proxy of ``HTTP(S)_PROXY`` / ``NO_PROXY`` from the transport unless the
    settings name one (``WEBSEARCH_PROXY``). A caller's session that trusts the environment
    picks that proxy itself; the transport still looks, to learn its credentials. A proxy
    written ``http://user:pw@proxy`` sends ``user:pw`` in a ``Proxy-Authorization`` header,
    which a proxy's 407 page or an echoing upstream may show.
    """
    if getattr(session, "trust_env", False) or (own and settings.proxy is None):
        return EnvironmentProxies(credentials.add_secrets)
    return None


def own_proxy(settings: Settings) -> str | None:
    """The settings' proxy (``WEBSEARCH_PROXY``) for the client's own session, or ``None``.

    The transport picks it per request rather than the session holding it, since aiohttp
    cannot be told to send one request directly past a session's proxy, and a loopback
    endpoint must be (see :meth:`Transport._proxy_for
    <websearch_core.transport.Transport._proxy_for>`).
    """
    return settings.proxy.get_secret_value() if settings.proxy is not None else None


def own_proxy_source(settings: Settings, credentials: Credentials) -> str | None:
    """What set :func:`own_proxy`: ``WEBSEARCH_PROXY``, or ``the proxy setting``.

    The variable when its value is the proxy in use, else the setting (a keyword, the
    config file), as a base URL's source is named; never the URL, which may carry a
    password. An unreachable proxy's hint names it, so the one in use is checked.
    """
    if settings.proxy is None:
        return None
    variable = f"{ENV_PREFIX}PROXY"
    from_variable = credentials.env(variable) == settings.proxy.get_secret_value().strip()
    return variable if from_variable else "the proxy setting"


class CallSetup:
    """The per-client parts of a search, valid while its session and settings hold.

    Args:
        session: The client's open HTTP session.
        settings: The client's (frozen) settings.
        credentials: The client's resolver; read live, so a key stored or exported after
            the setup was built is still found by the next plan.
        browser: The client's headless browser.
        own_session: Whether ``session`` is the one the client opened (it then sends
            through the environment's proxy itself: :func:`environment_proxies`).
        lookups: The host names that session is still looking up, so that a timeout
            during a lookup reads as a host not reached (``None``: a caller's session).
    """

    __slots__ = (
        "_guarded",
        "_key",
        "_ledger",
        "_notes",
        "_order",
        "_plan",
        "_redactor",
        "_scope",
        "context",
    )

    def __init__(
        self,
        session: "aiohttp.ClientSession",
        settings: Settings,
        credentials: Credentials,
        browser: "HeadlessBrowser | None",
        *,
        own_session: bool = False,
        lookups: "PendingLookups | None" = None,
    ) -> None:
        self._key = (session, settings, credentials)
        transport = Transport(
            session,
            timeout_seconds=settings.timeout_seconds or DEFAULT_TIMEOUT_SECONDS,
            max_response_bytes=settings.max_response_bytes,
            base_urls=settings.base_urls,
            secrets=settings_secrets(settings),
            connect_timeout_seconds=settings.connect_timeout_seconds,
            credentials=credentials,
            proxies=environment_proxies(session, settings, credentials, own=own_session),
            proxy=own_proxy(settings) if own_session else None,
            proxy_source=own_proxy_source(settings, credentials) if own_session else None,
            lookups=lookups,
            sign_in_gateways=settings.sign_in_gateways,
        )
        self._notes = ProviderNotes()
        self.context = ProviderContext(
            transport=transport,
            settings=settings,
            credentials=credentials,
            system_prompt=SEARCH_SYSTEM_PROMPT,
            browser=browser,
            notes=self._notes,
        )
        self._ledger: _LedgerConfig | None = None
        self._order: ChainOrder | None = None
        self._plan: _KeptPlan | None = None
        self._redactor: tuple[int, Redactor] | None = None
        self._guarded: FailSafeStore | None = None
        self._scope = (self.context, functools.partial(mark_scope, self.context))
        """The context's mark scope reader, handed to every runner (:class:`ChainRunner`)."""

    def serves(
        self, session: "aiohttp.ClientSession", settings: Settings, credentials: Credentials
    ) -> bool:
        """Whether this setup still fits: same session, settings and resolver.

        A secret handed out since it was built needs no new setup: the transport reads the
        credentials' secrets when it scrubs, and :meth:`redactor` follows their version.
        """
        key = self._key
        return key[0] is session and key[1] is settings and key[2] is credentials

    def plan(self, forced: str | None) -> ChainPlan:
        """The providers this search tries.

        What the settings decide (ids checked, exclusions, the order) is worked out on the
        first search and kept; settings naming an unknown id keep that error, raised by
        every search as :func:`resolve_candidates` words it (naming ``forced`` too).

        Which providers can run rests on the credentials alone (keys in code and config,
        the environment, the credential store), so the answer is kept while
        :meth:`Credentials.sources_version
        <websearch_core.credentials.Credentials.sources_version>` stays the same, and asked
        again as soon as a variable or the store changes: asking each of some 25 providers
        costs about 30 us a search, comparing the sources well under 1 while the store has
        not been read (keys in code), a ``stat`` of its file (~2 us) once it has. An explicit
        list (``providers``) is kept the same way: its entries are asked the same
        questions. A plan that left something out with a reason (a listed or forced
        provider that cannot run, an excluded entry) is worked out every time, so each
        search reports its own.
        """
        order = self._order
        if order is None:
            settings = self.context.settings
            try:
                order = ChainOrder.from_settings(settings)
            except ConfigurationError:
                return resolve_candidates(
                    self.context,
                    forced=forced,
                    preferred=settings.provider,
                    excluded=settings.exclude,
                    listed=settings.providers,
                    fallback=settings.fallback,
                )
            self._order = order
        sources = self.context.credentials.sources_version()
        kept = self._plan
        if sources is not None and kept is not None and kept.key == (forced, sources):
            return kept.plan
        plan = order.resolve(self.context, forced)
        if (
            sources is not None
            and not plan.skipped
            and not plan.failures
            and not plan.store_problem
            and not plan.passed_over
        ):
            copy = ChainPlan(providers=list(plan.providers), forced=plan.forced)
            self._plan = _KeptPlan((forced, sources), copy)
        return plan

    def guarded(self, store: StateStore) -> FailSafeStore:
        """``store`` as the chain sees it: a broken ledger must not cost an answer.

        One view is kept for the store the last search used and handed out again while the
        store is the same object: the view holds nothing of its own (whether a store failed
        is kept per store, in :mod:`~websearch_core.state.failsafe`), so a new one per
        search was an object built and dropped on every search.
        """
        kept = self._guarded
        if kept is None or kept.inner is not store:
            kept = self._guarded = FailSafeStore(store)
        return kept

    @staticmethod
    def outcome(
        response: SearchResponse, attempts: Sequence[Attempt], store_problem: str | None = None
    ) -> ChainOutcome:
        """A search answered without the chain (from the cache): its planning's skips, the hit.

        ``store_problem`` is the plan's (an unreadable credential store), said as a search
        the chain ran says it.
        """
        return ChainOutcome(response=response, attempts=list(attempts), store_problem=store_problem)

    def runner(self, store: StateStore) -> ChainRunner:
        """A new runner for one search (its ledger's failure counts are that search's own).

        The policy, budgets and rates are parsed on the first search that runs the chain
        (as before, a bad budget is reported then), and kept: the settings are frozen.
        """
        if self._ledger is None:
            settings = self.context.settings
            policy = FailurePolicy(
                rate_limit_wait_budget=settings.rate_limit_wait_seconds,
                auth_cooldown=settings.auth_cooldown_seconds,
            )
            budgets = {pid: Budget.parse(pid, text) for pid, text in settings.budget.items()}
            rates = {pid: Rate.parse(pid, text) for pid, text in settings.rate.items()}
            self._ledger = (policy, budgets, rates)
        policy, budgets, rates = self._ledger
        self._notes.store = store  # the notes its providers' searches keep go there too
        return ChainRunner(store, policy=policy, budgets=budgets, rates=rates, scope=self._scope)

    def redactor(self) -> Redactor:
        """The redactor of every secret known now (planning may have resolved new keys).

        Kept while :attr:`Credentials.secrets_version
        <websearch_core.credentials.Credentials.secrets_version>` stays the same (one
        integer compared a search); the chain follows it further during the search.
        """
        version = self.context.credentials.secrets_version
        cached = self._redactor
        if cached is None or cached[0] != version:
            cached = self._redactor = (version, call_redactor(self.context))
        return cached[1]
