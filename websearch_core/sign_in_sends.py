"""Where a request carrying a stored sign-in may be sent, judged by the URL it is sent to.

Why this exists: the credential check judges the URLs a user sets, not the URL a request is
built for: a provider that sends through the transport itself (a user's plugin, or a
subclass of a built-in provider sending from ``prepare``), or a subclass whose protocol
builds a URL of its own, sent the ChatGPT sign-in it read to any host it wrote, over plain
http too, and a request sent with ``route=`` went to that route's base URL unjudged. The
transport asks here (:func:`judged_refusal`) before every request while its credentials
have handed out a sign-in (:attr:`~websearch_core.credentials.Credentials.sign_ins`), on
the URL it will actually send to (after the base-URL override); the request loop asks the
same only of a step no such transport sends (another fetcher's, a stand-in transport's).
This is the one judgement: the request loop's own check of the URL a protocol builds, with
rules of its own beside this one, is gone. A request that carries one (in its URL, a
header, a parameter, a form field or its JSON body) goes only:

* to a loopback address (the simulator, a proxy on this machine);
* to a host its sender declares for it (``sign_in_hosts``) over https on its port; a sender
  that declares none for it (a plugin sending a sign-in it read by its entry) is held to
  the hosts of the provider whose id is the entry;
* to the URL the user set under the base URL id it is sent under (``route``, else the
  provider's id: its ``base_urls`` entry, or the URL variable its provider reads), when
  that id is in ``sign_in_gateways``. A route is trusted by its own id, not by the
  sender's: a request sent under ``base_urls.brave`` needs ``brave`` trusted. Trusting an
  id trusts the URL set under it, not wherever its sender's requests go: with ``codex``
  trusted and no URL set for it, a subclass's request to a host of its own was let through.

A sign-in's refresh token is judged the same way, against its issuer's token endpoint (the
sender's ``refresh_hosts``: Google's for a Gemini sign-in) rather than the hosts its access
token goes to: it renews the account for as long as it lives, and was not judged at all, so
a token endpoint pointing elsewhere, or a subclass's own request, sent it anywhere.

The refusal names the provider, the endpoint (its origin only) and the settings, never the
token (:func:`~websearch_core.sign_in_origins.built_url_refusal`,
:func:`~websearch_core.sign_in_origins.refresh_refusal`).
"""

import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from .sign_in_declarations import declared_hosts, declared_url_variables
from .sign_in_origins import built_url_refusal, is_sign_in_host, refresh_refusal, same_origin

__all__ = ["HandedOut", "HandsOut", "Sent", "carries", "judged_refusal", "send_refusal"]


class HandedOut(NamedTuple):
    """The sign-ins handed out so far, each token to the store entry it is kept under."""

    access: Mapping[str, str]
    """Their access tokens (:attr:`~websearch_core.credentials.Credentials.sign_ins`)."""
    refresh: Mapping[str, str]
    """Their refresh tokens
    (:attr:`~websearch_core.credentials.Credentials.refresh_tokens`)."""


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


class HandsOut(Protocol):
    """What hands out sign-ins and knows the environment; ``Credentials`` has it."""

    @property
    def sign_ins(self) -> Mapping[str, str]:
        """The access tokens handed out, each to its store entry."""

    @property
    def refresh_tokens(self) -> Mapping[str, str]:
        """Their refresh tokens, each to its store entry."""

    def env(self, name: str) -> str | None:
        """A variable's value (a URL a provider reads), or ``None``."""


