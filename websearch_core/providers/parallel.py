"""Parallel Search API: ranked web results with long, LLM-oriented excerpts, as JSON.

* **Endpoint:** ``POST https://api.parallel.ai/v1beta/search`` with a JSON body
  ``{"objective": <query>, "search_queries": [<query>], "mode": "fast", "excerpts":
  {"max_chars_per_result": 10000}}`` plus, when asked, ``source_policy``.
* **Auth:** header ``x-api-key: <key>`` (``PARALLEL_API_KEY``) and the beta header
  ``parallel-beta: search-extract-2025-10-10`` (plus JSON ``Accept`` / ``Content-Type``).
* **Source policy:** ``include_domains`` when one to ten are given, else ``exclude_domains``
  when one to ten are: Parallel applies one list ("Specifying exclude_domains is redundant
  when include_domains is set") and refuses more than ten domains ("Hard limit: 10 domains
  per request"; https://docs.parallel.ai/search/source-policy). A list that is not sent is
  checked on the results here and recorded ``post``, not ``native``. ``after_date`` is
  ``date_after``, else today (UTC) minus 1 / 7 / 30 / 365 days for ``recency``, as
  ``YYYY-MM-DD``.
* **Limits:** no count is sent (Parallel picks how many results to return); the sources
  are cut locally to ``num_search_results`` or ``limit``, default 10, clamped to 1..40.
* **Results:** ``{"search_id", "results": [{"url", "title", "excerpts": [...],
  "publish_date"}]}``. The snippet is the non-blank excerpts joined by a blank line; the
  title falls back to the URL; ``published_date`` is ``publish_date``; ``request_id`` is
  ``search_id``. Only ``http(s)`` URLs are kept.
* **Errors:** ``Parallel API error (<status>): <detail>`` typed by the shared classifier,
  where the detail is the first of ``message``, ``detail``, ``error`` (a string),
  ``error.message``, ``error.detail``, else the raw body; an empty body gives
  ``Parallel API error (<status>)``. A 2xx body that is not JSON raises
  ``Parallel search returned invalid JSON: <reason>``, one without a ``results`` list
  ``Parallel search returned an invalid response payload.`` (both
  :class:`~websearch_core.errors.ResponseParseError`).

Captures: ``fixtures/parallel/`` holds Parallel's documentation examples (placeholder
values) of the legacy ``/v1beta/search`` answer and of the newer ``/v1/search`` answer,
which adds ``session_id``; both parse the same way. The error example is the envelope
``{"type": "error", "error": {"ref_id", "message"}}``, whose ``error.message`` becomes the
detail.

The body is read by ``_parallel_parse``.

Docs: https://docs.parallel.ai/api-reference/legacy/search-beta/search
"""

from datetime import UTC, date, datetime
from typing import Any, Final

from ..errors import ResponseParseError
from ..filters import FilterSupport
from ..json_decode import json_loads
from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._common import recency_start
from ._json_api import honours
from ._parallel_parse import DEFAULT_RESULTS, error_detail, parse_body
from .base import ErrorMap, ProtocolProvider, ProviderContext, ProviderInfo, clamp_count

__all__ = [
    "BETA_HEADER",
    "INFO",
    "PARALLEL_ENDPOINT",
    "ParallelProvider",
    "error_detail",
    "parse_body",
    "request_body",
    "source_policy",
]

PARALLEL_ENDPOINT: Final = "https://api.parallel.ai/v1beta/search"
BETA_HEADER: Final = "search-extract-2025-10-10"
MAX_RESULTS: Final = 40
MAX_CHARS_PER_RESULT: Final = 10_000


MAX_DOMAINS: Final = 10
"""Source policy: "Hard limit: 10 domains per request", in either list."""
_FILTERS: Final = FilterSupport(
    native=frozenset({"include_domains", "exclude_domains", "date_after", "recency"}),
    domain_limit=MAX_DOMAINS,
    one_domain_list=True,
)
INFO = ProviderInfo(
    id="parallel",
    label="Parallel",
    kind="api",
    description="Requires PARALLEL_API_KEY",
    docs_url="https://docs.parallel.ai/api-reference/legacy/search-beta/search",
    env_vars=("PARALLEL_API_KEY",),
    honours=honours(_FILTERS),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="parallel",
    filters=_FILTERS,
)


def source_policy(params: SearchParams, today: date) -> dict[str, Any] | None:
    """The ``source_policy`` object for ``params``, or ``None`` when nothing restricts sources.

    Example:
        >>> source_policy(SearchParams(query="x", recency="week"), date(2026, 1, 8))
        {'after_date': '2026-01-01'}
    """
    policy: dict[str, Any] = {}
    sent = _FILTERS.sent_domains(params.include_domains, params.exclude_domains)
    if "include_domains" in sent:
        policy["include_domains"] = list(params.include_domains)
    elif "exclude_domains" in sent:
        policy["exclude_domains"] = list(params.exclude_domains)
    if params.date_after is not None:
        policy["after_date"] = params.date_after.isoformat()
    elif params.recency is not None:
        policy["after_date"] = recency_start(today, params.recency).isoformat()
    return policy or None


def request_body(params: SearchParams, today: date) -> dict[str, Any]:
    """The JSON body Parallel receives for ``params`` (pure)."""
    body: dict[str, Any] = {
        "objective": params.query,
        "search_queries": [params.query],
        "mode": "fast",
        "excerpts": {"max_chars_per_result": MAX_CHARS_PER_RESULT},
    }
    policy = source_policy(params, today)
    if policy is not None:
        body["source_policy"] = policy
    return body


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
                "x-api-key": key,
                "parallel-beta": BETA_HEADER,
            },
            json=request_body(params, datetime.now(UTC).date()),
        )

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources and search id of a 2xx body."""
        try:
            data = json_loads(response.body)
        except ValueError as exc:
            raise ResponseParseError(
                self.info.id, f"Parallel search returned invalid JSON: {exc}", 502
            ) from None
        limit = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
        return parse_body(data, limit)
