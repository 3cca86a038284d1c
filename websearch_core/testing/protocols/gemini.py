"""Gemini with Google Search grounding as the simulator speaks it.

* ``POST /v1beta/models/<model>:streamGenerateContent`` (the Developer API) needs an
  ``x-goog-api-key`` header; without one it answers Google's 403 ``PERMISSION_DENIED``
  error body. With ``alt=sse`` it answers an event stream of ``GenerateContentResponse``
  chunks in the shape of the real capture
  ``fixtures/gemini/stream_generate_content_google_search.sse``: text arrives in three
  chunks whose ``groundingMetadata`` is ``{}``, and the last chunk carries
  ``finishReason: "STOP"`` with every ``groundingChunks[].web`` (``uri``, and the site's
  host as ``title``, as the live service titles them), one ``groundingSupports`` entry per
  cited sentence, ``webSearchQueries``, ``usageMetadata``, ``modelVersion`` and
  ``responseId``. Without ``alt=sse`` it answers the same chunks as one JSON array. A
  request without the ``google_search`` tool gets an answer with no grounding at all.
  The tool's object is checked as Google documents ``GoogleSearch`` for the Gemini API:
  its only field here is ``timeRangeFilter``, an ``Interval`` of ``startTime`` and
  ``endTime``, both or neither, each an RFC 3339 timestamp string, the start not after
  the end; anything else is Google's ``400 INVALID_ARGUMENT``. Every request's tool
  object is kept in :attr:`GeminiProtocol.search_tools`. With ``honour_dates`` on, a
  valid window leaves out dated results outside it (start included, end excluded). A
  model in :attr:`GeminiProtocol.refuses_time_filter` refuses ``timeRangeFilter`` as an
  unknown field (``400 INVALID_ARGUMENT`` naming it), as a model or route without it would.
* ``POST /v1internal:streamGenerateContent`` (Cloud Code Assist) needs a bearer token and a
  ``project``; it streams the same chunks wrapped as ``{"response": ..., "traceId": ...}``.
  It takes a Vertex-shaped request (the Gemini CLI's ``VertexGenerateContentRequest``),
  and Vertex AI's ``GoogleSearch`` has no time filter: a ``timeRangeFilter`` there is
  refused as an unknown field (``400 INVALID_ARGUMENT``), the simulator's stand-in for
  an API that documents none.
* ``POST /v1internal:loadCodeAssist`` answers ``{"currentTier": {"id": "free-tier"},
  "cloudaicompanionProject": "sim-project-0001"}``.
* ``POST /v1internal:fetchAvailableModels`` (body ``{"project": ...}``) answers
  :attr:`GeminiProtocol.catalog`, an Antigravity account's catalogue in the shape public
  clients read (``models`` keyed by id with ``displayName``, ``maxTokens``,
  ``quotaInfo``...; ``defaultAgentModelId``; ``webSearchModelIds``; ``deprecatedModelIds``).
* ``POST /v1internal:retrieveUserQuota`` (body ``{"project": ...}``) answers
  :attr:`GeminiProtocol.quota`, a Gemini CLI account's quota buckets (``modelId``,
  ``tokenType``, ``remainingFraction``, ``resetTime``): by default an account without
  preview access (2.5 models only).
  Cloud Code streams any model while :attr:`GeminiProtocol.enforce_catalog` is off (the
  default); on, a model the account lacks gets :attr:`GeminiProtocol.unknown_model`
  (Google's ``404 NOT_FOUND`` "Requested entity was not found." unless a test sets a
  ``400 INVALID_ARGUMENT`` naming the model). Which models an account has: a request with
  the Gemini CLI's ``User-Agent`` is a Gemini CLI account (its quota buckets), any other an
  Antigravity account (the catalogue's ``models``).
* ``POST /token`` (Google's OAuth token endpoint, ``https://oauth2.googleapis.com/token``,
  sent here through the ``google_oauth`` base URL the simulator sets to this origin): a
  ``grant_type=refresh_token`` form from a client :attr:`GeminiProtocol.clients` knows
  (the Gemini CLI's and Antigravity's)
  answers a fresh access token (``ya29.sim-access-<n>``, ``expires_in``
  :attr:`GeminiProtocol.token_lifetime`) the way Google does, without a new refresh
  token; a refresh token in :attr:`GeminiProtocol.revoked` gets ``400 invalid_grant``
  ("Token has been expired or revoked."), an unknown client ``401 invalid_client``, and
  a refresh token :attr:`GeminiProtocol.issued_to` another client than the one presenting
  it ``400 unauthorized_client`` ("Unauthorized"), as Google answers a Gemini CLI sign-in
  refreshed as Antigravity.
  Cloud Code answers ``401 UNAUTHENTICATED`` to an access token in
  :attr:`GeminiProtocol.expired` (one that outlived its hour).

The API has no bot challenge, so :meth:`GeminiProtocol.challenge` is a plain 403 in
Google's error envelope; :meth:`GeminiProtocol.malformed` is a 200 event stream whose only
event is an HTML page, which holds no readable chunk.
"""

