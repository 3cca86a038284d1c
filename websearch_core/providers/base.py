"""The provider contract: facts as data, protocol steps as pure hooks, no I/O of its own.

A provider module declares a :class:`ProviderInfo` and a :class:`ProtocolProvider` subclass:
how errors read (:class:`ErrorMap`), whether to retry (:class:`RetryPolicy`), which statuses
refresh an OAuth token, and pure hooks: ``build_request`` / ``first_request``,
``follow_up`` for multi-step flows, ``parse_response`` / ``parse``. The one request loop
(:mod:`websearch_core.request_loop`) sends every request; no provider overrides it.

Provider instances hold no per-request state; everything a call needs arrives in its
:class:`ProviderContext` and, during the loop, its :class:`Flow`, so one instance serves
concurrent calls. The data types live in the leaf :mod:`websearch_core.provider_types`
(the loop imports it too) and reading an error status through an :class:`ErrorMap` in
:mod:`._error_map`; both are re-exported here for provider modules.
"""

import abc
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, ClassVar, final

from ..deadline import timed_out_text
from ..errors import ProviderNotConfiguredError, SearchProviderError
from ..filters.support import FilterSupport
from ..models import SearchParams, SearchResponse
from ..provider_credentials import (
    ApiKey,
    Credential,
    SecretVariable,
    SetUrl,
    SignedIn,
    StoredOAuth,
    clash_advice,
    credential_variables,
    refresh_margin,
    sent_secrets,
    signed_in,
    url_secrets,
)
from ..provider_types import (
    DelayedRequest,
    ErrorMap,
    Exchange,
    Flow,
    ProviderContext,
    ProviderInfo,
    ProviderKind,
    RetryPolicy,
)
from ..request_loop import run_protocol
from ..sent_secret import CredentialCheck, SentSecret, first_problem
from ..settings import BASE_URL_SUFFIX, ENV_PREFIX
from ..sign_in_declarations import declare
from ..sign_in_destination import (
    endpoint_refusal,
    guarded,
    refusal,
)
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._error_map import error_for, raise_for_error_map, wait_hint
from ._search_guard import (
    UNCHECKED,
    UNCHECKED_BOUND,
    BoundSearch,
    SearchMethod,
    guarded_method,
    guarded_on_instance,
)

__all__ = [
    "KEY_IN_AUTHORIZATION",
    "DelayedRequest",
    "ErrorMap",
    "Exchange",
    "Flow",
    "ProtocolProvider",
    "ProviderContext",
    "ProviderInfo",
    "ProviderKind",
    "RequestResponseProvider",
    "RetryPolicy",
    "SearchProvider",
    "base_url_setting",
    "clamp_count",
    "error_for",
    "raise_for_error_map",
    "wait_hint",
]


def clamp_count(value: int | None, default: int, maximum: int, minimum: int = 1) -> int:
    """The spec's ``clampNumResults``: the default when unset, else bounded to the range."""
    if not value:
        return default
    return min(maximum, max(minimum, value))


KEY_IN_AUTHORIZATION: tuple[Credential, ...] = (ApiKey(authorization=True),)
"""The :attr:`SearchProvider.credential_kinds` of a provider that sends its key in the
``Authorization`` header (``Bearer <key>``): a base URL with user info
cannot go with it, and the credential check says so before a request."""


def _transport_route(context: ProviderContext, key: str) -> str | None:
    """The transport's own ``base_urls`` entry ``key``, when it is not the settings' one.

    The client builds its transport from the settings, so the two agree; a caller who
    builds a transport to call a provider alone may give it routes the settings do not
    have, and the requests, with the sign-ins they carry, go where the transport says.
    """
    routes = getattr(context.transport, "base_urls", None)  # a stand-in may keep none
    if not routes:
        return None
    routed = routes.get(key)
    if not routed or routed == context.settings.base_urls.get(key):
        return None
    return str(routed)


