"""The provider contract: facts as data, parsing as pure functions, I/O in one method.

A provider module declares a :class:`ProviderInfo` and a :class:`SearchProvider` subclass.
Most providers are one request and one response: they subclass
:class:`RequestResponseProvider` and write only ``build_request`` and ``parse_response``,
both pure. Multi-step providers (a token first, pagination, SSE) override ``search`` and
still parse with pure functions.

Provider instances hold no per-request state; everything a call needs arrives in its
:class:`ProviderContext`, so one instance serves concurrent calls.
"""

import abc
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from ..browser import HeadlessBrowser
from ..credentials import Credentials
from ..errors import ProviderNotConfiguredError
from ..models import SearchParams, SearchResponse
from ..settings import Settings
from ..transport import HttpRequest, HttpResponse, Transport, raise_for_api_status

if TYPE_CHECKING:
    from ..ledger import Ledger

__all__ = [
    "ProviderContext",
    "ProviderInfo",
    "ProviderKind",
    "RequestResponseProvider",
    "SearchProvider",
    "clamp_count",
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
    index: str | None = None
    """The upstream index it serves (``bing`` for DuckDuckGo), for aggregate voting."""
    setup_hint: str | None = None
    """How to configure it when that is not an API key variable (SearXNG's endpoint)."""


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
    ledger: "Ledger | None" = None
    """Cooldowns, quota marks and budgets, for providers that ask other providers (the
    Public Web fan-out); ``None`` asks every engine unconditionally."""


def clamp_count(value: int | None, default: int, maximum: int, minimum: int = 1) -> int:
    """The spec's ``clampNumResults``: the default when unset, else bounded to the range."""
    if not value:
        return default
    return min(maximum, max(minimum, value))


class SearchProvider(abc.ABC):
    """Base class of every provider."""

    info: ClassVar[ProviderInfo]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(id={self.info.id!r})"

    def api_key(self, context: ProviderContext) -> str | None:
        """The provider's key from code, environment, config file or store."""
        return context.credentials.api_key(self.info.id, self.info.env_vars)

    def is_available(self, context: ProviderContext) -> bool:
        """Whether the auto chain may use it (default: a key is configured)."""
        return self.api_key(context) is not None

    def is_explicitly_available(self, context: ProviderContext) -> bool:
        """Whether an explicit selection may use it (default: same as the auto chain)."""
        return self.is_available(context)

    def require_api_key(self, context: ProviderContext) -> str:
        """The key, or the spec's ``credentials not found`` error naming the variables."""
        key = self.api_key(context)
        if key is None:
            names = " or ".join(self.info.env_vars) or "an API key"
            raise ProviderNotConfiguredError(
                self.info.id,
                f"{self.info.label} credentials not found. Set {names} or configure an API key "
                f'for provider "{self.info.id}".',
            )
        return key

    @abc.abstractmethod
    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        """Run one search and return what the provider found."""


class RequestResponseProvider(SearchProvider):
    """A provider that is one request and one response."""

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        """Build the request, send it, check the status, parse the body."""
        request = self.build_request(params, context)
        response = await context.transport.send(self.info.id, self.info.label, request)
        self.check_response(response)
        return self.parse_response(response, params)

    @abc.abstractmethod
    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The request for ``params`` (pure: reads settings and credentials, sends nothing)."""

    def check_response(self, response: HttpResponse) -> None:
        """Raise for a non-2xx status through the shared classifier."""
        raise_for_api_status(self.info.id, response, f"{self.info.label} API error")

    @abc.abstractmethod
    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """Turn a 2xx body into a response (pure)."""
