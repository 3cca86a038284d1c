"""The one exception tree of websearch-tools.

Every failure a caller can meet is one of these classes, so code can react to *what
happened* (rate limited, out of quota, blocked by a challenge page) without reading
message text::

    WebSearchError
    ├── ConfigurationError(ValueError)       bad settings, unknown provider id, bad credentials
    │   ├── build_errors.OptionsValidationError(ValidationError)  a pydantic adapter's option
    │   └── build_errors.OptionTypeError(TypeError)   an unknown keyword or a wrong object
    ├── NoProviderConfiguredError            nothing in the chain could run at all
    │   └── NoProviderCanRunError        each chosen lacks its setup; an AllProvidersFailedError too
    ├── AllProvidersFailedError              every candidate failed; .failures holds each error
    └── SearchProviderError                  one provider call failed (.provider, .status)
        ├── ProviderNotConfiguredError       missing key or endpoint for this provider
        ├── AuthorizationError               401 / 403
        │   └── OAuthTokenError              a stored OAuth token could not be made usable
        │       └── SignInRefusedError       its refresh token was refused for good
        ├── RateLimitedError                 429; .retry_after seconds when the server said
        ├── QuotaExhaustedError              402 or a spent-credit body; .reset_at when known
        │   └── CreditsSpentError            a prepaid balance ran out: re-checked, not a month
        ├── ChallengeError                   a bot-challenge or consent page instead of results
        ├── EmptyResponseError               204: nothing renderable came back
        ├── DeadlineExceededError            the whole call's deadline ran out first
        ├── ResponseParseError               the body could not be understood
        ├── ResponseTooLargeError            the body passed the size cap
        ├── ProviderUnavailableError         transient: 5xx or a transport failure
        │   ├── ProviderTimeoutError         the per-provider timeout passed
        │   ├── ProviderConnectionError      refused, reset, closed mid-body
        │   │   └── HostNotReachedError      refused, or no route to it: nothing was sent
        │   │       ├── HostNotFoundError    the host name did not resolve: nothing was sent
        │   │       └── ProxyUnreachableError  the proxy refused or could not be reached
        │   └── BrowserLoadError             headless Chromium could not load the page
        └── (defined beside their owners)
            ledger.ProviderSkippedError      out of quota / cooling down / over budget: not asked
            browser.BrowserUnavailableError  headless Chromium needed but not installed
            providers.public.PublicEnginesFailedError   every public engine failed (503)
            providers.public.PublicEnginesHeldError     an EmptyResponseError: nothing found,
                                                        an engine held for the last resort
    (also defined beside their owners, directly under WebSearchError)
    state.StateStoreError                    the ledger failed; the chain searches without it
    content.errors.FetchError                one page fetch gave no content (.url, .reason)
    ├── FetchRefusedError                    refused by policy: scheme, address, size, type
    └── FetchFailedError                     an error status or a network failure (.status)
        └── FetchTimeoutError                the call's deadline passed

aiohttp and asyncio errors are translated into this tree in one place,
:mod:`websearch_core.transport`. Cancellation is never translated: ``asyncio.CancelledError``
always propagates. Messages never contain credentials.
"""

from __future__ import annotations

from datetime import datetime

from .control_chars import safe_message

__all__ = [
    "UNREACHED_ERRORS",
    "AllProvidersFailedError",
    "AuthorizationError",
    "BrowserLoadError",
    "ChallengeError",
    "ConfigurationError",
    "CreditsSpentError",
    "DeadlineExceededError",
    "EmptyResponseError",
    "HostNotFoundError",
    "HostNotReachedError",
    "NoProviderCanRunError",
    "NoProviderConfiguredError",
    "OAuthTokenError",
    "ProviderConnectionError",
    "ProviderNotConfiguredError",
    "ProviderTimeoutError",
    "ProviderUnavailableError",
    "ProxyUnreachableError",
    "QuotaExhaustedError",
    "RateLimitedError",
    "ResponseParseError",
    "ResponseTooLargeError",
    "SearchProviderError",
    "SignInRefusedError",
    "WebSearchError",
]


class WebSearchError(Exception):
    """Base class of every error raised by websearch-tools."""


class ConfigurationError(WebSearchError, ValueError):
    """A setting, credential or provider id is invalid; the message names it."""


class SearchProviderError(WebSearchError):
    """One provider call failed.

    Args:
        provider: The provider id that failed (for example ``"brave"``).
        message: Human-readable text, already free of secrets.
        status: An HTTP-like status used for classification (``None`` when there is none).
    """

    def __init__(self, provider: str, message: str, status: int | None = None) -> None:
        message = safe_message(message)  # it may quote an upstream's body: escapes and all
        super().__init__(message)
        self.provider = provider
        self.message = message
        self.status = status

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(provider={self.provider!r}, "
            f"message={self.message!r}, status={self.status!r})"
        )