def base_url_setting(
    context: ProviderContext, key: str, what: str, official_hosts: tuple[str, ...] = ()
) -> SetUrl | None:
    """The ``base_urls`` entry ``key`` as set, named by its variable or its setting.

    Or by the transport, when the context's transport was given a route of its own for
    ``key``: that one is where the requests go.

    Args:
        context: Where the settings and the variables are read.
        key: A ``base_urls`` id: a provider's, or ``google_oauth``.
        what: What the URL is called in a problem's text (``Brave base URL``).
        official_hosts: The hosts of the service it stands in for, where a sign-in may go
            (see :mod:`websearch_core.sign_in_destination`).
    """
    routed = _transport_route(context, key)
    if routed is not None:
        source = f'the Transport\'s base_urls["{key}"]'
        return SetUrl(routed.strip(), what, source, key, official_hosts, on_transport=True)
    override = context.settings.base_urls.get(key)
    if not override:
        return None
    url = override.strip()
    variable = f"{ENV_PREFIX}{key.upper()}{BASE_URL_SUFFIX}"
    from_variable = (context.credentials.env(variable) or "") == url
    source = variable if from_variable else f"the base_urls.{key} setting"
    return SetUrl(url, what, source, key, official_hosts)


class _ProviderType(abc.ABCMeta):
    """The providers' metaclass: a ``search`` assigned to a class is guarded as one defined.

    A ``search`` set on a class after it was made (``MyProvider.search = f``, a patch)
    replaced the guarded one and ran no credential check (see :mod:`._search_guard`);
    ``credential_kinds``, ``info`` or ``sign_in_hosts`` set later changes what the class declares
    (:mod:`websearch_core.sign_in_declarations`), so it declares them again.
    """

    if not TYPE_CHECKING:  # a __setattr__ seen by mypy would let any attribute be assigned

        def __setattr__(cls, name, value):
            if name == "search":
                value = guarded_method(value)
            super().__setattr__(name, value)
            if name in _DECLARED:
                _declare_sign_ins(cls)


_DECLARED = frozenset(
    {"credential_kinds", "info", "sign_in_hosts", "refresh_hosts", "url_variables"}
)
"""The class attributes what a provider class declares about its sign-ins is read from."""


def _declare_sign_ins(cls: type) -> None:
    """Record the stored sign-ins a provider class declares (none: it may read none).

    And its sign-in variables, so that their values are judged where they are sent.

    Its subclasses too: one that inherits the ``credential_kinds`` or ``info`` assigned
    here declares what it now inherits.
    """
    info: ProviderInfo | None = getattr(cls, "info", None)
    if info is not None:  # else an abstract base: no provider of its own
        kinds: tuple[Credential, ...] = getattr(cls, "credential_kinds", ())
        entries = (k.entry or info.id for k in kinds if isinstance(k, StoredOAuth))
        variables = ((k.name, k.what) for k in kinds if isinstance(k, SecretVariable) and k.sign_in)
        declare(
            cls,
            info.id,
            info.label,
            entries,
            getattr(cls, "sign_in_hosts", ()),
            refresh_hosts=getattr(cls, "refresh_hosts", ()),
            url_variables=getattr(cls, "url_variables", ()),
            sign_in_variables=variables,
        )
    subclasses: list[type] = cls.__subclasses__()
    for subclass in subclasses:
        _declare_sign_ins(subclass)


