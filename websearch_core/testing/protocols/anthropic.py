"""The Anthropic Messages API with the ``web_search`` server tool, as the simulator speaks it.

Bodies follow the real captures in ``fixtures/anthropic/``: ``{"id", "type": "message",
"role": "assistant", "model", "content": [...], "stop_reason", "stop_sequence", "usage"}``
where the content is a ``server_tool_use`` block (``name: "web_search"``, ``input.query``),
its ``web_search_tool_result`` (``web_search_result`` items with ``title``, ``url``,
``encrypted_content`` and ``page_age`` written ``January 5, 2026``), then ``text`` blocks
cut around each ``web_search_result_location`` citation, as the real API cuts them.
``usage.server_tool_use.web_search_requests`` counts the searches and a ``request-id``
header is sent. The tool's ``allowed_domains`` / ``blocked_domains`` filter the results
(:attr:`AnthropicProtocol.operators`, so a test can make them leak). Both in one tool is a
400 ``invalid_request_error`` naming the two, as the API refuses it (its web search tool
page: either may be given, not both; the wording here is the simulator's own).

Set :attr:`AnthropicProtocol.pauses` to make the server pause the turn that many times
(``stop_reason: "pause_turn"`` with a pending ``server_tool_use``), as the real API does
after many searches; a request that sends the paused content back as the assistant turn is
continued. A body with ``"stream": true`` is answered as a Messages event stream
(``message_start``, ``content_block_start`` / ``_delta`` / ``_stop``, ``message_delta``,
``message_stop``) carrying the same message.

Errors use the API's envelope ``{"type": "error", "error": {"type", "message"}}``: 401
``authentication_error`` without a key, 400 ``invalid_request_error`` without
``anthropic-version`` or with a bad body, and 404 ``not_found_error`` for a path other than
``/v1/messages`` or a model that is not a ``claude-`` model. The tool's ``user_location``
is checked as Anthropic's SDKs type it (``type`` must be ``"approximate"``, ``country`` a
two-letter code, the other keys ``city`` / ``region`` / ``timezone`` strings): anything else
is a 400 ``invalid_request_error`` naming ``user_location``. The location is not applied:
the simulated results are the same wherever the user is. With
:attr:`AnthropicProtocol.credits_spent` set, every authenticated Messages request gets
Anthropic's answer to an account without credits: a 400 ``invalid_request_error`` whose
message is :data:`LOW_CREDIT_MESSAGE` (quoted from live answers in anthropics/claude-code
issues #4208 and #66314). ``POST /oauth/token`` is the
sign-in's token endpoint (:class:`~._oauth_refresh.RefreshGrant`), for a refresh hook under
test; a bearer token in its ``expired`` gets a 401 ``authentication_error``. There is no bot
challenge, so :meth:`AnthropicProtocol.challenge` is a 403 ``permission_error``.
"""

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._oauth_refresh import TOKEN_PATH, RefreshGrant
from ._operators import DomainLists, Operators

__all__ = ["LOW_CREDIT_MESSAGE", "AnthropicProtocol", "message_events"]

LOW_CREDIT_MESSAGE: Final = (
    "Your credit balance is too low to access the Anthropic API. "
    "Please go to Plans & Billing to upgrade or purchase credits."
)

_CITED_RESULTS = 3
_STREAM_CHUNK = 24
_TOOL_TYPE: Final = "web_search_20250305"
_TOOL: Final = f"tools[type={_TOOL_TYPE}]"
_LOCATION_TEXT_KEYS: Final = frozenset({"city", "region", "timezone"})


def _error(status: int, kind: str, message: str) -> web.Response:
    body = {"type": "error", "error": {"type": kind, "message": message}}
    return web.json_response(body, status=status, headers={"request-id": "req_sim_error"})


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def _location_problem(tools: Any) -> str | None:
    """What is wrong with a web search tool's ``user_location``, or ``None`` when it is sound."""
    for index, tool in enumerate(tools if isinstance(tools, list) else ()):
        if not isinstance(tool, dict) or tool.get("user_location") is None:
            continue
        where = f"tools.{index}.user_location"
        location = tool["user_location"]
        if not isinstance(location, dict) or location.get("type") != "approximate":
            return f"{where}.type: Input should be 'approximate'"
        country = location.get("country")
        if country is not None and not (isinstance(country, str) and len(country) == 2):
            return f"{where}.country: String should have 2 characters"
        for key in sorted(set(location) - {"type", "country"}):
            if key not in _LOCATION_TEXT_KEYS:
                return f"{where}.{key}: Extra inputs are not permitted"
            if location[key] is not None and not isinstance(location[key], str):
                return f"{where}.{key}: Input should be a valid string"
    return None