import hashlib
import json
import re
from datetime import datetime
from typing import Any, Final
from urllib.parse import urlsplit

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import bearer_token
from ._windows import ANY_DATE, DateWindow

__all__ = ["GeminiProtocol"]

PROJECT = "sim-project-0001"
NOT_FOUND_MESSAGE = "Requested entity was not found."
TOKEN_PATH = "/token"
GEMINI_CLI_CLIENT = (
    "681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com",
    "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",
)
"""The Gemini CLI's OAuth client id and secret as Google knows them, written here from the
Gemini CLI's source rather than taken from the provider, so a wrong pair there fails."""
ANTIGRAVITY_CLIENT = (
    "1071006060591-tmhssin2h21lcre235vtolojh4g403ep.apps.googleusercontent.com",
    "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",
)
"""Antigravity's OAuth client id and secret as Google knows them, written here from the
public sign-ins that use it (the reference's among them), not taken from the provider."""


def _catalog_entry(display_name: str, fraction: float) -> dict[str, Any]:
    return {
        "displayName": display_name,
        "supportsImages": True,
        "supportsThinking": True,
        "recommended": True,
        "maxTokens": 1048576,
        "maxOutputTokens": 65536,
        "quotaInfo": {"remainingFraction": fraction, "resetTime": "2026-12-03T22:00:00Z"},
        "apiProvider": "API_PROVIDER_GOOGLE_GEMINI",
        "modelProvider": "MODEL_PROVIDER_GOOGLE",
    }


def antigravity_catalog() -> dict[str, Any]:
    """A ``fetchAvailableModels`` reply: tier-suffixed ids, one web-search model."""
    return {
        "models": {
            "gemini-3.5-flash-low": _catalog_entry("Gemini 3.5 Flash (Low)", 1.0),
            "gemini-3.5-flash-high": _catalog_entry("Gemini 3.5 Flash (High)", 0.8),
            "gemini-3.1-pro-high": _catalog_entry("Gemini 3.1 Pro (High)", 1.0),
            "chat_internal": {"displayName": "Internal", "isInternal": True},
        },
        "defaultAgentModelId": "gemini-3.5-flash-high",
        "agentModelSorts": [
            {
                "displayName": "Recommended",
                "groups": [{"modelIds": ["gemini-3.5-flash-high", "gemini-3.5-flash-low"]}],
            }
        ],
        "webSearchModelIds": ["gemini-3.5-flash-low"],
        "deprecatedModelIds": {"gemini-3.1-pro-high": {"newModelId": "gemini-3.5-flash-high"}},
    }


def gemini_cli_quota() -> dict[str, Any]:
    """A ``retrieveUserQuota`` reply for a Gemini CLI account without preview access."""
    models = ("gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite")
    return {
        "buckets": [
            {
                "remainingAmount": "1000",
                "remainingFraction": 1.0,
                "resetTime": "2026-12-05T00:00:00Z",
                "tokenType": "REQUESTS",
                "modelId": model,
            }
            for model in models
        ]
    }


def _google_error(status: int, message: str, reason: str) -> web.Response:
    body = {"error": {"code": status, "message": message, "status": reason}}
    return web.json_response(body, status=status)


def _oauth_error(status: int, error: str, description: str) -> web.Response:
    """An OAuth 2.0 error body (RFC 6749 section 5.2), as Google's token endpoint sends it."""
    return web.json_response({"error": error, "error_description": description}, status=status)


def _request_of(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        return {}
    inner = body.get("request")
    return inner if isinstance(inner, dict) else body


def _query_in(request: dict[str, Any]) -> str:
    contents = request.get("contents")
    if not isinstance(contents, list) or not contents or not isinstance(contents[-1], dict):
        return ""
    parts = contents[-1].get("parts")
    texts = [p.get("text") for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []
    return " ".join(t for t in texts if isinstance(t, str))


def _grounded(request: dict[str, Any]) -> bool:
    tools = request.get("tools")
    return isinstance(tools, list) and any(
        isinstance(tool, dict) and ("google_search" in tool or "googleSearch" in tool)
        for tool in tools
    )


_RFC3339: Final = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})"
)
"""A ``google.protobuf.Timestamp`` in JSON: RFC 3339, with a ``Z`` or an offset."""
_INTERVAL_FIELDS: Final = ("startTime", "endTime")


