"""Parallel Search API: ranked web results with long, LLM-oriented excerpts, as JSON.

* **Endpoint:** ``POST https://api.parallel.ai/v1/search`` (generally available; the
  legacy ``/v1beta/search`` and its ``parallel-beta`` header are no longer used). The body
  is built in ``_parallel_request``::

      {"search_queries": [<query, at most 200 characters>], "objective": <query>,
       "mode": "turbo" | "basic", "advanced_settings": {"max_results": <count>,
       "excerpt_settings": {"max_chars_per_result": 10000}, "source_policy": {...}}}

  ``search_queries`` is required and takes at most five entries of 200 characters; we send
  one. A longer query goes whole in ``objective`` (at most 5,000 characters, more than any
  query we accept) and is cut between words for ``search_queries``. ``mode`` is ``turbo``,
  the cheapest and fastest (the default, ``advanced``, costs five times as much), for a
  query in English or Japanese; ``basic`` for any other language, which turbo does not
  serve (:func:`._parallel_request.search_mode`: the caller's ``language``, else the
  query's letters).
* **Auth:** header ``x-api-key: <key>`` (``PARALLEL_API_KEY``), plus JSON ``Accept`` /
  ``Content-Type``.
* **Source policy** (``advanced_settings.source_policy``, sent only when it restricts
  something): ``include_domains`` when given, else ``exclude_domains``: Parallel ignores the
  excluded list whenever the included one is set, and takes at most 200 entries in the two
  together. A list that is not sent is checked on the results here and recorded ``post``,
  not ``native``. ``after_date`` (``YYYY-MM-DD``) is the later of ``date_after`` and today
  (UTC) minus 1 / 7 / 30 / 365 days for ``recency``, so both are applied upstream. There is
  no end date: ``date_before`` is checked on the results.
* **Country:** ``advanced_settings.location``, the ISO 3166-1 alpha-2 code in lower case
  (``us``), as the v1 description has it (parallel-web/parallel-sdk-python
  ``src/parallel/types/advanced_search_settings_param.py``: "ISO 3166-1 alpha-2 country
  code for geo-targeted search results"; Parallel's search reference in
  parallel-web/parallel-agent-skills writes ``us``, ``gb``, ``de``). Parallel serves a
  subset of countries and says so in ``warnings``; the code goes whatever it is.
* **Limits:** ``advanced_settings.max_results`` is ``num_search_results`` or ``limit``,
  default 10, clamped to 1..40 (more than 10 results are billed extra), and the sources are
  cut locally to the same count.
* **Results:** ``{"search_id", "results": [{"url", "title", "excerpts": [...],
  "publish_date"}], "session_id", "warnings", "usage"}``. The snippet is the non-blank
  excerpts joined by a blank line; the title falls back to the URL; ``published_date`` is
  ``publish_date``; ``request_id`` is ``search_id``. Only ``http(s)`` URLs are kept.
* **Warnings:** ``warnings`` is a list of ``{"type", "message", "detail"}`` (Parallel's
  ``Warning``, parallel-web/parallel-sdk-python ``src/parallel/types/shared/warning.py``;
  the search reference: "Warnings for the search request, if any"), a location it does
  not serve among them. Each message becomes a note, ``Parallel warning: <message>``
  (:func:`._parallel_parse.warning_notes`), and is logged at WARNING, as SearXNG's
  engines that did not answer are; the results are kept whatever the warnings say. The
  spec's text has no place for a provider's notes, so the model reads one only as the
  reason of an empty answer's error; the notes are in the structured response. Every
  secret of the call (the key sent, a proxy's password) is masked in both, should a
  warning echo it.
* **Errors:** ``Parallel API error (<status>): <detail>`` typed by the shared classifier,
  where the detail is the first of ``message``, ``detail``, ``error`` (a string),
  ``error.message``, ``error.detail``, else the raw body; an empty body gives
  ``Parallel API error (<status>)``. Parallel's envelope is ``{"type": "error", "error":
  {"ref_id", "message", "detail"}}``, so its ``error.message`` is the detail. A 2xx body
  that is not JSON raises ``Parallel search returned invalid JSON: <reason>``, one without
  a ``results`` list ``Parallel search returned an invalid response payload.`` (both
  :class:`~websearch_core.errors.ResponseParseError`).

Departure from the spec and the behaviour reference (§8.15), which send the beta shape
(``/v1beta/search``, ``parallel-beta: search-extract-2025-10-10``, ``mode: "fast"``,
top-level ``excerpts`` and ``source_policy``) and no count: Parallel's migration guide
moves that shape to ``/v1/search``, where ``fast`` is not a mode and the settings live
under ``advanced_settings``.

Captures: ``fixtures/parallel/`` holds Parallel's documentation examples (placeholder
values) of the ``/v1/search`` answer, of the legacy ``/v1beta/search`` answer (the same
without ``session_id``) and of the error envelope; all parse as above.

The body is read by ``_parallel_parse``.

Docs: https://docs.parallel.ai/api-reference/search/search (request and response),
https://docs.parallel.ai/search/search-migration-guide (beta to v1),
https://docs.parallel.ai/search/advanced-search-settings, https://docs.parallel.ai/search/modes
and https://docs.parallel.ai/getting-started/pricing (modes and their prices),
https://docs.parallel.ai/search/source-policy (domain lists and ``after_date``).
"""