def _domains_problem(tools: Any) -> str | None:
    """Why a web search tool's domain lists are refused, or ``None`` when they are taken.

    Anthropic's web search tool takes ``allowed_domains`` or ``blocked_domains``, never
    both; a tool naming both keys is refused whatever the lists hold (an empty one too:
    the key is what is checked, as a client that always sends both keys was answered).
    """
    for index, tool in enumerate(tools if isinstance(tools, list) else ()):
        if not isinstance(tool, dict):
            continue
        if tool.get("allowed_domains") is not None and tool.get("blocked_domains") is not None:
            return (
                f"tools.{index}: allowed_domains and blocked_domains cannot both be given; "
                "send one of them"
            )
    return None


def _body_refusal(body: Any) -> web.Response | None:
    """The API's answer to a Messages body it refuses, or ``None`` when it takes it."""
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list) or not messages or not isinstance(messages[-1], dict):
        return _error(400, "invalid_request_error", "messages: field required")
    if not isinstance(body.get("max_tokens"), int):
        return _error(400, "invalid_request_error", "max_tokens: field required")
    tool_problem = _location_problem(body.get("tools")) or _domains_problem(body.get("tools"))
    if tool_problem is not None:
        return _error(400, "invalid_request_error", tool_problem)
    model = body.get("model")
    if not isinstance(model, str) or not model.startswith("claude-"):
        return _error(404, "not_found_error", f"model: {model}")
    return None


def _page_age(published: str | None) -> str | None:
    if not published:
        return None
    try:
        when = datetime.fromisoformat(published)
    except ValueError:
        return published
    return f"{when:%B} {when.day}, {when.year}"


def _search_result(result: SimResult) -> dict[str, Any]:
    return {
        "type": "web_search_result",
        "title": result.title,
        "url": result.url,
        "encrypted_content": f"Es{_digest(result.url)}",
        "page_age": _page_age(result.published),
    }


def _citation(result: SimResult) -> dict[str, Any]:
    return {
        "type": "web_search_result_location",
        "cited_text": result.snippet,
        "url": result.url,
        "title": result.title,
        "encrypted_index": f"Ep{_digest(result.snippet)}",
    }


def _answer_blocks(query: str, results: list[SimResult]) -> list[dict[str, Any]]:
    if not results:
        return [{"type": "text", "text": f"The search found nothing about {query}."}]
    blocks: list[dict[str, Any]] = [
        {"type": "text", "text": f"Here is what the search found about {query}:\n\n- "}
    ]
    cited = results[:_CITED_RESULTS]
    for index, result in enumerate(cited):
        if index:
            blocks.append({"type": "text", "text": "\n- "})
        blocks.append({"type": "text", "text": result.snippet, "citations": [_citation(result)]})
    return blocks


def _message(
    query: str, model: str, content: list[dict[str, Any]], stop_reason: str, searches: int
) -> dict[str, Any]:
    return {
        "id": f"msg_sim{_digest(query + str(len(content)))}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {
            "input_tokens": 2000 + 100 * len(content),
            "output_tokens": 40 * len(content),
            "server_tool_use": {"web_search_requests": searches},
            "service_tier": "standard",
        },
    }


def _sse(events: list[dict[str, Any]]) -> bytes:
    lines = [f"event: {event['type']}\ndata: {json.dumps(event)}\n\n" for event in events]
    return "".join(lines).encode("utf-8")


def _block_events(index: int, block: Mapping[str, Any]) -> list[dict[str, Any]]:
    kind = block.get("type")
    start: dict[str, Any] = dict(block)
    deltas: list[dict[str, Any]] = []
    if kind == "text":
        start = {"type": "text", "text": ""}
        deltas.extend(
            {"type": "citations_delta", "citation": citation}
            for citation in block.get("citations") or ()
        )
        text = str(block.get("text", ""))
        deltas.extend(
            {"type": "text_delta", "text": text[i : i + _STREAM_CHUNK]}
            for i in range(0, len(text), _STREAM_CHUNK)
        )
    elif kind == "server_tool_use":
        start = {**block, "input": {}}
        raw = json.dumps(block.get("input", {}))
        deltas.append({"type": "input_json_delta", "partial_json": ""})
        deltas.extend(
            {"type": "input_json_delta", "partial_json": raw[i : i + 7]}
            for i in range(0, len(raw), 7)
        )
    events: list[dict[str, Any]] = [
        {"type": "content_block_start", "index": index, "content_block": start}
    ]
    events.extend({"type": "content_block_delta", "index": index, "delta": d} for d in deltas)
    events.append({"type": "content_block_stop", "index": index})
    return events


