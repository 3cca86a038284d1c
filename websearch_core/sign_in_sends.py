"""Where a request carrying a sign-in may be sent, judged by the URL it is sent to.

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
sender's ``refresh_hosts``: Google's for a Gemini sign-in) besides its service's own hosts:
it renews the account for as long as it lives, and was not judged at all, so a token
endpoint pointing elsewhere, or a subclass's own request, sent it anywhere.

A sign-in given rather than stored is judged the same way, under its provider's id: the
cookie header in ``PERPLEXITY_COOKIES`` and its session token (each on its own, as a
provider may send the token in a header of its own), and an Anthropic OAuth token given as
the key (``sk-ant-oat...``). They were judged only where their URL is set, so a subclass's
own request carried them anywhere. Their refusal names where each was given (the variable,
or ``api_keys``), as it has no store entry (:func:`~websearch_core.sign_in_origins.
given_refusal`). So is the value of any variable a provider class declares as a sign-in
(``SecretVariable(..., sign_in=True)``, a plugin's session cookie), recorded under the
variable's name when ``Credentials`` reads it, and judged by the hosts of the classes
declaring it.

A request is first looked through once for every value handed out
(:class:`~websearch_core.sign_in_values.SignInValues`, built as they are recorded): one that
carries none, any other provider's while a cookie is set, is let through after that one look.

The refusal names the provider, the endpoint (its origin only) and the settings, never the
token (:func:`~websearch_core.sign_in_origins.built_url_refusal`,
:func:`~websearch_core.sign_in_origins.refresh_refusal`).
"""

import json
import string
from collections.abc import Collection, Mapping, Sequence
from typing import Protocol

from .provider_ids import SIGN_IN_ROUTES
from .sign_in_advice import gateway_advice
from .sign_in_declarations import declared_hosts, declared_url_variables, sign_in_owners
from .sign_in_origins import (
    built_url_refusal,
    given_refusal,
    is_sign_in_host,
    refresh_refusal,
    same_origin,
)
from .sign_in_values import Sent, SignInValues

__all__ = ["HandsOut", "Sent", "carries", "judged_refusal"]


class HandsOut(Protocol):
    """What hands out sign-ins and knows the environment; ``Credentials`` has it."""

    @property
    def sign_ins(self) -> Mapping[str, str]:
        """The access tokens handed out, each to its store entry."""

    @property
    def refresh_tokens(self) -> Mapping[str, str]:
        """Their refresh tokens, each to its store entry."""

    @property
    def given_sign_ins(self) -> Mapping[str, tuple[str, str]]:
        """The sign-ins given, not stored: each to what it is and where it was given."""

    @property
    def sign_in_values(self) -> SignInValues:
        """All of the values above, as one check of a request, built as they are recorded."""

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
    *,
    own_transport: bool = False,
) -> str | None:
    """The one judgement of a request about to go to ``url``: the refusal, or ``None``.

    Asked by the transport of every request it sends while ``credentials`` has handed out
    a sign-in, and by the request loop only for a step the transport does not judge (one
    another fetcher makes, or a transport built without the client's credentials).

    Args:
        request: What the provider built (its own URL, before the base-URL override).
        url: Where it is actually sent.
        credentials: What handed out the sign-ins.
        provider: The sending provider's id.
        label: Its label, for the refusal.
        route: The ``base_urls`` id it is sent under, when not the provider's own.
        gateways: The ``sign_in_gateways`` setting: the ids whose set URL is trusted.
        base_urls: The base URLs set, by id.
        own_transport: Judged for a ``Transport`` built without the client's credentials,
            whose own ``base_urls=`` and ``sign_in_gateways=`` are what trusts a gateway: the
            refusal names those, not the settings (:func:`~websearch_core.sign_in_advice.
            gateway_advice`).

    Example:
        >>> from websearch_core.providers.codex import CodexProvider  # declares "codex"
        >>> from websearch_core.transport import HttpRequest
        >>> from websearch_core.sign_in_values import SignInValues
        >>> class Handed:
        ...     sign_ins, refresh_tokens, given_sign_ins = {"tok-1": "codex"}, {}, {}
        ...     sign_in_values = SignInValues(["tok-1"], ["codex"])
        ...     def env(self, name): return None
        >>> sent = HttpRequest(method="GET", url="https://gw.example/s", headers={"X-T": "tok-1"})
        >>> gateway = {"codex": "https://gw.example"}
        >>> judged_refusal(sent, sent.url, Handed(), "codex", "Codex", None, ["codex"], gateway)
        >>> print(judged_refusal(sent, sent.url, Handed(), "mine", "Mine", None, ["mine"], {}))
        ... # doctest: +NORMALIZE_WHITESPACE
        Refusing to send the OAuth token stored under "codex" to https://gw.example: provider
        "mine" (Mine) declares its sign-in for chatgpt.com only (its sign_in_hosts), and a
        sign-in opens your whole account; send its requests there or to a loopback address,
        or the sign-in is codex's and no base URL but its own may be trusted with it: send
        it under route="codex" and set base_urls.codex to that endpoint and add codex to
        sign_in_gateways (WEBSEARCH_SIGN_IN_GATEWAYS) to trust it
    """
    sign_ins = credentials.sign_ins
    if not sign_ins or is_sign_in_host(url, ()):
        return None  # none handed out (the usual case); loopback, or no usable host
    values = credentials.sign_in_values
    if _declared_for_all(url, provider, values.entries) or not values.may_be_in(request):
        return None  # its sender's own host for every one, or it carries none of them
    refused = _misdirected(request, url, credentials, provider, label, route, own_transport)
    if refused is None:
        return None
    key = route or provider
    if key in gateways:
        trusted = base_urls.get(key) or _own_url(key, credentials)
        if trusted is not None and same_origin(url, trusted):
            return None
    return refused


