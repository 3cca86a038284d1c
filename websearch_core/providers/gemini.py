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
  a 401, 403 or a 400 that names invalid credentials makes the core's loop refresh it once
  more and send the step again (:attr:`GeminiProvider.oauth_refresh_statuses`). Stream
  chunks arrive wrapped as ``{"response": {...}}``.
* **Model:** ``GEMINI_SEARCH_MODEL``, else ``gemini-2.5-flash``.
* **Retries** (:attr:`GeminiProvider.retry`, run by the core's request loop): on 408, 429
  and 5xx, up to three retries of a step, waiting the server's hint when it gives one
  (``retry-after-ms``, ``Retry-After``, ``x-ratelimit-reset-after``, a
  ``RetryInfo.retryDelay`` in the error body, ``retry in 12s`` in its text), else ``1 *
  2**n`` seconds. A hint over five minutes is not waited out, and no wait ever runs past
  the attempt's remaining time; as an attempt lasts at most ``timeout_seconds`` (capped at
  300 s), all waits together stay within the five-minute budget. A connection failure
  (not a timeout) is sent again up to three times, at once. In OAuth mode a step that
  still fails transiently (or cannot connect) at the first endpoint moves to the second.
* **Results:** read by :mod:`~websearch_core.providers._gemini_parse` (which also describes
  the captures); ``num_search_results`` (else ``limit``) cuts the sources; ``recency`` is
  not sent (Google Search grounding has no time filter).