class ProviderNotConfiguredError(SearchProviderError):
    """The provider lacks a credential or endpoint it needs."""


class AuthorizationError(SearchProviderError):
    """The provider refused the credentials (HTTP 401 or 403)."""


class OAuthTokenError(AuthorizationError):
    """A stored OAuth token could not be made usable: expired without a hook, or the hook failed.

    It counts as a refusal (status 401, the same cooldown), but no server said so: its own
    message is what the user reads, not the spec's ``authorization failed ... Check API key
    or base URL`` text, which pointed at a key and a URL that were never the problem.
    """


class SignInRefusedError(OAuthTokenError):
    """The token endpoint refused the sign-in's refresh token for good (OAuth ``invalid_grant``).

    Only a new sign-in helps (the user signed out, revoked access, or the token was used
    up; Google also says so with ``unauthorized_client`` for a token another OAuth client
    obtained, and ``deleted_client``; a client's failed authentication, ``invalid_client``,
    or a refusal without an error code, may pass), so the refusal is remembered beside the
    stored token: other searches, threads and processes fail with the same text at once
    instead of asking the token endpoint again, until a new token is stored for the entry
    (``websearch auth import``, ``CredentialStore.set_oauth``) or its refresh token
    changes. A refresh hook passed in code raises it (``raise SignInRefusedError(entry,
    "invalid_grant")``) to say its refusal is final; whatever else a hook raises counts as
    a passing failure, which the next search asks again.
    """