def _unknown_field(name: str, where: str) -> str:
    return (
        f"Invalid JSON payload received. Unknown name \"{name}\" at '{where}': Cannot find field."
    )


def _timestamp(value: Any) -> datetime | None:
    """``value`` as an aware time when it is an RFC 3339 timestamp string, else ``None``."""
    if not isinstance(value, str) or _RFC3339.fullmatch(value) is None:
        return None
    try:
        return datetime.fromisoformat(value[:19] + value[19:].upper().replace("Z", "+00:00"))
    except ValueError:
        return None


def _interval_problem(value: Any, where: str) -> str | None:
    """What Google refuses in an ``Interval`` (``timeRangeFilter``), or ``None``."""
    if not isinstance(value, dict):
        return f"Invalid value at '{where}': Starting an object on a scalar field"
    for name in value:
        if name not in _INTERVAL_FIELDS:
            return _unknown_field(name, where)
    if ("startTime" in value) != ("endTime" in value):
        return f"{where}: if a start time is set, an end time must be set (and vice versa)."
    times: list[datetime] = []
    for name in _INTERVAL_FIELDS:
        if name in value:
            moment = _timestamp(value[name])
            if moment is None:
                return f"Invalid value at '{where}.{name}': Invalid time format: {value[name]!r}"
            times.append(moment)
    if len(times) == 2 and times[0] > times[1]:
        return f"{where}: startTime must not be later than endTime."
    return None


def _search_tool_problem(
    request: dict[str, Any], *, time_filter: bool, prefix: str = "request.tools"
) -> str | None:
    """What Google refuses in the request's ``google_search`` tools, or ``None``.

    Args:
        request: The ``GenerateContentRequest`` (unwrapped).
        time_filter: Whether the route takes ``timeRangeFilter`` (the Gemini API does).
        prefix: Where the tools are in the body the route was sent, as messages name it.
    """
    tools = request.get("tools")
    for index, tool in enumerate(tools if isinstance(tools, list) else []):
        if not isinstance(tool, dict):
            continue
        for key in ("google_search", "googleSearch"):
            where = f"{prefix}[{index}].{key}"
            search = tool.get(key)
            if key not in tool:
                continue
            if not isinstance(search, dict):
                return f"Invalid value at '{where}': Starting an object on a scalar field"
            for name, value in search.items():
                if name != "timeRangeFilter" or not time_filter:
                    return _unknown_field(name, where)
                problem = _interval_problem(value, f"{where}.timeRangeFilter")
                if problem is not None:
                    return problem
    return None


def _search_tools(request: dict[str, Any]) -> list[Any]:
    """The request's ``google_search`` tool objects, as sent."""
    tools = request.get("tools")
    return [
        tool.get("google_search", tool.get("googleSearch"))
        for tool in (tools if isinstance(tools, list) else [])
        if isinstance(tool, dict) and ("google_search" in tool or "googleSearch" in tool)
    ]


def _chunks(query: str, results: list[SimResult], model: str, grounded: bool) -> list[Any]:
    opening = f"Simulated grounded answer about {query}. "
    sentences = [f"Result {i} says: {r.snippet}" for i, r in enumerate(results[:2], start=1)]
    pieces = [opening, " ".join(sentences[:1]) + " ", " ".join(sentences[1:])]
    response_id = hashlib.sha256(query.encode("utf-8")).hexdigest()[:22]
    chunks: list[dict[str, Any]] = []
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        candidate: dict[str, Any] = {
            "content": {"parts": [{"text": piece}], "role": "model"},
            "index": 0,
            "groundingMetadata": {},
        }
        if last:
            candidate["finishReason"] = "STOP"
            candidate["groundingMetadata"] = _metadata(query, results, opening) if grounded else {}
        chunks.append(
            {
                "candidates": [candidate],
                "usageMetadata": {
                    "promptTokenCount": 17,
                    "candidatesTokenCount": 10 * (index + 1),
                    "totalTokenCount": 17 + 10 * (index + 1),
                },
                "modelVersion": model,
                "responseId": response_id,
            }
        )
    return chunks


