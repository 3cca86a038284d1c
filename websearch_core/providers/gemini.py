"""Gemini with Google Search grounding: an answer, its web sources and cited passages.

* **API-key mode:** ``POST https://generativelanguage.googleapis.com/v1beta/models/<model>:
  streamGenerateContent?alt=sse`` with ``x-goog-api-key: <key>`` and ``Accept:
  text/event-stream``. The body is ``contents: [{role: "user", parts: [{text: <query>}]}]``,
  ``tools: [{google_search: {}}]``, ``systemInstruction: {parts: [{text: <system prompt>}]}``
  and, only when ``max_tokens`` or ``temperature`` is given, ``generationConfig:
  {maxOutputTokens, temperature}``. The key comes from ``GEMINI_API_KEY``, then
  ``GOOGLE_API_KEY`` (or code, the config file, the credential store).
* **OAuth mode** (a Gemini OAuth token is in the credential store; it wins over a key):
  Google's Cloud Code Assist API, ``POST <endpoint>/v1internal:streamGenerateContent?alt=sse``
  with ``Authorization: Bearer <token>``, tried at ``https://daily-cloudcode-pa.googleapis.com``
  then ``https://daily-cloudcode-pa.sandbox.googleapis.com``. The body wraps the request
  above (the system instruction with ``role: "user"``) as ``{project, model, request,
  requestType: "agent", userAgent: "antigravity", requestId: "agent-<uuid>"}``. The project
  is ``GOOGLE_CLOUD_PROJECT`` (or ``GOOGLE_CLOUD_PROJECT_ID``), else the
  ``cloudaicompanionProject`` that ``v1internal:loadCodeAssist`` reports for the account.
  An expired token is refreshed through ``WebSearch(oauth_refreshers={"gemini": ...})``;
  a 401, 403 or a 400 that names invalid credentials refreshes it once more and retries
  once. Stream chunks arrive wrapped as ``{"response": {...}}``.
* **Model:** ``GEMINI_SEARCH_MODEL``, else ``gemini-2.5-flash``.
* **Retries** (tenacity): on 408, 429, 5xx and connection failures (not timeouts), up to
  four attempts at the last (or only) endpoint, one at an earlier endpoint before moving to
  the next. The wait is the server's hint when it gives one (``retry-after-ms``,
  ``Retry-After``, ``x-ratelimit-reset-after``, a ``RetryInfo.retryDelay`` in the error
  body, ``retry in 12s`` in its text), else ``retry_base_delay * 2**n`` seconds; all waits
  together stay within a five-minute budget, and a hint that would break it ends the
  retries at once. ``GeminiProvider(retry_base_delay=..., sleep=...)`` shortens them for
  tests.
* **Results:** the text parts are the answer; ``groundingChunks[].web`` are the sources
  (de-duplicated by URI; title or URI); each ``groundingSupports[]`` entry is a citation per
  grounding chunk it names, with the segment text as ``cited_text``; ``webSearchQueries``
  are the search queries; ``usageMetadata`` the usage; ``modelVersion`` the model;
  ``responseId`` the request id. ``num_search_results`` (else ``limit``) cuts the sources;
  ``recency`` is not sent (Google Search grounding has no time filter).
* **Errors:** ``Gemini Developer API error (<status>): <message>`` or ``Gemini Cloud Code API
  error (<status>): <message>`` (the ``error.message`` of Google's JSON error body, else the
  body) after the shared classifier; a 400 naming invalid credentials is an
  :class:`~websearch_core.errors.AuthorizationError`; a 429 whose body reads as a spent
  quota is :class:`~websearch_core.errors.QuotaExhaustedError` until the server's retry
  hint. A stream with no answer and no source is ``Gemini API returned an empty grounded
  response`` (:class:`~websearch_core.errors.EmptyResponseError`, 502); one with no readable
  chunk at all is a :class:`~websearch_core.errors.ResponseParseError`.

Captures (``fixtures/gemini/``, real ``gemini-2.5-pro`` responses): the ``.sse`` stream has
ten chunks whose ``groundingMetadata`` is ``{}`` until the last, which carries every
grounding chunk, support and query at once; ``generate_content_google_search_call1.json``
is the same shape unstreamed. Both have grounding URIs on
``vertexaisearch.cloud.google.com/grounding-api-redirect/...`` and one Google search URL with
spaces in it (kept as given). ``interactions_api_google_search.json`` is the newer
Interactions API (``steps[]``); the provider does not call it, but
:func:`~websearch_core.providers._gemini_parse.parse_interaction` reads it.

Differences from the reference: grounding-redirect URLs are kept as they are (the
reference resolves each with a ``HEAD`` request, one extra round trip per source);
``GOOGLE_GEMINI_BASE_URL`` and the Cloudflare AI Gateway are not read (use
``WEBSEARCH_GEMINI_BASE_URL``); the ``providers.webSearchGeminiModel`` setting does not
exist here; ``GOOGLE_API_KEY`` is read as Google's own SDKs read it; ``auth_mode`` and
``request_id`` are set, which the reference leaves out.

Docs: https://ai.google.dev/gemini-api/docs/google-search
"""