class SearchProvider(abc.ABC, metaclass=_ProviderType):
    """Base class of every provider."""

    info: ClassVar[ProviderInfo]
    credential_kinds: ClassVar[tuple[Credential, ...]] = (ApiKey(),)
    """The credentials it may send, most preferred first (default: its API key, read
    from ``info.env_vars``; none when it declares no variable)."""
    _kept_clash_advice: ClassVar[tuple[tuple[Credential, ...], ProviderInfo, str] | None] = None
    """:meth:`clash_advice` with the ``credential_kinds`` and ``info`` it was read from."""
    tries_every_credential: ClassVar[bool] = False
    """Whether a failed credential makes it try the next one, so that each one set may be
    sent (Perplexity); by default the first one set is the only one sent."""
    url_variables: ClassVar[tuple[str, ...]] = ()
    """Variables naming a URL of its own its requests go to (a gateway), the first set
    winning (Anthropic's ``ANTHROPIC_SEARCH_BASE_URL``, ``ANTHROPIC_BASE_URL``): a user
    name and password written into one are sent, so they are checked as credentials."""
    answer_variables: ClassVar[tuple[str, ...]] = ()
    """Other variables it reads on every search that change what it answers (a model, a time
    zone), not who pays: the result cache's scope takes their values
    (:func:`~websearch_core.endpoint_variables.scope_variables`), so changing one is not
    answered with what the old value found."""
    sign_in_hosts: ClassVar[tuple[str, ...]] = ()
    """The service's own hosts its sign-ins (:attr:`credential_kinds` marked ``sign_in``:
    OAuth tokens, session cookies) belong to: a URL set in their place receives a sign-in
    only when it is one of them (over https), a loopback address, or trusted in
    ``sign_in_gateways`` (:mod:`websearch_core.sign_in_destination`)."""
    refresh_hosts: ClassVar[tuple[str, ...]] = ()
    """Where its sign-ins' refresh tokens may be sent over https: their issuer's token
    endpoint (Google's ``oauth2.googleapis.com`` for Gemini's). A refresh token is judged
    where it is sent as an access token is (:mod:`websearch_core.sign_in_sends`), against
    these hosts and :attr:`sign_in_hosts`: it renews the account's sign-in for as long as
    it lives, so it goes nowhere else, a loopback address and a base URL the user trusts
    in ``sign_in_gateways`` aside."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(id={self.info.id!r})"

    def api_key(self, context: ProviderContext) -> str | None:
        """The provider's key from code, environment, config file or store."""
        return context.credentials.api_key(self.info.id, self.info.env_vars)

    def sent_secrets(self, context: ProviderContext) -> list[SentSecret]:
        """The secrets a search would send, each with where it was set, in sending order.

        Read from :attr:`credential_kinds` and :attr:`tries_every_credential`; a provider
        whose credentials are not of those kinds (SearXNG's, in its settings) overrides it.
        """
        return sent_secrets(
            self.credential_kinds,
            self.info,
            context.credentials,
            every=self.tries_every_credential,
        )

    def signed_in(self, context: ProviderContext) -> list[SignedIn]:
        """The stored OAuth tokens a search would send (see :func:`signed_in`).

        Read from the same :attr:`credential_kinds` as :meth:`sent_secrets`, so a mark's
        scope and the providers table name the sign-in the search would use. None while
        the requests go where no sign-in may (:meth:`sign_in_refusal`): none is sent.
        """
        if self.sign_in_refusal(context) is not None:
            return []
        return signed_in(
            self.credential_kinds,
            self.info,
            context.credentials,
            every=self.tries_every_credential,
        )

    def own_url(self, context: ProviderContext) -> SetUrl | None:
        """The URL of its own its requests go to, when one is set; ``None``: its fixed origin.

        By default the first of :attr:`url_variables` that is set.
        """
        for name in self.url_variables:
            value = context.credentials.env(name)
            if value:
                what = f"{self.info.label} base URL"
                return SetUrl(value, what, name, self.info.id, self.sign_in_hosts)
        return None

    @final
    def sent_url(self, context: ProviderContext) -> SetUrl | None:
        """The URL whose user info its requests carry, with where it was set.

        A ``base_urls`` entry replaces the scheme, host and port (the user info with them)
        of whatever the provider would send to, so it wins over :meth:`own_url`.
        """
        what = f"{self.info.label} base URL"
        override = base_url_setting(context, self.info.id, what, self.sign_in_hosts)
        return override if override is not None else self.own_url(context)

    def side_urls(self, context: ProviderContext) -> tuple[SetUrl, ...]:
        """Other URLs some of its requests go to, by their own ``base_urls`` id; default none.

        Gemini's sign-in is renewed at Google's token endpoint (``google_oauth``): a user
        name or password written into that URL goes out with the refresh, so it is checked
        as :meth:`sent_url`'s is. Those requests carry none of the provider's credential
        headers, so their user info never clashes with its ``Authorization``. They carry
        the sign-in's refresh token, so each URL listed goes only where a sign-in may (its
        ``official_hosts``, loopback, or ``sign_in_gateways``).
        """
        return ()

    @classmethod
    def oauth_margin(cls, entry: str | None = None) -> float:
        """Seconds before expiry from which its token under ``entry`` is refreshed first.

        Read from :attr:`credential_kinds` (see
        :func:`~websearch_core.provider_credentials.refresh_margin`; ``entry`` defaults to
        the provider's id), so each search's refresh and the credential check agree.
        """
        return refresh_margin(cls.credential_kinds, cls.info, entry or cls.info.id)

    @classmethod
    def clash_advice(cls) -> str:
        """What to do when its URL's user info and a credential both need ``Authorization``.

        Read from :attr:`credential_kinds` (see
        :func:`~websearch_core.provider_credentials.clash_advice`), once per provider:
        kept on the class with the two objects it was read from, and given again while
        the class still holds both. The credential check asks for it before every
        attempt, and the cached function's key hashed the whole ``info`` (a dozen fields,
        its filter support among them) and each credential kind every time: ~2 us of a
        search in place, for the same few words.
        """
        kinds, info = cls.credential_kinds, cls.info
        kept = cls._kept_clash_advice
        if kept is None or kept[0] is not kinds or kept[1] is not info:
            kept = (kinds, info, clash_advice(kinds, info))
            cls._kept_clash_advice = kept
        return kept[2]

    @final
    def sign_in_refusal(self, context: ProviderContext) -> str | None:
        """Why no sign-in may go where this provider's requests go, or ``None``.

        The clause of :func:`~websearch_core.sign_in_destination.endpoint_refusal` for
        :meth:`sent_url`, for a provider that passes its sign-ins over rather than stop
        (Perplexity's methods); the credential check words it per credential.
        """
        return endpoint_refusal(self.sent_url(context), context.sign_in_gateways)

    @final
    def credential_check(self, context: ProviderContext) -> CredentialCheck:
        """What the one credential check finds in what this provider would send.

        Asked before each attempt, by a forced selection and by the providers table, so a
        key, token, cookie or URL password with a line break in it is reported where it
        was set instead of failing in the request (see
        :class:`~websearch_core.sent_secret.SentSecret`). A credential the provider would
        not send (a key a stored OAuth token wins over) is not looked at; one it would
        pass over for another that works (:attr:`tries_every_credential`) is named in
        :attr:`~websearch_core.sent_secret.CredentialCheck.passed_over`. Every variable a
        provider class declares as a sign-in is recorded first, whether this provider
        sends it or not (:meth:`~websearch_core.credentials.Credentials.
        note_sign_in_variables`), so that a search reading one from ``os.environ`` is
        judged where it sends it.
        """
        # The trusted gateways are read where a sign-in is sent, not before every attempt of
        # a provider sending none (a key's, the usual case).
        context.credentials.note_sign_in_variables()
        secrets = self.sent_secrets(context)
        url: SetUrl | None = None
        if any(secret.sign_in for secret in secrets):  # where it goes decides if it may
            url = self.sent_url(context)
            secrets = guarded(secrets, url, context.sign_in_gateways)
        verdict = context.credentials.checks.check(
            self.info.id,
            self._sent_url_secrets(context, url),
            secrets,
            every=self.tries_every_credential,
            advice=self.clash_advice(),
        )
        if verdict.problem is not None:
            return verdict
        side_urls = self.side_urls(context)
        if not side_urls:  # the usual case: no generator to build and run
            return verdict
        side = first_problem(s for url in side_urls for s in url_secrets(url))
        if side is not None:
            return CredentialCheck(side)
        sign_in = next((s for s in secrets if s.sign_in), None)
        if sign_in is None:
            return verdict
        gateways = context.sign_in_gateways
        for side_url in side_urls:
            clause = endpoint_refusal(side_url, gateways)
            if clause is not None:
                return CredentialCheck(refusal(sign_in, clause, refreshed=True))
        return verdict

    def _sent_url_secrets(self, context: ProviderContext, url: SetUrl | None) -> list[SentSecret]:
        """:func:`url_secrets` of :meth:`sent_url`, ``url`` when it was already found.

        A ``base_urls`` entry wins over :meth:`own_url`; one without an ``@`` carries no
        user info, so there is nothing to check and no need to find out (in the
        environment) where it was set, which the check did before every attempt.
        """
        if url is not None:
            return url_secrets(url)
        override = context.settings.base_urls.get(self.info.id)
        if override and "@" not in override and _transport_route(context, self.info.id) is None:
            return []
        return url_secrets(self.sent_url(context))

    @final
    def key_problem(self, context: ProviderContext) -> str | None:
        """Why this provider cannot send what it would, or ``None``.

        The verdict of :meth:`credential_check`, for the callers that need no more.
        """
        return self.credential_check(context).problem

    @final
    def unseen_clause(self, context: ProviderContext) -> str:
        """The sentence a text saying it is not set up adds when its variables are unread.

        Those it reads a credential from (:func:`~websearch_core.provider_credentials.
        credential_variables`, and its ``env_vars``) set in ``os.environ`` alone, which a
        ``Credentials`` given an ``environ`` of its own does not read; empty otherwise.
        Said where the cause is reported (the chain's forced, preferred and explicit
        refusals, the status rows), not only in ``credentials not found``.
        """
        return context.credentials.unseen_clause(self.credential_variable_names())

    @final
    def credential_variable_names(self) -> tuple[str, ...]:
        """Every variable it reads a credential from: its credential kinds', its ``env_vars``.

        What :meth:`unseen_clause` looks for in ``os.environ``; the auto chain's note of the
        providers it passed over names them together
        (:func:`~websearch_core.chain_unseen.passed_over_note`).
        """
        return credential_variables(self.credential_kinds, self.info) + self.info.env_vars

    def is_available(self, context: ProviderContext) -> bool:
        """Whether the auto chain may use it (default: a key is configured)."""
        return self.api_key(context) is not None

    def is_explicitly_available(self, context: ProviderContext) -> bool:
        """Whether an explicit selection may use it (default: same as the auto chain)."""
        return self.is_available(context)

    def filter_support(self, context: ProviderContext) -> FilterSupport:
        """How a search made now applies each filter: its mode's support.

        Default: ``info.filters``. A provider whose modes send different parameters
        (Gemini: the Developer API takes a time filter, Cloud Code does not) answers the
        support of the mode ``context`` selects, one of ``info.filters`` and
        ``info.mode_filters``, so the plan and the request agree.
        """
        return self.info.filters

    def status_note_name(self, context: ProviderContext) -> str | None:
        """Which of its notes in the state store the providers table adds to its ready row.

        Its searches keep notes there (:mod:`websearch_core.provider_notes`) so that
        another process's table shows what they learnt. Default: none. Gemini names the
        note on the model that replaced a default its OAuth account is not served, for the
        sign-in in use, which the row's ``ready (<sign-in>)`` alone hid.
        """
        return None

    @property
    def escalates_to_browser(self) -> bool:
        """Whether a page it is blocked on is fetched again in headless Chromium."""
        return False

    def timed_out_text(self, seconds: float) -> str:
        """What a search that outlived its ``seconds`` says when the attempt stops it.

        The attempt's hard stop words it here, so that a provider with a timeout text of
        its own (a browser engine's ``Ecosia search timed out.``, the reference's) says
        that one whichever stop ended it. Default: :func:`~websearch_core.deadline.timed_out_text`.
        """
        return timed_out_text(self.info.label, seconds)

    @property
    def timed_out_status(self) -> int | None:
        """The HTTP status a search the attempt's hard stop ended carries beside that text.

        Default: none, as the transport's own timeout gives none (no server answered). A
        provider whose own timeouts carry one (a browser engine's 504, the reference's)
        gives it here, so that the hard stop's failure reads the same in ``--json``'s
        ``attempts``, the log line and a Public Web row as the engine's own stop.
        """
        return None

    def require_api_key(self, context: ProviderContext) -> str:
        """The key, or the spec's ``credentials not found`` error naming the variables.

        A variable set in ``os.environ`` that a ``Credentials`` given an ``environ`` of its
        own does not read is named after it (:meth:`~websearch_core.credentials.
        Credentials.unseen_clause`): "Set BRAVE_API_KEY" alone, to a user who had, hid why.
        """
        key = self.api_key(context)
        if key is None:
            names = " or ".join(self.info.env_vars) or "an API key"
            raise ProviderNotConfiguredError(
                self.info.id,
                f"{self.info.label} credentials not found. Set {names} or configure an API key "
                f'for provider "{self.info.id}".'
                + context.credentials.unseen_clause(self.info.env_vars),
            )
        return key

    @abc.abstractmethod
    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        """Run one search and return what the provider found.

        Every subclass's own ``search`` runs :meth:`credential_check` first (see
        :meth:`__init_subclass__`): one that sends a sign-in itself cannot send it where
        the chain would refuse to.
        """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Guard the ``search`` a subclass defines with :meth:`credential_check`.

        The chain checks a provider before it reserves a request; a provider called
        directly, as a fan-out's engine, or written by a user (a ``search`` of its own that
        sends its stored token through the transport) ran no check, and sent a sign-in to
        an untrusted gateway. The guard goes where ``search`` is defined, so no provider
        can leave it out, and it adds no frame to the search (see :mod:`._search_guard`);
        one assigned later is guarded by the metaclass, or by :meth:`__setattr__` on an
        instance. The sign-ins the class declares are recorded, so that a stored one it
        does not declare is not handed to it (:mod:`websearch_core.sign_in_declarations`).
        """
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("search")
        if own is not None:
            setattr(cls, "search", own)  # noqa: B010 (the metaclass guards what is assigned)
        _declare_sign_ins(cls)

    if not TYPE_CHECKING:  # a __setattr__ seen by mypy would let any attribute be assigned

        def __setattr__(self, name, value):
            """Guard a ``search`` set on an instance (a stand-in) as one of the class's is."""
            if name == "search":
                value = guarded_on_instance(self, value)
            super().__setattr__(name, value)

    @final
    def _search_checked(
        self, params: SearchParams, context: ProviderContext
    ) -> Coroutine[Any, Any, SearchResponse]:
        """:meth:`search` without its check, for the chain, which has just run it.

        The chain checks each provider before it reserves a request (a refused provider
        costs no reservation and leaves no mark), so it asks through this rather than have
        the check run again on every search. Private: a caller that has not run the check
        would send whatever the provider would, wherever its route points. The usual case
        (the class's guarded ``search``) costs an attribute read and the call.
        """
        search = self.search
        unchecked: SearchMethod | None = getattr(search, UNCHECKED, None)
        if unchecked is not None:
            return unchecked(self, params, context)
        bound: BoundSearch | None = getattr(search, UNCHECKED_BOUND, None)
        if bound is not None:  # set on the instance (a stand-in): guarded there
            return bound(params, context)
        return search(params, context)  # nothing could guard it (it cannot be called)


