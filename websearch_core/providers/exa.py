"""Exa: neural web search with per-result summaries, by API key or keyless remote MCP.

* **API mode** (a key is configured): ``POST https://api.exa.ai/search`` with headers
  ``Content-Type: application/json`` and ``x-api-key: <key>``. ``auth_mode`` is
  ``"api_key"``.
* **Keyless mode** (no key, Exa selected explicitly): a JSON-RPC ``tools/call`` of the remote
  MCP tool ``web_search_exa`` at ``POST https://mcp.exa.ai/mcp?tools=web_search_exa`` with
  headers ``Content-Type: application/json``, ``Accept: application/json, text/event-stream``
  and ``x-exa-source: websearch-tools``. The answer is either SSE (the first ``data:`` line
  that holds JSON) or plain JSON. ``auth_mode`` is ``"keyless"``.
* **Auth and availability:** the key comes from ``EXA_API_KEY`` (or code, the config file,
  the credential store). The auto chain uses Exa only with a key; an explicit selection
  (``provider="exa"``) always may, falling back to the keyless MCP tool.
* **Limits:** ``numResults`` is ``num_search_results`` or ``limit``, default 10, at most
  100 (the largest count :class:`~websearch_core.models.SearchParams` accepts, and Exa's
  own ceiling); sources are cut to the same number. ``recency``, ``max_tokens`` and
  ``temperature`` are ignored, as in the reference.
* **Country:** the API's ``userLocation`` (recorded ``native``); the MCP tool has no such
  field, so in keyless mode a country is recorded as ignored.
* **Modules:** both bodies (fields, filters as MCP query directives) are built in
  :mod:`._exa_request`; results and MCP payloads are read by :mod:`._exa_parse`.
* **Errors:** API: ``Exa API error (<status>): <body>`` after the shared classifier. MCP:
  a 429 is ``exa: MCP rate limit reached (429); configure an Exa API key for higher
  limits`` (a :class:`~websearch_core.errors.RateLimitedError` with ``Retry-After``), other
  statuses ``Exa MCP request failed (<status>): <body>``; the failures of a 2xx MCP reply
  are told in :mod:`._exa_parse`, among them the keyless limit Exa's MCP server answers
  in-band, as a tool error in a 200 reply (a rate limit too, with Exa's own text).

Quirks and differences from the reference:

* The reference paces requests (1000 ms between starts, process-wide). There is no setting
  for it here, and tests could not turn it off, so no pacing is done.
* The reference sends ``exaApiKey`` to the MCP endpoint when ``EXA_API_KEY`` is set; here
  a key always selects API mode, so the MCP request never carries one. The reference's
  ``exa.enabled`` setting does not exist here either.

Docs: https://docs.exa.ai/reference/search
"""

from collections.abc import Callable
from typing import Final

from ..call_secrets import response_mask
from ..filters import FilterSupport
from ..models import AppliedFilter, FilterName, SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._exa_parse import api_response, build_answer, parse_mcp_body, parse_plain_text, parse_results
from ._exa_request import (
    DEFAULT_RESULTS,
    EXA_API_ENDPOINT,
    EXA_MCP_ENDPOINT,
    MAX_RESULTS,
    api_request,
    api_request_body,
    mcp_query,
    mcp_request,
    mcp_request_body,
    result_count,
    rpc_id,
    rpc_id_of,
)
from ._json_api import honours
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext, ProviderInfo

__all__ = [
    "EXA_API_ENDPOINT",
    "EXA_MCP_ENDPOINT",
    "INFO",
    "MCP_RATE_LIMIT_MESSAGE",
    "ExaProvider",
    "api_request_body",
    "build_answer",
    "mcp_query",
    "mcp_request_body",
    "parse_mcp_body",
    "parse_plain_text",
    "parse_results",
]

MCP_RATE_LIMIT_MESSAGE = (
    "exa: MCP rate limit reached (429); configure an Exa API key for higher limits"
)

