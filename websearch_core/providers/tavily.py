"""Tavily Search API: web results plus a short generated answer, as JSON.

* **Endpoint:** ``POST https://api.tavily.com/search`` with a JSON body: ``query``,
  ``search_depth: "basic"``, ``max_results``, ``include_answer: "advanced"``,
  ``include_raw_content: false``, and when asked ``include_domains``, ``exclude_domains``,
  ``start_date`` (``date_after``), ``end_date`` (``date_before``) and ``time_range``
  (``recency``, sent only when neither date is), and ``country`` as Tavily's lower-case
  English name for it (``de`` -> ``germany``, :mod:`._tavily_countries`); a country Tavily
  has no name for is not sent and is recorded as ignored. ``topic`` is never sent, so
  searches keep Tavily's general scope even with a recency filter (and ``country``, which
  Tavily takes only with the general topic, applies).
* **Auth:** ``Authorization: Bearer <key>`` (``TAVILY_API_KEY``), plus ``Accept:
  application/json`` (the answer is one JSON object; the behaviour reference sends none).
* **Limits:** ``max_results`` is ``num_search_results`` or ``limit``, default 5, clamped to
  5..20 as ``spec/web_search.md`` states (the behaviour reference says the upstream code
  clamps to 1..20; the spec is the authority here, see ``MIN_RESULTS``).
* **Retry:** when a time filter was sent and the answer came back with neither an answer nor
  a source, the request is sent once more without ``time_range``, ``start_date`` and
  ``end_date``.
* **Results:** ``answer`` (trimmed; ``null`` gives none) and ``results[]`` as sources: title
  (else the URL), URL (``http(s)`` only), ``content`` as the snippet, ``published_date``,
  and ``raw_content``, when a body has it (this request asks for none, a gateway may add
  it), as the source's page ``content``.
  ``request_id`` comes from the body.
* **Errors:** ``Tavily API error (<status>): <msg>``, where ``msg`` is the first
  ``detail`` / ``error`` / ``message`` string found anywhere in a JSON body (Tavily nests it:
  ``{"detail": {"error": "..."}}``), else the raw body, else the status phrase. The shared
  classifier still decides the error type; Tavily's own 432 (plan limit) is raised as
  :class:`~websearch_core.errors.QuotaExhaustedError` and 433 (pay-as-you-go limit, the
  owner's to raise) as :class:`~websearch_core.errors.CreditsSpentError`.

Quirks: both real captures (``fixtures/tavily/*.json``, keys alphabetised by the recorder)
have ``answer: null``, no ``published_date`` on any result (the reference lists the field,
but general-topic results carry none), and markdown fragments in ``content`` (``## ...``,
``**bold**``), which are passed through unchanged; they also carry ``raw_content: null``,
``score``, ``images``, ``follow_up_questions`` and ``response_time``, which are not used.

The request is built in ``_tavily_request`` and bodies are read in ``_tavily_parse``.

Docs: https://docs.tavily.com/documentation/api-reference/endpoint/search
"""

from collections.abc import Mapping
from dataclasses import replace
from typing import Final

from ..errors import QuotaExhaustedError
from ..filters import TERM_OPERATORS, FilterSupport
from ..models import AppliedFilter, SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._common import bearer_json_headers
from ._json_api import honours
from ._tavily_countries import tavily_country
from ._tavily_parse import error_message, parse_answer, parse_results
from ._tavily_request import DEFAULT_RESULTS, MAX_RESULTS, request_body, without_time_filter
from .base import (
    KEY_IN_AUTHORIZATION,
    ErrorMap,
    Flow,
    ProtocolProvider,
    ProviderContext,
    ProviderInfo,
)

__all__ = [
    "INFO",
    "TAVILY_ENDPOINT",
    "TavilyProvider",
    "error_message",
    "parse_answer",
    "parse_results",
    "request_body",
    "without_time_filter",
]

TAVILY_ENDPOINT: Final = "https://api.tavily.com/search"
ACCEPT: Final = "application/json"
"""``/search`` answers one JSON object, and Tavily's own MCP server asks for just that."""
QUOTA_STATUSES: Final = frozenset({432, 433})
"""Tavily's "plan limit exceeded" (432) and "pay-as-you-go limit exceeded" (433)."""
PREPAID_STATUSES: Final = frozenset({433})
"""433: the pay-as-you-go limit, which its owner raises on the dashboard ("You can
increase your limit on the Tavily dashboard",
https://help.tavily.com/articles/8645538886-understanding-http-errors); re-checked. 432 is
the plan's monthly credits and waits for the month."""

_FILTERS: Final = FilterSupport(
    native=frozenset(
        {"include_domains", "exclude_domains", "date_after", "date_before", "recency", "country"}
    ),
    query=TERM_OPERATORS,
    unpromised=TERM_OPERATORS,
    reads_or=False,
)
"""Quotes and ``-term`` stay in ``query`` (the behaviour reference's ``{phrases,negation}``);
Tavily's docs do not say it reads them, so its results are still checked for them."""
INFO = ProviderInfo(
    id="tavily",
    label="Tavily",
    kind="api",
    description="Requires TAVILY_API_KEY",
    docs_url="https://docs.tavily.com/documentation/api-reference/endpoint/search",
    env_vars=("TAVILY_API_KEY",),
    key_prefixes=("tvly-",),  # its quickstart's tvly-YOUR_API_KEY; its keys start so
    honours=honours(_FILTERS),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="tavily",
    filters=_FILTERS,
)


class TavilyProvider(ProtocolProvider):
    """The Tavily search provider (see the module docstring for the wire details)."""

    info = INFO
    credential_kinds = KEY_IN_AUTHORIZATION
    errors = ErrorMap(
        prefix="Tavily API error",
        detail=error_message,
        statuses=dict.fromkeys(QUOTA_STATUSES, QuotaExhaustedError),
        prepaid=PREPAID_STATUSES,
    )

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The POST request for ``params``."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="POST",
            url=TAVILY_ENDPOINT,
            headers=bearer_json_headers(key, accept=ACCEPT),
            json=request_body(params),
        )

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """Once, the same search without its time filter when that filter emptied the answer."""
        if len(flow.exchanges) > 1 or flow.last.response.status != 200:
            return None
        request = flow.last.request
        response = flow.last.response
        if not isinstance(request.json, Mapping) or not isinstance(response, HttpResponse):
            return None
        if self.parse_response(response, flow.params).has_renderable_content():
            return None
        retry_body = without_time_filter(request.json)
        return None if retry_body is None else replace(request, json=retry_body)

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The answer and sources of a 2xx body; a country Tavily has no name for, ignored."""
        data = response.json(self.info.id, self.info.label)
        sources = parse_results(data)  # checks that data is a mapping
        request_id = data.get("request_id")
        unsent: tuple[AppliedFilter, ...] = ()
        if params.country is not None and tavily_country(params.country) is None:
            unsent = (AppliedFilter(name="country", value=params.country, applied=("ignored",)),)
        return SearchResponse(
            provider=self.info.id,
            answer=parse_answer(data),
            sources=sources,
            request_id=request_id if isinstance(request_id, str) and request_id else None,
            auth_mode="api_key",
            filters=unsent,
        )