* **Errors:** ``Gemini Developer API error (<status>): <message>`` or ``Gemini Cloud Code API
  error (<status>): <message>`` (the ``error.message`` of Google's JSON error body, else the
  body) after the shared classifier; a 400 naming invalid credentials is an
  :class:`~websearch_core.errors.AuthorizationError`; a 429 whose body reads as a spent
  quota is :class:`~websearch_core.errors.QuotaExhaustedError` until the server's retry
  hint (the hint also fills a rate limit's ``retry_after``). A stream with no answer and
  no source is ``Gemini API returned an empty grounded response``
  (:class:`~websearch_core.errors.EmptyResponseError`, 502); one with no readable chunk at
  all is a :class:`~websearch_core.errors.ResponseParseError`.

Differences from the reference: grounding-redirect URLs are kept as they are (the
reference resolves each with a ``HEAD`` request, one extra round trip per source);
``GOOGLE_GEMINI_BASE_URL`` and the Cloudflare AI Gateway are not read (use
``WEBSEARCH_GEMINI_BASE_URL``); the ``providers.webSearchGeminiModel`` setting does not
exist here; ``GOOGLE_API_KEY`` is read as Google's own SDKs read it; ``auth_mode`` and
``request_id`` are set, which the reference leaves out. The reference tries a step once at
the first OAuth endpoint and backs off before resending after a network error; here the
core's loop retries every step alike and resends after a connection failure at once.

Docs: https://ai.google.dev/gemini-api/docs/google-search
"""

import uuid
from typing import Final

from ..errors import (
    AuthorizationError,
    ProviderConnectionError,
    ProviderNotConfiguredError,
    ProviderTimeoutError,
    SearchProviderError,
)
from ..models import SearchResponse
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._gemini_errors import (
    auth_error_code,
    error_text,
    is_invalid_auth,
    retry_delay_hint,
    with_hint,
)
from ._gemini_parse import parse_chunks, project_id, response_chunks
from ._gemini_request import (
    CODE_ASSIST_ENDPOINTS,
    DEVELOPER_API_ORIGIN,
    code_assist_body,
    code_assist_request,
    developer_request,
    load_request,
    request_body,
)
from .base import (
    ErrorMap,
    Flow,
    ProtocolProvider,
    ProviderContext,
    ProviderInfo,
    RetryPolicy,
    raise_for_error_map,
)

__all__ = [
    "CLOUD_CODE_ERRORS",
    "CODE_ASSIST_ENDPOINTS",
    "DEVELOPER_API_ORIGIN",
    "DEVELOPER_ERRORS",
    "INFO",
    "GeminiProvider",
    "code_assist_body",
    "model_name",
    "request_body",
]

DEFAULT_MODEL: Final = "gemini-2.5-flash"
MODEL_ENV: Final = "GEMINI_SEARCH_MODEL"
PROJECT_ENV: Final = ("GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT_ID")
NO_PROJECT: Final = (
    "Gemini OAuth: no Cloud Code Assist project for this account. Set GOOGLE_CLOUD_PROJECT, "
    "or sign in once with the Gemini CLI so the account is onboarded."
)
CONNECTION_RESENDS: Final = 3
"""Resends of a step after a connection failure (four attempts in all, as for statuses)."""
TRANSIENT: Final = frozenset({408, 429})
"""With any 5xx: statuses that are retried, and that move OAuth on to the next endpoint."""


def _detail(status: int, body: str) -> str:
    return error_text(body)


def _errors(prefix: str) -> ErrorMap:
    return ErrorMap(
        prefix=prefix,
        detail=_detail,
        code=auth_error_code,
        codes={"INVALID_AUTH": AuthorizationError},
    )


DEVELOPER_ERRORS: Final = _errors("Gemini Developer API error")
"""How the Developer API's error bodies read (Google's ``error.message``)."""
CLOUD_CODE_ERRORS: Final = _errors("Gemini Cloud Code API error")
"""The same for Cloud Code Assist, under its own prefix."""

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


def model_name(context: ProviderContext) -> str:
    """``GEMINI_SEARCH_MODEL``, else the ``gemini_model`` setting, else ``gemini-2.5-flash``."""
    return context.credentials.env(MODEL_ENV) or context.settings.gemini_model or DEFAULT_MODEL


def _transient(status: int) -> bool:
    return status in TRANSIENT or status >= 500


class GeminiProvider(ProtocolProvider):
    """The Gemini provider (see the module docstring for the wire details).

    Statuses, retries and the OAuth refresh are data the core's loop reads; the hooks
    build each step. ``flow.state`` holds the mode, the Cloud Code endpoint in use, the
    project, the step being sent (``load`` for ``loadCodeAssist``, else ``stream``) and how
    many exchanges there were when it was built, so a step rebuilt after a token refresh
    is told apart from the step after a new response.
    """

    info = INFO
    errors = DEVELOPER_ERRORS
    retry = RetryPolicy(statuses=TRANSIENT, server_errors=True, max_retries=3, max_delay=300.0)
    oauth_refresh_statuses = frozenset({400, 401, 403})

    def is_available(self, context: ProviderContext) -> bool:
        """A stored Gemini OAuth token or an API key."""
        has_token = context.credentials.oauth_token(self.info.id) is not None
        return has_token or bool(self.api_key(context))

    async def prepare(self, flow: Flow) -> None:
        """OAuth (a stored token wins, refreshed if expired) or the API key; the model."""
        context, state = flow.context, flow.state
        state["model"] = model_name(context)
        state["failures"] = 0
        if context.credentials.oauth_token(self.info.id) is not None:
            flow.token = await context.credentials.valid_oauth_token(self.info.id)
            state["project"] = next(filter(None, map(context.credentials.env, PROJECT_ENV)), None)
            state["endpoint"] = 0
        else:
            state["key"] = self.require_api_key(context)

    def first_request(self, flow: Flow) -> HttpRequest:
        """The Developer API stream, or the first Cloud Code step at the first endpoint."""
        if flow.token is None:
            return self._step(flow, "stream")
        return self._step(flow, "stream" if flow.state["project"] else "load")

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The next step: the stream after ``loadCodeAssist``, or the next endpoint.

        A step that ends the search with an error status raises here, typed through the
        mode's error map and carrying the server's wait hint.
        """
        state = flow.state
        if len(flow.exchanges) == state["seen"]:  # nothing new: a refreshed token, same step
            return self._step(flow, state["step"])
        response = flow.last.response
        if 200 <= response.status < 300:
            if state["step"] != "load":
                return None
            found = project_id(response.as_http().json(self.info.id, self.info.label))
            if found is None:
                raise ProviderNotConfiguredError(self.info.id, NO_PROJECT)
            state["project"] = found
            return self._step(flow, "stream")
        if _transient(response.status) and self._next_endpoint(flow):
            return self.first_request(flow)
        errors = DEVELOPER_ERRORS if flow.token is None else CLOUD_CODE_ERRORS
        try:
            raise_for_error_map(self.info, errors, response)
        except SearchProviderError as error:
            raise with_hint(error, self.retry_delay(response)) from None
        return None  # pragma: no cover  (a non-2xx status always raises above)

    def after_failure(
        self, flow: Flow, request: HttpRequest, error: SearchProviderError
    ) -> HttpRequest | None:
        """After a connection failure (not a timeout): the next endpoint, or a resend."""
        if isinstance(error, ProviderTimeoutError) or not isinstance(
            error, ProviderConnectionError
        ):
            return None
        if self._next_endpoint(flow):
            return self.first_request(flow)
        flow.state["failures"] += 1
        if flow.state["failures"] > CONNECTION_RESENDS:
            return None
        return self._step(flow, flow.state["step"])

    def needs_refresh(self, response: HttpResponse | SseResponse) -> bool:
        """A 401 or 403 always; a 400 only when its body names invalid credentials."""
        return response.status != 400 or is_invalid_auth(400, response.as_http().text())

    def retry_delay(self, response: HttpResponse | SseResponse) -> float | None:
        """Google's wait hint, from the headers or the error body."""
        return retry_delay_hint(response.headers, response.as_http().text())

    def parse(self, flow: Flow) -> SearchResponse:
        """The grounded answer of the last stream (events, or a plain JSON body)."""
        response = flow.last.response
        events = response.events if isinstance(response, SseResponse) else ()
        chunks = response_chunks(events, response.body)
        return parse_chunks(
            chunks,
            requested_model=flow.state["model"],
            auth_mode="api_key" if flow.token is None else "oauth",
            limit=flow.params.result_count,
        )

    # --- the steps --------------------------------------------------------------------------

    def _next_endpoint(self, flow: Flow) -> bool:
        """Move OAuth on to the next Cloud Code endpoint; False when none is left."""
        index = flow.state.get("endpoint")
        if index is None or index + 1 >= len(CODE_ASSIST_ENDPOINTS):
            return False
        flow.state["endpoint"], flow.state["failures"] = index + 1, 0
        return True

    def _step(self, flow: Flow, step: str) -> HttpRequest:
        state = flow.state
        state["step"], state["seen"] = step, len(flow.exchanges)
        prompt = flow.context.system_prompt
        if flow.token is None:
            return developer_request(flow.params, prompt, model=state["model"], key=state["key"])
        endpoint = CODE_ASSIST_ENDPOINTS[state["endpoint"]]
        if step == "load":
            return load_request(endpoint, flow.token.access_token)
        return code_assist_request(
            endpoint,
            flow.token.access_token,
            code_assist_body(
                flow.params,
                prompt,
                model=state["model"],
                project=state["project"],
                request_id=f"agent-{uuid.uuid4()}",
            ),
        )
