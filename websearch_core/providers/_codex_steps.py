"""The Codex provider's model fallback between the request loop's calls.

Kept apart from :mod:`websearch_core.providers.codex` (the facts, the error map and the
hooks) so the hooks read as the protocol and this module as its bookkeeping: which models
to try, the request for one, whether an answer refused the model, and the last answer
parsed once. ``flow.state`` holds ``models`` (the models to try) and ``outcome`` (the last
response with what it parsed to). Nothing here sends anything.
"""

import re
from typing import Final

from ..errors import SearchProviderError
from ..models import SearchResponse
from ..provider_types import Flow, ProviderContext
from ..stream_ends import OPENAI_RESPONSES_END
from ..transport import HttpRequest, HttpResponse, SseResponse, body_head_text
from ._codex_parse import NoWebSearchError, parse_body
from ._codex_request import request_body, request_headers

__all__ = [
    "CODEX_ENDPOINT",
    "DEFAULT_MODELS",
    "MODEL_ENV_VAR",
    "model_refused",
    "models_to_try",
    "outcome",
    "step_request",
]

CODEX_ENDPOINT: Final = "https://chatgpt.com/backend-api/codex/responses"
MODEL_ENV_VAR: Final = "CODEX_SEARCH_MODEL"
DEFAULT_MODELS: Final = ("gpt-5.5", "gpt-5.4", "gpt-5-codex", "gpt-5")
"""Tried in order until one is accepted for the account."""

_UNSUPPORTED_MODEL: Final = re.compile(
    r"model is not supported|requested model is not supported|"
    r"not supported when using codex with a chatgpt account",
    re.IGNORECASE,
)


def models_to_try(context: ProviderContext) -> tuple[str, ...]:
    """``CODEX_SEARCH_MODEL`` alone, or :data:`DEFAULT_MODELS`."""
    pinned = context.credentials.env(MODEL_ENV_VAR)
    return (pinned,) if pinned else DEFAULT_MODELS


def step_request(flow: Flow, index: int) -> HttpRequest:
    """The streamed search with the ``index``-th model and the flow's current token."""
    assert flow.token is not None  # prepare() resolved it; the loop only replaces it
    model = flow.state["models"][index]
    body = request_body(flow.params, model=model, instructions=flow.context.system_prompt)
    headers = request_headers(flow.token.access_token)
    return HttpRequest(
        method="POST",
        url=CODEX_ENDPOINT,
        headers=headers,
        json=body,
        stream=True,
        stream_end=OPENAI_RESPONSES_END,
    )


def model_refused(flow: Flow) -> bool:
    """Whether the last answer means the next model should be tried.

    A 2xx answer given without searching, or a 400 saying the model is not available to
    this account; any other status ends the search (the loop reads it).
    """
    response = flow.last.response
    if 200 <= response.status < 300:
        return isinstance(outcome(flow), NoWebSearchError)
    return response.status == 400 and _unsupported_model(response)


def outcome(flow: Flow) -> SearchResponse | SearchProviderError:
    """What the last 2xx answer parses to, read once and kept in ``flow.state``."""
    last = flow.last.response
    cached = flow.state.get("outcome")
    answer: SearchResponse | SearchProviderError
    if cached is not None and cached[0] is last:
        answer = cached[1]
        return answer
    assert isinstance(last, SseResponse)  # every request streams
    try:
        answer = parse_body(last, flow.params)
    except SearchProviderError as error:
        answer = error
    flow.state["outcome"] = (last, answer)
    return answer


def _unsupported_model(response: HttpResponse | SseResponse) -> bool:
    """Whether a 400's body says the model is not available to this account."""
    return bool(_UNSUPPORTED_MODEL.search(body_head_text(response.body)))
