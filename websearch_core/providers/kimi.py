"""Kimi Code search: the web search service of Moonshot's Kimi Code subscription, as JSON.

* **Endpoint:** ``POST https://api.kimi.com/coding/v1/search`` with a JSON body
  ``text_query``, ``limit``, ``enable_page_crawling: false`` and ``timeout_seconds: 30``.
  The *full* URL (not just the origin) can be replaced with ``MOONSHOT_SEARCH_BASE_URL``,
  then ``KIMI_SEARCH_BASE_URL``; it must be an ``http(s)`` URL without user info.
* **Auth:** ``Authorization: Bearer <key>`` plus ``Accept`` / ``Content-Type:
  application/json``. The key is a Kimi Code Console key from ``MOONSHOT_SEARCH_API_KEY``
  or ``KIMI_SEARCH_API_KEY`` (or ``websearch auth set kimi``).
* **Why not ``MOONSHOT_API_KEY``:** the spec's provider list names ``MOONSHOT_API_KEY`` too,
  but the behaviour reference records that the upstream code deliberately refuses it: that
  variable holds a Moonshot Open Platform key (``api.moonshot.ai`` / ``.cn``), which the
  Kimi Code service at ``api.kimi.com`` rejects. Accepting it would put Kimi in the auto
  chain for every Moonshot user only to fail with a 401 each time, so it is not read here
  and the missing-key message says so.
* **Limits:** ``limit`` is ``num_search_results`` or ``limit``, default 10, clamped to
  1..20. ``recency`` and the other filters have no equivalent and are not sent.
* **Results:** ``search_results[]``: title (else the URL), ``http(s)`` URL, snippet =
  ``snippet`` or else ``content``, ``published_date`` = ``date``, ``author`` =
  ``site_name``. ``request_id`` is the ``x-request-id`` (else ``x-msh-request-id``) header.
  A body without a ``search_results`` list is a
  :class:`~websearch_core.errors.ResponseParseError`, never an empty success.
* **Errors:** ``Kimi search API error (<status>): <body>`` after the shared classifier (so a
  401 reads ``Kimi authorization failed (401) ...``). A 403 saying the subscription's
  "usage limit for this billing cycle" is reached is a spent balance (:data:`CYCLE_SPENT`),
  re-checked. A 403 naming a used-up "5-hour" or "weekly (7-day)" usage limit is a quota
  spent until that window can last end (:data:`USAGE_WINDOWS`), and so is a 429 naming the
  "usage limit for this period" (5 hours); a 429 naming its "monthly usage limit" is a spent
  cycle (:data:`MONTH_SPENT`); its busy-service 429s stay rate limits. Display
  texts stay the spec's (``Kimi authorization failed (403) ...``).

Captures: there is no real capture of this API. ``fixtures/kimi/*.json`` are responses of a
*different* Moonshot API, ``/v1/chat/completions`` with the builtin ``$web_search`` tool
(``choices[].message.tool_calls`` with a ``search_id``, then a markdown answer), which this
provider never calls. They do not apply to the parser beyond one check: that such a body is
refused as a parse error. The shape handled here is the one the reference documents, also
used by Moonshot's own open-source ``kimi-cli`` (which requires ``search_results`` with
``site_name``, ``title``, ``url``, ``snippet`` and optional ``content``, ``date``, ``icon``,
``mime``).

The request is built in ``_kimi_request``; the body is read in ``_kimi_parse``.

Docs: https://www.kimi.com/code/docs/
"""

from typing import Final

from ..errors import ProviderNotConfiguredError
from ..filters import FilterSupport
from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._json_api import COUNT_FIELDS
from ._kimi_parse import parse_results
from ._kimi_request import (
    DEFAULT_RESULTS,
    KIMI_ENDPOINT,
    MAX_RESULTS,
    URL_ENV_VARS,
    request_body,
    search_request,
    search_url,
)
from .base import KEY_IN_AUTHORIZATION, ErrorMap, ProtocolProvider, ProviderContext, ProviderInfo

__all__ = [
    "CYCLE_SPENT",
    "FIVE_HOURS",
    "INFO",
    "KIMI_ENDPOINT",
    "MISSING_KEY_MESSAGE",
    "MONTH_SPENT",
    "SEVEN_DAYS",
    "URL_ENV_VARS",
    "USAGE_WINDOWS",
    "KimiProvider",
    "parse_results",
    "request_body",
    "search_url",
]

MISSING_KEY_MESSAGE: Final = (
    "Kimi search credentials not found. Kimi web search uses the Kimi Code service "
    "(api.kimi.com); set MOONSHOT_SEARCH_API_KEY / KIMI_SEARCH_API_KEY to a Kimi Code "
    "Console key, or run `websearch auth set kimi`. A Moonshot Open Platform key "
    "(MOONSHOT_API_KEY) is not accepted here."
)

