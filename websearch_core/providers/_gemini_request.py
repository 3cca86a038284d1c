"""Pure request building for the Gemini provider: the Developer API and Cloud Code Assist.

Kept apart from :mod:`websearch_core.providers.gemini` so the provider module holds its
facts and protocol hooks; nothing here does I/O or reads the environment. Endpoints,
headers and auth are in the provider module's docstring; the bodies are:

* **Developer API:** ``contents: [{role: "user", parts: [{text: <query>}]}]``, ``tools:
  [{google_search: {}}]`` (with ``timeRangeFilter: {startTime, endTime}`` inside when a
  date or recency is asked: :mod:`._gemini_filters`), ``systemInstruction: {parts:
  [{text: <system prompt>}]}`` and, only when ``max_tokens`` or ``temperature`` is given,
  ``generationConfig: {maxOutputTokens, temperature}``.
* **Cloud Code Assist:** the request above, never with a time filter (none is documented
  there), wrapped as ``{project, model, request, requestId}`` plus the sign-in's own
  fields; Antigravity's system instruction carries ``role: "user"`` and its body
  ``requestType: "agent", userAgent: "antigravity"``, the Gemini CLI's body ``userAgent:
  "websearch-tools/<version>"`` (the table: :mod:`._gemini_signins`). Each sign-in's
  headers go on every Cloud Code request.
* **The account's model list:** ``POST <endpoint><sign-in's catalogue path>`` with the same
  bearer headers and ``{"project": <project>}``: Antigravity's
  ``v1internal:fetchAvailableModels`` (how CLIProxyAPI's
  ``sdk/cliproxy/antigravity_models.go`` and opencode-antigravity-auth's
  ``src/plugin/quota.ts`` ask it), the Gemini CLI's ``v1internal:retrieveUserQuota`` (as
  the Gemini CLI asks it); the reply is read by :mod:`._gemini_catalog`.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final
from urllib.parse import quote

from ..filters.support import FilterSupport
from ..models import SearchParams
from ..stream_ends import GEMINI_GENERATE_CONTENT_END
from ..transport import HttpRequest
from ._gemini_filters import MODE_FILTERS, google_search_tool
from ._gemini_signins import ANTIGRAVITY, SignIn, user_agent

__all__ = [
    "CODE_ASSIST_ENDPOINTS",
    "DEVELOPER_API_ORIGIN",
    "CodeAssistCall",
    "code_assist_body",
    "code_assist_request",
    "developer_request",
    "load_request",
    "models_request",
    "request_body",
]

DEVELOPER_API_ORIGIN: Final = "https://generativelanguage.googleapis.com"
CODE_ASSIST_ENDPOINTS: Final = ANTIGRAVITY.endpoints
"""Antigravity's hosts (a token stored under ``gemini``), tried in this order."""


def request_body(
    params: SearchParams,
    system_prompt: str,
    *,
    instruction_role: str | None = None,
    filters: FilterSupport = MODE_FILTERS["oauth"],
    now: datetime | None = None,
) -> dict[str, Any]:
    """The ``GenerateContentRequest`` for ``params`` (pure but for the clock).

    Args:
        params: The search as planned.
        system_prompt: The system instruction's text.
        instruction_role: A role for the system instruction (Antigravity's ``user``).
        filters: The mode's filter support: the date filters it carries natively go in
            the ``google_search`` tool (default: none, as Cloud Code is sent).
        now: The current time a recency counts back from (default: the clock).

    Example:
        >>> request_body(SearchParams(query="x"), "s")["tools"]
        [{'google_search': {}}]
    """
    instruction: dict[str, Any] = {"parts": [{"text": system_prompt}]}
    if instruction_role is not None:
        instruction = {"role": instruction_role, **instruction}
    body: dict[str, Any] = {
        "contents": [{"role": "user", "parts": [{"text": params.query}]}],
        "tools": [google_search_tool(params, filters, now)],
        "systemInstruction": instruction,
    }
    config: dict[str, Any] = {}
    if params.max_tokens is not None:
        config["maxOutputTokens"] = params.max_tokens
    if params.temperature is not None:
        config["temperature"] = params.temperature
    if config:
        body["generationConfig"] = config
    return body


