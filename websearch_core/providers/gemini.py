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
  (not a timeout) is sent again up to three times, after the same back-off. In OAuth
  mode, as in the reference, only the last endpoint retries: the first gets one attempt,
  and a 429, a 5xx or a connection failure there moves to the second at once.
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

from typing import ClassVar, Final

from ..errors import (
    ProviderConnectionError,
    ProviderNotConfiguredError,
    ProviderTimeoutError,
    SearchProviderError,
)
from ..models import SearchResponse
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._gemini_errors import CLOUD_CODE_ERRORS, DEVELOPER_ERRORS, is_invalid_auth
from ._gemini_parse import parse_chunks, project_id, response_chunks
from ._gemini_request import (
    CODE_ASSIST_ENDPOINTS,
    DEVELOPER_API_ORIGIN,
    code_assist_body,
    request_body,
)
from ._gemini_steps import (
    begin,
    has_next_endpoint,
    model_name,
    moves_on,
    next_endpoint,
    resend,
    step_request,
)
from .base import (
    DelayedRequest,
    ErrorMap,
    Flow,
    ProtocolProvider,
    ProviderContext,
    ProviderInfo,
    RetryPolicy,
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

NO_PROJECT: Final = (
    "Gemini OAuth: no Cloud Code Assist project for this account. Set GOOGLE_CLOUD_PROJECT, "
    "or sign in once with the Gemini CLI so the account is onboarded."
)
TRANSIENT: Final = frozenset({408, 429})
"""With any 5xx: statuses the last endpoint retries."""

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


class GeminiProvider(ProtocolProvider):
    """The Gemini provider (see the module docstring for the wire details).

    Statuses, retries and the OAuth refresh are data the core's loop reads; the hooks
    choose each step, and :mod:`._gemini_steps` keeps the flow's state and builds it.
    """

    info = INFO
    errors = DEVELOPER_ERRORS
    retry: ClassVar[RetryPolicy] = RetryPolicy(
        statuses=TRANSIENT, server_errors=True, max_retries=3, max_delay=300.0
    )
    oauth_refresh_statuses = frozenset({400, 401, 403})

    def is_available(self, context: ProviderContext) -> bool:
        """A stored Gemini OAuth token or an API key."""
        has_token = context.credentials.oauth_token(self.info.id) is not None
        return has_token or bool(self.api_key(context))

    async def prepare(self, flow: Flow) -> None:
        """OAuth (a stored token wins, refreshed if expired) or the API key; the model."""
        credentials = flow.context.credentials
        if credentials.oauth_token(self.info.id) is not None:
            begin(flow, token=await credentials.valid_oauth_token(self.info.id))
        else:
            begin(flow, key=self.require_api_key(flow.context))

    def first_request(self, flow: Flow) -> HttpRequest:
        """The Developer API stream, or the first Cloud Code step at the first endpoint."""
        if flow.token is None:
            return step_request(flow, "stream")
        return step_request(flow, "stream" if flow.state["project"] else "load")

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The next step: the stream after ``loadCodeAssist``, or the next endpoint.

        An error status that leaves no endpoint to move to ends the exchange; the loop
        reads it through :meth:`error_map`.
        """
        state = flow.state
        if len(flow.exchanges) == state["seen"]:  # nothing new: a refreshed token, same step
            return step_request(flow, state["step"])
        response = flow.last.response
        if 200 <= response.status < 300:
            if state["step"] != "load":
                return None
            found = project_id(response.as_http().json(self.info.id, self.info.label))
            if found is None:  # a 2xx without a project: no status for the loop to read
                raise ProviderNotConfiguredError(self.info.id, NO_PROJECT)
            state["project"] = found
            return step_request(flow, "stream")
        if moves_on(response.status) and next_endpoint(flow):
            return self.first_request(flow)
        return None

    def after_failure(
        self, flow: Flow, request: HttpRequest, error: SearchProviderError
    ) -> HttpRequest | DelayedRequest | None:
        """After a connection failure (not a timeout): the next endpoint, or a resend.

        The last endpoint resends up to ``_gemini_steps.CONNECTION_RESENDS`` times, backing off as
        :attr:`retry` does for a status.
        """
        if isinstance(error, ProviderTimeoutError) or not isinstance(
            error, ProviderConnectionError
        ):
            return None
        if next_endpoint(flow):
            return self.first_request(flow)
        return resend(flow, self.retry.backoff)

    def needs_refresh(self, response: HttpResponse | SseResponse) -> bool:
        """A 401 or 403 always; a 400 only when its body names invalid credentials."""
        return response.status != 400 or is_invalid_auth(400, response.as_http().text())

    def error_map(self, flow: Flow) -> ErrorMap:
        """The Developer API's texts with a key, Cloud Code's with OAuth."""
        return DEVELOPER_ERRORS if flow.token is None else CLOUD_CODE_ERRORS

    def retry_delay(self, flow: Flow, response: HttpResponse | SseResponse) -> float | None:
        """The policy's wait (Google's hint, else back-off), only at the last endpoint.

        An OAuth endpoint with another after it gets one attempt: :meth:`follow_up` moves on.
        """
        if has_next_endpoint(flow):
            return None
        return super().retry_delay(flow, response)

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
