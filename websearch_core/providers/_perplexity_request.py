"""The Perplexity requests, built without I/O: which auth methods, bodies and headers.

* **Methods** (:func:`auth_methods`): cookies, OAuth, API key, OpenRouter, in that order;
  anonymous only when none is configured.

* **Chat completions** (API key, OpenRouter): ``model`` (``sonar-pro``), a ``system``
  message (the system prompt) and a ``user`` message (the query), ``stream: true`` with
  ``stream_options.include_usage``, ``max_tokens`` (default 8192), ``temperature`` (default
  0.2), ``search_mode: "web"``, ``num_search_results`` (default 20), ``web_search_options:
  {search_type: "pro", search_context_size: "high"}``, ``enable_search_classifier: true``,
  ``reasoning_effort: "medium"``, ``language_preference: "en"``,
  ``return_related_questions: true``. The fields beyond OpenAI's are named, with their
  types, by Perplexity's SDKs, generated from its OpenAPI description
  (perplexityai/perplexity-py ``src/perplexity/types/chat/completion_create_params.py`` @
  d32c134, perplexityai/perplexity-node ``src/resources/chat/completions.ts`` @ c186c6f):
  ``num_search_results`` an integer, ``language_preference`` a string (no values listed;
  ``"en"`` kept), ``reasoning_effort`` minimal|low|medium|high, ``search_mode``
  web|academic|sec, ``enable_search_classifier`` and ``return_related_questions``
  booleans, ``web_search_options.search_type`` fast|pro|auto and ``search_context_size``
  low|medium|high.
* **Filters**, in both modes when asked: ``search_domain_filter``, ``search_after_date_filter``
  / ``search_before_date_filter`` (``M/D/YYYY``), ``search_language_filter`` (the language's
  ISO 639-1 code), ``search_recency_filter`` (``recency``, only without explicit dates) and
  ``web_search_options.user_location.country`` (``country``, upper case ISO 3166-1 alpha-2,
  as https://docs.perplexity.ai/guides/user-location-filter-guide writes ``"US"``; the
  ``ToolUserLocation`` schema: "ISO 3166-1 alpha-2 country code"). In API-key mode the
  location joins the fixed ``web_search_options``; the ask endpoint gets it on its own,
  assumed to read it like the other API names it is sent.
* **Domains** (:data:`FILTERS`): ``search_domain_filter`` is one list in one mode: the
  included domains when there are one to :data:`MAX_DOMAINS` of them (allowlist), else the
  excluded ones, each prefixed with ``-`` (denylist), when they fit. The docs allow "a
  maximum of 20 domains or URLs" and "either allowlist mode (include only) or denylist mode
  (exclude), but not both simultaneously"
  (https://docs.perplexity.ai/guides/search-domain-filters; the Search API's guide,
  https://docs.perplexity.ai/guides/search-domain-filter-guide: "You cannot combine
  allowlisting and denylisting in the same request"). A list that does not go out is
  written into the question as ``site:`` / ``-site:`` and checked on the sources here; the
  filter record says ``query + post`` for it. The ask endpoint gets the same list: it is the
  web client's own API and undocumented, so the API's rule is assumed to hold there too.
* **Ask endpoint** (cookies, OAuth, anonymous): the web client's ``{query_str, params}``
  body (no system prompt; ``max_tokens``, ``temperature`` and ``num_search_results`` are not
  sent) and headers: the app's user agent, API client and version headers when signed in,
  a Chrome user agent when anonymous; cookies as given, an OAuth token as the
  ``__Secure-next-auth.session-token`` cookie.
"""

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal

from ..errors import ProviderNotConfiguredError
from ..filters import FIELD_FILTERS, FilterSupport
from ..html import CHROME_USER_AGENT
from ..models import SearchParams
from ..redaction import MIN_TOKEN_LENGTH, cookie_secrets
from ..sent_secret import flaw
from ..stream_ends import CHAT_COMPLETIONS_END, PERPLEXITY_ASK_END
from ..transport import HttpRequest

if TYPE_CHECKING:
    from .base import ProviderContext

__all__ = [
    "API_MODEL",
    "ASK_ENDPOINT",
    "ASK_KINDS",
    "ASK_MODEL",
    "CHAT_ENDPOINT",
    "FILTERS",
    "MAX_DOMAINS",
    "OPENROUTER_ENDPOINT",
    "TIMEZONE_ENV",
    "AuthMethod",
    "MethodKind",
    "api_body",
    "ask_body",
    "ask_headers",
    "auth_methods",
    "method_request",
    "session_cookies",
    "session_token",
]