_PHRASE: Final[frozenset[FilterName]] = frozenset({"phrase"})
_FILTERS = FilterSupport(
    native=frozenset(
        {"include_domains", "exclude_domains", "date_after", "date_before", "country"}
    ),
    query=_PHRASE,
    unpromised=_PHRASE,
    reads_or=False,
)
"""A quoted phrase keeps its quotes in ``query`` (the behaviour reference's
``{phrases:true}``); a ``-term`` leaves it, as there. Exa's docs promise neither, so
results are still checked for both."""
INFO = ProviderInfo(
    id="exa",
    label="Exa",
    kind="api",
    description="Uses EXA_API_KEY; explicit selection falls back to Exa's keyless MCP search",
    docs_url="https://docs.exa.ai/reference/search",
    env_vars=("EXA_API_KEY",),
    honours=honours(_FILTERS),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="exa",
    filters=_FILTERS,
)

PREPAID_STATUSES: Final = frozenset({402})
"""402 "Account credits exhausted or API key spending budget exceeded", to be topped up or
raised by its owner (https://exa.ai/docs/reference/error-codes)."""
API_ERRORS = ErrorMap(prefix="Exa API error", prepaid=PREPAID_STATUSES)
MCP_ERRORS = ErrorMap(prefix="Exa MCP request failed", messages={429: MCP_RATE_LIMIT_MESSAGE})
"""The MCP endpoint's 429 names the keyless limit (still a rate limit with its wait)."""
_MODE = "mode"
"""The :attr:`Flow.state` key that says which endpoint this call chose."""


class ExaProvider(ProtocolProvider):
    """The search API with a key, the keyless MCP tool without one; one request either way."""

    info = INFO
    errors = API_ERRORS

    def is_explicitly_available(self, context: ProviderContext) -> bool:
        """Always: without a key an explicit selection uses the keyless MCP tool."""
        return True

    def first_request(self, flow: Flow) -> HttpRequest:
        """The search API request when a key is configured, else the MCP tool call."""
        key = self.api_key(flow.context)
        flow.state[_MODE] = "api_key" if key is not None else "keyless"
        if key is not None:
            return self.build_api_request(flow.params, key)
        return self.build_mcp_request(flow.params, rpc_id())

    def error_map(self, flow: Flow) -> ErrorMap:
        """The MCP endpoint's texts in keyless mode, the API's otherwise."""
        return MCP_ERRORS if flow.state[_MODE] == "keyless" else API_ERRORS

    def parse(self, flow: Flow) -> SearchResponse:
        """The API body, or the MCP reply (SSE or JSON), as a response.

        The MCP tool takes no country, so a country asked for in keyless mode is recorded
        as ignored rather than as the API's ``userLocation``.
        """
        http = flow.last.response.as_http()
        mask = response_mask(flow.context)
        if flow.state[_MODE] == "api_key":
            return self.parse_api_response(http, flow.params, mask=mask)
        last = flow.last
        response = parse_mcp_body(
            http.text(),
            limit=result_count(flow.params),
            mask=mask,
            events=last.response.events if isinstance(last.response, SseResponse) else (),
            request_id=rpc_id_of(last.request),
        )
        country = flow.params.country
        if country is None:
            return response
        unsent = AppliedFilter(name="country", value=country, applied=("ignored",))
        return response.model_copy(update={"filters": (unsent,)})

    def build_api_request(self, params: SearchParams, key: str) -> HttpRequest:
        """``POST /search`` for ``params`` with the key in ``x-api-key`` (pure)."""
        return api_request(params, key)

    def build_mcp_request(self, params: SearchParams, request_id: str) -> HttpRequest:
        """The keyless JSON-RPC ``tools/call`` request for ``params`` (pure)."""
        return mcp_request(params, request_id)

    def check_api_response(self, response: HttpResponse) -> None:
        """Raise ``Exa API error (<status>): <body>`` typed by the shared classifier."""
        self.check(response)

    def check_mcp_response(self, response: HttpResponse) -> None:
        """Raise for a non-2xx MCP status; a 429 names the keyless rate limit."""
        self.check(response, MCP_ERRORS)

    def parse_api_response(
        self,
        response: HttpResponse,
        params: SearchParams,
        *,
        mask: Callable[[str], str] | None = None,
    ) -> SearchResponse:
        """The answer, sources and request id of a 2xx API body (``mask``: the call's)."""
        data = response.json(self.info.id, self.info.label)
        return api_response(data, limit=result_count(params), mask=mask)