class RateLimitedError(SearchProviderError):
    """The provider asked us to slow down (HTTP 429).

    Args:
        provider: The provider id.
        message: Text for the failure report.
        status: Usually 429.
        retry_after: Seconds to wait before the next request, when the server said so.
    """

    def __init__(
        self,
        provider: str,
        message: str,
        status: int | None = 429,
        *,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(provider, message, status)
        self.retry_after = retry_after


class QuotaExhaustedError(SearchProviderError):
    """The provider's credits or quota are spent until ``reset_at`` (when known).

    Args:
        provider: The provider id.
        message: Text for the failure report.
        status: Usually 402 or 429.
        reset_at: When the quota comes back, if the provider said.
    """

    def __init__(
        self,
        provider: str,
        message: str,
        status: int | None = 402,
        *,
        reset_at: datetime | None = None,
    ) -> None:
        super().__init__(provider, message, status)
        self.reset_at = reset_at


class CreditsSpentError(QuotaExhaustedError):
    """A prepaid balance ran out (Anthropic's low credit balance, xAI's spent credits).

    Unlike a free tier's monthly quota, it comes back when its owner tops the balance up,
    at a time no answer says: without a ``reset_at`` its mark is re-checked with one
    request after a while (:mod:`websearch_core.orchestration.credit_probe`) instead of
    holding the provider out until next month.
    """


class ChallengeError(SearchProviderError):
    """The engine served a bot challenge, CAPTCHA or consent wall instead of results.

    Never an empty result: a challenge must move the chain on with a clear cause.
    """

    def __init__(self, provider: str, message: str, status: int | None = 429) -> None:
        super().__init__(provider, message, status)


class EmptyResponseError(SearchProviderError):
    """The provider answered, but with nothing a model could read (status 204)."""

    def __init__(self, provider: str, message: str, status: int | None = 204) -> None:
        super().__init__(provider, message, status)


class DeadlineExceededError(SearchProviderError):
    """The whole call's deadline ran out before this provider could be tried (status 504)."""

    def __init__(self, provider: str, message: str, status: int | None = 504) -> None:
        super().__init__(provider, message, status)


class ResponseParseError(SearchProviderError):
    """The response body was not in the shape the provider documents."""


class ResponseTooLargeError(SearchProviderError):
    """The response body passed the configured size cap and was not read further."""


class ProviderUnavailableError(SearchProviderError):
    """A transient failure: a 5xx status or a transport error."""


class ProviderTimeoutError(ProviderUnavailableError):
    """The per-provider timeout passed before the response was complete."""


class ProviderConnectionError(ProviderUnavailableError):
    """The connection was refused, reset, or closed before the body was complete."""


class HostNotReachedError(ProviderConnectionError):
    """No connection to the provider's host was opened, so no request left this machine.

    The connection was refused, or there was no route to the host (``ECONNREFUSED``,
    ``ENETUNREACH``, ``EHOSTUNREACH``), or the request's time ran out while its connection
    was still being opened (:mod:`~websearch_core.connect_phase`). One provider so, while
    others answer, is that provider's failure; every provider asked failing the same way is
    this machine's network (a firewall, a captive portal), which
    :mod:`~websearch_core.orchestration.offline` tells apart by :attr:`cause`.

    Args:
        provider: The provider id.
        message: Text for the failure report.
        status: As for any connection failure.
        request_sent: An earlier request of the same attempt did leave this machine: an
            engine's plain fetch, answered with a block page, before headless Chromium
            reached no host. The failure is classed as unreached all the same (what failed
            is this machine's browser reaching the host), but the request counts as used.
        loopback: The host refused was a loopback address, this machine's own: no
            firewall or sign-in page stands there, so nothing listens where a base URL
            points (a simulator stopped, a gateway not started), and the hint says so.
    """

    _CAUSE = "connect"

    def __init__(
        self,
        provider: str,
        message: str,
        status: int | None = None,
        *,
        request_sent: bool = False,
        loopback: bool = False,
    ) -> None:
        super().__init__(provider, message, status)
        self.request_sent = request_sent
        self._loopback = loopback

    @property
    def loopback(self) -> bool:
        """Whether the host not reached was this machine's loopback address."""
        return self._loopback

    @property
    def cause(self) -> str:
        """How nothing was reached (``connect``, ``dns`` or ``proxy``): alike means offline."""
        return self._CAUSE

    @property
    def hosts(self) -> int:
        """How many providers' hosts were not reached: one, this provider's.

        An aggregate whose every engine failed so says how many engines it asked: two
        providers' hosts failing alike is this machine offline, not one provider.
        """
        return 1

    @property
    def proxy_source(self) -> str | None:
        """The variable or setting that named the proxy not reached; ``None`` if none did."""
        return None


class HostNotFoundError(HostNotReachedError):
    """The provider's host name did not resolve, so no request left this machine.

    The network (or the name) is the problem: a headless browser on the same machine
    would not resolve it either, so the browser-backed engines do not escalate after it.
    """

    _CAUSE = "dns"


class ProxyUnreachableError(HostNotReachedError):
    """The proxy this machine is set to use refused the connection or could not be reached.

    Nothing reached the provider: every provider behind a proxy that is down fails so.

    Args:
        provider: The provider id.
        message: Text for the failure report (it names no proxy).
        status: As for any connection failure.
        source: The variable or setting the proxy came from (``HTTPS_PROXY``,
            ``WEBSEARCH_PROXY``, ``the proxy setting``), never its URL: the offline hint
            names it, so the user checks (or unsets) the one in use.
    """

    _CAUSE = "proxy"

    def __init__(
        self,
        provider: str,
        message: str,
        status: int | None = None,
        *,
        source: str | None = None,
        request_sent: bool = False,
    ) -> None:
        super().__init__(provider, message, status, request_sent=request_sent)
        self._source = source

    @property
    def proxy_source(self) -> str | None:
        """The variable or setting that named the proxy not reached; ``None`` if unknown."""
        return self._source


UNREACHED_ERRORS: dict[str, type[HostNotReachedError]] = {
    "dns": HostNotFoundError,
    "connect": HostNotReachedError,
    "proxy": ProxyUnreachableError,
}
"""The error class for each way nothing was reached (:attr:`HostNotReachedError.cause`),
for a failure classed by its cause (headless Chromium's ``net::`` codes)."""


class BrowserLoadError(ProviderUnavailableError):
    """Headless Chromium, loading a blocked engine's page, failed to load it (status 503).

    The status is the chain's bookkeeping for a transient failure, not one a server sent
    (no HTTP answer reached the browser, or it crashed): an engine's summary shows none.
    """

    def __init__(self, provider: str, message: str, status: int | None = 503) -> None:
        super().__init__(provider, message, status)


class NoProviderConfiguredError(WebSearchError):
    """No provider in the chain was available, so no request was made."""


class AllProvidersFailedError(WebSearchError):
    """Every candidate provider failed.

    Args:
        message: The formatted failure text (the spec's ``All web search providers failed``
            line, or the single provider's normalised error).
        failures: Each provider's error, in attempt order.
    """

    def __init__(self, message: str, failures: tuple[SearchProviderError, ...]) -> None:
        super().__init__(message)
        self.failures = failures


class NoProviderCanRunError(NoProviderConfiguredError, AllProvidersFailedError):
    """Providers were chosen, but none could run for want of its setup; none was asked.

    A listed, pinned or forced provider without its key (or with one that cannot be
    sent) is what the settings left to ask, so this is a configuration problem like
    :class:`NoProviderConfiguredError`, and its message starts with the spec's ``No web
    search provider configured.`` before each provider's reason and what to set. It is
    still an :class:`AllProvidersFailedError`, as it was raised before, with each reason
    in ``failures``.
    """