import asyncio
import math
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final
from urllib.parse import quote

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type

from ..deadline import remaining_budget
from ..errors import (
    AuthorizationError,
    ProviderConnectionError,
    ProviderNotConfiguredError,
    ProviderUnavailableError,
    ResponseParseError,
)
from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, SseResponse
from ._gemini_parse import (
    Retryable,
    body_chunks,
    check_response,
    events_chunks,
    parse_chunks,
    project_id,
)
from .base import ProviderContext, ProviderInfo, SearchProvider

__all__ = [
    "CODE_ASSIST_ENDPOINTS",
    "DEVELOPER_API_ORIGIN",
    "INFO",
    "GeminiProvider",
    "code_assist_body",
    "model_name",
    "request_body",
]

DEVELOPER_API_ORIGIN: Final = "https://generativelanguage.googleapis.com"
CODE_ASSIST_ENDPOINTS: Final = (
    "https://daily-cloudcode-pa.googleapis.com",
    "https://daily-cloudcode-pa.sandbox.googleapis.com",
)
DEFAULT_MODEL: Final = "gemini-2.5-flash"
MODEL_ENV: Final = "GEMINI_SEARCH_MODEL"
PROJECT_ENV: Final = ("GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT_ID")
CODE_ASSIST_USER_AGENT: Final = (
    "antigravity/hub/2.8.0 (aidev_client; os_type=darwin; arch=arm64; cl=963137146)"
)
NO_PROJECT: Final = (
    "Gemini OAuth: no Cloud Code Assist project for this account. Set GOOGLE_CLOUD_PROJECT, "
    "or sign in once with the Gemini CLI so the account is onboarded."
)

