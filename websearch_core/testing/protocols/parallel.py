"""The Parallel Search API (``POST /v1/search``) as the simulator speaks it.

Success bodies follow the documentation example ``fixtures/parallel/v1_search_doc_example.json``:
``{"search_id", "results": [{"url", "title", "publish_date", "excerpts": [...]}],
"session_id"}``, each result with two excerpts (the snippet, then a second sentence) and a
``YYYY-MM-DD`` ``publish_date``. ``advanced_settings.max_results`` results are served
(default 10). :attr:`ParallelProtocol.warnings`, when set, goes with every answer as its
``warnings`` list, in Parallel's ``Warning`` shape ``{"type", "message", "detail"}``
(parallel-web/parallel-sdk-python ``src/parallel/types/shared/warning.py``); the
messages are the test's own, no document quoting a live one.

The request is checked against the ``/v1/search`` schema, more strictly than the live API
may be, so that a test proves the new wire and not merely an accepted one:

* any other path is a 404, the legacy ``/v1beta/search`` included;
* a ``parallel-beta`` header (the beta's opt-in, which ``/v1`` does not take) is a 422;
* ``search_queries`` is required: one to five non-blank strings of at most 200 characters;
* ``objective`` is optional, a string of at most 5,000 characters;
* ``mode`` is one of ``turbo``, ``basic``, ``advanced`` (``fast`` is a beta mode);
* the only top-level fields are those of ``/v1/search``: the beta's top-level
  ``excerpts``, ``source_policy``, ``max_results`` and ``processor`` are refused, as are
  unknown keys of ``advanced_settings`` and of its ``source_policy``;
* ``source_policy`` takes at most 200 domains in its two lists together and an
  ``after_date`` of the form ``YYYY-MM-DD``;
* ``location`` is an ISO 3166-1 alpha-2 country code (two letters), as the v1
  description (``AdvancedSearchSettings.location``) defines it.

Every refusal is a 422 in Parallel's envelope ``{"type": "error", "error": {"ref_id",
"message": "Request validation error", "detail"}}``, the ``detail`` naming the field. A
request without ``x-api-key`` gets a 401 in the same envelope. The query results are
derived from is :meth:`ParallelProtocol.query_of`: the ``objective``, else the first
keyword query. The API has no bot challenge, so :meth:`ParallelProtocol.challenge` is a
plain 403.
"""

import hashlib
import re
from typing import Any, Final

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._operators import DomainLists, Operators

__all__ = ["ParallelProtocol"]

PATH: Final = "/v1/search"
_DEFAULT_RESULTS: Final = 10
_MODES: Final = frozenset({"turbo", "basic", "advanced"})
_TOP_LEVEL: Final = frozenset(
    {
        "search_queries",
        "objective",
        "mode",
        "advanced_settings",
        "max_chars_total",
        "session_id",
        "client_model",
    }
)
_SETTINGS: Final = frozenset(
    {"max_results", "excerpt_settings", "source_policy", "fetch_policy", "location"}
)
_POLICY: Final = frozenset({"include_domains", "exclude_domains", "after_date"})
_MAX_QUERIES: Final = 5
_MAX_QUERY_CHARS: Final = 200
_MAX_OBJECTIVE_CHARS: Final = 5_000
_MAX_DOMAINS: Final = 200
_DATE: Final = re.compile(r"\d{4}-\d{2}-\d{2}")
_COUNTRY: Final = re.compile(r"[A-Za-z]{2}")


def _id(prefix: str, seed: str) -> str:
    return f"{prefix}_" + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:32]


def _error(status: int, message: str, detail: str | None = None) -> web.Response:
    error: dict[str, Any] = {"ref_id": _id("ref", message), "message": message}
    if detail is not None:
        error["detail"] = detail
    return web.json_response({"type": "error", "error": error}, status=status)


def _result(result: SimResult) -> dict[str, Any]:
    return {
        "url": result.url,
        "title": result.title,
        "excerpts": [result.snippet, f"More about {result.title}."],
        "publish_date": result.published[:10] if result.published else None,
    }


def _queries_problem(queries: Any) -> str | None:
    if not isinstance(queries, list) or not queries:
        return "search_queries: a list of one or more queries is required"
    if len(queries) > _MAX_QUERIES:
        return f"search_queries: at most {_MAX_QUERIES} queries"
    for query in queries:
        if not isinstance(query, str) or not query.strip():
            return "search_queries: each query must be a non-empty string"
        if len(query) > _MAX_QUERY_CHARS:
            return f"search_queries: each query must be at most {_MAX_QUERY_CHARS} characters"
    return None


