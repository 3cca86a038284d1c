"""Pure request building for the Anthropic provider: base URL, Messages body and headers.

Kept apart from :mod:`websearch_core.providers.anthropic` so the provider module holds its
facts and protocol hooks; nothing here does I/O or reads the environment.

Body: ``model``, ``max_tokens`` (``max_tokens``, default 4096), ``messages: [{"role":
"user", "content": <query>}]`` (then the paused turn as the assistant's, when resumed),
``system: [{"type": "text", "text": <system prompt>}]``, ``tools: [{"type":
"web_search_20250305", "name": "web_search"}]`` with ``allowed_domains``
(``include_domains``) or else ``blocked_domains`` (``exclude_domains``; the API refuses
both at once: :data:`FILTERS`) and ``user_location: {"type": "approximate", "country"}``
(``country``, upper case), and ``temperature`` when given, unless the model refuses it
(Opus 4.7 and later, Sonnet 5 and later, Fable / Mythos 5). With both lists asked, the
blocked domains are written into the question as ``-site:`` and checked on the sources
here, and the filter record says ``query + post`` for them, not ``native``.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal
from urllib.parse import urlsplit

from ..errors import ConfigurationError
from ..filters import FilterSupport
from ..models import SearchParams
from ..redaction import CUT_SHORT, userinfo_cut_short

__all__ = [
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_HOST",
    "BASE_URL_ENV_VARS",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "FILTERS",
    "AnthropicAuth",
    "base_url",
    "messages_url",
    "request_body",
    "request_headers",
    "temperature_allowed",
]

ANTHROPIC_BASE_URL: Final = "https://api.anthropic.com"
ANTHROPIC_HOST: Final = "api.anthropic.com"
BASE_URL_ENV_VARS: Final = ("ANTHROPIC_SEARCH_BASE_URL", "ANTHROPIC_BASE_URL")
DEFAULT_MODEL: Final = "claude-haiku-4-5"
DEFAULT_MAX_TOKENS: Final = 4096
FILTERS: Final = FilterSupport.language_model(
    native=frozenset({"include_domains", "exclude_domains", "country"}), one_domain_list=True
)
"""``allowed_domains`` or ``blocked_domains``, never both (a list left out is asked for), and
the country as the tool's ``user_location``."""
API_VERSION: Final = "2023-06-01"
WEB_SEARCH_BETA: Final = "web-search-2025-03-05"
OAUTH_BETA: Final = "oauth-2025-04-20"
TOOL_TYPE: Final = "web_search_20250305"
LOCATION_TYPE: Final = "approximate"
"""The only ``user_location.type`` the tool takes (Anthropic's SDKs: ``Literal["approximate"]``)."""

_OPUS = re.compile(r"opus-(\d+)-(\d+)")
_SONNET = re.compile(r"sonnet-(\d+)")
_NO_TEMPERATURE_FAMILIES = re.compile(r"(?:fable|mythos)-(\d+)")


@dataclass(frozen=True, slots=True)
class AnthropicAuth:
    """The credential for one search and how it is sent."""

    token: str = field(repr=False)
    kind: Literal["api_key", "oauth"]
    stored_oauth: bool = False
    """Came from the credential store, so a 401 may be answered by refreshing it."""


def base_url(environ: Mapping[str, str]) -> str:
    """The API origin: the search-only override, the general one, or Anthropic's.

    Raises:
        ConfigurationError: The variable's URL has an ``@`` only after its host, where a
            token with an unencoded ``/`` puts it (:func:`userinfo_cut_short`): the
            request would go to the token's first part as a host, and nothing would mask
            the token in an error. The message names the variable, never the value.

    Example:
        >>> base_url({"ANTHROPIC_BASE_URL": "https://gw.example/anthropic/v1/"})
        'https://gw.example/anthropic'
    """
    for name in BASE_URL_ENV_VARS:
        value = (environ.get(name) or "").strip()
        if value and userinfo_cut_short(value):
            raise ConfigurationError(f"Invalid {name}: {CUT_SHORT}")
        if value:
            value = value.rstrip("/")
            return value.removesuffix("/v1").rstrip("/") or ANTHROPIC_BASE_URL
    return ANTHROPIC_BASE_URL


