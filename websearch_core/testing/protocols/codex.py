"""The ChatGPT Codex backend (``/backend-api/codex/responses``) as the simulator speaks it.

Every answer is a Responses API event stream (``text/event-stream``) with the event
sequence of the real capture ``fixtures/openai/responses_web_search_tool_stream.sse``:
``response.created``, ``response.in_progress``, ``response.output_item.added`` /
``response.web_search_call.in_progress`` / ``.searching`` / ``.completed`` /
``response.output_item.done`` for a ``web_search_call`` (``action: {"type": "search",
"query", "sources": [{"type": "url", "url"}]}``, sources only when the request asked for
``web_search_call.action.sources``), then the ``message`` item with
``response.content_part.added``, ``response.output_text.delta`` chunks,
``response.output_text.annotation.added``, ``response.output_text.done``,
``response.content_part.done``, ``response.output_item.done`` and ``response.completed``
with ``usage``. The answer cites the first three results inline as
``([host](url?utm_source=openai))`` with ``url_citation`` annotations over those spans.

Knobs: :attr:`CodexProtocol.supported_models` (``None``: all) refuses other models with
the backend's 400 ``not supported when using Codex with a ChatGPT account``;
:attr:`CodexProtocol.searches` set to ``False`` answers without searching, as a model may.
A request without a bearer token gets a 401 ``{"detail": ...}``; a path other than
``/backend-api/codex/responses`` a 404 (``POST /oauth/token`` is the sign-in's token
endpoint, :class:`~._oauth_refresh.RefreshGrant`, for a refresh hook under test; a bearer
token in its ``expired`` gets the 401).
:meth:`CodexProtocol.malformed` is a stream whose event data is not JSON;
:meth:`CodexProtocol.cut_stream` is a stream that stops in the middle of an event.
"""

import hashlib
import json
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._oauth_refresh import TOKEN_PATH, RefreshGrant

__all__ = ["CodexProtocol", "response_events"]

_CITED_RESULTS = 3
_DELTA_CHUNK = 16


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _sse(events: list[dict[str, Any]]) -> bytes:
    numbered = [{**event, "sequence_number": n} for n, event in enumerate(events)]
    chunks = [f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in numbered]
    return "".join(chunks).encode("utf-8")


def _answer(query: str, results: list[SimResult]) -> tuple[str, list[dict[str, Any]]]:
    """The answer text and its ``url_citation`` annotations over the inline links."""
    text = f"Here is what the search found about {query}."
    notes: list[dict[str, Any]] = []
    for result in results[:_CITED_RESULTS]:
        host = urlsplit(result.url).hostname or result.url
        link = f"([{host}]({result.url}?utm_source=openai))"
        text += f" {result.snippet} "
        start = len(text)
        text += link
        notes.append(
            {
                "type": "url_citation",
                "start_index": start,
                "end_index": len(text),
                "title": result.title,
                "url": f"{result.url}?utm_source=openai",
            }
        )
    return text, notes


def response_events(
    body: Mapping[str, Any], query: str, results: list[SimResult], *, search: bool = True
) -> list[dict[str, Any]]:
    """The full event sequence of one streamed response (without sequence numbers)."""
    response_id = f"resp_{_digest(query)}"
    model = str(body.get("model"))
    base = {
        "id": response_id,
        "object": "response",
        "created_at": int(time.time()),
        "status": "in_progress",
        "model": model,
        "output": [],
        "tools": body.get("tools") or [],
        "usage": None,
    }
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": base},
        {"type": "response.in_progress", "response": base},
    ]
    output: list[dict[str, Any]] = []
    if search:
        call = _search_call(body, query, results)
        events.extend(_search_events(call, index=0))
        output.append(call)
    text, notes = _answer(query, results if search else [])
    message = {
        "id": f"msg_{_digest(query + 'm')}",
        "type": "message",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "annotations": notes, "logprobs": [], "text": text}],
    }
    events.extend(_message_events(message, len(output)))
    output.append(message)
    usage = {
        "input_tokens": 9000 + len(query),
        "input_tokens_details": {"cached_tokens": 8000},
        "output_tokens": 300 + len(text) // 4,
        "output_tokens_details": {"reasoning_tokens": 256},
        "total_tokens": 9300 + len(query) + len(text) // 4,
    }
    final = {**base, "status": "completed", "output": output, "usage": usage}
    events.append({"type": "response.completed", "response": final})
    return events