def _policy_problem(policy: Any) -> str | None:
    if not isinstance(policy, dict):
        return "advanced_settings.source_policy: must be an object"
    unknown = sorted(set(policy) - _POLICY)
    if unknown:
        return f"advanced_settings.source_policy: unknown fields {unknown}"
    domains = 0
    for name in ("include_domains", "exclude_domains"):
        listed = policy.get(name, [])
        if not isinstance(listed, list) or not all(isinstance(d, str) for d in listed):
            return f"advanced_settings.source_policy.{name}: must be a list of domains"
        domains += len(listed)
    if domains > _MAX_DOMAINS:
        return f"advanced_settings.source_policy: at most {_MAX_DOMAINS} domains in all"
    after = policy.get("after_date")
    if after is not None and not (isinstance(after, str) and _DATE.fullmatch(after)):
        return "advanced_settings.source_policy.after_date: must be a YYYY-MM-DD date"
    return None


def _settings_problem(settings: Any) -> str | None:
    if settings is None:
        return None
    if not isinstance(settings, dict):
        return "advanced_settings: must be an object"
    unknown = sorted(set(settings) - _SETTINGS)
    if unknown:
        return f"advanced_settings: unknown fields {unknown}"
    count = settings.get("max_results")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
        return "advanced_settings.max_results: must be a positive integer"
    location = settings.get("location")
    if location is not None and not (isinstance(location, str) and _COUNTRY.fullmatch(location)):
        return "advanced_settings.location: must be an ISO 3166-1 alpha-2 country code"
    if "source_policy" in settings:
        return _policy_problem(settings["source_policy"])
    return None


def _problem(body: Any) -> str | None:
    """What makes ``body`` an invalid ``/v1/search`` request, or ``None`` when it is valid."""
    if not isinstance(body, dict):
        return "body: must be a JSON object"
    unknown = sorted(set(body) - _TOP_LEVEL)
    if unknown:
        return f"body: unknown fields {unknown}"
    objective = body.get("objective")
    if objective is not None and (
        not isinstance(objective, str) or len(objective) > _MAX_OBJECTIVE_CHARS
    ):
        return f"objective: a string of at most {_MAX_OBJECTIVE_CHARS} characters"
    mode = body.get("mode")
    if mode is not None and mode not in _MODES:
        return f"mode: must be one of {sorted(_MODES)}"
    return _queries_problem(body.get("search_queries")) or _settings_problem(
        body.get("advanced_settings")
    )


def _served(body: dict[str, Any]) -> int:
    settings = body.get("advanced_settings") or {}
    count = settings.get("max_results")
    return count if isinstance(count, int) else _DEFAULT_RESULTS


class ParallelProtocol:
    """Parallel's ``/v1/search`` JSON, its error envelope, a 403 and a non-JSON body."""

    operators = Operators(
        domains=DomainLists(
            "advanced_settings.source_policy.include_domains",
            "advanced_settings.source_policy.exclude_domains",
            include_wins=True,
        )
    )
    """The source policy's domains; with both lists, Parallel's docs say only the included
    one applies."""

    def __init__(self) -> None:
        self.warnings: list[dict[str, Any]] = []
        """The ``warnings`` every answer carries (none: the key is left out, as the
        documentation example leaves it out)."""

    def query_of(self, request: RecordedRequest) -> str:
        """The query the results are derived from: ``objective``, else the first keyword query."""
        try:
            body = request.json()
        except ValueError:
            return ""
        if not isinstance(body, dict):
            return ""
        objective = body.get("objective")
        if isinstance(objective, str) and objective.strip():
            return objective
        queries = body.get("search_queries")
        if isinstance(queries, list) and queries and isinstance(queries[0], str):
            return queries[0]
        return ""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Results for a valid ``POST /v1/search``; a 401, 404 or 422 otherwise."""
        if request.method != "POST" or request.path != PATH:
            return _error(404, "Not Found", f"no route for {request.method} {request.path}")
        if not (request.header("x-api-key") or "").strip():
            return _error(401, "Unauthorized: invalid or missing credentials")
        if request.header("parallel-beta") is not None:
            return _error(422, "Request validation error", "parallel-beta: not used by /v1")
        try:
            body = request.json()
        except ValueError:
            return _error(422, "Request validation error", "body: not JSON")
        problem = _problem(body)
        if problem is not None:
            return _error(422, "Request validation error", problem)
        seed = self.query_of(request)
        payload = {
            "search_id": _id("search", seed),
            "results": [_result(result) for result in results[: _served(body)]],
            "session_id": _id("session", seed),
        }
        if self.warnings:
            payload["warnings"] = self.warnings
        return web.json_response(payload)

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 whose body is cut off half way through the JSON."""
        return web.Response(
            text='{"search_id": "search_x", "results": [{"url": "https://example.org/cu',
            content_type="application/json",
        )
