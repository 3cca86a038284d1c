"""Gemini with Google Search grounding: an answer, its web sources and cited passages.

* **API-key mode:** ``POST https://generativelanguage.googleapis.com/v1beta/models/<model>:
  streamGenerateContent?alt=sse`` with ``x-goog-api-key: <key>``, ``Accept:
  text/event-stream`` (bodies: :mod:`._gemini_request`). The key is ``GEMINI_API_KEY``, then
  ``GOOGLE_API_KEY`` (or code, the config file, the credential store).
* **OAuth mode** (a Google OAuth token is in the credential store; it wins over a key):
  Google's Cloud Code Assist API, ``POST <endpoint>/v1internal:streamGenerateContent?alt=sse``
  with ``Authorization: Bearer <token>``. Two sign-ins, each in its own store entry, the
  first with a token used (the reference's order; the table is :mod:`._gemini_signins`):
  ``gemini-cli`` (a Gemini CLI sign-in) at ``https://cloudcode-pa.googleapis.com`` with
  the Gemini CLI's headers, then ``gemini`` (Antigravity) tried at
  ``https://daily-cloudcode-pa.googleapis.com`` then
  ``https://daily-cloudcode-pa.sandbox.googleapis.com``. The project is
  ``GOOGLE_CLOUD_PROJECT`` (or ``GOOGLE_CLOUD_PROJECT_ID``), else the
  ``cloudaicompanionProject`` that ``v1internal:loadCodeAssist`` reports for the account.
  An expired token is refreshed through the hook registered under its entry
  (``WebSearch(oauth_refreshers={"gemini-cli": ..., "gemini": ...})``); without one, it
  is refreshed at Google's token endpoint with its own application's OAuth client, the
  Gemini CLI's or Antigravity's (:mod:`._google_token`; that endpoint's base URL is
  ``google_oauth``, never a gateway set as this provider's). A 401, 403 or a 400 that
  names invalid credentials refreshes it once more and the step is sent again.
  Stream chunks arrive wrapped as ``{"response": {...}}``.
* **Model:** ``GEMINI_SEARCH_MODEL``, else the ``gemini_model`` setting, else
  ``gemini-3.5-flash-lite``: the spec's ``gemini-2.5-flash`` was shut down by Google on
  2026-12-01, and 3.5 Flash-Lite is its named replacement on the Developer API. A Gemini
  CLI sign-in defaults to ``gemini-3-flash-preview``, the model the Gemini CLI searches the
  web with. Cloud Code serves each account its own model ids, so an OAuth stream refused
  for its model (``404 NOT_FOUND``, or a ``400`` whose message names the model) asks the
  sign-in's model list once per client, account and project: Antigravity's
  ``v1internal:fetchAvailableModels`` (its web-search model, ``webSearchModelIds`` else
  ``defaultAgentModelId``), the Gemini CLI's ``v1internal:retrieveUserQuota`` (a stable
  Flash model the account has quota for, as the Gemini CLI itself uses without preview
  access). The default is replaced by that pick, logged, said in the response's
  ``notes`` and in a note kept in the state store for the providers table (under the
  sign-in's fingerprint and set Cloud project, :meth:`GeminiProvider.status_note_name`),
  and the stream sent once more. A new client reads that note before its first request
  and asks the pick first (its refusal brings back the default, then the list). A model
  the user set is never replaced, and its error names it and lists the models offered
  (:mod:`._gemini_catalog`).
* **Retries** (:attr:`GeminiProvider.retry`): on 408, 429 and 5xx, up to three retries of
  a step, waiting the server's hint (headers or body, see
  :func:`._gemini_errors.retry_delay_hint`), else ``1 * 2**n`` seconds. A hint over five
  minutes is not waited out and no wait runs past the attempt's remaining time (at most
  ``timeout_seconds``, capped at 300 s). A connection failure (not a timeout) is resent up
  to three times after the same back-off. In OAuth mode, as in the reference, only the
  last endpoint retries: a 429, 5xx or connection failure at the first moves on at once.
* **Results:** read by :mod:`._gemini_parse` (which also describes the captures);
  ``num_search_results`` (else ``limit``) cuts the sources. :mod:`._gemini_steps` builds
  each step.
* **Filters** (:mod:`._gemini_filters`, one record per mode): with a key, ``date_after``,
  ``date_before`` and ``recency`` go as ``google_search.timeRangeFilter``, which Google
  documents for the Gemini API only; with a sign-in (Cloud Code Assist, where no such
  field is documented) dates stay in the question and a recency is ignored.
  A 400 whose message names ``timeRangeFilter`` (a model or route that refuses it) sends
  the stream once more without it, the dates in the question as with a sign-in, and later
  searches of the process with that model send that form at once
  (:mod:`._gemini_time_refusal`).
* **Errors:** ``Gemini Developer API error (<status>): <message>`` or ``Gemini Cloud Code API
  error (<status>): <message>`` after the shared classifier. How Google's error bodies are
  read (message, bad credentials in a 400, a spent quota, wait hints) is told in
  :mod:`._gemini_errors`; an empty or unreadable stream in :mod:`._gemini_parse`.

Differences from the reference: grounding-redirect URLs are kept as they are (the
reference resolves each with a ``HEAD`` request, one extra round trip per source; the
filters read such a source's host from its title, see
:mod:`websearch_core.filters.redirects`);
``GOOGLE_GEMINI_BASE_URL`` and the Cloudflare AI Gateway are not read (use
``WEBSEARCH_GEMINI_BASE_URL``); the ``providers.webSearchGeminiModel`` setting does not
exist here; ``GOOGLE_API_KEY`` is read as Google's own SDKs read it; ``auth_mode`` and
``request_id`` are set, which the reference leaves out. The reference tries a step once at
the first OAuth endpoint and backs off before resending after a network error; here the
core's loop retries every step alike and resends after a connection failure at once.

Docs: https://ai.google.dev/gemini-api/docs/google-search
"""