class ProtocolProvider(SearchProvider):
    """A provider described by data and pure hooks; the core's loop does the sending.

    The defaults fit one request and one response: write ``build_request`` and
    ``parse_response``. Multi-step protocols add :meth:`follow_up` (and :meth:`parse` to
    read every exchange); OAuth providers set :attr:`oauth_refresh_statuses` and resolve
    the token in :meth:`prepare`; a provider whose error texts or retries depend on the
    flow (an MCP endpoint beside an API, a second endpoint) chooses them in
    :meth:`error_map` and :meth:`retry_delay`.

    No hook raises for an error status: :meth:`follow_up` returns ``None`` and the loop
    reads the last status through :meth:`error_map`, so every status is classified by
    data in one place. A hook may raise a failure no status carries (a missing project,
    a token that could not be refreshed, an unreadable answer).
    """

    errors: ClassVar[ErrorMap] = ErrorMap()
    """How error responses are read (see :meth:`error_map` for a per-flow choice)."""
    retry: ClassVar[RetryPolicy | None] = None
    """Retries of the same request (``None``: the chain's own single wait is enough)."""
    oauth_refresh_statuses: ClassVar[frozenset[int]] = frozenset()
    """Statuses that make the loop refresh a stored OAuth token once and resend the step."""
    max_response_bytes: ClassVar[int | None] = None
    """A tighter body cap than the configured one (Brave documents 2 MiB)."""

    @final
    def search(
        self, params: SearchParams, context: ProviderContext
    ) -> Coroutine[Any, Any, SearchResponse]:
        """Run this provider's protocol through the core's request loop, if it may send.

        :meth:`credential_check` first, as for every provider (see
        :meth:`SearchProvider.__init_subclass__`): a sign-in bound for an endpoint it may
        not go to (:mod:`websearch_core.sign_in_destination`), or a key that cannot go
        into a header, raises :class:`ProviderNotConfiguredError` with the text the chain
        skips the provider with, before any request.

        The loop's coroutine itself, awaited by the caller as before: a frame of its own
        here would be resumed once more for every response a search waits for.
        """
        return run_protocol(self, params, context)

    async def prepare(self, flow: Flow) -> None:
        """Resolve what requests need before the first is built (e.g. ``flow.token``)."""

    def first_request(self, flow: Flow) -> HttpRequest | None:
        """The first request (default: :meth:`build_request`)."""
        return self.build_request(flow.params, flow.context)

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The request for ``params`` (pure: reads settings and credentials, sends nothing)."""
        raise NotImplementedError(f"{type(self).__name__} builds no request")

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The next request after ``flow.last``, or ``None`` when the exchange is complete.

        Called after every response, whatever its status, so a provider can page, switch
        endpoint or model, continue a paused turn, or resend without a rejected field.
        An error status that ends the search is not raised here: return ``None`` and the
        loop classifies it through :meth:`error_map`.
        """
        return None

    def after_failure(
        self, flow: Flow, request: HttpRequest, error: SearchProviderError
    ) -> HttpRequest | DelayedRequest | None:
        """Another request to try after ``request`` failed in transport (default: none).

        For a second endpoint after a connection failure, or a resend; a
        :class:`DelayedRequest` is sent after its wait. ``error`` is raised when this
        returns ``None`` (or the wait would not fit the attempt's time).
        ``flow.exchanges`` holds only the exchanges that got a response.
        """
        return None

    def needs_refresh(self, response: HttpResponse | SseResponse) -> bool:
        """Whether this refresh-status response really means a stale token (default: yes)."""
        return True

    def error_map(self, flow: Flow) -> ErrorMap:
        """How this flow's error responses read (default: :attr:`errors`).

        Override when one provider speaks to endpoints whose errors read differently (an
        MCP endpoint beside the API, an OAuth API beside the key API).
        """
        return self.errors

    def retry_delay(self, flow: Flow, response: HttpResponse | SseResponse) -> float | None:
        """Seconds to wait before sending ``flow``'s step again, or ``None`` to go on.

        Default: by :attr:`retry`, for a status it retries while resends are left, the
        server's hint (:attr:`ErrorMap.hint` of :meth:`error_map`, else ``Retry-After``)
        or the policy's back-off; a hint over the policy's ``max_delay`` is not waited.
        The loop never waits past the attempt's remaining time, whatever this returns.
        """
        policy = self.retry
        if policy is None or flow.resends >= policy.max_retries:
            return None
        if not policy.retries(response.status):
            return None
        hinted = wait_hint(self.error_map(flow), response)
        wait = hinted if hinted is not None else policy.backoff(flow.resends)
        return None if wait > policy.max_delay else wait

    def check(self, response: HttpResponse | SseResponse, errors: ErrorMap | None = None) -> None:
        """Raise the typed error for a non-2xx ``response``, read through ``errors``.

        The loop passes :meth:`error_map`'s choice; called alone, :attr:`errors` reads it.
        """
        raise_for_error_map(self.info, errors or self.errors, response)

    def check_response(self, response: HttpResponse) -> None:
        """:meth:`check` under its older name."""
        self.check(response)

    def parse(self, flow: Flow) -> SearchResponse:
        """The response for the whole exchange (default: :meth:`parse_response` of the last)."""
        last = flow.last.response
        http = last.as_http()
        return self.parse_response(http, flow.params)

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """Turn a 2xx body into a response (pure)."""
        raise NotImplementedError(f"{type(self).__name__} parses no single response")


RequestResponseProvider = ProtocolProvider
"""The earlier name of :class:`ProtocolProvider` (one request, one response)."""