def messages_url(base: str) -> str:
    """``<base>/v1/messages``."""
    return f"{base}/v1/messages"


def temperature_allowed(model: str) -> bool:
    """False for the models that reject ``temperature`` (Opus 4.7+, Sonnet 5+, Fable/Mythos 5+).

    Example:
        >>> temperature_allowed("claude-haiku-4-5"), temperature_allowed("claude-opus-4-7")
        (True, False)
    """
    lowered = model.lower()
    opus = _OPUS.search(lowered)
    if opus and (int(opus.group(1)), int(opus.group(2))) >= (4, 7):
        return False
    sonnet = _SONNET.search(lowered)
    if sonnet and int(sonnet.group(1)) >= 5:
        return False
    family = _NO_TEMPERATURE_FAMILIES.search(lowered)
    return not (family and int(family.group(1)) >= 5)


def _tool(params: SearchParams) -> dict[str, Any]:
    """The ``web_search_20250305`` tool: its domain list and the user's country, when asked.

    The tool's ``user_location`` localises the search ("Used to provide more relevant search
    results"); its ``country`` is a two-letter ISO 3166-1 code, written in ISO's upper case
    as Anthropic's examples write it (``"US"``). ``city``, ``region`` and ``timezone`` have
    no search field here and are left out.
    """
    tool: dict[str, Any] = {"type": TOOL_TYPE, "name": "web_search"}
    sent = FILTERS.sent_domains(params.include_domains, params.exclude_domains)
    if "include_domains" in sent:
        tool["allowed_domains"] = list(params.include_domains)
    elif "exclude_domains" in sent:
        tool["blocked_domains"] = list(params.exclude_domains)
    if params.country is not None:
        tool["user_location"] = {"type": LOCATION_TYPE, "country": params.country.upper()}
    return tool


def request_body(
    params: SearchParams,
    *,
    model: str = DEFAULT_MODEL,
    system_prompt: str = "",
    assistant_content: Sequence[Any] = (),
) -> dict[str, Any]:
    """The Messages API body for ``params`` (pure).

    Args:
        params: The search.
        model: The Claude model.
        system_prompt: Sent as one ``system`` text block when not blank.
        assistant_content: The content of a paused turn, sent back so the model continues.

    Example:
        >>> request_body(SearchParams(query="x"))["tools"]
        [{'type': 'web_search_20250305', 'name': 'web_search'}]
    """
    messages: list[dict[str, Any]] = [{"role": "user", "content": params.query}]
    if assistant_content:
        messages.append({"role": "assistant", "content": list(assistant_content)})
    body: dict[str, Any] = {
        "model": model,
        "max_tokens": params.max_tokens or DEFAULT_MAX_TOKENS,
        "messages": messages,
        "tools": [_tool(params)],
    }
    if system_prompt.strip():
        body["system"] = [{"type": "text", "text": system_prompt}]
    if params.temperature is not None and temperature_allowed(model):
        body["temperature"] = params.temperature
    return body


def request_headers(auth: AnthropicAuth, base: str) -> dict[str, str]:
    """Headers for ``auth`` against ``base``: ``x-api-key`` on Anthropic's host, else Bearer.

    A gateway whose URL holds a user name (``https://user:pw@gw``) takes that as
    ``Authorization: Basic``, so the key goes in Anthropic's own ``x-api-key`` there: as a
    bearer token it would need the same header, and the request could not be sent at all.
    An OAuth token has no other header; the transport names that clash.
    """
    headers = {
        "Accept": "application/json",
        "Content-Type": "application/json",
        "anthropic-version": API_VERSION,
        "anthropic-beta": WEB_SEARCH_BETA,
    }
    if auth.kind == "oauth":
        headers["Authorization"] = f"Bearer {auth.token}"
        headers["anthropic-beta"] = f"{OAUTH_BETA},{WEB_SEARCH_BETA}"
    elif urlsplit(base).hostname == ANTHROPIC_HOST or "@" in urlsplit(base).netloc:
        headers["x-api-key"] = auth.token
    else:
        headers["Authorization"] = f"Bearer {auth.token}"
    return headers