from typing import ClassVar
from urllib.parse import urlsplit

from ..errors import SearchProviderError
from ..filters.support import FilterSupport
from ..models import SearchResponse
from ..provider_credentials import STORE_NEW_TOKEN, ApiKey, SetUrl, StoredOAuth
from ..provider_ids import GOOGLE_OAUTH_ROUTE
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._gemini_errors import (
    CLOUD_CODE_ERRORS,
    DEVELOPER_ERRORS,
    cloud_code_network_error,
    is_invalid_auth,
)
from ._gemini_filters import MODE_FILTERS
from ._gemini_request import CODE_ASSIST_ENDPOINTS, code_assist_body, request_body
from ._gemini_signins import SIGN_INS, SignIn
from ._gemini_steps import (
    MODEL_ENV,
    after_connection_failure,
    begin,
    first_step,
    grounded_answer,
    has_next_endpoint,
    model_name,
    next_step,
    note_to_read,
    replacement_note_key,
    take_note,
)
from ._gemini_time_refusal import drop_time_filter, key_mode_filters, refused_before
from ._google_token import GOOGLE_TOKEN_URL, TOKEN_URL_NAME, token_refresher
from ._json_api import honours
from .base import (
    DelayedRequest,
    ErrorMap,
    Flow,
    ProtocolProvider,
    ProviderContext,
    ProviderInfo,
    RetryPolicy,
    base_url_setting,
)

__all__ = [
    "CLOUD_CODE_ERRORS",
    "CODE_ASSIST_ENDPOINTS",
    "DEVELOPER_ERRORS",
    "INFO",
    "GeminiProvider",
    "code_assist_body",
    "model_name",
    "request_body",
]