def _declared_for_all(url: str, provider: str, entries: Sequence[str]) -> bool:
    """Whether ``url`` is a host ``provider`` declares for the sign-in of every entry.

    Then nothing it carries is refused (the judgement below skips each token there), so
    the sign-in providers' own requests (Perplexity's, Codex's) skip the look through them.
    """
    welcome = bool(entries)  # a loop: all() over a generator cost three times as much
    for entry in entries:
        if not is_sign_in_host(url, declared_hosts(provider, entry)):
            welcome = False
            break
    return welcome


def _own_url(provider: str, credentials: HandsOut) -> str | None:
    """The URL set in the first of ``provider``'s URL variables that is set, if any."""
    for name in declared_url_variables(provider):
        value = credentials.env(name)
        if value:
            return value
    return None


SHORTEST_FOUND_INSIDE = 16
"""Characters a token needs to be looked for anywhere, inside words too.

No service issues tokens this short, but a store can hold one (a test's, a typed one):
looked for anywhere, a refresh token ``r`` was found in every request (``?q=rust``), and
every provider of the chain was refused with the sign-in's refusal. Shorter ones count only
where they stand whole (:func:`_stands_whole`)."""

_TOKEN_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-._~")
"""URL-unreserved characters: what a token's neighbours are when it is part of a word."""


def carries(request: Sent, value: str) -> bool:
    """Whether ``request`` holds ``value``: in its URL, a header, a parameter, a form or JSON.

    Asked only of a request bound off this machine to a host not declared for a sign-in
    handed out (rare), so its JSON body is written out to be looked through. A value
    shorter than :data:`SHORTEST_FOUND_INSIDE` counts only where it stands whole.
    """
    holds = _inside if len(value) >= SHORTEST_FOUND_INSIDE else _stands_whole
    if holds(request.url, value) or any(holds(sent, value) for sent in request.headers.values()):
        return True
    fields = (*request.params, *(request.form or ()))
    if any(holds(sent, value) for _, sent in fields):
        return True
    return request.json is not None and holds(json.dumps(request.json, default=str), value)


def _inside(text: str, value: str) -> bool:
    """Whether ``value`` is anywhere in ``text``."""
    return value in text


def _stands_whole(text: str, value: str) -> bool:
    """Whether ``value`` is in ``text`` with no token character either side of it.

    Example:
        >>> _stands_whole("refresh_token=r&x=1", "r"), _stands_whole("Bearer r", "r")
        (True, True)
        >>> _stands_whole("https://html.duckduckgo.com/html/?q=rust", "r")
        False
    """
    start = text.find(value)
    while start != -1:
        end = start + len(value)
        before = start == 0 or text[start - 1] not in _TOKEN_CHARACTERS
        if before and (end == len(text) or text[end] not in _TOKEN_CHARACTERS):
            return True
        start = text.find(value, start + 1)
    return False


def _misdirected(
    request: Sent,
    url: str,
    credentials: HandsOut,
    provider: str,
    label: str,
    route: str | None,
    own_transport: bool,
) -> str | None:
    """The refusal of the first token ``request`` carries that may not go to ``url``."""
    for token, entry in credentials.sign_ins.items():
        hosts = declared_hosts(provider, entry)
        if not is_sign_in_host(url, hosts) and carries(request, token):
            advice = _advice(provider, entry, route, own_transport)
            given = credentials.given_sign_ins.get(token)
            if given is not None:  # named by where it was given: it is stored under none
                what, where = given
                return given_refusal(url, what, where, provider, label, hosts, advice=advice)
            return built_url_refusal(url, entry, provider, label, hosts, advice=advice)
    for token, entry in credentials.refresh_tokens.items():
        # Its service's own hosts too: no third party there, and Gemini's every request goes
        # to one, where looking through its body for the refresh token cost ~15 us.
        if is_sign_in_host(url, declared_hosts(provider, entry)):
            continue
        renewed_at = declared_hosts(provider, entry, refresh=True)
        if not is_sign_in_host(url, renewed_at) and carries(request, token):
            advice = _advice(provider, entry, route, own_transport)
            return refresh_refusal(url, entry, provider, label, renewed_at, advice=advice)
    return None


def _advice(provider: str, entry: str, route: str | None, own_transport: bool) -> str:
    """What the refusal of the sign-in under ``entry`` advises: a gateway it may be trusted to.

    Under the base URL id the request went under when that can be trusted, else under
    the route of a provider the sign-in belongs to (:func:`~websearch_core.sign_in_advice.
    gateway_advice`): the settings refuse ``brave`` in ``sign_in_gateways``.
    """
    owners = sign_in_owners(entry)
    if not owners and entry in SIGN_IN_ROUTES:  # its provider's class not imported yet
        owners = (entry,)
    return gateway_advice(route or provider, owners, own_transport=own_transport)
