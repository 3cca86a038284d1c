"""Which credentials a provider sends, as data, and resolving them to :class:`SentSecret`.

A provider lists the kinds of credential it may send in the order it prefers them
(:attr:`~websearch_core.providers.base.SearchProvider.credentials`): its API key, a stored
OAuth token, a credential variable (Perplexity's cookies), another service's key
(OpenRouter's, for Perplexity). :func:`sent_secrets` turns that list into the secrets one
search would send, each named by where it was set, so every one of them goes through the
same check (:meth:`~websearch_core.sent_secret.SentSecret.problem`) before a request.
"""

import functools
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from .cli_status import PROG
from .credentials import EXPIRY_SKEW_SECONDS, Credentials
from .provider_types import ProviderInfo
from .sent_secret import SentSecret

__all__ = [
    "STORE_NEW_TOKEN",
    "ApiKey",
    "Credential",
    "SecretVariable",
    "SetUrl",
    "SignedIn",
    "StoredOAuth",
    "clash_advice",
    "credential_variables",
    "refresh_margin",
    "sent_secrets",
    "signed_in",
    "url_secrets",
]


@dataclass(frozen=True, slots=True)
class ApiKey:
    """An API key from code, a variable, the config file or the store.

    Attributes:
        owner: The id the key is kept under (default: the provider's own).
        env_vars: Its variables (default: the provider's ``env_vars``); a provider that
            declares none reads no key.
        what: Its name in a problem's text (default: ``<Label> API key``).
        authorization: It goes in the ``Authorization`` header (``Bearer <key>``), which a
            base URL's user info needs too (see ``SentSecret.authorization``).
        authorization_marker: A key holding this text goes in the ``Authorization``
            header though others do not (an Anthropic OAuth token, ``sk-ant-oat``, given
            as the key; an Anthropic API key has its own ``x-api-key`` there).
        marked_what: What a key holding ``authorization_marker`` is called in a problem's
            text (``Anthropic OAuth token``): it is no API key, and a message calling it
            one sent the user looking for a key they never set. Such a key is a sign-in
            too, sent only where a sign-in may go (:mod:`websearch_core.sign_in_destination`).
        header: The header it goes in beside a base URL's user info, when that is not
            ``Authorization`` (Anthropic's ``x-api-key``): named as the way out when a
            credential of the same provider clashes with the URL (see :func:`clash_advice`).
    """

    owner: str | None = None
    env_vars: tuple[str, ...] | None = None
    what: str | None = None
    authorization: bool = False
    authorization_marker: str | None = None
    marked_what: str | None = None
    header: str | None = None


STORE_NEW_TOKEN = "store a new token (`CredentialStore.set_oauth`)"
"""What brings back a sign-in refused for good when nothing of this package signs in again."""


@dataclass(frozen=True, slots=True)
class StoredOAuth:
    """The provider's OAuth access token in the credential store.

    Attributes:
        entry: The store entry it is kept under (default: the provider's id); a provider
            with more than one sign-in (Gemini's ``gemini-cli``) lists one per entry.
        what: Its name in a problem's text (default: ``<Label> OAuth token``).
        name: What ``websearch providers`` calls it when it is what a search sends
            (``ready (Gemini CLI sign-in)``).
        min_lifetime: Seconds before expiry from which the token is refreshed before use
            rather than sent; the search (``Credentials.valid_oauth_token``) and the
            credential check read this one number, so a token the search would replace is
            never reported as one it would send.
        refreshes_itself: The sign-in renews its own token from its refresh token
            (the Gemini CLI's, at Google's token endpoint), so an expiring one that holds
            a refresh token is replaced without a hook, as one with a hook is.
        sign_in_again: What the user does once its refresh was refused for good, as the
            providers table says it (:data:`STORE_NEW_TOKEN` unless the sign-in has its own
            way back, as the Gemini CLI's ``websearch auth import gemini-cli``).
    """

    entry: str | None = None
    what: str | None = None
    name: str = "OAuth token"
    min_lifetime: float = EXPIRY_SKEW_SECONDS
    refreshes_itself: bool = False
    sign_in_again: str = STORE_NEW_TOKEN
    authorization: bool = True
    """An OAuth access token is a bearer token in the ``Authorization`` header (RFC 6750):
    every provider's sign-in sends it so."""
    sign_in: bool = True
    """It opens the user's whole account: sent only to the service's own hosts, a loopback
    address or a gateway the user trusts (:mod:`websearch_core.sign_in_destination`)."""


