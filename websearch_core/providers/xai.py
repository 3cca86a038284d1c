"""xAI: Grok answers through the Responses API with the server-side ``web_search`` tool.

* **Endpoint:** ``POST https://api.x.ai/v1/responses`` (the Agent Tools API), JSON in and
  out (``Accept: application/json``). **Auth:** ``Authorization: Bearer <XAI_API_KEY>``.
  The body is built in ``_xai_request``, the answer read in ``_xai_parse``.
* **Body:** ``model`` (``XAI_SEARCH_MODEL``, default ``grok-4.3``), ``input: [{"role":
  "system", "content": <system prompt>}, {"role": "user", "content": <query>}]``, ``tools:
  [{"type": "web_search"}]``, and ``max_output_tokens`` and ``temperature`` when given.
* **Domains:** the tool's ``filters`` object takes ``allowed_domains``
  (``include_domains``) or ``excluded_domains`` (``exclude_domains``), at most five each
  and never both in one request (docs below): ``{"type": "web_search", "filters":
  {"allowed_domains": [...]}}``. The included list goes out when it has one to five
  domains; the excluded list when it has one to five and the included list does not go
  (without either, the tool has no ``filters``). A list that
  does not go is written into the question as ``site:`` / ``-site:``, as for an answer
  engine without a domain parameter, and recorded ``query + post``; every domain filter is
  also checked on the sources (``FilterSupport.language_model``). ``site:`` /
  ``-site:`` typed in the query count the same as the parameters.
* **Dates and count are not sent:** the tool has no date, recency or count parameter.
  ``date_after`` / ``date_before`` stay in (or are written into) the question as
  ``after:`` / ``before:`` (recorded ``query``); ``recency`` is recorded ``ignored``, so the
  answer says ``Filters not applied: recency=...``. The count is only the local cap below.
* **No Live Search:** xAI retired Live Search; a top-level ``search_parameters`` (where
  the count and dates used to go) is answered ``410 Gone`` ("Live search is deprecated.
  Please switch to the Agent Tools API"), so it is never sent, and no request is retried.
* **Results:** sources and citations are the ``url_citation`` annotations (top-level, on
  each output item, on each content part), then the ``web_search_call`` items'
  ``action.sources`` / ``sources`` / ``results``, then top-level ``citations`` URLs, in that
  order and de-duplicated by URL; every source is also a citation. A title is the
  annotation's, else the URL; the snippet is ``cited_text``, else ``text``, else the answer
  around the annotation's indices (±100 characters, markdown links reduced to their text, at
  most 300 characters). The answer is ``output_text``, else the message parts' text joined by
  newlines. ``usage`` (``input_tokens`` / ``output_tokens`` / ``total_tokens``, or their camel
  case forms), ``model``, ``request_id`` = ``id``, ``auth_mode: "api_key"``.
* **Local cap:** sources and citations are cut to ``num_search_results`` or ``limit``:
  default 10 when unset, invalid or zero, at most 30.
* **Errors:** ``xAI Responses API error (<status>): <body>`` after the shared classifier (a
  400 ``Incorrect API key provided``, xAI's answer to a wrong key, is an authorization
  error; a 429 saying the team ``has either used all available credits or reached its
  monthly spending limit``, xAI's answer to spent credits as quoted from live answers in
  continuedev/continue issues #10373 and #10740, is spent credits, not a rate limit to
  retry);
  ``xAI Responses API returned invalid JSON: <detail>``; neither an answer nor a source is
  ``xAI web_search returned no answer or sources`` (502); no key is the spec's
  ``xAI credentials not found. Set XAI_API_KEY or configure an API key for provider "xai".``
* **Streaming:** the provider does not stream: the body has no ``stream`` field, so xAI
  answers one JSON object (the spec's xAI is a JSON POST; the stream capture below is what
  xAI sends when a request asks to stream). A ``text/event-stream`` body that is not JSON
  (a gateway streaming for it) is refused as ``xAI Responses API returned invalid JSON: an
  event stream ...`` (:mod:`..event_stream_body`), not read. :func:`response_from_events`
  folds decoded Responses stream events (``response.created``,
  ``response.output_item.done``, ``response.output_text.delta``, ``response.completed``)
  into the same response object, for callers holding them.

Captures: ``fixtures/xai/responses_web_search_tool.json`` (grok-4-fast-reasoning, 2025-11)
has a ``web_search_call`` item whose search is in ``arguments`` (a JSON string) rather than
an ``action``, and ``url_citation`` annotations with only ``type`` and ``url`` (no title,
no indices), so every source is titled by its URL and has no snippet.
``responses_web_search_tool_stream.chunks.txt`` is the same call streamed (one event
object per line).

Departures, with their sources:

* From the spec (``spec/web_search.md``, xAI): it sends ``recency`` as
  ``search_parameters.from_date`` / ``to_date`` and the count as
  ``search_parameters.max_search_results``. xAI answers that field ``410 Gone`` since Live
  Search was retired (docs below: "Web Search is only available on Responses API. The Live
  Search on Chat Completions endpoint is deprecated."), so neither is sent; recency is
  ignored and dates stay in the question, as the behaviour reference (§8.5, §9) says.
* From the behaviour reference (§6.5): like it, the lists are nested under ``filters``, as
  xAI's own REST, curl and OpenAI-SDK examples write them (docs below; only the gRPC
  ``xai_sdk`` takes them as flat keyword arguments of ``web_search()``, and Vercel's AI SDK
  sends them flat on the tool, which is where an earlier version of this module put them).
  Unlike it, a list of more than five hosts is asked in the question rather than cut to
  five, and ``excluded_domains`` goes whenever the included list does not (the reference
  sends it only without included sites). Its ``reasoning: {"effort": "low"}`` and
  ``grok-4.5`` come from a later upstream than the spec and are not sent.
  ``enable_image_understanding`` (a flat field of the tool, not a filter) is not sent: no
  image results are read.

Docs: https://docs.x.ai/developers/tools/web-search ("Web Search Parameters": each list
at most five domains, ``allowed_domains`` "cannot be set together with"
``excluded_domains``; the Responses API examples send ``"filters": {"allowed_domains":
[...]}``; Live Search deprecated) and https://docs.x.ai/docs/guides/tools/search-tools.
"""

