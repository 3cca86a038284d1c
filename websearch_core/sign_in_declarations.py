"""Which stored sign-ins each provider declares, so one it does not declare is never sent.

Why this exists: the credential check sees the sign-ins a provider declares (its
``credential_kinds``' ``StoredOAuth`` entries) and refuses to send one where a sign-in may
not go (:mod:`websearch_core.sign_in_destination`). A provider that declared none, yet read
a stored OAuth token in its own ``search`` and sent it, passed the check with nothing to
look at, and its token went wherever its route pointed, an untrusted gateway over plain
http included. So the token is not handed over: ``Credentials`` asks here before it gives a
stored token to a provider, and refuses one its provider does not declare, naming what to
declare.

Every ``SearchProvider`` subclass that has an ``info`` declares here when it is made (and
again when its ``credential_kinds`` or ``info`` is assigned). Declarations are kept by
provider id and only ever added: an id some class declares a sign-in for may read it. An
id no provider class has (a token read outside any provider, an entry such as
``gemini-cli`` that is no provider's id) is not this module's to refuse.
"""

from collections.abc import Iterable

__all__ = ["declare", "undeclared_refusal"]

_ENTRIES: dict[str, set[str]] = {}
"""Provider id to the store entries its classes declare as sign-ins (empty: none)."""
_LABELS: dict[str, str] = {}
"""Provider id to the label its classes give it, for the refusal's text."""


def declare(provider_id: str, label: str, entries: Iterable[str]) -> None:
    """Record that a provider class with ``provider_id`` sends the sign-ins under ``entries``.

    Args:
        provider_id: The class's ``info.id``.
        label: Its ``info.label``.
        entries: The credential store entries of its ``StoredOAuth`` kinds (none: it
            declares no sign-in, and may read none).
    """
    _ENTRIES.setdefault(provider_id, set()).update(entries)
    _LABELS[provider_id] = label


def undeclared_refusal(provider_id: str, entry: str) -> str | None:
    """Why the token stored under ``entry`` may not be handed to ``provider_id``, or ``None``.

    Args:
        provider_id: The provider asking for it (``None`` is returned for an id no
            provider class has).
        entry: The credential store entry the token is kept under.

    Example:
        >>> declare("doc-own", "Doc Own", ())
        >>> print(undeclared_refusal("doc-own", "doc-own"))  # doctest: +NORMALIZE_WHITESPACE
        Refusing to send the OAuth token stored under "doc-own": provider "doc-own" (Doc Own)
        declares no sign-in, so where its requests take it is never checked; declare it:
        add StoredOAuth() to its credential_kinds, and its service's hosts to its
        sign_in_hosts
    """
    declared = _ENTRIES.get(provider_id)
    if declared is None or entry in declared:
        return None
    kind = "StoredOAuth()" if entry == provider_id else f"StoredOAuth(entry={entry!r})"
    if declared:
        named = ", ".join(f'"{e}"' for e in sorted(declared))
        what = f"declares only the sign-in stored under {named}"
    else:
        what = "declares no sign-in"
    return (
        f'Refusing to send the OAuth token stored under "{entry}": provider "{provider_id}" '
        f"({_LABELS[provider_id]}) {what}, so where its requests take it is never checked; "
        f"declare it: add {kind} to its credential_kinds, and its service's hosts to its "
        "sign_in_hosts"
    )
