"""Perplexity as the simulator speaks it: the Sonar API, OpenRouter, and the ask endpoint.

* ``POST /chat/completions`` (``api.perplexity.ai``) needs a bearer key. With
  ``stream: true`` it answers an SSE stream of ``chat.completion.chunk`` objects in the shape
  of the real capture ``fixtures/perplexity/chat_completions_sonar_citations_stream.chunks.txt``:
  every chunk repeats ``id``, ``model``, ``created``, ``usage``, ``citations`` and
  ``search_results``; the answer arrives in a few ``delta.content`` pieces with ``[n]``
  markers; the last object is ``chat.completion.done`` with ``related_questions`` and
  ``finish_reason: "stop"``, then ``data: [DONE]``. Without ``stream`` it answers one
  ``chat.completion``. ``num_search_results`` (default 20) caps the results served.
* ``POST /api/v1/chat/completions`` (OpenRouter) answers the same stream, but with the model
  OpenRouter was asked for and the sources as ``delta.annotations[].url_citation``
  (``url``, ``title``, ``content``), as in ``fixtures/openrouter/``; no ``citations``.
* ``POST /rest/sse/perplexity_ask`` answers JSON snapshots as SSE ``message`` events: a
  ``web_results`` block, the answer's ``ask_text_0_markdown`` block in two pieces (the
  second with ``chunk_starting_offset: 1``), then a ``final`` event with ``status:
  "COMPLETED"``. A request with a ``Cookie`` header is a signed-in user (model
  ``pplx_pro``); without one it is anonymous (model ``turbo``) and must have asked for
  ``send_back_text_in_streaming_api``. The event ``uuid`` echoes ``X-Request-ID``.
* ``POST /oauth/token``: the sign-in's token endpoint (:class:`~._oauth_refresh.RefreshGrant`),
  for a refresh hook under test; Perplexity publishes none of its own. The ask endpoint
  answers ``401`` to a session cookie whose token is in its ``expired``.

The Sonar API answers a ``web_search_options.user_location.country`` that is not two
letters (the ``ToolUserLocation`` schema: "ISO 3166-1 alpha-2 country code") with a 400
``invalid_request_error``, and so it does a body field of a type or value its request
schema does not have (:data:`_FIELD_VALUES`, as Perplexity's SDKs generate it:
perplexityai/perplexity-py ``src/perplexity/types/chat/completion_create_params.py``,
perplexityai/perplexity-node ``src/resources/chat/completions.ts``): ``num_search_results``
an integer, ``language_preference`` a string, ``reasoning_effort``, ``search_mode``,
``search_recency_filter`` and ``web_search_options.search_type`` /
``search_context_size`` one of their listed values.

Missing bearer keys get a 401 ``{"error": {"message", "type": "invalid_api_key", "code":
401}}``. The API has no bot challenge, so :meth:`PerplexityProtocol.challenge` is a plain
403; :meth:`PerplexityProtocol.malformed` is a 200 HTML page (an interstitial instead of
the API's answer), which no mode may read as an answer.
"""

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import bearer_token
from ._oauth_refresh import TOKEN_PATH, RefreshGrant
from ._operators import DomainLists, Operators

__all__ = ["PerplexityProtocol"]

_CREATED = 1767225600
_DEFAULT_SEARCH_RESULTS = 20


def _sse(objects: list[Any], *, done: bool = False) -> web.Response:
    lines = [f"data: {json.dumps(item, ensure_ascii=False)}\n\n" for item in objects]
    if done:
        lines.append("data: [DONE]\n\n")
    return web.Response(text="".join(lines), content_type="text/event-stream")


def _ask_sse(objects: list[Any]) -> web.Response:
    text = "".join(f"event: message\ndata: {json.dumps(item)}\n\n" for item in objects)
    return web.Response(text=text, content_type="text/event-stream")


def _error(status: int, message: str, kind: str) -> web.Response:
    body = {"error": {"message": message, "type": kind, "code": status}}
    return web.json_response(body, status=status)


