"""Whether a URL is a sign-in's own host, and the sentence refusing one sent elsewhere.

The low-level half of :mod:`websearch_core.sign_in_destination`, apart so that the
transport's send-time check (:mod:`websearch_core.sign_in_sends`) can use it without
importing the providers' URL and credential types (which import the transport).
"""

import functools
from collections.abc import Collection
from urllib.parse import urlsplit

from .loopback import is_loopback
from .sign_in_advice import GATEWAYS_SETTING, GATEWAYS_VARIABLE, gateway_advice

__all__ = [
    "GATEWAYS_SETTING",
    "GATEWAYS_VARIABLE",
    "built_url_refusal",
    "given_refusal",
    "is_sign_in_host",
    "origin_of",
    "refresh_refusal",
    "same_origin",
    "shown_origin",
]


def origin_of(url: str) -> tuple[str, str, int | None] | None:
    """The scheme, host and port of ``url``; ``None`` when it has no usable host."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:  # a bad port or host: the URL's own check names it where it is set
        return None
    if not parts.hostname:
        return None
    return parts.scheme.lower(), parts.hostname.lower(), port


def shown_origin(scheme: str, host: str, port: int | None) -> str:
    """The origin as shown in a refusal: no user info, so no password or token in it."""
    named = f"[{host}]" if ":" in host else host
    return f"{scheme}://{named}" if port is None else f"{scheme}://{named}:{port}"


@functools.lru_cache(maxsize=256)
def is_sign_in_host(url: str, hosts: tuple[str, ...]) -> bool:
    """Whether ``url`` is one of ``hosts`` over https on its port, or a loopback address.

    A URL without a usable host counts as one: its own check (the transport's) names it.
    Asked before every request that carries a sign-in, with the few URLs a provider
    builds: splitting one cost ~9 us a request, so each answer is kept.
    """
    origin = origin_of(url)
    if origin is None:
        return True
    scheme, host, port = origin
    return is_loopback(host) or (scheme == "https" and port in (None, 443) and host in hosts)


def same_origin(url: str, other: str) -> bool:
    """Whether ``url`` goes to the scheme, host and port of ``other`` (user info aside)."""
    origin = origin_of(url)
    return origin is not None and origin == origin_of(other)


def built_url_refusal(
    url: str,
    entry: str,
    provider_id: str,
    label: str,
    hosts: Collection[str],
    *,
    advice: str | None = None,
) -> str:
    """The sentence refusing to send the token stored under ``entry`` to ``url``.

    For a URL the provider built itself, not one the user set (the credential check judges
    those, :func:`endpoint_refusal`). It names the provider, the endpoint (its origin only)
    and what would allow it, never the token: ``advice``, the gateway to trust
    (:func:`~websearch_core.sign_in_advice.gateway_advice`; by default the provider's own
    base URL, trusted in the settings; empty: none can be).

    Example:
        >>> print(built_url_refusal("http://u:pw@gw.example/x", "codex", "codex", "Codex",
        ...     ("chatgpt.com",)))  # doctest: +NORMALIZE_WHITESPACE
        Refusing to send the OAuth token stored under "codex" to http://gw.example: provider
        "codex" (Codex) declares its sign-in for chatgpt.com only (its sign_in_hosts), and a
        sign-in opens your whole account; send its requests there or to a loopback address,
        or set base_urls.codex to that endpoint and add codex to sign_in_gateways
        (WEBSEARCH_SIGN_IN_GATEWAYS) to trust it
    """
    sent = f'the OAuth token stored under "{entry}"'
    return _declared_hosts_refusal(sent, url, provider_id, label, hosts, advice)


def given_refusal(
    url: str,
    what: str,
    where: str,
    provider_id: str,
    label: str,
    hosts: Collection[str],
    *,
    advice: str | None = None,
) -> str:
    """:func:`built_url_refusal` for a sign-in given in a variable, code, config or as a key.

    It has no store entry to name: it is named by what it is and where it was given, the
    variable or setting (never its value), so the user knows which one to look at.

    Example:
        >>> print(given_refusal("http://gw.example/ask", "Perplexity cookie header",
        ...     "in PERPLEXITY_COOKIES", "perplexity", "Perplexity", ("www.perplexity.ai",)))
        ... # doctest: +NORMALIZE_WHITESPACE
        Refusing to send the Perplexity cookie header in PERPLEXITY_COOKIES to
        http://gw.example: provider "perplexity" (Perplexity) declares its sign-in for
        www.perplexity.ai only (its sign_in_hosts), and a sign-in opens your whole account;
        send its requests there or to a loopback address, or set base_urls.perplexity to
        that endpoint and add perplexity to sign_in_gateways (WEBSEARCH_SIGN_IN_GATEWAYS) to
        trust it
    """
    return _declared_hosts_refusal(f"the {what} {where}", url, provider_id, label, hosts, advice)


def _declared_hosts_refusal(
    sent: str,
    url: str,
    provider_id: str,
    label: str,
    hosts: Collection[str],
    advice: str | None,
) -> str:
    """The refusal to send ``sent`` (what it is, worded) to ``url``, off its declared hosts."""
    return (
        f'Refusing to send {sent} to {_shown(url)}: provider "{provider_id}" ({label}) '
        f"declares its sign-in for {_named(hosts)} only (its sign_in_hosts), and a sign-in "
        f"opens your whole account; send its requests there or to a loopback address"
        f"{_or(advice, provider_id)}"
    )


def _shown(url: str) -> str:
    """``url``'s origin as a refusal names it: never its path, query or user info."""
    origin = origin_of(url)
    return shown_origin(*origin) if origin is not None else "that endpoint"


def _named(hosts: Collection[str]) -> str:
    """The hosts a sender declares, as a refusal names them."""
    return " or ".join(hosts) if hosts else "no host"


def _or(advice: str | None, provider_id: str) -> str:
    """``advice`` as the refusal's last alternative; ``None``: the provider's own gateway."""
    if advice is None:
        advice = gateway_advice(provider_id, [provider_id])
    return f", or {advice}" if advice else ""


def refresh_refusal(
    url: str,
    entry: str,
    provider_id: str,
    label: str,
    hosts: Collection[str],
    *,
    advice: str | None = None,
) -> str:
    """The sentence refusing to send the refresh token of the sign-in under ``entry`` to ``url``.

    As :func:`built_url_refusal`, for the token that renews the sign-in: it goes only to
    its issuer's token endpoint (the sender's ``refresh_hosts``, which it names) or its
    service's own hosts (``sign_in_hosts``).

    Example:
        >>> print(refresh_refusal("https://gw.example/token", "gemini-cli", "gemini", "Gemini",
        ...     ("oauth2.googleapis.com",), advice=gateway_advice("google_oauth", ["gemini"])))
        ... # doctest: +NORMALIZE_WHITESPACE
        Refusing to send the refresh token of the sign-in stored under "gemini-cli" to
        https://gw.example: provider "gemini" (Gemini) renews that sign-in at
        oauth2.googleapis.com (its refresh_hosts), and a refresh token keeps your whole
        account signed in; send it there, to its service's own hosts (its sign_in_hosts) or
        to a loopback address, or set base_urls.google_oauth to that endpoint and add
        google_oauth to sign_in_gateways (WEBSEARCH_SIGN_IN_GATEWAYS) to trust it
    """
    return (
        f'Refusing to send the refresh token of the sign-in stored under "{entry}" to '
        f'{_shown(url)}: provider "{provider_id}" ({label}) renews that sign-in at '
        f"{_named(hosts)} (its refresh_hosts), and a refresh token keeps your whole account "
        "signed in; send it there, to its service's own hosts (its sign_in_hosts) or to a "
        f"loopback address{_or(advice, provider_id)}"
    )