@dataclass(frozen=True, slots=True)
class SecretVariable:
    """A variable that holds a credential itself (a cookie header), not a key.

    Attributes:
        name: The variable.
        what: What it holds, e.g. ``Perplexity cookie header``.
        header: The header it goes in (``Cookie``), named as for :attr:`ApiKey.header`.
        sign_in: It holds a signed-in session (Perplexity's session cookie), which opens
            the whole account as an OAuth token does, so it goes only where one may.
    """

    name: str
    what: str
    authorization: bool = False
    header: str | None = None
    sign_in: bool = False


Credential = ApiKey | StoredOAuth | SecretVariable
"""One kind of credential a provider may send."""


def _resolve(credential: Credential, info: ProviderInfo, found: Credentials) -> SentSecret | None:
    secret = _found(credential, info, found)
    if secret is None:
        return None
    if isinstance(credential, ApiKey):
        if _marked(credential, secret.value):
            what = credential.marked_what or secret.what
            return replace(secret, what=what, authorization=True, sign_in=True)
        return replace(secret, authorization=True) if credential.authorization else secret
    if credential.authorization or credential.sign_in:
        return replace(secret, authorization=credential.authorization, sign_in=credential.sign_in)
    return secret


def _marked(key: ApiKey, value: str) -> bool:
    """Whether ``value`` holds ``key``'s ``authorization_marker``: a token, not a key."""
    return key.authorization_marker is not None and key.authorization_marker in value


def _found(credential: Credential, info: ProviderInfo, found: Credentials) -> SentSecret | None:
    if isinstance(credential, StoredOAuth):
        what = credential.what or f"{info.label} OAuth token"
        return found.oauth_secret(
            credential.entry or info.id,
            what,
            credential.min_lifetime,
            refreshes_itself=credential.refreshes_itself,
        )
    if isinstance(credential, SecretVariable):
        return found.env_secret(credential.name, credential.what)
    env_vars = info.env_vars if credential.env_vars is None else credential.env_vars
    if not env_vars:
        return None
    what = credential.what or f"{info.label} API key"
    return found.key_secret(credential.owner or info.id, env_vars, what)


def credential_variables(kinds: tuple[Credential, ...], info: ProviderInfo) -> tuple[str, ...]:
    """Every variable ``kinds`` read a credential from: keys' and secret variables', in order.

    What a "not found" or "not configured" text names as set where a ``Credentials`` given
    an ``environ`` of its own did not look (:meth:`~websearch_core.credentials.Credentials.
    unseen_clause`): Perplexity's cookie variable holds its sign-in, not a key, and is one.

    Example:
        >>> from websearch_core import get_provider
        >>> perplexity = get_provider("perplexity")
        >>> credential_variables(perplexity.credential_kinds, perplexity.info)
        ('PERPLEXITY_COOKIES', 'PERPLEXITY_API_KEY', 'PPLX_API_KEY', 'OPENROUTER_API_KEY')
    """
    names: list[str] = []
    for kind in kinds:
        if isinstance(kind, ApiKey):
            names.extend(info.env_vars if kind.env_vars is None else kind.env_vars)
        elif isinstance(kind, SecretVariable):
            names.append(kind.name)
    return tuple(dict.fromkeys(names))