from typing import Final

from ..errors import AuthorizationError, CreditsSpentError, ResponseParseError
from ..event_stream_body import invalid_json_text
from ..json_decode import response_json
from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._common import bearer_json_headers
from ._json_api import honours, json_object
from ._xai_parse import parse_response_object, response_from_events
from ._xai_request import (
    DEFAULT_MODEL,
    DEFAULT_RESULTS,
    DOMAIN_LIMIT,
    FILTERS,
    MAX_RESULTS,
    request_body,
    response_cap,
    web_search_tool,
)
from .base import KEY_IN_AUTHORIZATION, ErrorMap, ProtocolProvider, ProviderContext, ProviderInfo

__all__ = [
    "DEFAULT_MODEL",
    "DOMAIN_LIMIT",
    "INFO",
    "XAI_ENDPOINT",
    "XaiProvider",
    "parse_response_object",
    "request_body",
    "response_cap",
    "response_from_events",
    "web_search_tool",
]

XAI_ENDPOINT: Final = "https://api.x.ai/v1/responses"
ACCEPT: Final = "application/json"
"""What the search asks for: one Responses object (no ``stream``), as the OpenAI SDK, the
client xAI's docs name for this API, asks for it."""
MODEL_ENV_VAR: Final = "XAI_SEARCH_MODEL"
BAD_KEY_PREFIX: Final = "Incorrect API key provided"
SPENT_CREDITS_MARKERS: Final = ("used all available credits", "monthly spending limit")
"""Words of xAI's 429 for a team without credits or over its spending limit."""

INFO = ProviderInfo(
    id="xai",
    label="xAI",
    kind="answer",
    description="Grok web search via the xAI Responses API (uses XAI_API_KEY)",
    docs_url="https://docs.x.ai/docs/guides/tools/search-tools",
    env_vars=("XAI_API_KEY",),
    honours=honours(FILTERS, "max_tokens", "temperature"),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="xai",
    filters=FILTERS,
)


def error_code(body: str) -> str | None:
    """What xAI's ``error`` text says the status does not, else ``None``.

    ``bad_key`` for its answer to a wrong key (HTTP 400, not 401); ``spent_credits`` for
    its answer to a team out of credits or over its monthly spending limit (HTTP 429, which
    alone reads as a rate limit and would be retried within seconds).

    Example:
        >>> error_code('{"error": "Your team t has either used all available credits or ..."}')
        'spent_credits'
    """
    data = json_object(body)
    error = data.get("error") if data is not None else None
    if not isinstance(error, str):
        return None
    if error.startswith(BAD_KEY_PREFIX):
        return "bad_key"
    if any(marker in error for marker in SPENT_CREDITS_MARKERS):
        return "spent_credits"
    return None


class XaiProvider(ProtocolProvider):
    """The xAI provider (see the module docstring for the wire details)."""

    info = INFO
    credential_kinds = KEY_IN_AUTHORIZATION
    answer_variables = (MODEL_ENV_VAR,)
    errors = ErrorMap(
        prefix="xAI Responses API error",
        code=error_code,
        codes={"bad_key": AuthorizationError, "spent_credits": CreditsSpentError},
    )

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """Ask Grok with the web search tool."""
        key = self.require_api_key(context)
        model = context.credentials.env(MODEL_ENV_VAR) or DEFAULT_MODEL
        body = request_body(params, model=model, system_prompt=context.system_prompt)
        return HttpRequest(
            method="POST",
            url=XAI_ENDPOINT,
            headers=bearer_json_headers(key, accept=ACCEPT),
            json=body,
        )

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The answer, sources and citations of a 2xx Responses object."""
        try:
            data = response_json(response.body)
        except ValueError as exc:
            text = invalid_json_text(
                "xAI Responses API returned invalid JSON",
                response.header("Content-Type"),
                response.body,
                str(exc).split(":")[0],
            )
            raise ResponseParseError(self.info.id, text, 502) from None
        return parse_response_object(data, params)