def _session_token(cookie: str) -> str | None:
    """The signed-in session's token in a ``Cookie`` header, or ``None``."""
    for pair in cookie.split(";"):
        name, _, value = pair.strip().partition("=")
        if name == "__Secure-next-auth.session-token":
            return value
    return None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _count(value: Any, default: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return default
    return value


def _country_ok(body: Any) -> bool:
    """Whether ``body``'s ``user_location.country``, if any, is a two-letter code."""
    options = body.get("web_search_options") if isinstance(body, dict) else None
    location = options.get("user_location") if isinstance(options, dict) else None
    if not isinstance(location, dict) or "country" not in location:
        return True
    country = location["country"]
    return (
        isinstance(country, str) and len(country) == 2 and country.isascii() and country.isalpha()
    )


def _one_of(*values: str) -> Callable[[Any], bool]:
    return lambda value: value in values


_FIELD_VALUES: Final[Mapping[str, Callable[[Any], bool]]] = {
    "num_search_results": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "language_preference": lambda v: isinstance(v, str),
    "enable_search_classifier": lambda v: isinstance(v, bool),
    "return_related_questions": lambda v: isinstance(v, bool),
    "reasoning_effort": _one_of("minimal", "low", "medium", "high"),
    "search_mode": _one_of("web", "academic", "sec"),
    "search_recency_filter": _one_of("hour", "day", "week", "month", "year"),
    "web_search_options.search_type": _one_of("fast", "pro", "auto"),
    "web_search_options.search_context_size": _one_of("low", "medium", "high"),
}
"""The chat-completions fields the adapter sends, each with what the request schema takes."""


def _field_problem(body: Any) -> str | None:
    """The first field of ``body`` the request schema refuses, or ``None``."""
    if not isinstance(body, dict):
        return None
    for path, accepts in _FIELD_VALUES.items():
        holder: Any = body
        *parents, key = path.split(".")
        for parent in parents:
            holder = holder.get(parent) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and key in holder and not accepts(holder[key]):
            return path
    return None


def _answer_pieces(query: str, served: list[SimResult]) -> list[str]:
    markers = "".join(f"[{i}]" for i in range(1, min(len(served), 2) + 1))
    return ["Simulated", f" answer about {query}", f" from {len(served)} sources.", markers]


def _search_result(result: SimResult) -> dict[str, Any]:
    day = result.published[:10] if result.published else None
    return {
        "title": result.title,
        "url": result.url,
        "date": day,
        "last_updated": day,
        "snippet": result.snippet,
        "source": "web",
    }


class PerplexityProtocol:
    """Sonar chat completions, OpenRouter's variant and the web client's ask stream."""

    operators = Operators(domains=DomainLists("search_domain_filter", minus_excludes=True))
    """The Sonar API's ``search_domain_filter``: domains to keep, or ``-domain`` to leave out."""

    def __init__(self) -> None:
        self.sign_in = RefreshGrant("perplexity")
        """The sign-in's token endpoint (``POST /oauth/token``), for a refresh hook to call."""

    def query_of(self, request: RecordedRequest) -> str:
        """The query: ``query_str`` (ask) or the last ``user`` message (chat)."""
        try:
            body = request.json()
        except ValueError:
            return ""
        if not isinstance(body, dict):
            return ""
        if isinstance(body.get("query_str"), str):
            return str(body["query_str"])
        messages = body.get("messages")
        users = [
            m.get("content")
            for m in (messages if isinstance(messages, list) else [])
            if isinstance(m, dict) and m.get("role") == "user"
        ]
        return str(users[-1]) if users and isinstance(users[-1], str) else ""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Route by path: the ask stream, OpenRouter, the Sonar API or the token endpoint."""
        if request.path == TOKEN_PATH:
            return self.sign_in.answer(request)
        if request.path.rstrip("/") == "/rest/sse/perplexity_ask":
            return self._ask(request, results)
        if not bearer_token(request):
            return _error(401, "Invalid API key provided.", "invalid_api_key")
        try:
            body = request.json()
        except ValueError:
            return _error(400, "Invalid JSON body", "invalid_request_error")
        query = self.query_of(request)
        if not query.strip():
            return _error(400, "messages must end with a user message", "invalid_message")
        if not _country_ok(body):
            return _error(
                400,
                "web_search_options.user_location.country must be an ISO 3166-1 alpha-2 code",
                "invalid_request_error",
            )
        refused = _field_problem(body)
        if refused is not None:
            return _error(400, f"Invalid value for {refused}", "invalid_request_error")
        served = results[: _count(body.get("num_search_results"), _DEFAULT_SEARCH_RESULTS)]
        if request.path.rstrip("/") == "/api/v1/chat/completions":
            return self._openrouter(body, query, served)
        return self._sonar(body, query, served)

    def _sonar(self, body: dict[str, Any], query: str, served: list[SimResult]) -> web.Response:
        base = {
            "id": _digest(query)[:36],
            "model": body.get("model", "sonar-pro"),
            "created": _CREATED,
            "citations": [r.url for r in served],
            "search_results": [_search_result(r) for r in served],
        }
        pieces = _answer_pieces(query, served)
        if body.get("stream") is not True:
            completion = {
                **base,
                "object": "chat.completion",
                "usage": {"prompt_tokens": 12, "completion_tokens": 20, "total_tokens": 32},
                "related_questions": [f"What else is new about {query}?"],
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": "".join(pieces)},
                    }
                ],
            }
            return web.json_response(completion)
        chunks = []
        for position, piece in enumerate(pieces, start=1):
            chunks.append(
                {
                    **base,
                    "object": "chat.completion.chunk",
                    "usage": {
                        "prompt_tokens": 12,
                        "completion_tokens": position,
                        "total_tokens": 12 + position,
                    },
                    "choices": [{"index": 0, "delta": {"role": "assistant", "content": piece}}],
                }
            )
        chunks.append(
            {
                **base,
                "object": "chat.completion.done",
                "usage": {"prompt_tokens": 12, "completion_tokens": 20, "total_tokens": 32},
                "related_questions": [f"What else is new about {query}?"],
                "choices": [
                    {
                        "index": 0,
                        "delta": {"role": "assistant", "content": ""},
                        "finish_reason": "stop",
                    }
                ],
            }
        )
        return _sse(chunks, done=True)

    def _openrouter(
        self, body: dict[str, Any], query: str, served: list[SimResult]
    ) -> web.Response:
        base = {
            "id": f"gen-{_CREATED}-{_digest(query)[:20]}",
            "model": body.get("model", "perplexity/sonar-pro"),
            "created": _CREATED,
            "object": "chat.completion.chunk",
            "provider": "Perplexity",
        }
        annotations = [
            {
                "type": "url_citation",
                "url_citation": {
                    "url": r.url,
                    "title": r.title,
                    "content": r.snippet,
                    "start_index": 0,
                    "end_index": 0,
                },
            }
            for r in served
        ]
        chunks: list[dict[str, Any]] = [
            {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": piece}}]}
            for piece in _answer_pieces(query, served)
        ]
        chunks.append(
            {
                **base,
                "choices": [
                    {
                        "index": 0,
                        "delta": {"role": "assistant", "content": "", "annotations": annotations},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 30, "completion_tokens": 20, "total_tokens": 50},
            }
        )
        return _sse(chunks, done=True)

    def _ask(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        try:
            body = request.json()
        except ValueError:
            return web.Response(status=400, text="Bad Request")
        params = body.get("params") if isinstance(body, dict) else None
        query = body.get("query_str") if isinstance(body, dict) else None
        if not isinstance(params, dict) or not isinstance(query, str) or not query.strip():
            return web.Response(status=400, text="Bad Request")
        cookie = request.header("Cookie") or ""
        if _session_token(cookie) in self.sign_in.expired:
            return web.Response(status=401, text="Unauthorized")
        signed_in = bool(cookie.strip())
        if not signed_in and params.get("send_back_text_in_streaming_api") is not True:
            return web.Response(status=403, text="Forbidden")
        model = "pplx_pro" if signed_in else "turbo"
        uuid = request.header("X-Request-ID") or _digest(query)[:36]
        web_results = [
            {"name": r.title, "url": r.url, "snippet": r.snippet, "timestamp": r.published}
            for r in results
        ]
        words = f"Simulated answer about {query}".split(" ")
        first, rest = " ".join(words[:2]) + " ", " ".join(words[2:]) + "."
        events = [
            {
                "uuid": uuid,
                "status": "PENDING",
                "display_model": model,
                "blocks": [
                    {
                        "intended_usage": "web_results",
                        "web_result_block": {"progress": "DONE", "web_results": web_results},
                    }
                ],
            },
            {
                "uuid": uuid,
                "status": "PENDING",
                "blocks": [
                    {
                        "intended_usage": "ask_text_0_markdown",
                        "markdown_block": {
                            "progress": "IN_PROGRESS",
                            "chunks": [first],
                            "chunk_starting_offset": 0,
                        },
                    }
                ],
            },
            {
                "uuid": uuid,
                "status": "PENDING",
                "blocks": [
                    {
                        "intended_usage": "ask_text_0_markdown",
                        "markdown_block": {
                            "progress": "IN_PROGRESS",
                            "chunks": [rest],
                            "chunk_starting_offset": 1,
                        },
                    }
                ],
            },
            {
                "uuid": uuid,
                "status": "COMPLETED",
                "final": True,
                "display_model": model,
                "user_selected_model": model,
                "blocks": [
                    {
                        "intended_usage": "ask_text_0_markdown",
                        "markdown_block": {"progress": "DONE", "answer": first + rest},
                    }
                ],
            },
        ]
        return _ask_sse(events)

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 HTML interstitial instead of a completion or an event stream."""
        return web.Response(
            text="<html><head><title>Just a moment...</title></head><body></body></html>",
            content_type="text/html",
        )