def _search_call(body: Mapping[str, Any], query: str, results: list[SimResult]) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "search", "query": query}
    if "web_search_call.action.sources" in (body.get("include") or []):
        action["sources"] = [{"type": "url", "url": result.url} for result in results]
    return {
        "id": f"ws_{_digest(query)}",
        "type": "web_search_call",
        "status": "completed",
        "action": action,
    }


def _search_events(call: Mapping[str, Any], index: int) -> list[dict[str, Any]]:
    pending = {"id": call["id"], "type": "web_search_call", "status": "in_progress"}
    tail = {"output_index": index, "item_id": call["id"]}
    return [
        {"type": "response.output_item.added", "output_index": index, "item": pending},
        {"type": "response.web_search_call.in_progress", **tail},
        {"type": "response.web_search_call.searching", **tail},
        {"type": "response.web_search_call.completed", **tail},
        {"type": "response.output_item.done", "output_index": index, "item": dict(call)},
    ]


def _message_events(message: Mapping[str, Any], index: int) -> list[dict[str, Any]]:
    part = message["content"][0]
    text = part["text"]
    where = {"item_id": message["id"], "output_index": index, "content_index": 0}
    empty = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
    events: list[dict[str, Any]] = [
        {
            "type": "response.output_item.added",
            "output_index": index,
            "item": {**message, "status": "in_progress", "content": []},
        },
        {"type": "response.content_part.added", **where, "part": empty},
    ]
    events.extend(
        {"type": "response.output_text.delta", **where, "delta": text[i : i + _DELTA_CHUNK]}
        for i in range(0, len(text), _DELTA_CHUNK)
    )
    events.extend(
        {
            "type": "response.output_text.annotation.added",
            **where,
            "annotation_index": n,
            "annotation": note,
        }
        for n, note in enumerate(part["annotations"])
    )
    events.append({"type": "response.output_text.done", **where, "text": text})
    events.append({"type": "response.content_part.done", **where, "part": part})
    events.append({"type": "response.output_item.done", "output_index": index, "item": message})
    return events


class CodexProtocol:
    """The Codex backend: a Responses event stream, model refusals, searchless answers."""

    supported_models: frozenset[str] | None = None
    """Models the account may use (``None``: every model)."""
    searches: bool = True
    """``False``: the model answers without running the web search tool."""

    def __init__(self) -> None:
        self.sign_in = RefreshGrant("codex")
        """The sign-in's token endpoint (``POST /oauth/token``), for a refresh hook to call."""

    def query_of(self, request: RecordedRequest) -> str:
        """The text of the first user input item."""
        try:
            item = request.json()["input"][0]
            content = item["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            return ""
        if isinstance(content, str):
            return content
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """A streamed response that searched and cites ``results``; a refresh at the token path."""
        if request.path == TOKEN_PATH:
            return self.sign_in.answer(request)
        if not request.path.endswith("/backend-api/codex/responses"):
            return web.json_response({"detail": "Not Found"}, status=404)
        bearer = (request.header("Authorization") or "").removeprefix("Bearer ").strip()
        if not bearer or bearer in self.sign_in.expired:
            return web.json_response({"detail": "Could not validate credentials"}, status=401)
        try:
            body = request.json()
        except ValueError:
            return web.json_response({"detail": "Invalid JSON body"}, status=400)
        if not isinstance(body, dict) or body.get("stream") is not True:
            return web.json_response({"detail": "Stream must be set to true"}, status=400)
        model = str(body.get("model"))
        if self.supported_models is not None and model not in self.supported_models:
            detail = (
                f"The '{model}' model is not supported when using Codex with a ChatGPT account."
            )
            return web.json_response({"detail": detail}, status=400)
        tools = [t for t in body.get("tools") or [] if isinstance(t, dict)]
        search = self.searches and any(t.get("type") == "web_search" for t in tools)
        events = response_events(body, self.query_of(request), results, search=search)
        return web.Response(body=_sse(events), content_type="text/event-stream")

    def challenge(self) -> web.Response:
        """The backend has no challenge page here: a 403."""
        return web.json_response({"detail": "Forbidden"}, status=403)

    def malformed(self) -> web.Response:
        """A complete stream whose second event's data is not JSON."""
        body = (
            'event: response.created\ndata: {"type": "response.created", "response": {}}\n\n'
            "event: response.output_item.done\ndata: {item: web_search_call\n\n"
        )
        return web.Response(body=body.encode(), content_type="text/event-stream")

    def cut_stream(self) -> bytes:
        """A stream body that stops inside an event (no closing blank line)."""
        return (
            b'event: response.created\ndata: {"type": "response.created", "response": {}}\n\n'
            b'event: response.output_text.delta\ndata: {"type": "response.output_text.delta", '
        )