import logging
from datetime import UTC, datetime
from typing import Final

from ..clauses import join_clauses
from ..errors import ResponseParseError
from ..event_stream_body import invalid_json_text
from ..json_decode import response_json
from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._json_api import honours
from ._parallel_parse import DEFAULT_RESULTS, error_detail, parse_body
from ._parallel_request import FILTERS, MAX_RESULTS, request_body, source_policy
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext, ProviderInfo, clamp_count

__all__ = [
    "INFO",
    "PARALLEL_ENDPOINT",
    "ParallelProvider",
    "error_detail",
    "parse_body",
    "request_body",
    "source_policy",
]

PARALLEL_ENDPOINT: Final = "https://api.parallel.ai/v1/search"
KEY_HEADER: Final = "x-api-key"

logger = logging.getLogger("websearch_core.providers.parallel")

INFO = ProviderInfo(
    id="parallel",
    label="Parallel",
    kind="api",
    description="Requires PARALLEL_API_KEY",
    docs_url="https://docs.parallel.ai/api-reference/search/search",
    env_vars=("PARALLEL_API_KEY",),
    honours=honours(FILTERS),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="parallel",
    filters=FILTERS,
)


class ParallelProvider(ProtocolProvider):
    """The Parallel Search API provider (see the module docstring for the wire details)."""

    info = INFO
    errors = ErrorMap(prefix="Parallel API error", detail=error_detail)

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The POST request for ``params``."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="POST",
            url=PARALLEL_ENDPOINT,
            headers={
                "Accept": "application/json",
                "Content-Type": "application/json",
                KEY_HEADER: key,
            },
            json=request_body(params, datetime.now(UTC).date()),
        )

    def parse(self, flow: Flow) -> SearchResponse:
        """The response to the search; its warnings, if any, logged and kept as notes.

        Logged here rather than in :meth:`parse_response` because the transport is at
        hand: a warning that repeats a secret of the call (the key it was sent with, the
        proxy's password) says it masked (``Transport.masked``), as the notes do once the
        core has cleaned the response.
        """
        answer = super().parse(flow)
        if answer.notes:
            logger.warning("%s", flow.context.transport.masked(join_clauses(answer.notes)))
        return answer

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources, search id and warnings of a 2xx body."""
        try:
            data = response_json(response.body)
        except ValueError as exc:
            text = invalid_json_text(
                "Parallel search returned invalid JSON",
                response.header("Content-Type"),
                response.body,
                str(exc),
            )
            raise ResponseParseError(self.info.id, text, 502) from None
        limit = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
        return parse_body(data, limit)