def _metadata(query: str, results: list[SimResult], opening: str) -> dict[str, Any]:
    supports = []
    offset = len(opening.encode("utf-8"))
    for index, result in enumerate(results[:2]):
        text = f"Result {index + 1} says: {result.snippet}"
        size = len(text.encode("utf-8"))
        supports.append(
            {
                "segment": {"startIndex": offset, "endIndex": offset + size, "text": text},
                "groundingChunkIndices": [index],
            }
        )
        offset += size + 1
    return {
        "groundingChunks": [
            {"web": {"uri": r.url, "title": urlsplit(r.url).hostname or r.url}} for r in results
        ],
        "groundingSupports": supports,
        "webSearchQueries": [query],
    }


def _sse(objects: list[Any]) -> web.Response:
    text = "".join(f"data: {json.dumps(item, ensure_ascii=False)}\r\n\r\n" for item in objects)
    return web.Response(text=text, content_type="text/event-stream")


class GeminiProtocol:
    """The Developer API, Cloud Code Assist and its project lookup, with Google's errors."""

    def __init__(self) -> None:
        self.catalog: dict[str, Any] = antigravity_catalog()
        """What ``fetchAvailableModels`` answers (a test may replace it)."""
        self.quota: dict[str, Any] = gemini_cli_quota()
        """What ``retrieveUserQuota`` answers (a test may replace it)."""
        self.enforce_catalog = False
        """Whether Cloud Code refuses a model the account lacks (:attr:`catalog` for
        Antigravity, :attr:`quota` for a Gemini CLI ``User-Agent``)."""
        self.unknown_model: tuple[int, str, str] = (404, NOT_FOUND_MESSAGE, "NOT_FOUND")
        """The status, message and reason a refused model gets."""
        self.clients: dict[str, str] = dict([GEMINI_CLI_CLIENT, ANTIGRAVITY_CLIENT])
        """OAuth client ids the token endpoint knows, with their secrets."""
        self.revoked: set[str] = set()
        """Refresh tokens the token endpoint refuses (``invalid_grant``)."""
        self.issued_to: dict[str, str] = {}
        """Refresh tokens bound to the OAuth client id that obtained them: presented by
        another client, refused (``unauthorized_client``). One not listed is any client's."""
        self.expired: set[str] = set()
        """Access tokens Cloud Code refuses as expired (``401 UNAUTHENTICATED``)."""
        self.token_lifetime = 3599
        """The ``expires_in`` of every access token the token endpoint issues."""
        self.issued: list[str] = []
        """The access tokens the token endpoint issued, in order."""
        self.search_tools: list[Any] = []
        """Each generate request's ``google_search`` tool objects, in order of arrival."""
        self.refuses_time_filter: set[str] = set()
        """Models whose Developer API does not take ``timeRangeFilter``: a request with one
        gets Google's ``400 INVALID_ARGUMENT`` naming the field as unknown (a model or
        route that refuses it; the other fields are checked as usual)."""

    def query_of(self, request: RecordedRequest) -> str:
        """The text of the last ``contents`` entry (wrapped or not)."""
        try:
            return _query_in(_request_of(request.json()))
        except ValueError:
            return ""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Route by path: project lookup, Cloud Code Assist or the Developer API."""
        path = request.path
        if path == TOKEN_PATH:
            return self._token(request)
        if path.startswith("/v1internal"):
            return self._internal(request, results)
        if not (request.header("x-goog-api-key") or "").strip():
            return _google_error(
                403,
                "Method doesn't allow unregistered callers (callers without established "
                "identity). Please use API Key or other form of API consumer identity to call "
                "this API.",
                "PERMISSION_DENIED",
            )
        prefix, _, method = path.rpartition(":")
        if not prefix.startswith("/v1beta/models/") or method != "streamGenerateContent":
            return _google_error(404, f"Method not found: {path}", "NOT_FOUND")
        try:
            body = _request_of(request.json())
        except ValueError:
            return _google_error(400, "Invalid JSON payload received.", "INVALID_ARGUMENT")
        self.search_tools.extend(_search_tools(body))
        model = prefix.removeprefix("/v1beta/models/")
        takes_filter = model not in self.refuses_time_filter
        problem = _search_tool_problem(body, time_filter=takes_filter)
        if problem is not None:
            return _google_error(400, problem, "INVALID_ARGUMENT")
        chunks = _chunks(_query_in(body), results, model, _grounded(body))
        if request.query_dict().get("alt") == "sse":
            return _sse(chunks)
        return web.json_response(chunks)

    def _internal(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Cloud Code Assist's ``v1internal:`` methods, each behind a bearer token."""
        path = request.path
        token = bearer_token(request)
        if not token or token in self.expired:
            return _google_error(
                401, "Request had invalid authentication credentials.", "UNAUTHENTICATED"
            )
        if path == "/v1internal:streamGenerateContent":
            return self._code_assist(request, results)
        replies = {
            "/v1internal:loadCodeAssist": {
                "currentTier": {"id": "free-tier"},
                "cloudaicompanionProject": PROJECT,
            },
            "/v1internal:fetchAvailableModels": self.catalog,
            "/v1internal:retrieveUserQuota": self.quota,
        }
        if path in replies:
            return web.json_response(replies[path])
        return _google_error(404, f"Method not found: {path}", "NOT_FOUND")

    def _token(self, request: RecordedRequest) -> web.Response:
        """Google's token endpoint for a refresh: a new access token, or OAuth's error."""
        form = dict(request.form()) if request.method == "POST" else {}
        if form.get("grant_type") != "refresh_token":
            return _oauth_error(400, "unsupported_grant_type", "Invalid grant_type: ")
        client = form.get("client_id", "")
        if client not in self.clients or self.clients[client] != form.get("client_secret"):
            return _oauth_error(401, "invalid_client", "The OAuth client was not found.")
        refresh = form.get("refresh_token", "")
        if not refresh or refresh in self.revoked:
            return _oauth_error(400, "invalid_grant", "Token has been expired or revoked.")
        if self.issued_to.get(refresh, client) != client:
            return _oauth_error(400, "unauthorized_client", "Unauthorized")
        access = f"ya29.sim-access-{len(self.issued) + 1}"
        self.issued.append(access)
        return web.json_response(
            {
                "access_token": access,
                "expires_in": self.token_lifetime,
                "scope": "https://www.googleapis.com/auth/cloud-platform",
                "token_type": "Bearer",
                "id_token": "sim.id.token",
            }
        )

    def _code_assist(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        try:
            body = request.json()
        except ValueError:
            return _google_error(400, "Invalid JSON payload received.", "INVALID_ARGUMENT")
        if not isinstance(body, dict) or not body.get("project"):
            return _google_error(400, "Invalid project resource name", "INVALID_ARGUMENT")
        inner = _request_of(body)
        self.search_tools.extend(_search_tools(inner))
        problem = _search_tool_problem(inner, time_filter=False, prefix="request.request.tools")
        if problem is not None:
            return _google_error(400, problem, "INVALID_ARGUMENT")
        model = str(body.get("model") or "gemini-2.5-flash")
        if self.enforce_catalog and model not in self._served(request):
            return _google_error(*self.unknown_model)
        chunks = _chunks(_query_in(inner), results, model, _grounded(inner))
        return _sse([{"response": chunk, "traceId": "0123456789abcdef"} for chunk in chunks])

    def _served(self, request: RecordedRequest) -> set[str]:
        """The models the calling account has: a Gemini CLI's quota, else the catalogue's."""
        if (request.header("User-Agent") or "").startswith("GeminiCLI/"):
            buckets = self.quota.get("buckets", [])
            return {str(b.get("modelId")) for b in buckets if isinstance(b, dict)}
        return set(self.catalog.get("models", {}))

    def date_window(self, request: RecordedRequest) -> DateWindow:
        """The Developer API's ``timeRangeFilter`` (Cloud Code takes none), or any date.

        ``Interval``'s end is exclusive; a result dated at it is served, the simulator's
        window being inclusive at both ends, which no test's dates reach.
        """
        if request.path.startswith("/v1internal"):
            return ANY_DATE
        try:
            body = _request_of(request.json())
        except ValueError:
            return ANY_DATE
        for search in _search_tools(body):
            window = search.get("timeRangeFilter") if isinstance(search, dict) else None
            if isinstance(window, dict) and _interval_problem(window, "") is None:
                start, end = (_timestamp(window.get(name)) for name in _INTERVAL_FIELDS)
                return DateWindow(earliest=start, latest=end)
        return ANY_DATE

    def challenge(self) -> web.Response:
        """The API has no challenge page: a 403 in Google's error envelope."""
        return _google_error(403, "The caller does not have permission", "PERMISSION_DENIED")

    def malformed(self) -> web.Response:
        """A 200 event stream whose only event is an HTML page."""
        return web.Response(
            text="data: <html><body>Service Unavailable</body></html>\n\n",
            content_type="text/event-stream",
        )