INFO = ProviderInfo(
    id="gemini",
    label="Gemini",
    kind="answer",
    description=(
        "Google Search grounding via Gemini (uses a stored Gemini OAuth token, "
        "or GEMINI_API_KEY / GOOGLE_API_KEY)"
    ),
    docs_url="https://ai.google.dev/gemini-api/docs/google-search",
    env_vars=("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    honours=frozenset({"query", "limit", "num_search_results", "max_tokens", "temperature"}),
    default_results=None,
    max_results=None,
    index="google",
)

Sleep = Callable[[float], Awaitable[None]]


def model_name(context: ProviderContext) -> str:
    """``GEMINI_SEARCH_MODEL``, else the ``gemini_model`` setting, else ``gemini-2.5-flash``."""
    return context.credentials.env(MODEL_ENV) or context.settings.gemini_model or DEFAULT_MODEL


def request_body(
    params: SearchParams, system_prompt: str, *, instruction_role: str | None = None
) -> dict[str, Any]:
    """The ``GenerateContentRequest`` for ``params`` (pure).

    Example:
        >>> request_body(SearchParams(query="x"), "s")["tools"]
        [{'google_search': {}}]
    """
    instruction: dict[str, Any] = {"parts": [{"text": system_prompt}]}
    if instruction_role is not None:
        instruction = {"role": instruction_role, **instruction}
    body: dict[str, Any] = {
        "contents": [{"role": "user", "parts": [{"text": params.query}]}],
        "tools": [{"google_search": {}}],
        "systemInstruction": instruction,
    }
    config: dict[str, Any] = {}
    if params.max_tokens is not None:
        config["maxOutputTokens"] = params.max_tokens
    if params.temperature is not None:
        config["temperature"] = params.temperature
    if config:
        body["generationConfig"] = config
    return body


def code_assist_body(
    params: SearchParams, system_prompt: str, *, model: str, project: str, request_id: str
) -> dict[str, Any]:
    """The Cloud Code Assist wrapper around :func:`request_body` (pure)."""
    return {
        "project": project,
        "model": model,
        "request": request_body(params, system_prompt, instruction_role="user"),
        "requestType": "agent",
        "userAgent": "antigravity",
        "requestId": request_id,
    }


@dataclass
class _OAuthState:
    token: str
    project: str | None
    refreshed: bool = False


class GeminiProvider(SearchProvider):
    """The Gemini provider (see the module docstring for the wire details).

    Args:
        retry_base_delay: First back-off wait in seconds (doubled per retry).
        sleep: The awaitable sleep used between retries.
    """

    info = INFO
    retry_base_delay: float = 1.0
    """Seconds before the first retry when the server gave no hint."""
    retry_budget_seconds: ClassVar[float] = 300.0
    """All retry waits of one search together stay within this."""
    max_attempts: ClassVar[int] = 4
    """Attempts at the last (or only) endpoint."""

    def __init__(self, *, retry_base_delay: float | None = None, sleep: Sleep | None = None):
        if retry_base_delay is not None:
            self.retry_base_delay = retry_base_delay
        self._sleep: Sleep = sleep or asyncio.sleep

    def is_available(self, context: ProviderContext) -> bool:
        """A stored Gemini OAuth token or an API key."""
        return context.credentials.oauth_token(self.info.id) is not None or bool(
            self.api_key(context)
        )

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        """Ground one answer through OAuth (when a token is stored) or the API key."""
        if context.credentials.oauth_token(self.info.id) is not None:
            return await self._oauth_search(params, context)
        key = self.require_api_key(context)
        model = model_name(context)
        request = HttpRequest(
            method="POST",
            url=f"{DEVELOPER_API_ORIGIN}/v1beta/models/{quote(model, safe='-._')}"
            ":streamGenerateContent",
            params=(("alt", "sse"),),
            headers={
                "x-goog-api-key": key,
                "Content-Type": "application/json",
                "Accept": "text/event-stream",
            },
            json=request_body(params, context.system_prompt),
        )

        async def attempt() -> SearchResponse:
            response = await context.transport.send_sse(self.info.id, self.info.label, request)
            check_response(response.as_http(), "Gemini Developer API error")
            return self._parse(response, params, model, "api_key")

        return await self._run(self.max_attempts, attempt)

    # --- retries ---------------------------------------------------------------------------------

    def _wait(self, state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome is not None else None
        if isinstance(error, Retryable) and error.delay is not None:
            return error.delay
        return float(self.retry_base_delay * 2 ** (state.attempt_number - 1))

    def _retrying(self, attempts: int) -> AsyncRetrying:
        def stop(state: RetryCallState) -> bool:
            if state.attempt_number >= attempts:
                return True
            wait = self._wait(state)
            if state.idle_for + wait > self.retry_budget_seconds:
                return True
            # Never sleep past the provider's time: hand the last error to the chain instead.
            return wait >= remaining_budget(math.inf)

        return AsyncRetrying(
            stop=stop,
            wait=self._wait,
            retry=retry_if_exception_type((Retryable, ProviderConnectionError)),
            sleep=self._sleep,
            reraise=True,
        )

    async def _run(
        self, attempts: int, attempt: Callable[[], Awaitable[SearchResponse]]
    ) -> SearchResponse:
        try:
            result: SearchResponse = await self._retrying(attempts)(attempt)
        except Retryable as failure:
            raise failure.error from None
        return result

    # --- OAuth (Cloud Code Assist) ---------------------------------------------------------------

    async def _oauth_search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        token = await context.credentials.valid_oauth_token(self.info.id)
        project = next(filter(None, map(context.credentials.env, PROJECT_ENV)), None)
        state = _OAuthState(token=token.access_token, project=project)
        model = model_name(context)
        for index, endpoint in enumerate(CODE_ASSIST_ENDPOINTS):
            last = index == len(CODE_ASSIST_ENDPOINTS) - 1

            async def attempt(endpoint: str = endpoint) -> SearchResponse:
                return await self._with_refresh(state, context, endpoint, params, model)

            try:
                result: SearchResponse = await self._retrying(self.max_attempts if last else 1)(
                    attempt
                )
            except Retryable as failure:
                if last:
                    raise failure.error from None
            except ProviderConnectionError:
                if last:
                    raise
            else:
                return result
        raise AssertionError("unreachable")  # pragma: no cover  (the last endpoint re-raises)

    async def _with_refresh(
        self,
        state: _OAuthState,
        context: ProviderContext,
        endpoint: str,
        params: SearchParams,
        model: str,
    ) -> SearchResponse:
        try:
            return await self._code_assist(state, context, endpoint, params, model)
        except AuthorizationError:
            if state.refreshed:
                raise
            state.refreshed = True
            fresh = await context.credentials.valid_oauth_token(self.info.id, force_refresh=True)
            state.token = fresh.access_token
            return await self._code_assist(state, context, endpoint, params, model)

    def _headers(self, token: str) -> dict[str, str]:
        return {
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Accept": "text/event-stream",
            "User-Agent": CODE_ASSIST_USER_AGENT,
        }

    async def _code_assist(
        self,
        state: _OAuthState,
        context: ProviderContext,
        endpoint: str,
        params: SearchParams,
        model: str,
    ) -> SearchResponse:
        if state.project is None:
            state.project = await self._discover_project(state, context, endpoint)
        request = HttpRequest(
            method="POST",
            url=f"{endpoint}/v1internal:streamGenerateContent",
            params=(("alt", "sse"),),
            headers=self._headers(state.token),
            json=code_assist_body(
                params,
                context.system_prompt,
                model=model,
                project=state.project,
                request_id=f"agent-{uuid.uuid4()}",
            ),
        )
        response = await context.transport.send_sse(self.info.id, self.info.label, request)
        check_response(response.as_http(), "Gemini Cloud Code API error")
        return self._parse(response, params, model, "oauth")

    async def _discover_project(
        self, state: _OAuthState, context: ProviderContext, endpoint: str
    ) -> str:
        request = HttpRequest(
            method="POST",
            url=f"{endpoint}/v1internal:loadCodeAssist",
            headers={**self._headers(state.token), "Accept": "application/json"},
            json={
                "metadata": {
                    "ideType": "IDE_UNSPECIFIED",
                    "platform": "PLATFORM_UNSPECIFIED",
                    "pluginType": "GEMINI",
                }
            },
        )
        response = await context.transport.send(self.info.id, self.info.label, request)
        check_response(response, "Gemini Cloud Code API error")
        project = project_id(response.json(self.info.id, self.info.label))
        if project is None:
            raise ProviderNotConfiguredError(self.info.id, NO_PROJECT)
        return project

    # --- parsing ---------------------------------------------------------------------------------

    def _parse(
        self, response: SseResponse, params: SearchParams, model: str, auth_mode: str
    ) -> SearchResponse:
        if response.events:
            chunks, unreadable = events_chunks(response.events)
            if not chunks and unreadable:
                raise ResponseParseError(
                    self.info.id, "Gemini API returned a stream with no readable chunk", 502
                )
        elif not response.body.strip():
            raise ProviderUnavailableError(
                self.info.id, "Gemini API returned no response body", 500
            )
        else:
            chunks = body_chunks(response.body)
        return parse_chunks(
            chunks, requested_model=model, auth_mode=auth_mode, limit=params.result_count
        )