MethodKind = Literal["cookies", "oauth", "api_key", "openrouter", "anonymous"]
ASK_KINDS: Final = frozenset({"cookies", "oauth", "anonymous"})
"""The methods that use the web client's ask endpoint."""
CHAT_ENDPOINT: Final = "https://api.perplexity.ai/chat/completions"
OPENROUTER_ENDPOINT: Final = "https://openrouter.ai/api/v1/chat/completions"
ASK_ENDPOINT: Final = "https://www.perplexity.ai/rest/sse/perplexity_ask"
API_MODEL: Final = "sonar-pro"
ASK_MODEL: Final = "experimental"
ASK_VERSION: Final = "2.18"
DEFAULT_MAX_TOKENS: Final = 8192
DEFAULT_TEMPERATURE: Final = 0.2
DEFAULT_SEARCH_RESULTS: Final = 20
"""``num_search_results`` when the caller asks no count (an integer in the SDKs' schema)."""
API_SEARCH_OPTIONS: Final[Mapping[str, str]] = MappingProxyType(
    {"search_type": "pro", "search_context_size": "high"}
)
"""The API-key mode's fixed ``web_search_options``; a country adds ``user_location``."""
APP_USER_AGENT: Final = "Perplexity/641 CFNetwork/1568 Darwin/25.2.0"
SESSION_COOKIE: Final = "__Secure-next-auth.session-token"
PROVIDER_ID: Final = "perplexity"
COOKIES_ENV: Final = "PERPLEXITY_COOKIES"
COOKIES_WHAT: Final = "Perplexity cookie header"
"""What ``PERPLEXITY_COOKIES`` is called in a problem's or a refusal's text."""
TIMEZONE_ENV: Final = "TZ"
"""The ask endpoint is told the IANA zone set here, so "today" means the user's day."""
OPENROUTER_ENV: Final = ("OPENROUTER_API_KEY",)
MAX_DOMAINS: Final = 20
"""The most entries ``search_domain_filter`` may hold (domains or URLs, in either mode)."""
FILTERS: Final = FilterSupport.language_model(
    native=FIELD_FILTERS,  # every field filter: the country too, as user_location
    domain_limit=MAX_DOMAINS,
    one_domain_list=True,
    two_letter_language=True,  # search_language_filter: ISO 639-1 codes (reference 6.5)
)
"""What the API takes as parameters; domains as an allowlist or a denylist of at most 20."""


@dataclass(frozen=True, slots=True)
class AuthMethod:
    """One way to reach Perplexity; ``secret`` is the cookie header or key (if any)."""

    kind: MethodKind
    secret: str | None = None

    def __repr__(self) -> str:
        return f"AuthMethod(kind={self.kind!r})"


def session_cookies(context: "ProviderContext") -> str | None:
    """``PERPLEXITY_COOKIES``, the header and the session token in it remembered as secrets.

    An upstream that echoes the request (a 400 naming the cookie, a proxy showing its
    headers) must show neither: they are masked wherever a key is. Both are handed out as
    sign-ins too (:meth:`~websearch_core.credentials.Credentials.hand_out_sign_in`), each
    on its own, so a request carrying either is judged where it is sent, the header
    rewritten or not. A header or token shorter than :data:`~websearch_core.redaction.
    MIN_TOKEN_LENGTH` (``theme=dark``) is no session and is not: judged by substring, it
    would be found in other providers' requests and refuse them.
    """
    credentials = context.credentials
    given = credentials.env_secret(COOKIES_ENV, COOKIES_WHAT)
    if given is None:
        return None
    cookies = given.value
    credentials.add_secrets(cookie_secrets(cookies))
    if len(cookies) >= MIN_TOKEN_LENGTH:
        credentials.hand_out_sign_in(given, PROVIDER_ID)
    token = session_token(cookies)
    if token is not None and len(token) >= MIN_TOKEN_LENGTH:
        what = f"session token of the {COOKIES_WHAT}"
        credentials.hand_out_sign_in(replace(given, value=token, what=what), PROVIDER_ID)
    return cookies


def session_token(cookies: str) -> str | None:
    """The value of the :data:`SESSION_COOKIE` in a ``Cookie`` header, if it holds one.

    Example:
        >>> session_token("theme=dark; __Secure-next-auth.session-token=abc.def")
        'abc.def'
        >>> session_token("theme=dark") is None
        True
    """
    for pair in cookies.split(";"):
        name, _, value = pair.partition("=")
        if name.strip() == SESSION_COOKIE:
            return value.strip().strip('"') or None
    return None


