"""Every secret of a call, and the redactor of them: a leaf any layer may ask.

The chain masks a call's failures and answers with it, and a provider's parser needs the
same mask where it cuts a text before the chain sees it (a title an answer repeats: a key
across the cut is masked whole only when the mask comes first). Kept out of
:mod:`websearch_core.orchestration.attempt` (which re-exports it) so the providers can
import it without importing the orchestration that imports them.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING

from .query_secrets import query_secrets, setting_pairs
from .redaction import Redactor, proxy_secrets, redactor_for, userinfo_secrets

if TYPE_CHECKING:
    from .providers.base import ProviderContext
    from .settings import Settings

__all__ = [
    "call_redactor",
    "context_secrets",
    "response_mask",
    "settings_secrets",
    "settings_words",
]


def settings_secrets(settings: "Settings", *, unread_words: bool = True) -> tuple[str, ...]:
    """The credential values written in ``settings`` rather than handed out as keys.

    SearXNG's token (as configured and as sent, trimmed) and Basic pair, the proxy's
    password, and passwords written into a base URL or the SearXNG endpoint
    (``https://user:pw@gateway``), and credentials in their query strings
    (``https://gateway/?token=...``: the SearXNG endpoint's query is sent with the search).
    ``unread_words``: whether a word under a query name nothing reads is one
    (``query_secrets``), and a word under a setting's name with that name
    (``setting_pairs``): not for a successful answer's mask (:func:`call_redactor`).
    """
    searxng = settings.searxng
    revealed: list[str] = [
        secret.get_secret_value()
        for secret in (searxng.token, searxng.basic_password)
        if secret is not None
    ]
    if searxng.token is not None:
        revealed.append(searxng.token.get_secret_value().strip())  # the header sends it so
    if searxng.basic_username is not None and searxng.basic_password is not None:
        user = searxng.basic_username.get_secret_value()
        revealed.append(f"{user}:{searxng.basic_password.get_secret_value()}")
    if settings.proxy is not None:
        revealed.extend(proxy_secrets(settings.proxy.get_secret_value()))
    for url in (searxng.endpoint, *settings.base_urls.values()):
        if url is None:
            continue
        if "@" in url:
            revealed.extend(userinfo_secrets(url))
        if "?" in url:
            revealed.extend(query_secrets(url, unread_words=unread_words))
            if unread_words:  # a word with its setting's name, as a refused request's quote
                revealed.extend(setting_pairs(url))
    return tuple(revealed)


def settings_words(settings: "Settings") -> tuple[str, ...]:
    """The values :func:`settings_secrets` holds only for the failure path: words, not keys.

    A word under a query name nothing reads (``?gw=coffee``), and a setting's word with its
    name or in quotes (``"engines":"hunterxyzw"``, ``'hunterxyzw'``). Each is masked whole
    (``Redactor``'s ``failure_only``); read as a key, a pair of 16 characters and more with
    no blank is a token whose first 8 (``"engines``) are masked in every quote of that
    setting, whatever its value. The crash report masks these as the failure path does.

    Example:
        >>> from websearch_core.settings import Settings
        >>> settings = Settings(searxng={"endpoint": "https://s.example/?engines=hunterxyzw"})
        >>> settings_words(settings)[:2]
        ('engines=hunterxyzw', '"engines": "hunterxyzw"')
    """
    strong = set(settings_secrets(settings, unread_words=False))
    return tuple(word for word in settings_secrets(settings) if word not in strong)


def context_secrets(context: "ProviderContext") -> tuple[str, ...]:
    """Every credential value this call could have used.

    Every key and token the credentials handed out so far, and :func:`settings_secrets`.
    """
    return (*context.credentials.secrets(), *settings_secrets(context.settings))


def call_redactor(context: "ProviderContext") -> Redactor:
    """The (cached) redactor for every secret of this call.

    A word under a query name nothing reads (``?gw=coffee``) is taken for a gateway's key
    on the failure path only (``Redactor``'s ``failure_only``): a gateway quotes it when
    it refuses the request, but a successful answer holding the word holds the world's
    word (the answers about coffee lost every ``coffee`` to ``***``).
    """
    strong = {
        *context.credentials.secrets(),
        *settings_secrets(context.settings, unread_words=False),
    }
    words = set(settings_words(context.settings)) - strong
    return redactor_for(tuple(sorted(strong)), tuple(sorted(words)))


def response_mask(context: "ProviderContext") -> Callable[[str], str]:
    """The mask a response's text gets in this call (``in_response``), built when first used.

    A parser asks it only for a text it cuts (a long title), so a call whose titles fit
    never builds the redactor here: the chain's cleaning builds it once anyway.
    """

    def mask(text: str) -> str:
        return call_redactor(context).in_response(text)

    return mask
