"""Kagi Search API: Kagi's own results, plus related searches and direct answers, as JSON.

* **Endpoint:** ``POST https://kagi.com/api/v1/search`` with a JSON body
  ``{"query", "workflow": "search", "limit", "filters": {"after", "before", "region"}}``;
  ``filters`` is sent only when one of them is asked, each key only when asked.
* **Auth:** ``Authorization: Bearer <key>`` (``KAGI_API_KEY``), plus ``Content-Type`` and
  ``Accept: application/json``, as the spec and the behaviour reference send it. Kagi's
  pages disagree on the scheme, so this follows the one that describes the request sent:
  Kagi's API reference for ``POST /api/v1/search`` with a JSON body, the OpenAPI
  description (kagi.com/api/docs, ``_spec/openapi.json``; kagisearch/kagi-api-golang
  ``api/openapi.yaml``), declares ``securitySchemes.kagi`` as HTTP ``bearer``, and the
  newer quick start (kagisearch/kagi-docs ``docs/kagi/api/quick-start.md``) POSTs with
  ``Bearer``. ``Bot`` is the v0 scheme ("Currently, the only token type is Bot",
  ``docs/kagi/api/intro/auth.md``; the v0 ``GET /api/v0/search?q=`` examples); the Search
  API and API portal help pages still show it in a one-line ``GET /api/v1/search?q=``
  example, a form the reference does not define, and the Search API page itself names the
  OpenAPI description as "the full Search API reference". No source shows ``/api/v1``
  refusing either scheme, so there is no second try with the other. Kagi's Search API is
  a closed beta: a key needs Kagi's approval.
* **Limits:** ``limit`` is ``num_search_results`` or ``limit``, default 10, clamped to
  1..40 (the spec's cap; Kagi's description takes 1..1024 and says ``limit`` only caps
  what is returned); the parsed sources are cut to the same number.
* **Filters** (built in ``_kagi_request``), as Kagi's OpenAPI description lists them
  (``search_request_filters``: ``region``, ``after``, ``before``): ``filters.after`` is
  ``date_after`` when given, else today (UTC) minus one day / seven days / one calendar
  month / one calendar year for ``recency``; ``filters.before`` is ``date_before``;
  ``filters.region`` is ``country`` as an upper-case ISO 3166-1 alpha-2 code (the SDK,
  kagisearch/kagi-api-python ``docs/SearchRequestFilters.md``: "an ISO 3166-1 Alpha-2
  country code. See https://help.kagi.com/api/regions for supported codes"; that list, and
  so the letter case, was not found; upper case is how ISO writes them). A calendar
  step that lands past the end of a month is clamped to its last day (March 31 minus a
  month is February 28 or 29), where JavaScript's ``setUTCMonth`` would roll into March.
  The description has no language parameter, so ``language`` is ignored.
* **Query operators:** ``site:``, ``-site:``, phrases, ``-term`` and ``filetype:`` stay in
  (or are written into) ``query``. Kagi's own help lists ``filetype:``, ``site:``,
  ``inurl:``, ``intitle:``, quotes, ``AND`` / ``OR``, ``+`` / ``-`` and ``*`` among its
  search operators (https://help.kagi.com/kagi/features/search-operators.html, source
  ``kagisearch/kagi-docs`` ``docs/kagi/features/search-operators.md``), so ``filetype:`` is
  trusted to Kagi as ``site:`` is, not checked here. The page describes Kagi's search box;
  the API's docs do not say its ``query`` reads them differently.
* **Results** (read in ``_kagi_parse``), v1 envelope: ``{"meta": {"trace", "id", "ms"},
  "data": {...}}``. Sources are ``data.search``, then ``data.video`` (title prefixed
  ``[Video] ``), ``data.news`` (``[News] ``) and ``data.infobox`` (``[Info] ``); each item's
  URL is the first non-empty ``url`` / ``href`` / ``link``, its title ``title`` / ``name``
  (else the URL), its snippet ``snippet`` / ``description`` / ``summary`` and its date
  ``time``. Related questions come from ``data.adjacent_question`` then
  ``data.related_search`` (``props.question``, else ``props.query``, else ``title``); the
  answer is ``data.direct_answer[0].snippet`` (else its ``title``); ``request_id`` is
  ``meta.trace``, else ``meta.id``.
* **Errors:** ``Kagi API error (<status>): <detail>`` typed by the shared classifier, but
  Kagi's error code ``101`` ("Insufficient credit": the API is paid from a credit balance
  its owner tops up) is a :class:`~websearch_core.errors.CreditsSpentError` at any status,
  checked again after a while instead of held out until next month; the detail is
  ``message`` / ``detail``, else ``error`` / ``errors`` (a string, or the first
  ``message`` / ``msg`` / ``code`` of a list), else the raw body; an empty body gives
  ``Kagi API error (<status>)``. A 2xx body carrying ``error`` / ``errors`` raises
  ``Kagi API error (<code or status>): <msg>``, its message read as the detail is (a
  top-level ``message`` / ``detail`` first; ``errors`` not beside an ``error`` list).
  Unreadable bodies raise
  :class:`~websearch_core.errors.ResponseParseError` with ``Kagi API returned an invalid
  response: invalid JSON`` / ``expected an object envelope`` / ``expected data to be an
  object``.

Capture vs reference: the only real bodies (``fixtures/kagi/v0_search_doc_example_*.json``,
examples from Kagi's docs) are the **v0** API (``GET https://kagi.com/api/v0/search?q=...``
with ``Authorization: Bot <key>``), whose ``data`` is a *list*: ``t: 0`` items are results
(``url``, ``title``, ``snippet``, ``published``, ``thumbnail``; older ones also ``rank``)
and a ``t: 1`` item holds ``list``, the related searches. The capture wins on parsing, so
:func:`parse_body` accepts both shapes: ``t: 0`` items become sources (``published`` is the
date) and ``t: 1`` lists become related questions; ``meta.id`` is the request id. The
request stays the v1 one the reference describes. The v0 titles and snippets carry HTML
(``<b>Steve Jobs</b>``, ``&amp;``, ``&#39;``, ``&nbsp;``), so titles and snippets of either
shape are reduced to plain text (tags stripped, entities decoded, whitespace collapsed).

Docs: https://help.kagi.com/kagi/api/search.html
"""

