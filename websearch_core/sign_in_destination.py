"""Where a sign-in may be sent: the one rule for OAuth tokens, session cookies and the like.

A sign-in (a ChatGPT, Claude, Google or Perplexity OAuth token, a Perplexity session cookie,
the refresh token behind a Google sign-in) opens the user's whole account, not one API's
quota. A base URL set for a gateway (``base_urls.codex``, ``ANTHROPIC_BASE_URL``) used to
receive it as any API key would, so a mistyped or borrowed gateway got the account. The
reference refuses that for Codex and xAI (``Refusing to send official Codex OAuth
credentials to custom endpoint <baseUrl>``); here one rule covers every sign-in a provider
declares (:attr:`~websearch_core.sent_secret.SentSecret.sign_in`). A sign-in goes:

* to its service's own hosts (the provider's ``sign_in_hosts``, over https on its port);
* to a loopback address (``localhost``, ``127.0.0.0/8``, ``::1``): the simulator, or a proxy
  the user runs on the same machine;
* anywhere the user names in ``sign_in_gateways`` (``WEBSEARCH_SIGN_IN_GATEWAYS``), by the
  id of the base URL (``codex``, ``google_oauth``): an explicit trust in that gateway.

Anything else is refused before a request, in one sentence naming the credential, the
endpoint (its origin only, never user info) and where it was set, and the fixes. The
providers table shows it as ``misconfigured:`` and the chain skips the provider (a provider
that tries each credential in turn, Perplexity, passes the sign-in over instead).

That check reads the URLs a user sets. The URL a request is actually sent to, whoever
built it (a subclass of a built-in provider whose request goes to another host, a plugin
sending through the transport itself, a request under another ``route``), is judged where
it is sent, in one place (:mod:`websearch_core.sign_in_sends`).
"""

from collections.abc import Collection
from dataclasses import replace

from .loopback import is_loopback
from .provider_credentials import SetUrl
from .sent_secret import SentSecret
from .sign_in_advice import set_url_advice
from .sign_in_origins import (
    GATEWAYS_SETTING,
    GATEWAYS_VARIABLE,
    built_url_refusal,
    is_sign_in_host,
    origin_of,
    same_origin,
    shown_origin,
)

__all__ = [
    "GATEWAYS_SETTING",
    "GATEWAYS_VARIABLE",
    "built_url_refusal",
    "endpoint_refusal",
    "guarded",
    "is_loopback",
    "is_sign_in_host",
    "refusal",
    "same_origin",
]


def endpoint_refusal(url: SetUrl | None, gateways: Collection[str]) -> str | None:
    """Why no sign-in may go to ``url``, as the clause after the credential, or ``None``.

    Args:
        url: The URL set in place of the service's own (``None``: nothing is, so the
            requests go to the service itself).
        gateways: The ``sign_in_gateways`` setting: ids whose URL the user trusts.

    Example:
        >>> official = SetUrl("https://chatgpt.com", "OpenAI base URL", "X", "codex",
        ...     ("chatgpt.com",))
        >>> endpoint_refusal(official, ()) is None
        True
        >>> endpoint_refusal(SetUrl("http://127.0.0.1:9", "u", "X", "codex"), ()) is None
        True
        >>> endpoint_refusal(SetUrl("https://u:pw@gw.example", "u", "X", "codex"), ["codex"])
        >>> print(endpoint_refusal(SetUrl("https://u:pw@gw.example", "OpenAI base URL", "X",
        ...     "codex", ("chatgpt.com",)), ()))  # doctest: +NORMALIZE_WHITESPACE
        to custom endpoint https://gw.example (the OpenAI base URL set in X): a sign-in opens
        your whole account, so it is sent only to chatgpt.com or a loopback address; remove X
        or point it there, or add codex to sign_in_gateways (WEBSEARCH_SIGN_IN_GATEWAYS) to
        trust that endpoint with it
        >>> print(endpoint_refusal(SetUrl("https://gw.example", "Mine base URL", "MINE_URL",
        ...     "mine", ("api.mine.example",)), ()))  # doctest: +NORMALIZE_WHITESPACE
        to custom endpoint https://gw.example (the Mine base URL set in MINE_URL): a sign-in
        opens your whole account, so it is sent only to api.mine.example or a loopback
        address; remove MINE_URL or point it there, or build the Transport with
        sign_in_gateways=["mine"] to trust that endpoint with it
    """
    if url is None or (url.route and url.route in gateways):
        return None
    origin = origin_of(url.url)
    if origin is None:
        return None
    scheme, host, port = origin
    if is_loopback(host):
        return None
    if scheme == "https" and port in (None, 443) and host in url.official_hosts:
        return None
    hosts = " or ".join(url.official_hosts) if url.official_hosts else "its service's own host"
    advice = set_url_advice(url.route, on_transport=url.on_transport) if url.route else ""
    trust = f", or {advice} to trust that endpoint with it" if advice else ""
    return (
        f"to custom endpoint {shown_origin(scheme, host, port)} (the {url.what} set in "
        f"{url.source}): a sign-in opens your whole account, so it is sent only to {hosts} "
        f"or a loopback address; remove {url.source} or point it there{trust}"
    )


def refusal(secret: SentSecret, clause: str, *, refreshed: bool = False) -> str:
    """The whole sentence refusing ``secret`` (its ``clause`` from :func:`endpoint_refusal`).

    Args:
        secret: The sign-in that would be sent.
        clause: Why not, and what to do.
        refreshed: Its refresh token is what would go there (a token endpoint), not the
            access token itself.
    """
    what = f"the refresh token of the {secret.what}" if refreshed else f"the {secret.what}"
    return f"Refusing to send {what} {secret.where} {clause}."


def guarded(
    secrets: list[SentSecret], url: SetUrl | None, gateways: Collection[str]
) -> list[SentSecret]:
    """``secrets`` with each sign-in that may not go to ``url`` marked refused.

    A refused secret's :meth:`~websearch_core.sent_secret.SentSecret.problem` is the
    refusal, so the one credential check reports it as it reports a key with a line break:
    ``misconfigured:``, or passed over by a provider that tries its next credential.
    """
    if not any(secret.sign_in for secret in secrets):
        return secrets
    clause = endpoint_refusal(url, gateways)
    if clause is None:
        return secrets
    return [
        replace(secret, refused=refusal(secret, clause)) if secret.sign_in else secret
        for secret in secrets
    ]
