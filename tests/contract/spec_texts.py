"""The failure texts the spec gives every provider for a generic fault, written out.

The contract suite checks these exact sentences for every provider, so the per-provider
simulator tests need not repeat them. They are spelt out here rather than read from the
provider modules: a renamed label or a changed prefix must fail a test, not move with it.
"""

LABEL: dict[str, str] = {
    "perplexity": "Perplexity",
    "gemini": "Gemini",
    "anthropic": "Anthropic",
    "codex": "OpenAI",
    "xai": "xAI",
    "zai": "Z.AI",
    "exa": "Exa",
    "tinyfish": "TinyFish",
    "jina": "Jina",
    "kagi": "Kagi",
    "tavily": "Tavily",
    "firecrawl": "Firecrawl",
    "brave": "Brave",
    "serper": "Serper",
    "kimi": "Kimi",
    "parallel": "Parallel",
    "synthetic": "Synthetic",
    "searxng": "SearXNG",
    "duckduckgo": "DuckDuckGo",
    "bing": "Bing",
    "yahoo": "Yahoo",
    "startpage": "Startpage",
    "google": "Google",
    "ecosia": "Ecosia",
    "mojeek": "Mojeek",
}
"""The display label each provider's failure texts start with (Codex speaks as OpenAI)."""

SCRAPERS = frozenset({"duckduckgo", "bing", "yahoo", "startpage", "google", "ecosia", "mojeek"})
"""Keyless HTML engines: no key to blame for a 401/403, and no body quoted in a status error."""

CHALLENGE_PAGES = SCRAPERS | {"searxng"}
"""Providers with a bot-check page of their own (a SearXNG instance may sit behind one)."""

BOT_WALL_STATUSES = {"google": (403, 429), "ecosia": (403, 429)}
"""Engines that read these statuses as their bot wall (a challenge), not as the plain status."""

BROWSER_TIMEOUT = {
    "google": "Google browser search timed out.",
    "ecosia": "Ecosia search timed out.",
    "mojeek": "Mojeek search timed out.",
}
"""The engines that may escalate to the browser report a timeout of the whole search."""

BROWSER_SEARCH_FAILED = {
    "google": "Google browser search failed: ",
    "ecosia": "Ecosia search failed: ",
    "mojeek": "Mojeek search failed: ",
}
"""How those engines prefix a transport failure of the plain fetch (status 503)."""
ENGINE_SEARCH_FAILED = {
    **{
        pid: f"{LABEL[pid]} search failed: " for pid in ("duckduckgo", "bing", "yahoo", "startpage")
    },
    **BROWSER_SEARCH_FAILED,
}
"""Every key-free engine's prefix: those that never escalate word it as the three do, their
transport's status kept."""


API_SEARCH_FAILED = {"codex": "Codex request failed: "}
"""API providers whose transport failures take a stem of their own: Codex says the
reference's ``Codex request failed: <message>`` (its label is ``OpenAI``), firstusers25."""


def plain_fetch_failure(provider_id: str, said: str) -> str:
    """The text of a failed plain fetch whose transport text, after the label, is ``said``.

    Every provider words it after the stem ``<Label> search failed: `` (``Ecosia search
    failed: the connection failed (...)``, ``Brave search failed: it sent an invalid HTTP
    response (...)``); a key-free engine's stem is its own (:data:`ENGINE_SEARCH_FAILED`,
    Google's ``Google browser search failed: ``).
    """
    prefix = {**ENGINE_SEARCH_FAILED, **API_SEARCH_FAILED}.get(
        provider_id, f"{LABEL[provider_id]} search failed: "
    )
    return f"{prefix}{'it' if said.startswith('sent ') else 'the'} {said}"


BROWSER_OFF_ENDING = {
    "google": ", and headless Chromium was not started: WEBSEARCH_BROWSER=off turns it off "
    "(unset WEBSEARCH_BROWSER to let Google load the page in it)"
}
"""Our ending of Google's failure while escalation is off, as in these tests: the browser
never ran, though its fixed prefix says "browser search" (Ecosia's and Mojeek's do not)."""

_API_ERROR_PREFIX = {
    "codex": "Codex API error",
    "gemini": "Gemini Developer API error",
    "xai": "xAI Responses API error",
    "kimi": "Kimi search API error",
}
"""Providers whose status error does not read ``<Label> API error`` (behaviour reference)."""

ANTHROPIC_404 = "Anthropic web search returned 404 (model or endpoint not found)."


def status_error_text(provider_id: str, status: int, body: str) -> str:
    """What the model reads for an HTTP ``status`` answered with ``body``.

    Args:
        provider_id: The provider that failed (the only one tried).
        status: The upstream status; not one a bot wall reads differently.
        body: The upstream body, quoted by API providers and left out by HTML engines.
    """
    label = LABEL[provider_id]
    if status in (401, 403) and provider_id in SCRAPERS:
        return (
            f"{label} blocked the request ({status}); it needs no API key, so the engine is "
            "refusing automated searches from this address. Try another provider or retry later."
        )
    if status in (401, 403) and provider_id != "zai":
        return f"{label} authorization failed ({status}). Check API key or base URL."
    if status == 402:
        return f"{provider_id}: 402 credits exhausted"
    if status == 404 and provider_id == "anthropic":
        return ANTHROPIC_404
    if provider_id in SCRAPERS:
        return f"{label} HTML error ({status})"
    prefix = _API_ERROR_PREFIX.get(provider_id, f"{label} API error")
    return f"{prefix} ({status}): {body}"


def timeout_text(provider_id: str, seconds: str) -> str:
    """What the model reads when the provider's request outlived its ``seconds``."""
    if provider_id in BROWSER_TIMEOUT:
        return BROWSER_TIMEOUT[provider_id]
    if provider_id in API_SEARCH_FAILED:
        return f"{API_SEARCH_FAILED[provider_id]}timed out after {seconds}s"
    return f"{LABEL[provider_id]} search timed out after {seconds}s"


def too_large_text(provider_id: str, cap: str) -> str:
    """What the model reads when the provider's body passed its size ``cap`` (``64 KiB``).

    The behaviour reference's ``Brave API response exceeded 2 MiB``, for every JSON API
    alike; an HTML engine serves a page, not an API.
    """
    body = "page" if provider_id in SCRAPERS else "API response"
    return f"{LABEL[provider_id]} {body} exceeded {cap}"


def raw_status_message(provider_id: str, status: int, body: str, text: str) -> str:
    """The failure's own message behind the ``text`` the model read for ``status``.

    A 401/403 keeps the short ``<id>: 401 unauthorized`` (Z.AI its own words) under the
    spec's sentence; the Anthropic 404 sentence replaces a status error; any other
    status's message is the text itself.
    """
    if status in (401, 403) and provider_id != "zai":
        reason = "unauthorized" if status == 401 else "forbidden"
        return f"{provider_id}: {status} {reason}"
    if status == 404 and provider_id == "anthropic":
        return f"Anthropic API error (404): {body}"
    return text