def judged_refusal(
    request: Sent,
    url: str,
    credentials: HandsOut,
    provider: str,
    label: str,
    route: str | None,
    gateways: Collection[str],
    base_urls: Mapping[str, str],
) -> str | None:
    """The one judgement of a request about to go to ``url``: the refusal, or ``None``.

    Asked by the transport of every request it sends while ``credentials`` has handed out
    a sign-in, and by the request loop only for a step the transport does not judge (one
    another fetcher makes, or a transport built without the client's credentials).

    Args:
        request: What the provider built.
        url: Where it is actually sent (after the base-URL override).
        credentials: What handed out the sign-ins.
        provider: The sending provider's id.
        label: Its label, for the refusal.
        route: The ``base_urls`` id it is sent under, when not the provider's own.
        gateways: The ``sign_in_gateways`` setting.
        base_urls: The base URLs set, by id.
    """
    if not credentials.sign_ins:
        return None  # none handed out (the usual case): nothing to judge

    def trusted(key: str) -> list[str]:
        """The URL set under ``key`` if the user trusts it: its base URL, else its own."""
        if key not in gateways:
            return []
        base_url = base_urls.get(key)
        if base_url is not None:
            return [base_url]
        for name in declared_url_variables(key):
            value = credentials.env(name)
            if value:
                return [value]  # the first set is the one its provider reads
        return []

    handed_out = HandedOut(credentials.sign_ins, credentials.refresh_tokens)
    return send_refusal(request, url, handed_out, provider, label, route, trusted)


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
    handed_out: HandedOut,
    provider: str,
    label: str,
    route: str | None,
    trusted: Callable[[str], Iterable[str]],
) -> str | None:
    """Why ``request`` may not be sent to ``url`` with a sign-in it carries, or ``None``.

    Args:
        request: What the provider built (its own URL, before the base-URL override).
        url: Where it is actually sent.
        handed_out: The sign-ins handed out: their access and refresh tokens.
        provider: The sending provider's id.
        label: Its label, for the refusal.
        route: The ``base_urls`` id it is sent under, when not the provider's own.
        trusted: The URLs the user set under a ``base_urls`` id and trusts with sign-ins
            (``sign_in_gateways``): none for an id not trusted. Asked only for a request
            that would be refused otherwise.

    Example:
        >>> from websearch_core.providers.codex import CodexProvider  # declares "codex"
        >>> from websearch_core.transport import HttpRequest
        >>> sent = HttpRequest(method="GET", url="https://gw.example/s", headers={"X-T": "tok-1"})
        >>> out = HandedOut({"tok-1": "codex"}, {})
        >>> gateway = {"codex": ["https://gw.example"]}.get
        >>> send_refusal(sent, sent.url, out, "codex", "Codex", None, lambda i: gateway(i, ()))
        >>> print(send_refusal(sent, sent.url, out, "mine", "Mine", None, lambda i: ()))
        ... # doctest: +NORMALIZE_WHITESPACE
        Refusing to send the OAuth token stored under "codex" to https://gw.example: provider
        "mine" (Mine) declares its sign-in for chatgpt.com only (its sign_in_hosts), and a
        sign-in opens your whole account; send its requests there or to a loopback address,
        or set base_urls.mine to that endpoint and add mine to sign_in_gateways
        (WEBSEARCH_SIGN_IN_GATEWAYS) to trust it
    """
    if is_sign_in_host(url, ()):
        return None  # loopback, or no usable host: the transport names that
    refused = _misdirected(request, url, handed_out, provider, label, route)
    if refused is None or any(same_origin(url, set_url) for set_url in trusted(route or provider)):
        return None
    return refused


def _misdirected(
    request: Sent,
    url: str,
    handed_out: HandedOut,
    provider: str,
    label: str,
    route: str | None,
) -> str | None:
    """The refusal of the first token ``request`` carries that may not go to ``url``."""
    for token, entry in handed_out.access.items():
        hosts = declared_hosts(provider, entry)
        if not is_sign_in_host(url, hosts) and carries(request, token):
            return built_url_refusal(url, entry, provider, label, hosts, route=route)
    for token, entry in handed_out.refresh.items():
        hosts = declared_hosts(provider, entry, refresh=True)
        if not is_sign_in_host(url, hosts) and carries(request, token):
            return refresh_refusal(url, entry, provider, label, hosts, route=route)
    return None