INFO = ProviderInfo(
    id="gemini",
    label="Gemini",
    kind="answer",
    description=(
        "Google Search grounding via Gemini (uses a stored Gemini CLI or Antigravity "
        "OAuth token, or GEMINI_API_KEY / GOOGLE_API_KEY)"
    ),
    docs_url="https://ai.google.dev/gemini-api/docs/google-search",
    env_vars=("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    # What `websearch providers` and a forced search say is missing: a sign-in works too,
    # and "set GEMINI_API_KEY or GOOGLE_API_KEY" alone left the import command unknown.
    setup_hint="set GEMINI_API_KEY or GOOGLE_API_KEY, or run websearch auth import gemini-cli",
    honours=honours(MODE_FILTERS["api_key"], "max_tokens", "temperature"),
    default_results=None,
    max_results=None,
    index="google",
    filters=MODE_FILTERS["api_key"],
    mode_filters=(("OAuth", MODE_FILTERS["oauth"]),),
)


class GeminiProvider(ProtocolProvider):
    """Statuses, retries and the OAuth refresh are data; the hooks choose each step."""

    info = INFO
    errors = DEVELOPER_ERRORS
    retry: ClassVar[RetryPolicy] = RetryPolicy(
        statuses=frozenset({408, 429}), server_errors=True, max_retries=3, max_delay=300.0
    )
    oauth_refresh_statuses = frozenset({400, 401, 403})
    credential_kinds = (
        *(
            StoredOAuth(
                s.entry,
                f"Gemini OAuth token ({s.label} sign-in)",
                f"{s.label} sign-in",
                refreshes_itself=s.oauth_client is not None,
                sign_in_again=s.oauth_client.sign_in_again if s.oauth_client else STORE_NEW_TOKEN,
            )
            for s in SIGN_INS
        ),
        ApiKey(header="x-goog-api-key"),
    )
    """A stored OAuth token wins over the key, which is then never sent; of the two
    sign-ins the first with a token is the one used (:data:`._gemini_signins.SIGN_INS`)."""
    sign_in_hosts = tuple(
        dict.fromkeys(str(urlsplit(url).hostname) for s in SIGN_INS for url in s.endpoints)
    )
    """Cloud Code's hosts, where both sign-ins' tokens go: a ``base_urls.gemini`` elsewhere
    (other than loopback) gets a token only when trusted in ``sign_in_gateways``; an API
    key goes to any gateway."""
    refresh_hosts = (str(urlsplit(GOOGLE_TOKEN_URL).hostname),)
    """Google's token endpoint, where both sign-ins' refresh tokens are renewed."""
    answer_variables = (MODEL_ENV,)
    """The model answers; ``GOOGLE_CLOUD_PROJECT`` only picks whose quota pays."""

    def is_available(self, context: ProviderContext) -> bool:
        """A stored Gemini CLI or Antigravity OAuth token, or an API key."""
        return self.sign_in(context) is not None or bool(self.api_key(context))

    @staticmethod
    def sign_in(context: ProviderContext) -> SignIn | None:
        """The first sign-in, in the reference's order, with a token in the store."""
        credentials = context.credentials
        return next((s for s in SIGN_INS if credentials.oauth_token(s.entry) is not None), None)

    def side_urls(self, context: ProviderContext) -> tuple[SetUrl, ...]:
        """Google's token endpoint, when the sign-in in use renews its own token there.

        A hook passed in code (``oauth_refreshers``) renews it instead, and a token without
        a refresh token is never renewed: then nothing is sent to that URL.
        """
        sign_in = self.sign_in(context)
        if sign_in is None or sign_in.oauth_client is None:
            return ()
        credentials = context.credentials
        token = credentials.oauth_token(sign_in.entry)
        if token is None or not token.refresh_token or credentials.has_refresher(sign_in.entry):
            return ()
        url = base_url_setting(context, GOOGLE_OAUTH_ROUTE, TOKEN_URL_NAME, self.refresh_hosts)
        return () if url is None else (url,)

    def filter_support(self, context: ProviderContext) -> FilterSupport:
        """The Developer API's support with a key, Cloud Code's with a sign-in.

        The same choice :meth:`prepare` makes: a stored token wins over a key. A model
        that refused ``timeRangeFilter`` in this process is planned as Cloud Code is, its
        dates in the question (:mod:`._gemini_time_refusal`).
        """
        if self.sign_in(context) is None:
            return key_mode_filters(model_name(context))
        return MODE_FILTERS["oauth"]

    def status_note_name(self, context: ProviderContext) -> str | None:
        """The note naming the model searches use instead of a default the account lacks."""
        sign_in = self.sign_in(context)
        return None if sign_in is None else replacement_note_key(context, sign_in)

    async def prepare(self, flow: Flow) -> None:
        """OAuth (a stored token wins, refreshed if expired) or the API key; the model."""
        credentials = flow.context.credentials
        sign_in = self.sign_in(flow.context)
        if sign_in is not None:
            own = sign_in.oauth_client
            if own is not None:
                flow.token_refresh = token_refresher(own, flow.context.transport, self.info)
            token = await credentials.valid_oauth_token(
                self.info.id,
                entry=sign_in.entry,
                min_lifetime=self.oauth_margin(sign_in.entry),
                own_refresh=flow.token_refresh,
            )
            begin(flow, token=token, sign_in=sign_in)
            await self._read_note(flow)
        else:
            begin(flow, key=self.require_api_key(flow.context))
            if refused_before(flow.state["model"]):  # this process saw the model refuse it
                drop_time_filter(flow, self.info, refused=False)

    async def _read_note(self, flow: Flow) -> None:
        """Start from the replacement model a note in the state store names, if any.

        Kept there by a search of any client or process on the store that saw the default
        refused, under the sign-in's fingerprint and set project: a new client (every CLI
        run) then skips the refused request and the model list.
        """
        name, notes = note_to_read(flow), flow.context.notes
        if name is not None and notes is not None:
            take_note(flow, await notes.read(self.info.id, name))

    def first_request(self, flow: Flow) -> HttpRequest:
        """The Developer API stream, or the first Cloud Code step at the first endpoint."""
        return first_step(flow)

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The stream after ``loadCodeAssist``, the model catalogue, the next endpoint, or done."""
        return next_step(flow, self.info)

    def after_failure(
        self, flow: Flow, request: HttpRequest, error: SearchProviderError
    ) -> HttpRequest | DelayedRequest | None:
        """After a connection failure (not a timeout): the next endpoint, or a resend.

        Raises:
            ProviderConnectionError: A sign-in's (Cloud Code's) last connection failure, in
                the reference's words (:func:`cloud_code_network_error`).
        """
        step = after_connection_failure(flow, error, self.retry.backoff)
        network_error = cloud_code_network_error(error) if flow.token is not None else None
        if step is None and network_error is not None and not flow.done:
            raise network_error from None
        return step

    def needs_refresh(self, response: HttpResponse | SseResponse) -> bool:
        """A 401 or 403 always; a 400 only when its body names invalid credentials."""
        return response.status != 400 or is_invalid_auth(400, response.as_http().text())

    def error_map(self, flow: Flow) -> ErrorMap:
        """The Developer API's texts with a key, Cloud Code's with OAuth."""
        return DEVELOPER_ERRORS if flow.token is None else CLOUD_CODE_ERRORS

    def retry_delay(self, flow: Flow, response: HttpResponse | SseResponse) -> float | None:
        """The policy's wait, only at the last endpoint (an earlier one moves on at once)."""
        return None if has_next_endpoint(flow) else super().retry_delay(flow, response)

    def parse(self, flow: Flow) -> SearchResponse:
        """The grounded answer of the last stream (events, or a plain JSON body)."""
        return grounded_answer(flow)
