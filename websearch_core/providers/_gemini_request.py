"""Pure request building for the Gemini provider: the Developer API and Cloud Code Assist.

Kept apart from :mod:`websearch_core.providers.gemini` so the provider module holds its
facts and protocol hooks; nothing here does I/O or reads the environment. Endpoints,
headers and auth are in the provider module's docstring; the bodies are:

* **Developer API:** ``contents: [{role: "user", parts: [{text: <query>}]}]``, ``tools:
  [{google_search: {}}]``, ``systemInstruction: {parts: [{text: <system prompt>}]}`` and,
  only when ``max_tokens`` or ``temperature`` is given, ``generationConfig:
  {maxOutputTokens, temperature}``.
* **Cloud Code Assist:** the request above (the system instruction with ``role: "user"``)
  wrapped as ``{project, model, request, requestType: "agent", userAgent: "antigravity",
  requestId: "agent-<uuid>"}``.
* **The account's model catalogue:** ``POST <endpoint>/v1internal:fetchAvailableModels``
  with the same bearer headers and ``{"project": <project>}`` (how CLIProxyAPI's
  ``sdk/cliproxy/antigravity_models.go`` and opencode-antigravity-auth's
  ``src/plugin/quota.ts`` ask it); the reply is read by :mod:`._gemini_catalog`.
"""

from typing import Any, Final
from urllib.parse import quote

from ..models import SearchParams
from ..transport import HttpRequest

__all__ = [
    "CODE_ASSIST_ENDPOINTS",
    "DEVELOPER_API_ORIGIN",
    "code_assist_body",
    "code_assist_request",
    "developer_request",
    "load_request",
    "models_request",
    "request_body",
]

DEVELOPER_API_ORIGIN: Final = "https://generativelanguage.googleapis.com"
CODE_ASSIST_ENDPOINTS: Final = (
    "https://daily-cloudcode-pa.googleapis.com",
    "https://daily-cloudcode-pa.sandbox.googleapis.com",
)
"""Tried in this order: a transient failure at the first moves on to the second."""
MODELS_PATH: Final = "/v1internal:fetchAvailableModels"
CODE_ASSIST_USER_AGENT: Final = (
    "antigravity/hub/2.8.0 (aidev_client; os_type=darwin; arch=arm64; cl=963137146)"
)


def request_body(
    params: SearchParams, system_prompt: str, *, instruction_role: str | None = None
) -> dict[str, Any]:
    """The ``GenerateContentRequest`` for ``params`` (pure).

    Example:
        >>> request_body(SearchParams(query="x"), "s")["tools"]
        [{'google_search': {}}]
    """
    instruction: dict[str, Any] = {"parts": [{"text": system_prompt}]}
    if instruction_role is not None:
        instruction = {"role": instruction_role, **instruction}
    body: dict[str, Any] = {
        "contents": [{"role": "user", "parts": [{"text": params.query}]}],
        "tools": [{"google_search": {}}],
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
    params: SearchParams, system_prompt: str, *, model: str, project: str, request_id: str
) -> dict[str, Any]:
    """The Cloud Code Assist wrapper around :func:`request_body` (pure)."""
    return {
        "project": project,
        "model": model,
        "request": request_body(params, system_prompt, instruction_role="user"),
        "requestType": "agent",
        "userAgent": "antigravity",
        "requestId": request_id,
    }


def developer_request(
    params: SearchParams, system_prompt: str, *, model: str, key: str
) -> HttpRequest:
    """The Developer API's ``streamGenerateContent?alt=sse`` call with ``x-goog-api-key``."""
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
        json=request_body(params, system_prompt),
        stream=True,
    )


def _bearer(token: str) -> dict[str, str]:
    return {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        "Accept": "text/event-stream",
        "User-Agent": CODE_ASSIST_USER_AGENT,
    }


def load_request(endpoint: str, token: str) -> HttpRequest:
    """``v1internal:loadCodeAssist``: which Cloud Code project the account has."""
    return HttpRequest(
        method="POST",
        url=f"{endpoint}/v1internal:loadCodeAssist",
        headers={**_bearer(token), "Accept": "application/json"},
        json={
            "metadata": {
                "ideType": "IDE_UNSPECIFIED",
                "platform": "PLATFORM_UNSPECIFIED",
                "pluginType": "GEMINI",
            }
        },
    )


def code_assist_request(endpoint: str, token: str, body: dict[str, Any]) -> HttpRequest:
    """``v1internal:streamGenerateContent?alt=sse`` with a :func:`code_assist_body`."""
    return HttpRequest(
        method="POST",
        url=f"{endpoint}/v1internal:streamGenerateContent",
        params=(("alt", "sse"),),
        headers=_bearer(token),
        json=body,
        stream=True,
    )


def models_request(endpoint: str, token: str, project: str) -> HttpRequest:
    """``v1internal:fetchAvailableModels``: the models this account's project is served."""
    return HttpRequest(
        method="POST",
        url=f"{endpoint}{MODELS_PATH}",
        headers={**_bearer(token), "Accept": "application/json"},
        json={"project": project},
    )