def code_assist_body(
    params: SearchParams,
    system_prompt: str,
    *,
    model: str,
    project: str,
    request_id: str,
    sign_in: SignIn = ANTIGRAVITY,
) -> dict[str, Any]:
    """The Cloud Code Assist wrapper around :func:`request_body` for ``sign_in`` (pure)."""
    return {
        "project": project,
        "model": model,
        "request": request_body(
            params,
            system_prompt,
            instruction_role=sign_in.instruction_role,
            filters=MODE_FILTERS["oauth"],
        ),
        **sign_in.body_fields,
        "requestId": request_id,
    }


def developer_request(
    params: SearchParams,
    system_prompt: str,
    *,
    model: str,
    key: str,
    filters: FilterSupport = MODE_FILTERS["api_key"],
) -> HttpRequest:
    """The Developer API's ``streamGenerateContent?alt=sse`` call with ``x-goog-api-key``.

    ``filters`` is the mode's support for this search: Cloud Code's (no time filter) once
    the model refused ``timeRangeFilter`` (:mod:`._gemini_time_refusal`).
    """
    return HttpRequest(
        method="POST",
        url=f"{DEVELOPER_API_ORIGIN}/v1beta/models/{quote(model, safe='-._')}"
        ":streamGenerateContent",
        params=(("alt", "sse"),),
        headers={
            "x-goog-api-key": key,
            "Content-Type": "application/json",
            "Accept": "text/event-stream",
        },
        json=request_body(params, system_prompt, filters=filters),
        stream=True,
        stream_end=GEMINI_GENERATE_CONTENT_END,
    )


@dataclass(frozen=True, slots=True)
class CodeAssistCall:
    """Who calls Cloud Code Assist and where: what every step of one OAuth search shares."""

    sign_in: SignIn
    endpoint: str
    """The origin in use (one of ``sign_in.endpoints``)."""
    token: str = field(repr=False)
    model: str
    """The model the search asks for (the Gemini CLI names it in its ``User-Agent``)."""

    def headers(self, accept: str = "text/event-stream") -> dict[str, str]:
        """The bearer token, the sign-in's ``User-Agent`` and its further headers."""
        return {
            "Authorization": f"Bearer {self.token}",
            "Content-Type": "application/json",
            "Accept": accept,
            "User-Agent": user_agent(self.sign_in, self.model),
            **self.sign_in.headers,
        }


def load_request(call: CodeAssistCall) -> HttpRequest:
    """``v1internal:loadCodeAssist``: which Cloud Code project the account has."""
    return HttpRequest(
        method="POST",
        url=f"{call.endpoint}/v1internal:loadCodeAssist",
        headers=call.headers("application/json"),
        json={
            "metadata": {
                "ideType": "IDE_UNSPECIFIED",
                "platform": "PLATFORM_UNSPECIFIED",
                "pluginType": "GEMINI",
            }
        },
    )


def code_assist_request(call: CodeAssistCall, body: dict[str, Any]) -> HttpRequest:
    """``v1internal:streamGenerateContent?alt=sse`` with a :func:`code_assist_body`."""
    return HttpRequest(
        method="POST",
        url=f"{call.endpoint}/v1internal:streamGenerateContent",
        params=(("alt", "sse"),),
        headers=call.headers(),
        json=body,
        stream=True,
        stream_end=GEMINI_GENERATE_CONTENT_END,
    )


def models_request(call: CodeAssistCall, project: str) -> HttpRequest:
    """The sign-in's model list (:attr:`SignIn.catalog`): what this account is served.

    Raises:
        ValueError: The sign-in has no model list to ask.
    """
    if call.sign_in.catalog is None:
        raise ValueError(f"the {call.sign_in.label} sign-in has no model list to ask")
    return HttpRequest(
        method="POST",
        url=f"{call.endpoint}{call.sign_in.catalog.path}",
        headers=call.headers("application/json"),
        json={"project": project},
    )