def refresh_margin(kinds: tuple[Credential, ...], info: ProviderInfo, entry: str) -> float:
    """How close to its expiry the token stored under ``entry`` is refreshed before use.

    The :attr:`StoredOAuth.min_lifetime` the provider declares for that entry (the
    default skew when it declares none). One number for every path that judges the
    token: before the first request, after a 401, and in the credential check; the 401's
    refresh once used the default, so a Perplexity token another process had just renewed
    with two minutes left was sent after the 401 and renewed again at the next search.
    """
    for kind in kinds:
        if isinstance(kind, StoredOAuth) and (kind.entry or info.id) == entry:
            return kind.min_lifetime
    return EXPIRY_SKEW_SECONDS


@functools.cache  # asked before every attempt; the same few words for a provider
def clash_advice(kinds: tuple[Credential, ...], info: ProviderInfo) -> str:
    """What to do when a base URL's user info takes the ``Authorization`` header.

    ``https://user:pw@gateway`` goes out as ``Authorization: Basic``, so a credential
    sent as ``Authorization`` cannot go with it. The advice said to use "a credential sent
    in another header" for every provider, Tavily's and xAI's too, which have none. Read
    from ``kinds``: each credential the provider sends in another header is named, with
    its variables and that header; without one, only removing the user info is left.

    Example:
        >>> from .provider_types import ProviderInfo
        >>> info = ProviderInfo(
        ...     id="demo", label="Demo", kind="api", description="", docs_url="",
        ...     env_vars=("DEMO_API_KEY",),
        ... )
        >>> print(clash_advice((ApiKey(header="x-api-key"),), info))
        remove the user info from the URL, or switch to a credential sent in another \
header: a Demo API key (DEMO_API_KEY), in the x-api-key header
    """
    others = [
        text + _removed_first(kinds[:index], info)
        for index, kind in enumerate(kinds)
        if (text := _sent_elsewhere(kind, info))
    ]
    if not others:
        return (
            f"remove the user info from the URL: {info.label} sends no credential in another "
            "header, so the gateway's own sign-in has to go elsewhere"
        )
    return (
        "remove the user info from the URL, or switch to a credential sent in another header: "
        + "; or ".join(others)
    )


def _removed_first(before: tuple[Credential, ...], info: ProviderInfo) -> str:
    """``, once any stored OAuth sign-in used before it is removed (...)``, or ``""``.

    A stored sign-in that ``kinds`` lists before the credential advised is sent instead of
    it, so setting Gemini's API key changed nothing while a Gemini CLI sign-in was stored:
    the advice names the command that forgets each such sign-in.
    """
    commands = [
        f"{PROG} auth remove {kind.entry or info.id} --oauth for the {kind.name}"
        for kind in before
        if isinstance(kind, StoredOAuth)
    ]
    if not commands:
        return ""
    return f", once any stored OAuth sign-in used before it is removed ({', '.join(commands)})"


def _sent_elsewhere(kind: Credential, info: ProviderInfo) -> str | None:
    """``an Exa API key (EXA_API_KEY), in the x-api-key header``; ``None``: no other header."""
    if isinstance(kind, StoredOAuth) or kind.header is None:
        return None
    if isinstance(kind, SecretVariable):
        return f"the {kind.what} ({kind.name}), in the {kind.header} header"
    env_vars = info.env_vars if kind.env_vars is None else kind.env_vars
    if not env_vars:
        return None
    what = kind.what or f"{info.label} API key"
    article = "an" if what[:1].upper() in "AEIOU" else "a"
    return f"{article} {what} ({' or '.join(env_vars)}), in the {kind.header} header"


