"""The provider contract's data, and the hooks the request loop calls, as types.

A leaf both sides of the contract import: :mod:`websearch_core.request_loop` (which runs
a provider) and :mod:`websearch_core.providers.base` (where :class:`ProtocolProvider`
implements the hooks with defaults and re-exports everything here). The loop sees a
provider only as :class:`LoopProvider`, so it needs nothing from the providers package
and no import cycle joins the two.
"""

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from .browser import HeadlessBrowser
from .cli_status import PROG
from .credentials import Credentials, OAuthToken, TokenRefresher
from .errors import SearchProviderError
from .filters.support import FilterSupport
from .models import SearchParams, SearchResponse
from .provider_notes import KeptNote, ProviderNotes
from .settings import Settings
from .transport import API_RESPONSE, HttpRequest, HttpResponse, SseResponse, Transport

__all__ = [
    "DelayedRequest",
    "ErrorMap",
    "Exchange",
    "Flow",
    "LoopProvider",
    "ProviderContext",
    "ProviderInfo",
    "ProviderKind",
    "RetryPolicy",
]

ProviderKind = Literal["api", "answer", "scraper", "aggregate"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ProviderInfo:
    """What a provider is, as data: read by the registry, the CLI, docs and tests."""

    id: str
    """Registry key, equal to the module name."""
    label: str
    """Display name used in failure texts (``Brave authorization failed ...``)."""
    kind: ProviderKind
    description: str
    docs_url: str
    env_vars: tuple[str, ...] = ()
    """Environment variables that hold its key, in precedence order."""
    honours: frozenset[str] = frozenset()
    """Which :class:`~websearch_core.models.SearchParams` fields it sends upstream."""
    default_results: int | None = None
    max_results: int | None = None
    sources_cut_by_limit: bool = False
    """Its sources are cut to ``limit`` alone, never to ``num_search_results``.

    The spec's Perplexity keeps the two apart: ``num_search_results`` is how broadly the
    API searches (API-key mode only) and ``limit`` slices the sources in every mode. Every
    other provider collapses them (``num_search_results`` before ``limit``)."""
    answer_numbers_sources: bool = False
    """Its answer cites with ``[n]`` markers that number its sources in order (Perplexity's
    ``[2]`` is its second ``citations`` URL, its second source): the filters renumber them
    when they drop a source (:mod:`~websearch_core.filters.markers`)."""
    answer_links_sources: bool = False
    """Its answer may cite by Markdown links to its sources' pages (OpenAI's
    ``([site](url))``) or their bare URLs (OpenRouter's route to Perplexity answered with
    the URL alone): a link to a source a filter or a cut took out is taken out, its words
    kept, and such a bare URL goes (:mod:`~websearch_core.filters.links`)."""
    index: str | None = None
    """The upstream index it serves (``bing`` for DuckDuckGo), for aggregate voting."""
    setup_hint: str | None = None
    """How to configure it when that is not an API key variable (SearXNG's endpoint)."""
    key_prefixes: tuple[str, ...] = ()
    """How its API keys begin, where its own documents say so (Tavily's ``tvly-``).

    Only a documented prefix: a key with another provider's prefix and none of its own
    was pasted into the wrong variable, which :mod:`~websearch_core.key_shapes` says
    (never more of the key than the prefix). Empty: no known shape, nothing is said."""
    filters: FilterSupport = field(default_factory=FilterSupport)
    """How it applies each search filter (API parameter or query syntax); what it
    declares neither way is checked on its results or reported as ignored. For a provider
    with :attr:`mode_filters`, its default mode's."""
    mode_filters: tuple[tuple[str, FilterSupport], ...] = ()
    """Its other modes that apply filters differently, each named (Gemini's ``OAuth``:
    Cloud Code takes no time filter the Developer API takes). The provider picks a
    search's support (``SearchProvider.filter_support``); the README's filter table has
    a row for each mode."""

    @property
    def written_by_itself(self) -> frozenset[str]:
        """Fields it honours that no mode of it sends as a parameter.

        It writes them into its own query syntax (Google's ``site:``), so the filter plan
        leaves them to it. A field some mode sends natively is not among them: in a mode
        that cannot send it, the plan writes it into the query text as for any provider.

        Example:
            >>> sorted(ProviderInfo(id="x", label="X", kind="api", description="",
            ...     docs_url="", honours=frozenset({"query", "include_domains"})
            ... ).written_by_itself)
            ['include_domains', 'query']
        """
        natives = self.filters.native.union(*(s.native for _, s in self.mode_filters))
        return self.honours - natives

    @property
    def setup_needed(self) -> str | None:
        """What to do to configure it: its setup hint, else ``set`` its key variables.

        ``None`` for a provider with neither (an engine that needs nothing).

        Example:
            >>> ProviderInfo(id="brave", label="Brave", kind="api", description="",
            ...     docs_url="", env_vars=("BRAVE_API_KEY",)).setup_needed
            'set BRAVE_API_KEY'
        """
        if self.setup_hint:
            return self.setup_hint
        return f"set {' or '.join(self.env_vars)}" if self.env_vars else None

    @property
    def setup_advice(self) -> str | None:
        """What a provider that cannot run for want of setup tells its user to do.

        :attr:`setup_needed`, and for a provider configured by a key alone the store's
        command too: a first user forcing ``brave`` read only ``set BRAVE_API_KEY``,
        though the README's quick start stores the key with ``websearch auth set brave``
        (read by every search, the library's too). So does a provider with a hint and a
        key (Gemini's hint names its variables and its sign-in import, not the key's
        command). The providers table keeps the shorter :attr:`setup_needed` per row and
        names the command once, below the table.

        Example:
            >>> ProviderInfo(id="brave", label="Brave", kind="api", description="",
            ...     docs_url="", env_vars=("BRAVE_API_KEY",)).setup_advice
            "set BRAVE_API_KEY, or store the key with 'websearch auth set brave'"
        """
        needed = self.setup_needed
        if needed is None or not self.env_vars:  # no key to store (a sign-in, an endpoint)
            return needed
        return f"{needed}, or store the key with '{PROG} auth set {self.id}'"

    @property
    def response_name(self) -> str:
        """What its response body is called in texts: ``API response``, or an engine's ``page``.

        The size cap reads ``Brave API response exceeded 2 MiB`` (the behaviour reference's
        text) for every JSON API, and ``Bing page exceeded 2 MiB`` for an HTML engine, which
        serves pages rather than an API.
        """
        return "page" if self.kind == "scraper" else API_RESPONSE

    @property
    def credential_free(self) -> bool:
        """Needs no key or sign-in: a 401 or 403 from it is a block, not a refused key."""
        return self.kind in ("scraper", "aggregate")


@dataclass(frozen=True, slots=True)
class ProviderContext:
    """Everything a provider may use during one call."""

    transport: Transport
    settings: Settings
    credentials: Credentials
    system_prompt: str = ""
    browser: HeadlessBrowser | None = None
    """The client's headless Chromium, started on first escalation and closed with the
    client; ``None`` makes an escalating scraper start one for the call alone."""
    notes: ProviderNotes | None = None
    """Where the notes a search records (:attr:`Flow.notes`) are kept for the providers
    table: the client's state store; ``None`` keeps none."""

    def __post_init__(self) -> None:
        """Send through the transport as it trusts the ``sign_in_gateways`` of the settings.

        The search guard and the request loop judge a sign-in's route by these settings; a
        transport a user built to call a provider alone knows nothing of them, and judged
        what a provider sends through it by trusting any URL set on it instead. Telling the
        shared transport the ids (stop 44) made one given to several contexts trust the
        union of their settings': a context whose settings trust no gateway sent a sign-in
        through one another context trusted. So the context holds the transport as its own
        settings trust it (:meth:`~websearch_core.transport.Transport.trusting`): the same
        one when its settings trust none, else a copy of its own, which reads the owner's
        ids as they are when it judges (an owner's later trust reaches it too).

        Every variable a provider class declares as a sign-in is recorded here too
        (:meth:`~websearch_core.credentials.Credentials.note_sign_in_variables`, as the
        credential check does before each search): your own code reading one from
        ``os.environ`` and sending it through :attr:`transport` before any search was not
        judged, the same request refused once a search had run. One look-up a variable,
        once a context.
        """
        self.credentials.note_sign_in_variables()
        transport = self.transport
        if isinstance(transport, Transport):  # a stand-in may judge nothing
            judged = transport.trusting(self.settings.sign_in_gateways)
            if judged is not transport:
                object.__setattr__(self, "transport", judged)  # frozen: set once, here

    @property
    def sign_in_gateways(self) -> Collection[str]:
        """The ``base_urls`` ids whose URL is trusted with a sign-in in this call.

        Its transport's (the settings' ids, and those a ``Transport`` of the user's own was
        given, :attr:`~websearch_core.transport.Transport.sign_in_gateways`; no other
        context's settings', :meth:`__post_init__`), so the
        credential check and the request loop trust what the transport trusts where it
        sends: the settings know no plugin's id, so a plugin's own gateway, trusted on its
        transport, was refused by the check before its request was built. A stand-in
        transport's: the settings'.
        """
        if isinstance(self.transport, Transport):
            return self.transport.sign_in_gateways
        return self.settings.sign_in_gateways


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorMap:
    """How a provider's error responses are read, as data.

    The shared classifier (402, 401, spent credits, 403, 429 with its hints, 5xx) runs for
    every provider; this map only adds what a provider's API says differently.

    Example:
        ``ErrorMap(statuses={432: QuotaExhaustedError})`` (Tavily's plan limit), or
        ``ErrorMap(code=brave_error_code, codes={"SUBSCRIPTION_TOKEN_INVALID":
        AuthorizationError})`` (Brave's 422 for a bad key).
    """

    prefix: str | None = None
    """Start of the error text (``<prefix> (<status>): <detail>``); default
    ``<Label> API error``."""
    detail: Callable[[int, str], str | None] | None = None
    """Extracts the human message from a status and error body (default: the body's head)."""
    statuses: Mapping[int, type[SearchProviderError]] = field(default_factory=dict)
    """Statuses whose meaning differs from the shared classifier's."""
    code: Callable[[str], str | None] | None = None
    """Extracts the API's machine-readable error code from an error body."""
    codes: Mapping[str, type[SearchProviderError]] = field(default_factory=dict)
    """Error codes (from :attr:`code`) that say what the status does not."""
    messages: Mapping[int, str] = field(default_factory=dict)
    """Statuses whose whole error text is fixed (Exa's keyless 429 names its remedy); the
    shared classifier still chooses the class and reads ``Retry-After``."""
    hint: Callable[[Mapping[str, str], str], float | None] | None = None
    """The server's wait hint from the headers and error body, for an API that puts it
    where ``Retry-After`` is not (Google's ``RetryInfo.retryDelay``). The loop waits it
    before a retry, and a raised rate limit or spent quota that has no wait of its own
    carries it (``retry_after``; ``reset_at``), so the ledger marks the provider for the
    seconds the server named. Default: the clamped ``Retry-After`` alone."""
    prepaid: frozenset[int] = frozenset()
    """Statuses whose spent quota is a prepaid balance (or a spend limit its owner raises)
    as the provider's own documentation says: raised as
    :class:`~websearch_core.errors.CreditsSpentError`, whose mark is re-checked after a
    while instead of holding the provider out until next month. The text stays what the
    map or the shared classifier made of it. A status whose body does not tell a prepaid
    balance from a monthly plan (Firecrawl's and Brave's 402) is not listed."""
    prepaid_phrases: tuple[str, ...] = ()
    """Words of an error body (below 500) that name a spent prepaid balance or a paid plan's
    spent cycle where the API gives it no code of its own, as its documentation words them
    (matched in any letter case): raised as :class:`~websearch_core.errors.CreditsSpentError`
    with the map's text, and re-checked like :attr:`prepaid`. Kimi Code's 403 "usage limit
    for this billing cycle" shares its status and error type with a key refused; only the
    sentence tells the two apart."""
    usage_windows: tuple[tuple[str, float], ...] = ()
    """Words of an error body (below 500) that name a used-up usage window, each with the
    window's length in seconds, for an API that says the window will end but not when
    (matched in any letter case, after :attr:`prepaid_phrases`). Raised as
    :class:`~websearch_core.errors.QuotaExhaustedError` with the map's text, its
    ``reset_at`` the response's wait hint (:attr:`hint`, default ``Retry-After``) when it
    gives one, else the window's whole length from now: the window began at or before
    this answer, so by then it has surely ended, and the provider is neither asked again
    within minutes (a refused key's cooldown) nor held out until next month (a spent
    quota without a reset). Kimi Code's 403 "5-hour usage limit" and "weekly (7-day)
    usage limit" share their status and error types with a refused key."""
    response_error: Callable[[HttpResponse], SearchProviderError | None] | None = None
    """The error a non-2xx response means when more than its status and body head tell it
    (a header, the response URL), read before everything above; ``None`` from it leaves
    the status to the rest of the map. SearXNG's HTML pages need it: a ``403`` without
    ``WWW-Authenticate`` is an instance refusing the ``json`` format, named by its host."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RetryPolicy:
    """When the loop sends the same request again (within the attempt's time, always)."""

    statuses: frozenset[int] = frozenset({429})
    server_errors: bool = True
    """Also retry on any 5xx."""
    max_retries: int = 3
    base_delay: float = 1.0
    """Seconds before the first retry when the server gave no hint; doubled each time."""
    max_delay: float = 300.0
    """A hint longer than this is not waited out: the provider fails and the chain moves on."""

    def retries(self, status: int) -> bool:
        """Whether ``status`` is one this policy sends the same request again for."""
        return status in self.statuses or (self.server_errors and status >= 500)

    def backoff(self, resends: int) -> float:
        """The wait before resend number ``resends + 1`` when the server gave no hint."""
        return self.base_delay * 2.0**resends


@dataclass(frozen=True, slots=True)
class DelayedRequest:
    """A request :meth:`ProtocolProvider.after_failure` wants sent only after a wait.

    The loop waits ``delay`` seconds when that fits the attempt's remaining time, else the
    failure stands (the chain moves on instead of waiting in vain).
    """

    request: HttpRequest
    delay: float


@dataclass(frozen=True, slots=True)
class Exchange:
    """One request and the response it got."""

    request: HttpRequest
    response: HttpResponse | SseResponse


@dataclass(slots=True)
class Flow:
    """One search's protocol state, handed to a provider's hooks by the request loop."""

    params: SearchParams
    context: ProviderContext
    exchanges: list[Exchange] = field(default_factory=list)
    token: OAuthToken | None = None
    """The OAuth token :meth:`ProtocolProvider.prepare` resolved, refreshed by the loop."""
    token_entry: str | None = None
    """The credential store entry :attr:`token` came from, when it is not the provider's id
    (Gemini keeps each sign-in under its own entry); the loop refreshes that entry."""
    token_refresh: TokenRefresher | None = None
    """The sign-in's own refresh (the Gemini CLI's), which the loop uses when no hook is
    registered under the entry; ``None``: only a hook passed in code refreshes."""
    state: dict[str, Any] = field(default_factory=dict)
    """What a multi-step provider keeps between its hooks (a session id, the next page)."""
    done: bool = False
    """Set by :meth:`ProtocolProvider.after_failure` to end the exchange with what earlier
    steps brought instead of raising the failure (a later page that failed)."""
    resends: int = 0
    """How often the loop has sent the step in flight again after a retryable status
    (0 for every new step); :meth:`ProtocolProvider.retry_delay` backs off by it."""
    notes: list[KeptNote] = field(default_factory=list)
    """Notes a hook asks to keep for the providers table (Gemini's replacement model); the
    loop hands them to :attr:`ProviderContext.notes` before it sends the next request."""

    @property
    def last(self) -> Exchange:
        """The latest exchange."""
        return self.exchanges[-1]

    @property
    def responses(self) -> list[HttpResponse | SseResponse]:
        """Every response so far, in order."""
        return [exchange.response for exchange in self.exchanges]


class LoopProvider(Protocol):
    """What :func:`~websearch_core.request_loop.run_protocol` reads and calls on a provider.

    :class:`~websearch_core.providers.base.ProtocolProvider` implements it with defaults
    (its docstrings say more); mypy checks that it still does where it hands itself to the
    loop, so the two cannot drift apart.
    """

    @property
    def info(self) -> ProviderInfo:
        """The provider's facts (its id and label name its requests and errors)."""
        ...

    @property
    def oauth_refresh_statuses(self) -> frozenset[int]:
        """Statuses that make the loop refresh a stored OAuth token once."""
        ...

    def oauth_margin(self, entry: str | None = None) -> float:
        """Seconds before expiry from which its stored token under ``entry`` is refreshed."""
        ...

    @property
    def max_response_bytes(self) -> int | None:
        """A tighter body cap than the configured one, if any."""
        ...

    async def prepare(self, flow: Flow) -> None:
        """Resolve what requests need before the first is built."""
        ...

    def first_request(self, flow: Flow) -> HttpRequest | None:
        """The first request."""
        ...

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The next request after ``flow.last``, or ``None`` when the exchange is complete."""
        ...

    def after_failure(
        self, flow: Flow, request: HttpRequest, error: SearchProviderError
    ) -> HttpRequest | DelayedRequest | None:
        """Another request to try after a transport failure, or ``None``."""
        ...

    def needs_refresh(self, response: HttpResponse | SseResponse) -> bool:
        """Whether a refresh-status response really means a stale token."""
        ...

    def error_map(self, flow: Flow) -> ErrorMap:
        """How this flow's error responses read."""
        ...

    def retry_delay(self, flow: Flow, response: HttpResponse | SseResponse) -> float | None:
        """Seconds to wait before sending the step again, or ``None`` to go on."""
        ...

    def check(self, response: HttpResponse | SseResponse, errors: ErrorMap | None = None) -> None:
        """Raise the typed error for a non-2xx ``response``, read through ``errors``."""
        ...

    def parse(self, flow: Flow) -> SearchResponse:
        """The response for the whole exchange."""
        ...
