"""Where a request carrying a stored sign-in may be sent, judged by the URL it is sent to.

Why this exists: the credential check judges the URLs a user sets, and the request loop the
URLs a provider's protocol builds; a provider that sends through the transport itself (a
user's plugin, or a subclass of a built-in provider sending from ``prepare``) was judged by
neither, so the ChatGPT sign-in it read went to any host it wrote, over plain http too, and
a request sent with ``route=`` went to that route's base URL unjudged. The transport asks
here before every request while its credentials have handed out a sign-in
(:attr:`~websearch_core.credentials.Credentials.sign_ins`), on the URL it will actually
send to (after the base-URL override). A request that carries one (in its URL, a header, a
parameter, a form field or its JSON body) goes only:

* to a loopback address (the simulator, a proxy on this machine);
* to a host its sender declares for it (``sign_in_hosts``) over https on its port; a sender
  that declares none for it (a plugin sending a sign-in it read by its entry) is held to
  the hosts of the provider whose id is the entry;
* through a base URL the user trusts with sign-ins: the route it is sent under (``route``,
  else the provider's id) is in ``sign_in_gateways``. A route is trusted by its own id, not
  by the sender's: a request sent under ``base_urls.brave`` needs ``brave`` trusted.

The refusal names the provider, the endpoint (its origin only) and the settings, never the
token (:func:`~websearch_core.sign_in_origins.built_url_refusal`).
"""

import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Protocol

from .sign_in_declarations import declared_hosts
from .sign_in_origins import built_url_refusal, is_sign_in_host

__all__ = ["Sent", "carries", "send_refusal"]


class Sent(Protocol):
    """What of a request is looked through; the transport's ``HttpRequest`` has it.

    Read by shape, so that this module, which the transport imports, imports nothing of it.
    """

    @property
    def url(self) -> str:
        """The URL the provider built."""

    @property
    def params(self) -> Sequence[tuple[str, str]]:
        """Its query parameters."""

    @property
    def headers(self) -> Mapping[str, str]:
        """Its headers."""

    @property
    def form(self) -> Sequence[tuple[str, str]] | None:
        """Its form fields, if it sends a form."""

    @property
    def json(self) -> Any:
        """Its JSON body, if it sends one."""


def carries(request: Sent, value: str) -> bool:
    """Whether ``request`` holds ``value``: in its URL, a header, a parameter, a form or JSON.

    Asked only of a request bound off this machine to a host not declared for a sign-in
    handed out (rare), so its JSON body is written out to be looked through.
    """
    if value in request.url or any(value in sent for sent in request.headers.values()):
        return True
    fields = (*request.params, *(request.form or ()))
    if any(value in sent for _, sent in fields):
        return True
    return request.json is not None and value in json.dumps(request.json, default=str)


def send_refusal(
    request: Sent,
    url: str,
    sign_ins: Mapping[str, str],
    provider: str,
    label: str,
    route: str | None,
    gateways: Collection[str],
) -> str | None:
    """Why ``request`` may not be sent to ``url`` with a sign-in it carries, or ``None``.

    Args:
        request: What the provider built (its own URL, before the base-URL override).
        url: Where it is actually sent.
        sign_ins: The sign-ins handed out, each access token to its store entry.
        provider: The sending provider's id.
        label: Its label, for the refusal.
        route: The ``base_urls`` id it is sent under, when not the provider's own.
        gateways: The ``sign_in_gateways`` setting: the routes trusted with sign-ins.

    Example:
        >>> from websearch_core.providers.codex import CodexProvider  # declares "codex"
        >>> from websearch_core.transport import HttpRequest
        >>> sent = HttpRequest(method="GET", url="https://gw.example/s", headers={"X-T": "tok-1"})
        >>> send_refusal(sent, sent.url, {"tok-1": "codex"}, "codex", "Codex", None, ["codex"])
        >>> print(send_refusal(sent, sent.url, {"tok-1": "codex"}, "mine", "Mine", None, ()))
        ... # doctest: +NORMALIZE_WHITESPACE
        Refusing to send the OAuth token stored under "codex" to https://gw.example: provider
        "mine" (Mine) declares its sign-in for chatgpt.com only (its sign_in_hosts), and a
        sign-in opens your whole account; send its requests there or to a loopback address,
        or set base_urls.mine to that endpoint and add mine to sign_in_gateways
        (WEBSEARCH_SIGN_IN_GATEWAYS) to trust it
    """
    if is_sign_in_host(url, ()) or (route or provider) in gateways:
        return None  # loopback (or no usable host: the transport names that), or trusted
    for token, entry in sign_ins.items():
        hosts = declared_hosts(provider, entry)
        if not is_sign_in_host(url, hosts) and carries(request, token):
            return built_url_refusal(url, entry, provider, label, hosts, route=route)
    return None
