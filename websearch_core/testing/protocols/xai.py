"""The xAI Responses API with the ``web_search`` tool, as the simulator speaks it.

Bodies follow the real capture ``fixtures/xai/responses_web_search_tool.json``:
``{"created_at", "id" (a UUID), "model", "object": "response", "output": [...], "status":
"completed", "tools", "usage": {..., "num_server_side_tools_used"}}`` whose output is a
``web_search_call`` item (``name: "web_search"``, ``arguments`` a JSON string with the query
and ``num_results``, ``call_id: ""``) and a ``message`` item with one ``output_text`` part
whose ``url_citation`` annotations carry only ``type`` and ``url``, as the real ones do.
The ``web_search`` tool's ``filters.allowed_domains`` / ``filters.excluded_domains``
limit the results served to (or away from) those domains and their subdomains
(:attr:`XaiProtocol.operators`, so a test can make them leak); there is no count, so every
result is served. A list of more than five domains, or both lists in one tool, is refused
with a 400, as xAI's docs say it cannot be sent. So is a domain list
set on the tool itself rather than under ``filters`` (xAI's docs nest them; the live
answer to a flat list was not captured, so refusing it is the simulator's choice, which
makes a test prove where the lists go). The messages are ours: no such answer was
captured. A body with ``"stream": true`` gets the same response as ``data:`` events
(``response.created`` ... ``response.completed``, the sequence of
``responses_web_search_tool_stream.chunks.txt``).

Any ``search_parameters`` (retired Live Search) is answered with xAI's ``410``
``Live search is deprecated`` body, as the real API does since 2026. A request
without a bearer token gets a 400 ``Incorrect API key provided`` body, as xAI answers; a
path other than ``/v1/responses`` a 404. There is no bot challenge, so
:meth:`XaiProtocol.challenge` is a 403. With :attr:`XaiProtocol.credits_spent` set, every
authenticated request gets xAI's answer to a team out of credits or over its spending
limit: a 429 whose ``error`` is :func:`spent_credits_message` (quoted from live answers in
continuedev/continue issues #10373 and #10740).
"""

import hashlib
import json
import time
import uuid
from collections.abc import Mapping
from typing import Any, Final

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._operators import DomainLists, Operators

__all__ = ["GONE_MESSAGE", "XaiProtocol", "spent_credits_message", "stream_events"]

GONE_MESSAGE = (
    "Live search is deprecated. Please switch to the Agent Tools API: "
    "https://docs.x.ai/docs/guides/tools/overview"
)
_DELTA_CHUNK = 12
DOMAIN_LIMIT: Final = 5
DOMAIN_FIELDS: Final = ("allowed_domains", "excluded_domains")


def spent_credits_message(team: str = "00000000-0000-4000-8000-000000000001") -> str:
    """The text of xAI's 429 for a team out of credits or over its monthly spending limit."""
    return (
        f"Your team {team} has either used all available credits or reached its monthly "
        "spending limit. To continue making API requests, please purchase more credits or "
        "raise your spending limit."
    )


def _response_id(query: str) -> str:
    digest = hashlib.sha256(query.encode("utf-8")).digest()[:16]
    return str(uuid.UUID(bytes=digest, version=4))