def message_events(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The Messages stream events that carry ``message`` (without its content first)."""
    start = {**message, "content": [], "stop_reason": None, "stop_sequence": None}
    usage = message.get("usage") or {}
    start["usage"] = {"input_tokens": usage.get("input_tokens", 0), "output_tokens": 1}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    for index, block in enumerate(message.get("content", [])):
        events.extend(_block_events(index, block))
        if index == 0:
            events.append({"type": "ping"})
    events.append(
        {
            "type": "message_delta",
            "delta": {
                "stop_reason": message.get("stop_reason"),
                "stop_sequence": message.get("stop_sequence"),
            },
            "usage": usage,
        }
    )
    events.append({"type": "message_stop"})
    return events


class AnthropicProtocol:
    """Claude with the web search tool: JSON or an event stream, pauses on request."""

    operators = Operators(
        domains=DomainLists(f"{_TOOL}.allowed_domains", f"{_TOOL}.blocked_domains")
    )
    """The web search tool's ``allowed_domains`` / ``blocked_domains``, as Anthropic's docs
    describe them (both in one tool is refused: :func:`_domains_problem`); the question's
    own ``site:`` is the model's to read, not applied here."""

    pauses: int = 0
    """How many times each turn is paused (``pause_turn``) before it completes."""

    credits_spent: bool = False
    """Answer every authenticated request as Anthropic answers an account without credits."""

    def __init__(self) -> None:
        self.sign_in = RefreshGrant("anthropic")
        """The sign-in's token endpoint (``POST /oauth/token``), for a refresh hook to call."""

    def query_of(self, request: RecordedRequest) -> str:
        """The first user message's text."""
        try:
            body = request.json()
            content = body["messages"][0]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            return ""
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        return ""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """A message (or its stream) answering the user's question from ``results``.

        A refresh at the token path is answered by :attr:`sign_in`.
        """
        if request.path == TOKEN_PATH:
            return self.sign_in.answer(request)
        refused = self._refusal(request)
        if refused is not None:
            return refused
        body = request.json()
        query = self.query_of(request)
        model = str(body.get("model"))
        tools = [t for t in body.get("tools") or [] if isinstance(t, dict)]
        if not any(t.get("type") == _TOOL_TYPE for t in tools):
            content = [{"type": "text", "text": f"I cannot search, but {query} is a question."}]
            message = _message(query, model, content, "end_turn", 0)
        else:
            message = self._turn(body, query, model, results)
        headers = {"request-id": f"req_sim{_digest(query)}"}
        if body.get("stream") is True:
            return web.Response(
                body=_sse(message_events(message)),
                content_type="text/event-stream",
                headers=headers,
            )
        return web.json_response(message, headers=headers)

    def _turn(
        self, body: Mapping[str, Any], query: str, model: str, results: list[SimResult]
    ) -> dict[str, Any]:
        messages = body["messages"]
        prior = messages[-1]["content"] if messages[-1].get("role") == "assistant" else []
        pending = [b for b in prior if isinstance(b, dict) and b.get("type") == "server_tool_use"]
        content: list[dict[str, Any]] = []
        if pending:
            tool_id = str(pending[-1].get("id"))
            result_block = [_search_result(r) for r in results]
            content.append(
                {"type": "web_search_tool_result", "tool_use_id": tool_id, "content": result_block}
            )
        if len(pending) < self.pauses:
            note = "Searching again." if pending else "I will search for that."
            content.append({"type": "text", "text": note})
            content.append(self._tool_use(query, len(pending)))
            return _message(query, model, content, "pause_turn", 1 if pending else 0)
        if not pending:
            use = self._tool_use(query, 0)
            content.append(use)
            result_block = [_search_result(r) for r in results]
            content.append(
                {
                    "type": "web_search_tool_result",
                    "tool_use_id": use["id"],
                    "content": result_block,
                }
            )
        content.extend(_answer_blocks(query, results))
        return _message(query, model, content, "end_turn", 1)

    def _tool_use(self, query: str, index: int) -> dict[str, Any]:
        return {
            "type": "server_tool_use",
            "id": f"srvtoolu_sim{index}{_digest(query)[:16]}",
            "name": "web_search",
            "input": {"query": query if index == 0 else f"{query} ({index + 1})"},
        }

    def _refusal(self, request: RecordedRequest) -> web.Response | None:
        if not request.path.endswith("/v1/messages"):
            return _error(404, "not_found_error", "Not Found")
        key = request.header("x-api-key") or ""
        bearer = (request.header("Authorization") or "").removeprefix("Bearer ").strip()
        if not key.strip() and not bearer:
            return _error(401, "authentication_error", "x-api-key header is required")
        if bearer in self.sign_in.expired:
            return _error(401, "authentication_error", "OAuth token has expired.")
        if self.credits_spent:
            return _error(400, "invalid_request_error", LOW_CREDIT_MESSAGE)
        if not request.header("anthropic-version"):
            return _error(400, "invalid_request_error", "anthropic-version header is required")
        try:
            body = request.json()
        except ValueError:
            return _error(400, "invalid_request_error", "Request body is not valid JSON")
        return _body_refusal(body)

    def challenge(self) -> web.Response:
        """The API has no challenge page: a 403 ``permission_error``."""
        return _error(403, "permission_error", "Your API key does not have permission")

    def malformed(self) -> web.Response:
        """A 200 message whose ``content`` is not a list."""
        return web.Response(
            text='{"id": "msg_bad", "type": "message", "content": "unavailable"}',
            content_type="application/json",
        )