def sent_secrets(
    kinds: tuple[Credential, ...], info: ProviderInfo, found: Credentials, *, every: bool
) -> list[SentSecret]:
    """The secrets a search by ``info``'s provider would send, in the order it sends them.

    Args:
        kinds: The provider's credentials, most preferred first.
        info: The provider (its id, label and key variables).
        found: Where the values are looked up.
        every: ``True`` for a provider that tries its next credential when one fails
            (Perplexity): each one set may be sent. ``False``: the first one set is the
            only one sent, and the others are not looked at.
    """
    secrets: list[SentSecret] = []
    for kind in kinds:
        secret = _resolve(kind, info, found)
        if secret is not None:
            secrets.append(secret)
            if not every:
                break
    return secrets


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A stored OAuth token a search would send: which entry, which sign-in.

    Attributes:
        entry: The credential store entry it is kept under (``gemini-cli``, ``codex``).
        fingerprint: Its sign-in's fingerprint (``OAuthToken.fingerprint``): stable across
            refreshes, different for another account; never a secret.
        name: What the providers table calls it (``StoredOAuth.name``).
        first: Whether it is the first credential a search sends (Perplexity's cookies,
            when set, go before it).
        sign_in_again: What brings it back once its refresh was refused for good
            (``StoredOAuth.sign_in_again``).
    """

    entry: str
    fingerprint: str
    name: str = "OAuth token"
    first: bool = True
    sign_in_again: str = STORE_NEW_TOKEN


def signed_in(
    kinds: tuple[Credential, ...], info: ProviderInfo, found: Credentials, *, every: bool
) -> list[SignedIn]:
    """The stored OAuth tokens among what :func:`sent_secrets` would send, in that order.

    What a mark's scope needs to tell one sign-in from another: a token the provider would
    not send (Anthropic's, while a key is set) is not one of them.
    """
    tokens: list[SignedIn] = []
    sent = 0
    for kind in kinds:
        if _resolve(kind, info, found) is None:
            continue
        if isinstance(kind, StoredOAuth):
            entry = kind.entry or info.id
            token = found.oauth_token(entry)
            if token is not None:
                first = sent == 0
                signed = SignedIn(entry, token.fingerprint(), kind.name, first, kind.sign_in_again)
                tokens.append(signed)
        sent += 1
        if not every:
            break
    return tokens


@dataclass(frozen=True, slots=True)
class SetUrl:
    """A URL a provider's requests go to, with what it is and where it was set.

    Attributes:
        url: The URL as set (trimmed); its user info goes out as ``Authorization: Basic``.
        what: What it is, e.g. ``SearXNG endpoint`` or ``Brave base URL``.
        source: The variable or setting that set it, e.g. ``SEARXNG_ENDPOINT`` or ``the
            base_urls.brave setting``.
        route: The id it is trusted under in ``sign_in_gateways`` (its ``base_urls`` id,
            e.g. ``codex`` or ``google_oauth``); empty: it cannot be.
        official_hosts: The hosts of the service it stands in for, where a sign-in may go
            (:mod:`websearch_core.sign_in_destination`); empty: none named.
        on_transport: It was set on a ``Transport`` the user built (its ``base_urls=``), not
            in the settings: that transport's ``sign_in_gateways=`` is what trusts it where
            the user built it, so a refusal names that one.
    """

    url: str
    what: str
    source: str
    route: str = ""
    official_hosts: tuple[str, ...] = ()
    on_transport: bool = False


def url_secrets(found: SetUrl | None) -> list[SentSecret]:
    """The user name and password written into ``found``'s URL, each checked as written.

    A password pasted into ``https://user:pw@gateway`` with a stray quote, space or line
    break went out as it was (in the ``Basic`` header) while the providers table said
    ``ready``; as :class:`SentSecret` values it is named where it was set, never shown.
    Userinfo without a ``:`` (``https://<token>@gateway``) is a token sent as the name.
    """
    if found is None or "@" not in found.url:  # no user info (the usual case): no split
        return []
    try:
        authority = urlsplit(found.url).netloc
    except ValueError:  # the URL's own check refuses it, where it is set
        return []
    userinfo, at, _ = authority.rpartition("@")
    if not at:
        return []
    user, colon, password = userinfo.partition(":")
    where = f"in {found.source}"
    fix = f"fix it in {found.source}"  # how, when encoding is the fix, is in the reason
    named = f"{found.what}'s user name" if colon else f"{found.what}'s user info (a token)"
    secrets = [SentSecret(user, named, where, fix, in_url=True)]
    if colon:
        secrets.append(SentSecret(password, f"{found.what}'s password", where, fix, in_url=True))
    return secrets