def auth_methods(
    context: "ProviderContext", api_key: str | None, *, sign_ins: bool = True
) -> list[AuthMethod]:
    """The methods to try, in order; ``anonymous`` only when none is configured.

    A cookie header or key the credential check refuses (:func:`~websearch_core.
    sent_secret.flaw`: a line break, ``.env`` quotes) is passed over, as the providers
    table says: the methods set beside it still run, where a bad ``PERPLEXITY_API_KEY``
    behind working cookies used to keep Perplexity from running at all. The OAuth token
    is checked once it is resolved (:func:`~._perplexity_steps.begin`). With ``sign_ins``
    false (the requests go to a gateway not trusted with a sign-in) the cookies and the
    OAuth token are refused too, as the credential check refuses them.

    Raises:
        ProviderNotConfiguredError: Every credential set is refused (the chain and the
            table report that before a search; a direct call meets it here rather than
            searching anonymously).
    """
    methods: list[AuthMethod] = []
    refused = False
    candidates: list[tuple[MethodKind, str | None, bool]] = [
        ("cookies", session_cookies(context) if sign_ins else None, False),
        ("api_key", api_key, True),
        ("openrouter", context.credentials.api_key("openrouter", OPENROUTER_ENV), True),
    ]
    for kind, secret, key in candidates:
        if secret and flaw(secret, key=key) is not None:
            refused = True
        elif secret:
            methods.append(AuthMethod(kind, secret))
    signed_in = context.credentials.oauth_token(PROVIDER_ID) is not None
    if not sign_ins and (signed_in or context.credentials.secret_env(COOKIES_ENV)):
        refused = True
    elif signed_in:
        methods.insert(1 if methods and methods[0].kind == "cookies" else 0, AuthMethod("oauth"))
    if not methods and refused:
        raise ProviderNotConfiguredError(
            PROVIDER_ID, "no Perplexity credential set can be sent; see 'websearch providers'"
        )
    return methods or [AuthMethod("anonymous")]


def _us_date(day: date) -> str:
    return f"{day.month}/{day.day}/{day.year}"


def _domain_filter(params: SearchParams) -> list[str]:
    """``search_domain_filter``: the lists :data:`FILTERS` says go out, never both (pure).

    Examples:
        >>> _domain_filter(SearchParams(query="q", include_domains=("docs.rs",),
        ...     exclude_domains=("reddit.com",)))
        ['docs.rs']
        >>> _domain_filter(SearchParams(query="q", exclude_domains=("reddit.com", "quora.com")))
        ['-reddit.com', '-quora.com']
    """
    sent = FILTERS.sent_domains(params.include_domains, params.exclude_domains)
    domains = list(params.include_domains) if "include_domains" in sent else []
    if "exclude_domains" in sent:
        domains.extend(f"-{domain}" for domain in params.exclude_domains)
    return domains


def _filters(params: SearchParams) -> dict[str, Any]:
    """The optional search filters both modes send."""
    filters: dict[str, Any] = {}
    domains = _domain_filter(params)
    if domains:
        filters["search_domain_filter"] = domains
    if params.date_after is not None:
        filters["search_after_date_filter"] = _us_date(params.date_after)
    if params.date_before is not None:
        filters["search_before_date_filter"] = _us_date(params.date_before)
    if params.language:
        filters["search_language_filter"] = [params.language.split("-")[0].lower()]
    return filters


def _search_options(params: SearchParams, fixed: Mapping[str, str]) -> dict[str, Any]:
    """``web_search_options``: ``fixed`` plus the ``user_location`` a country asks for (pure).

    Example:
        >>> _search_options(SearchParams(query="q", country="fr"), {})
        {'user_location': {'country': 'FR'}}
    """
    options: dict[str, Any] = dict(fixed)
    if params.country is not None:
        options["user_location"] = {"country": params.country.upper()}
    return options


def _recency(params: SearchParams) -> str | None:
    if params.date_after is not None or params.date_before is not None:
        return None
    return params.recency