def _tool(body: Mapping[str, Any]) -> Mapping[str, Any]:
    tools = body.get("tools")
    found = [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []
    return next((t for t in found if t.get("type") == "web_search"), {})


def _domains(tool: Mapping[str, Any], field: str) -> list[str]:
    filters = tool.get("filters")
    value = filters.get(field) if isinstance(filters, dict) else None
    return [d for d in value if isinstance(d, str)] if isinstance(value, list) else []


def _tool_error(tool: Mapping[str, Any]) -> str | None:
    """Why xAI's docs say this tool cannot be sent, or ``None``."""
    flat = sorted(set(tool) & set(DOMAIN_FIELDS))
    if flat:
        return f"{', '.join(flat)}: set under filters, not on the web_search tool"
    if "filters" in tool and not isinstance(tool["filters"], dict):
        return "filters: must be an object"
    allowed, excluded = _domains(tool, "allowed_domains"), _domains(tool, "excluded_domains")
    if allowed and excluded:
        return "allowed_domains cannot be set together with excluded_domains"
    if max(len(allowed), len(excluded)) > DOMAIN_LIMIT:
        return f"at most {DOMAIN_LIMIT} domains are allowed"
    return None


def _text(query: str, results: list[SimResult]) -> str:
    if not results:
        return f"I found nothing current about {query}."
    lines = [f"Here is what I found about {query}:"]
    lines.extend(f"- {result.snippet}" for result in results[:3])
    return "\n".join(lines)


def _response(body: Mapping[str, Any], query: str, results: list[SimResult]) -> dict[str, Any]:
    response_id = _response_id(query)
    model = str(body.get("model"))
    arguments = json.dumps({"query": query, "num_results": len(results)}, separators=(",", ":"))
    call = {
        "arguments": arguments,
        "call_id": "",
        "name": "web_search",
        "type": "web_search_call",
        "id": f"fc_{response_id}_0",
        "status": "completed",
    }
    text = _text(query, results)
    message = {
        "content": [
            {
                "type": "output_text",
                "text": text,
                "logprobs": [],
                "annotations": [{"type": "url_citation", "url": r.url} for r in results],
            }
        ],
        "id": f"msg_{response_id}",
        "role": "assistant",
        "type": "message",
        "status": "completed",
    }
    return {
        "created_at": int(time.time()),
        "id": response_id,
        "max_output_tokens": body.get("max_output_tokens"),
        "model": model,
        "object": "response",
        "output": [call, message],
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "temperature": body.get("temperature"),
        "tool_choice": "auto",
        "tools": body.get("tools") or [],
        "usage": {
            "input_tokens": 1900 + len(query),
            "input_tokens_details": {"cached_tokens": 900},
            "output_tokens": 200 + len(text) // 4,
            "output_tokens_details": {"reasoning_tokens": 150},
            "total_tokens": 2100 + len(query) + len(text) // 4,
            "num_sources_used": 0,
            "num_server_side_tools_used": 1,
        },
        "status": "completed",
        "store": True,
        "metadata": {},
    }


def stream_events(response: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The stream events (with sequence numbers) that carry ``response``."""
    start = {**response, "output": [], "status": "in_progress", "usage": None}
    call, message = response["output"]
    part = message["content"][0]
    where = {"content_index": 0, "item_id": message["id"], "output_index": 1}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": start},
        {"type": "response.in_progress", "response": start},
        {"type": "response.output_item.added", "item": call, "output_index": 0},
        {"type": "response.output_item.done", "item": call, "output_index": 0},
        {
            "type": "response.output_item.added",
            "item": {**message, "content": [], "status": "in_progress"},
            "output_index": 1,
        },
        {
            "type": "response.content_part.added",
            **where,
            "part": {"type": "output_text", "text": "", "logprobs": [], "annotations": []},
        },
    ]
    text = part["text"]
    events.extend(
        {"type": "response.output_text.delta", **where, "delta": text[i : i + _DELTA_CHUNK]}
        for i in range(0, len(text), _DELTA_CHUNK)
    )
    events.extend(
        {
            "type": "response.output_text.annotation.added",
            **where,
            "annotation": note,
            "annotation_index": n,
        }
        for n, note in enumerate(part["annotations"])
    )
    events.append({"type": "response.output_text.done", **where, "text": text})
    events.append({"type": "response.content_part.done", **where, "part": part})
    events.append({"type": "response.output_item.done", "item": message, "output_index": 1})
    events.append({"type": "response.completed", "response": dict(response)})
    return [{"sequence_number": n, **event} for n, event in enumerate(events)]


class XaiProtocol:
    """xAI's Responses API: JSON (or a stream when asked), and the Live Search 410."""

    operators = Operators(
        domains=DomainLists(
            "tools[type=web_search].filters.allowed_domains",
            "tools[type=web_search].filters.excluded_domains",
        )
    )
    """The ``web_search`` tool's domain lists, under ``filters`` as xAI's docs nest them."""

    credits_spent: bool = False
    """Answer every authenticated request as xAI answers a team without credits (429)."""

    def query_of(self, request: RecordedRequest) -> str:
        """The content of the last ``user`` input item."""
        try:
            items = request.json()["input"]
        except (ValueError, KeyError, TypeError):
            return ""
        if isinstance(items, str):
            return items
        users = [i for i in items if isinstance(i, dict) and i.get("role") == "user"]
        content = users[-1].get("content") if users else ""
        return content if isinstance(content, str) else ""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """A response that searched and cites ``results``."""
        if not request.path.endswith("/v1/responses"):
            return web.json_response({"code": "Not found", "error": "Not found"}, status=404)
        bearer = (request.header("Authorization") or "").removeprefix("Bearer ").strip()
        if not bearer:
            return web.json_response(
                {
                    "code": "Client specified an invalid argument",
                    "error": "Incorrect API key provided",
                },
                status=400,
            )
        if self.credits_spent:
            return web.json_response(
                {"code": "Some resource has been exhausted", "error": spent_credits_message()},
                status=429,
            )
        try:
            body = request.json()
        except ValueError:
            return web.json_response({"code": "Bad request", "error": "Invalid JSON"}, status=400)
        if "search_parameters" in body:
            return web.json_response({"code": "Gone", "error": GONE_MESSAGE}, status=410)
        tool = _tool(body)
        refused = _tool_error(tool)
        if refused is not None:
            return web.json_response(
                {"code": "Client specified an invalid argument", "error": refused}, status=400
            )
        query = self.query_of(request)
        response = _response(body, query, results)
        if body.get("stream") is True:
            lines = [f"data: {json.dumps(event)}\n\n" for event in stream_events(response)]
            return web.Response(body="".join(lines).encode(), content_type="text/event-stream")
        return web.json_response(response)

    def challenge(self) -> web.Response:
        """The API has no challenge page: a 403."""
        return web.json_response(
            {"code": "The caller does not have permission", "error": "Forbidden"}, status=403
        )

    def malformed(self) -> web.Response:
        """A 200 JSON body whose ``output`` is not a list."""
        return web.Response(
            text='{"id": "x", "object": "response", "output": "unavailable"}',
            content_type="application/json",
        )