CYCLE_SPENT: Final = "usage limit for this billing cycle"
"""Kimi Code's 403 when the subscription's cycle is used up: "You've reached your usage limit
for this billing cycle" (https://www.kimi.com/code/docs/en/kimi-code/error-reference.html,
Permission Errors), observed with ``permission_error`` or ``access_terminated_error``, the
types of a key refused too, so the words decide. Read as a spent balance, re-checked every
few hours: the cycle ends on the subscription's own date, which no answer names, so neither
an authorization cooldown (five minutes, then refused again) nor next month fits."""

MONTH_SPENT: Final = "monthly usage limit"
"""Kimi Code's 429 "You've reached kimi monthly usage limit" (the same error reference,
Quick Lookup, Rate Limits & Quotas; no captured body). With no "quota" word the shared
classifier read it as a rate limit, so Kimi was asked again every minute for the rest of the
month. The month is the subscription's own, as the billing cycle above is (no answer names
its end): read the same way, a spent balance re-checked every few hours, rather than held
out to the calendar's next month (too early or too late by up to a month)."""

FIVE_HOURS: Final = 5 * 3600.0
SEVEN_DAYS: Final = 7 * 86400.0

USAGE_WINDOWS: Final = (
    ("5-hour usage limit", FIVE_HOURS),
    ("weekly (7-day) usage limit", SEVEN_DAYS),
    ("usage limit for this period", FIVE_HOURS),
)
"""Kimi Code's 403 when the subscription's rolling 5-hour or weekly window is used up:
"You've reached your 5-hour usage limit. Your quota will reset when the current 5-hour
window ends. ..." (a router's production log, diegosouzapw/OmniRoute, 2026-09-23) and
"You've reached your weekly (7-day) usage limit. Your quota will reset when the current
7-day window ends. ..." (openclaw/openclaw #142524 and #142656, 2026-09), also quoted by
their first sentence alone. Their error types (``access_terminated_error``,
``permission_error``) are a refused key's too, so the words decide. Neither body nor any
header seen names the end; a window starts at the latest with the answer saying it is
used up, so Kimi is held out for the window's whole length (the latest it can end),
or until a ``Retry-After`` if one is sent.

Its 429 "You've reached your usage limit for this period" (error reference, Quick Lookup,
Rate Limits & Quotas; no captured body) says the usage is spent without naming the
period. With no "quota" word the shared classifier read it as a rate limit: Kimi asked
again every minute, refused until the period ended (a relay's users saw a Kimi 429, its
body not quoted, last until the 5-hour reset: Wei-Shaw/sub2api #6573). Held out 5 hours, the
shorter of Kimi Code's two windows: never longer than the period can last if it is the
5-hour one, and one refused request per 5 hours if it is the weekly one. The other two
429 keywords there ("The engine is currently overloaded", "We're receiving too many
requests") are a busy service, left to the shared classifier as rate limits."""

_FILTERS: Final = FilterSupport.query_only()
"""No filter parameter: its query carries the operators, its results are still checked."""
INFO = ProviderInfo(
    id="kimi",
    label="Kimi",
    kind="api",
    description=(
        "Kimi Code search (requires a Kimi Code Console key via KIMI_SEARCH_API_KEY/"
        "MOONSHOT_SEARCH_API_KEY or `websearch auth set kimi`; not MOONSHOT_API_KEY)"
    ),
    docs_url="https://www.kimi.com/code/docs/",
    env_vars=("MOONSHOT_SEARCH_API_KEY", "KIMI_SEARCH_API_KEY"),
    honours=COUNT_FIELDS,
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="kimi",
    filters=_FILTERS,
)


class KimiProvider(ProtocolProvider):
    """The Kimi Code search provider (see the module docstring for the wire details)."""

    info = INFO
    credential_kinds = KEY_IN_AUTHORIZATION
    errors = ErrorMap(
        prefix="Kimi search API error",
        prepaid_phrases=(CYCLE_SPENT, MONTH_SPENT),
        usage_windows=USAGE_WINDOWS,
    )

    def require_api_key(self, context: ProviderContext) -> str:
        """The key, or the Kimi-specific ``credentials not found`` error."""
        key = self.api_key(context)
        if key is None:
            unseen = context.credentials.unseen_clause(self.info.env_vars)
            raise ProviderNotConfiguredError(self.info.id, MISSING_KEY_MESSAGE + unseen)
        return key

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The POST request for ``params``.

        Raises:
            ProviderNotConfiguredError: No Kimi Code key is configured.
            ConfigurationError: The URL override is invalid.
        """
        key = self.require_api_key(context)
        return search_request(params, key, context.credentials.env)

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources of a 2xx body, with the request id header."""
        data = response.json(self.info.id, self.info.label)
        return SearchResponse(
            provider=self.info.id,
            sources=parse_results(data),
            request_id=response.header("x-request-id") or response.header("x-msh-request-id"),
            auth_mode="api_key",
        )