def api_body(params: SearchParams, system_prompt: str, model: str = API_MODEL) -> dict[str, Any]:
    """The chat-completions body for ``params`` (pure).

    Example:
        >>> api_body(SearchParams(query="x"), "sys")["num_search_results"]
        20
    """
    body: dict[str, Any] = {
        "model": model,
        "messages": [
            {"role": "system", "content": system_prompt},
            {"role": "user", "content": params.query},
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": params.max_tokens or DEFAULT_MAX_TOKENS,
        "temperature": DEFAULT_TEMPERATURE if params.temperature is None else params.temperature,
        "search_mode": "web",
        "num_search_results": params.num_search_results or DEFAULT_SEARCH_RESULTS,
        "web_search_options": _search_options(params, API_SEARCH_OPTIONS),
        "enable_search_classifier": True,
        # Both in perplexity-py's CompletionCreateParamsBase (see the module docstring).
        "reasoning_effort": "medium",
        "language_preference": "en",
        "return_related_questions": True,
        **_filters(params),
    }
    recency = _recency(params)
    if recency is not None:
        body["search_recency_filter"] = recency
    return body


def ask_body(
    params: SearchParams, *, anonymous: bool, timezone: str = "UTC", model: str = ASK_MODEL
) -> dict[str, Any]:
    """The ask endpoint's ``{query_str, params}`` body (pure apart from the fresh uuids)."""
    fields: dict[str, Any] = {
        "query_str": params.query,
        "search_focus": "internet",
        "mode": "copilot",
        "model_preference": model,
        "sources": ["web"],
        "attachments": [],
        "frontend_uuid": str(uuid.uuid4()),
        "frontend_context_uuid": str(uuid.uuid4()),
        "version": ASK_VERSION,
        "language": "en-US",
        "timezone": timezone,
        "search_recency_filter": _recency(params),
        "is_incognito": True,
        "use_schematized_api": True,
        "skip_search_enabled": False,
        "always_search_override": True,
        "prompt_source": "user",
        "source": "default",
        "local_search_enabled": False,
        "should_ask_for_mcp_tool_confirmation": False,
        "supports_tool_approval_modal": False,
        "force_enable_browser_agent": False,
        "is_local_browser_available": False,
        "is_local_browser_allowed": False,
        **_filters(params),
    }
    location = _search_options(params, {})
    if location:
        fields["web_search_options"] = location
    if anonymous:
        fields["send_back_text_in_streaming_api"] = True
    return {"query_str": params.query, "params": fields}


def ask_headers(kind: MethodKind, secret: str | None, request_id: str) -> dict[str, str]:
    """The ask endpoint's headers for ``kind`` (``secret``: cookie header or OAuth token)."""
    headers = {
        "Content-Type": "application/json",
        "Accept": "text/event-stream",
        "Origin": "https://www.perplexity.ai",
        "Referer": "https://www.perplexity.ai/",
        "User-Agent": CHROME_USER_AGENT if kind == "anonymous" else APP_USER_AGENT,
        "X-Request-ID": request_id,
    }
    if kind == "oauth" and secret:
        headers["Cookie"] = f"{SESSION_COOKIE}={secret}"
    elif kind == "cookies" and secret:
        headers["Cookie"] = secret
    if kind != "anonymous":
        headers.update(
            {
                "X-App-ApiClient": "default",
                "X-App-ApiVersion": ASK_VERSION,
                "X-Perplexity-Request-Reason": "submit",
            }
        )
    return headers


def method_request(
    method: AuthMethod,
    params: SearchParams,
    *,
    secret: str | None,
    system_prompt: str,
    timezone: str = "UTC",
) -> HttpRequest:
    """``method``'s streamed request for ``params`` (``secret``: its cookie, token or key)."""
    if method.kind in ASK_KINDS:
        body = ask_body(params, anonymous=method.kind == "anonymous", timezone=timezone)
        headers = ask_headers(method.kind, secret, str(uuid.uuid4()))
        return HttpRequest(
            method="POST",
            url=ASK_ENDPOINT,
            headers=headers,
            json=body,
            stream=True,
            stream_end=PERPLEXITY_ASK_END,
        )
    openrouter = method.kind == "openrouter"
    model = f"perplexity/{API_MODEL}" if openrouter else API_MODEL
    return HttpRequest(
        method="POST",
        url=OPENROUTER_ENDPOINT if openrouter else CHAT_ENDPOINT,
        headers={
            "Authorization": f"Bearer {secret}",
            "Content-Type": "application/json",
            "Accept": "text/event-stream",
        },
        json=api_body(params, system_prompt, model),
        stream=True,
        stream_end=CHAT_COMPLETIONS_END,
    )
