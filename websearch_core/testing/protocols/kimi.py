"""The Kimi Code search service as the simulator speaks it.

Success bodies have the documented shape ``{"search_results": [{"site_name", "title",
"url", "snippet", "content", "date", "icon", "mime"}]}``; ``limit`` (1..20) is honoured,
``content`` is filled only when ``enable_page_crawling`` is true, ``date`` is the result's
ISO date, and an ``x-msh-request-id`` header is sent. The query is read from
``text_query``.

A request without a bearer token gets a 401 in Moonshot's error envelope
``{"error": {"message", "type": "invalid_authentication_error"}}``; a body without
``text_query`` gets a 400 in the same envelope. The service has no bot challenge, so
:meth:`KimiProtocol.challenge` is a plain 403. :meth:`KimiProtocol.malformed` answers with a
*chat-completions* body (the ``$web_search`` tool-call leg of Moonshot's other API), which
the search parser must refuse rather than read as "no results".
"""

import hashlib
import json
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import bearer_token

__all__ = ["KimiProtocol"]

_DEFAULT_LIMIT = 10
_MAX_LIMIT = 20

_CHAT_COMPLETION = {
    "choices": [
        {
            "finish_reason": "tool_calls",
            "index": 0,
            "message": {
                "content": "",
                "role": "assistant",
                "tool_calls": [
                    {
                        "function": {
                            "arguments": '{"search_result":{"search_id":"0000"}}',
                            "name": "$web_search",
                        },
                        "id": "t-web_search-0000",
                        "type": "builtin_function",
                    }
                ],
            },
        }
    ],
    "created": 1767225600,
    "id": "chatcmpl-simulated",
    "model": "kimi-k2.5",
    "object": "chat.completion",
}


def _error(status: int, message: str, kind: str) -> web.Response:
    return web.json_response({"error": {"message": message, "type": kind}}, status=status)


def _limit(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return _DEFAULT_LIMIT
    return max(1, min(_MAX_LIMIT, value))


def _result(result: SimResult, crawl: bool) -> dict[str, Any]:
    host = urlsplit(result.url).hostname or ""
    return {
        "site_name": host.removeprefix("www."),
        "title": result.title,
        "url": result.url,
        "snippet": result.snippet,
        "content": f"{result.title}\n\n{result.snippet}" if crawl else "",
        "date": result.published[:10] if result.published else "",
        "icon": f"https://{host}/favicon.ico" if host else "",
        "mime": "text/html",
    }


class KimiProtocol:
    """Kimi Code's search JSON, Moonshot's error envelope, a 403 and a foreign body."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """``search_results`` for the JSON request body."""
        if not bearer_token(request):
            return _error(401, "Invalid Authentication", "invalid_authentication_error")
        try:
            body = request.json()
        except ValueError:
            return _error(400, "Invalid request body", "invalid_request_error")
        query = body.get("text_query") if isinstance(body, dict) else None
        if not isinstance(query, str) or not query.strip():
            return _error(400, "text_query is required", "invalid_request_error")
        crawl = body.get("enable_page_crawling") is True
        served = results[: _limit(body.get("limit"))]
        payload = {"search_results": [_result(result, crawl) for result in served]}
        request_id = hashlib.sha256(query.encode("utf-8")).hexdigest()[:24]
        return web.Response(
            text=json.dumps(payload, ensure_ascii=False),
            content_type="application/json",
            headers={"x-msh-request-id": request_id},
        )

    def challenge(self) -> web.Response:
        """The service has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 chat-completions body (no ``search_results``): the wrong API's answer."""
        return web.json_response(_CHAT_COMPLETION)