from datetime import UTC, datetime
from typing import Final

from ..errors import CreditsSpentError, ResponseParseError
from ..event_stream_body import invalid_json_text
from ..filters import QUERY_OPERATORS, FilterSupport
from ..json_decode import response_json
from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._json_api import honours
from ._kagi_parse import (
    DEFAULT_RESULTS,
    INVALID,
    body_error,
    body_failure,
    error_code,
    error_detail,
    parse_body,
)
from ._kagi_request import MAX_RESULTS, after_date, request_body
from .base import (
    KEY_IN_AUTHORIZATION,
    ErrorMap,
    ProtocolProvider,
    ProviderContext,
    ProviderInfo,
    clamp_count,
)

__all__ = [
    "INFO",
    "KAGI_ENDPOINT",
    "SPENT_CREDIT_CODES",
    "KagiProvider",
    "after_date",
    "error_detail",
    "parse_body",
    "request_body",
]

KAGI_ENDPOINT: Final = "https://kagi.com/api/v1/search"
SPENT_CREDIT_CODES: Final = {"101": CreditsSpentError}
"""Kagi's error code ``101``, "Insufficient credit": the API portal's prepaid credit is
spent until its owner tops it up (https://help.kagi.com/kagi/api/intro/response-format.html
lists the code; https://help.kagi.com/kagi/api/overview.html the top-up)."""

_FILTERS: Final = FilterSupport(
    native=frozenset({"date_after", "date_before", "recency", "country"}), query=QUERY_OPERATORS
)
INFO = ProviderInfo(
    id="kagi",
    label="Kagi",
    kind="api",
    description="Requires KAGI_API_KEY and Kagi Search API beta access",
    docs_url="https://help.kagi.com/kagi/api/search.html",
    env_vars=("KAGI_API_KEY",),
    honours=honours(_FILTERS),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="kagi",
    filters=_FILTERS,
)


class KagiProvider(ProtocolProvider):
    """The Kagi Search API provider (see the module docstring for the wire details)."""

    info = INFO
    credential_kinds = KEY_IN_AUTHORIZATION
    errors = ErrorMap(
        prefix="Kagi API error", detail=error_detail, code=error_code, codes=SPENT_CREDIT_CODES
    )

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The v1 POST request for ``params``."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="POST",
            url=KAGI_ENDPOINT,
            headers={
                "Authorization": f"Bearer {key}",
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
            json=request_body(params, datetime.now(UTC).date()),
        )

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources, related questions, answer and request id of a 2xx body.

        Raises:
            SearchProviderError: The body reports an error (typed like a failed status).
            ResponseParseError: The body is not a Kagi response.
        """
        try:
            envelope = response_json(response.body)
        except ValueError:
            content_type = response.header("Content-Type")
            text = invalid_json_text(INVALID, content_type, response.body, "invalid JSON")
            raise ResponseParseError(self.info.id, text, 502) from None
        message, code = body_error(envelope)
        if message:
            raise body_failure(response, message, code)
        limit = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
        return parse_body(envelope, limit)
