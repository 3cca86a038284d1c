"""websearch_core: one framework-neutral ``web_search`` over many providers.

Typical use::

    from websearch_core import WebSearch

    async with WebSearch() as ws:
        result = await ws.run("what changed in Python 3.13?")
        print(result.text)

See :class:`WebSearch` for the entry point, :mod:`websearch_core.errors` for the exception
tree, and :mod:`websearch_core.testing` for the offline simulator.
"""

import logging
from typing import TYPE_CHECKING

from .lazy import lazy_exports

if TYPE_CHECKING:
    from .client import FetchManyOptions, FetchOptions, WebSearch, WebSearchOptions
    from .content import (
        FetchError,
        FetchFailedError,
        FetchRefusedError,
        FetchTimeoutError,
        PageContent,
        extract_content,
    )
    from .credentials import Credentials, CredentialStore
    from .errors import (
        AllProvidersFailedError,
        AuthorizationError,
        ChallengeError,
        ConfigurationError,
        EmptyResponseError,
        HostNotFoundError,
        HostNotReachedError,
        NoProviderCanRunError,
        NoProviderConfiguredError,
        ProviderConnectionError,
        ProviderNotConfiguredError,
        ProviderTimeoutError,
        ProviderUnavailableError,
        ProxyUnreachableError,
        QuotaExhaustedError,
        RateLimitedError,
        ResponseParseError,
        ResponseTooLargeError,
        SearchProviderError,
        WebSearchError,
    )
    from .format import format_for_llm
    from .models import (
        Attempt,
        ProviderFailure,
        SearchCitation,
        SearchOptions,
        SearchParams,
        SearchResponse,
        SearchSource,
        SearchToolResult,
        SearchUsage,
    )
    from .prompts import SEARCH_SYSTEM_PROMPT, TOOL_DESCRIPTION
    from .providers import SEARCH_PROVIDER_ORDER, get_provider
    from .settings import Settings, SettingsOverrides

__version__ = "0.1.0"

# A library logs; the application decides where logs go (and no warning reaches stderr
# through logging's last-resort handler unless the application configured logging).
logging.getLogger("websearch_core").addHandler(logging.NullHandler())

# Each public name and the submodule that defines it. They are imported on first use
# (PEP 562), so importing one submodule (an adapter needs the client, the CLI its settings)
# does not load the content extractor, the state stores and aiohttp along with the package.
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(
        ("WebSearch", "WebSearchOptions", "FetchOptions", "FetchManyOptions"), "client"
    ),
    **dict.fromkeys(
        (
            "FetchError",
            "FetchFailedError",
            "FetchRefusedError",
            "FetchTimeoutError",
            "PageContent",
            "extract_content",
        ),
        "content",
    ),
    "Credentials": "credentials",
    "CredentialStore": "credentials",
    **dict.fromkeys(
        (
            "AllProvidersFailedError",
            "AuthorizationError",
            "ChallengeError",
            "ConfigurationError",
            "EmptyResponseError",
            "HostNotFoundError",
            "HostNotReachedError",
            "NoProviderCanRunError",
            "NoProviderConfiguredError",
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
            "WebSearchError",
        ),
        "errors",
    ),
    "format_for_llm": "format",
    **dict.fromkeys(
        (
            "Attempt",
            "ProviderFailure",
            "SearchCitation",
            "SearchOptions",
            "SearchParams",
            "SearchResponse",
            "SearchSource",
            "SearchToolResult",
            "SearchUsage",
        ),
        "models",
    ),
    "SEARCH_SYSTEM_PROMPT": "prompts",
    "TOOL_DESCRIPTION": "prompts",
    "SEARCH_PROVIDER_ORDER": "providers",
    "get_provider": "providers",
    "Settings": "settings",
    "SettingsOverrides": "settings",
}


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), submodules=True)


__all__ = [
    "SEARCH_PROVIDER_ORDER",
    "SEARCH_SYSTEM_PROMPT",
    "TOOL_DESCRIPTION",
    "AllProvidersFailedError",
    "Attempt",
    "AuthorizationError",
    "ChallengeError",
    "ConfigurationError",
    "CredentialStore",
    "Credentials",
    "EmptyResponseError",
    "FetchError",
    "FetchFailedError",
    "FetchManyOptions",
    "FetchOptions",
    "FetchRefusedError",
    "FetchTimeoutError",
    "HostNotFoundError",
    "HostNotReachedError",
    "NoProviderCanRunError",
    "NoProviderConfiguredError",
    "PageContent",
    "ProviderConnectionError",
    "ProviderFailure",
    "ProviderNotConfiguredError",
    "ProviderTimeoutError",
    "ProviderUnavailableError",
    "ProxyUnreachableError",
    "QuotaExhaustedError",
    "RateLimitedError",
    "ResponseParseError",
    "ResponseTooLargeError",
    "SearchCitation",
    "SearchOptions",
    "SearchParams",
    "SearchProviderError",
    "SearchResponse",
    "SearchSource",
    "SearchToolResult",
    "SearchUsage",
    "Settings",
    "SettingsOverrides",
    "WebSearch",
    "WebSearchError",
    "WebSearchOptions",
    "__version__",
    "extract_content",
    "format_for_llm",
    "get_provider",
]
