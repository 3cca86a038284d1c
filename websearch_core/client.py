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
"""

import asyncio
import concurrent.futures
import logging
from collections.abc import Coroutine, Mapping
from types import TracebackType
from typing import Any, Self, TypeVar

import aiohttp
from pydantic import SecretStr

from .chain import ChainOutcome, resolve_candidates, run_chain
from .credentials import Credentials, CredentialStore
from .errors import AllProvidersFailedError, NoProviderConfiguredError, SearchProviderError
from .format import NO_PROVIDER_MESSAGE, format_for_llm
from .models import SearchParams, SearchResponse, SearchToolResult
from .prompts import SEARCH_SYSTEM_PROMPT
from .providers import ProviderContext
from .settings import Settings
from .transport import Transport

__all__ = ["WebSearch"]

logger = logging.getLogger("websearch_core")
_T = TypeVar("_T")


class WebSearch:
    """Search the web through the first provider that answers.

    Args:
        settings: Resolved settings; by default read from the environment and config file.
        api_keys: Keys given in code, ranked above the environment (``{"brave": "..."}``).
        session: An aiohttp session to use instead of the instance's own (not closed here).
        **overrides: Settings fields to override (``provider="brave"``, ``timeout_seconds=30``).

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
        **overrides: Any,
    ) -> None:
        if settings is None:
            settings = Settings(**overrides)
        elif overrides:
            settings = Settings(**{**settings.model_dump(), **overrides})
        self.settings = settings
        self._api_keys = dict(api_keys or {})
        self.credentials = Credentials(
            explicit=self._api_keys,
            configured=settings.api_keys,
            store=CredentialStore(settings.resolved_credentials_file()),
        )
        self._session = session
        self._owns_session = session is None

    def __repr__(self) -> str:
        return f"WebSearch(provider={self.settings.provider!r}, exclude={self.settings.exclude!r})"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP session this instance opened (an injected one is left open)."""
        if self._owns_session and self._session is not None:
            await self._session.close()
            self._session = None

    def _context(self) -> ProviderContext:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=None),
                connector=aiohttp.TCPConnector(limit=32),
            )
            self._owns_session = True
        transport = Transport(
            self._session,
            timeout_seconds=self.settings.timeout_seconds,
            max_response_bytes=self.settings.max_response_bytes,
            base_urls=self.settings.base_urls,
            secrets=self.credentials.secrets(),
        )
        return ProviderContext(
            transport=transport,
            settings=self.settings,
            credentials=self.credentials,
            system_prompt=SEARCH_SYSTEM_PROMPT,
        )

    async def _execute(self, params: SearchParams) -> ChainOutcome:
        context = self._context()
        providers, skipped = resolve_candidates(
            context,
            forced=params.provider,
            preferred=self.settings.provider,
            excluded=self.settings.exclude,
        )
        outcome = await run_chain(providers, params, context)
        outcome.attempts[:0] = skipped
        if outcome.response is not None:
            outcome.response = outcome.response.model_copy(
                update={"attempts": tuple(outcome.attempts)}
            )
        return outcome

    async def search(self, query: str | SearchParams, **params: Any) -> SearchResponse:
        """Search and return the first renderable response.

        Args:
            query: The query text, or a complete :class:`SearchParams`.
            **params: Other :class:`SearchParams` fields when ``query`` is text.

        Raises:
            pydantic.ValidationError: A parameter is invalid; the error names it.
            NoProviderConfiguredError: No provider could run.
            AllProvidersFailedError: Every provider failed; ``failures`` has each error.
        """
        outcome = await self._execute(_params(query, params))
        if outcome.response is not None:
            return outcome.response
        if not outcome.failures:
            raise NoProviderConfiguredError(NO_PROVIDER_MESSAGE)
        errors = tuple(
            error
            if isinstance(error, SearchProviderError)
            else _wrapped(provider.info.id, error)
            for provider, error in outcome.failures
        )
        raise AllProvidersFailedError(outcome.failure_message(), errors)

    async def run(self, query: str | SearchParams, **params: Any) -> SearchToolResult:
        """Search and return the tool result: text for the model plus the structured details.

        Provider failures come back as ``Error: ...`` text, never as an exception;
        invalid parameters still raise, and cancellation propagates.
        """
        outcome = await self._execute(_params(query, params))
        if outcome.response is not None:
            return SearchToolResult(
                text=format_for_llm(outcome.response), response=outcome.response
            )
        message = outcome.failure_message()
        response = SearchResponse(provider=outcome.last_provider, attempts=tuple(outcome.attempts))
        return SearchToolResult(text=f"Error: {message}", response=response, error=message)

    def search_sync(self, query: str | SearchParams, **params: Any) -> SearchResponse:
        """:meth:`search` for synchronous code (safe inside a running event loop)."""
        return _run_blocking(self._fresh()._search_and_close(_params(query, params)))

    def run_sync(self, query: str | SearchParams, **params: Any) -> SearchToolResult:
        """:meth:`run` for synchronous code (safe inside a running event loop)."""
        return _run_blocking(self._fresh()._run_and_close(_params(query, params)))

    def _fresh(self) -> "WebSearch":
        return WebSearch(self.settings, api_keys=self._api_keys)

    async def _search_and_close(self, params: SearchParams) -> SearchResponse:
        async with self:
            return await self.search(params)

    async def _run_and_close(self, params: SearchParams) -> SearchToolResult:
        async with self:
            return await self.run(params)


def _params(query: str | SearchParams, params: Mapping[str, Any]) -> SearchParams:
    if isinstance(query, SearchParams):
        return SearchParams.model_validate({**query.model_dump(), **params}) if params else query
    return SearchParams(query=query, **params)


def _wrapped(provider_id: str, error: BaseException) -> SearchProviderError:
    """A non-provider error (a configuration problem, a bug) as a provider failure."""
    wrapped = SearchProviderError(provider_id, str(error) or type(error).__name__)
    wrapped.__cause__ = error
    return wrapped


def _run_blocking(coroutine: Coroutine[Any, Any, _T]) -> _T:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
