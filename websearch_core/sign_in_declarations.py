"""Which stored sign-ins each provider class declares, so one it does not declare is never sent.

Why this exists: the credential check sees the sign-ins a provider declares (its
``credential_kinds``' ``StoredOAuth`` entries) and refuses to send one where a sign-in may
not go (:mod:`websearch_core.sign_in_destination`). A provider that declared none, yet read
a stored OAuth token in its own ``search`` and sent it, passed the check with nothing to
look at, and its token went wherever its route pointed, an untrusted gateway over plain
http included. So the token is not handed over: ``Credentials`` asks here before it gives a
stored token to a provider, and refuses one its provider does not declare, naming what to
declare.

Every ``SearchProvider`` subclass that has an ``info`` declares here when it is made (and
again, with its subclasses, when its ``credential_kinds`` or ``info`` is assigned).
``Credentials`` is asked by provider id, not by class, so a token is handed to an id only
when every class living with that id declares it: a class of a user's that took a built-in
provider's id (``codex``) and declares no sign-in was handed that provider's token while
the declarations were pooled by id, and sent it wherever its own requests went. Such a
class is named in the refusal, for as long as it lives (classes are held weakly). An id no
provider class has (a token read outside any provider, an entry such as ``gemini-cli``
that is no provider's id) is not this module's to refuse.

A class declares its sign-in variables here too (``SecretVariable(..., sign_in=True)``: a
session cookie of its service), so that ``Credentials`` knows, when it reads a variable,
that its value is a sign-in (:func:`sign_in_variable`) and records it to be judged where it
is sent, by the hosts of the classes declaring it (:func:`declared_hosts`).
"""

import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "declare",
    "declared_hosts",
    "declared_url_variables",
    "declares_a_sign_in",
    "sign_in_owners",
    "sign_in_variable",
    "sign_in_variables",
    "undeclared_refusal",
]


@dataclass(frozen=True, slots=True)
class _Declared:
    """What one provider class declares: its id, label, sign-ins' entries and their hosts.

    The hosts are its ``sign_in_hosts``, where those sign-ins may go over https; the
    refresh hosts its ``refresh_hosts``, where their refresh tokens may (their issuer's
    token endpoint); the URL variables its ``url_variables``, naming a URL of its own; the
    sign-in variables each variable holding a sign-in, with what it holds.
    """

    provider_id: str
    label: str
    entries: frozenset[str]
    hosts: tuple[str, ...] = ()
    refresh_hosts: tuple[str, ...] = ()
    url_variables: tuple[str, ...] = ()
    sign_in_variables: tuple[tuple[str, str], ...] = ()

    def declares(self, entry: str) -> bool:
        """Whether it sends the sign-in stored under ``entry``, or read from that variable."""
        return entry in self.entries or any(name == entry for name, _ in self.sign_in_variables)


_BY_ID: dict[str, "weakref.WeakKeyDictionary[type, _Declared]"] = {}
"""Provider id to each living class that holds it, with what that class declares."""
_ID_OF: "weakref.WeakKeyDictionary[type, str]" = weakref.WeakKeyDictionary()
"""The id each class was last declared under (a class whose ``info`` is assigned moves)."""
_HOSTS: dict[tuple[str, str, bool], tuple[str, ...]] = {}
"""Each answer of :func:`declared_hosts`, by sender and entry: asked before every request
while a sign-in is handed out, where walking the classes cost ~10 us. Emptied whenever a
class declares, or a class that declared is let go."""
_VARIABLES: dict[str, str] | None = None
"""Each sign-in variable a living class declares, with what it holds; ``None``: to be read
again (a class declared or was let go). Asked of every variable value ``Credentials``
reads, so kept as one dict."""


def _forget() -> None:
    """Let go of every answer kept: a class declared, or one that declared is let go."""
    global _VARIABLES
    _HOSTS.clear()
    _VARIABLES = None


def declare(
    cls: type,
    provider_id: str,
    label: str,
    entries: Iterable[str],
    hosts: Iterable[str] = (),
    *,
    refresh_hosts: Iterable[str] = (),
    url_variables: Iterable[str] = (),
    sign_in_variables: Iterable[tuple[str, str]] = (),
) -> None:
    """Record that ``cls``, a provider class with ``provider_id``, sends the sign-ins ``entries``.

    Args:
        cls: The provider class; what it declared before is replaced.
        provider_id: The class's ``info.id``.
        label: Its ``info.label``.
        entries: The credential store entries of its ``StoredOAuth`` kinds (none: it
            declares no sign-in, and may read none).
        hosts: Its ``sign_in_hosts``: where those sign-ins may be sent over https.
        refresh_hosts: Its ``refresh_hosts``: where their refresh tokens may be sent.
        url_variables: Its ``url_variables``: the variables naming a URL of its own.
        sign_in_variables: The variables of its ``SecretVariable`` kinds marked
            ``sign_in``, each with what it holds (``Perplexity cookie header``).
    """
    before = _ID_OF.get(cls)
    if before is not None and before != provider_id:
        _BY_ID[before].pop(cls, None)
    _ID_OF[cls] = provider_id
    holders = _BY_ID.setdefault(provider_id, weakref.WeakKeyDictionary())
    holders[cls] = _Declared(
        provider_id,
        label,
        frozenset(entries),
        tuple(hosts),
        tuple(refresh_hosts),
        tuple(url_variables),
        tuple(sign_in_variables),
    )
    _forget()
    if before is None:  # its first declaration: what it declared goes when it does
        weakref.finalize(cls, _forget)


def declared_hosts(provider_id: str, entry: str, *, refresh: bool = False) -> tuple[str, ...]:
    """The hosts the sign-in stored under ``entry`` may go to when ``provider_id`` sends it.

    With ``refresh``, where its refresh token may go instead: the ``refresh_hosts`` of the
    same classes (its issuer's token endpoint), never the hosts its access token is sent to.

    The ``sign_in_hosts`` of the classes with ``provider_id`` that declare ``entry``; when
    none does (a plugin sending a sign-in it read by its store entry), those of the classes
    whose id is the entry, its own provider's (``codex`` for the ChatGPT sign-in). A sign-in
    read from a variable has the variable as its entry: failing the sender's own, the hosts
    of every class declaring that variable. Asked by the transport only for a request that
    carries a sign-in off this machine.

    Example:
        >>> class DocHosts: ...
        >>> declare(DocHosts, "doc-hosts", "Doc Hosts", ["doc-hosts"], ["api.doc.example"])
        >>> declared_hosts("doc-hosts", "doc-hosts"), declared_hosts("other", "doc-hosts")
        (('api.doc.example',), ('api.doc.example',))
        >>> declared_hosts("other", "nobody")
        ()
    """
    key = (provider_id, entry, refresh)
    kept = _HOSTS.get(key)
    if kept is not None:
        return kept
    said = (
        _declaring(_held_by(provider_id), entry)
        or _declaring(_held_by(entry), entry)
        or _declaring(_every_declaration(), entry)
    )
    hosts = (host for d in said for host in (d.refresh_hosts if refresh else d.hosts))
    found = tuple(dict.fromkeys(hosts))
    _HOSTS[key] = found
    return found


def declares_a_sign_in(provider_id: str) -> bool:
    """Whether a living class with ``provider_id`` declares a sign-in (a store entry or variable).

    A ``Transport`` may be told to trust the URL set under such an id (a plugin that took a
    built-in id such as ``brave`` and sends a sign-in of its own is advised to), where the
    built-in provider of that id sends none (:func:`~websearch_core.sign_in_advice.
    signless_gateways`). Asked only when a transport is given ids to trust.

    Example:
        >>> class DocDeclarer: ...
        >>> declare(DocDeclarer, "doc-declarer", "Doc Declarer", ["doc-declarer"])
        >>> declares_a_sign_in("doc-declarer"), declares_a_sign_in("nobody")
        (True, False)
    """
    return any(d.entries or d.sign_in_variables for d in _held_by(provider_id))


def sign_in_owners(entry: str) -> tuple[str, ...]:
    """The ids of the providers the sign-in under ``entry`` belongs to: those declaring it.

    The entry's own id first when a class with it declares the entry (``codex`` for the
    ChatGPT sign-in, whoever sends it), then every other living class declaring it (a
    plugin declaring ``StoredOAuth(entry="codex")``, the declarers of a session variable).
    A refusal names one as the route a gateway may be trusted under
    (:func:`~websearch_core.sign_in_advice.gateway_advice`); asked only when a request is
    refused, so nothing is kept.

    Example:
        >>> class DocOwner: ...
        >>> declare(DocOwner, "doc-owner", "Doc Owner", (), ["doc.example"],
        ...     sign_in_variables=[("DOC_OWNER_COOKIE", "Doc Owner session cookie")])
        >>> sign_in_owners("DOC_OWNER_COOKIE"), sign_in_owners("nobody")
        (('doc-owner',), ())
    """
    said = [*_declaring(_held_by(entry), entry), *_declaring(_every_declaration(), entry)]
    return tuple(dict.fromkeys(d.provider_id for d in said))


def _held_by(provider_id: str) -> list[_Declared]:
    """What each living class with ``provider_id`` declares."""
    holders = _BY_ID.get(provider_id)
    return [] if holders is None else list(holders.values())


def _every_declaration() -> list[_Declared]:
    """What every living provider class declares."""
    return [d for holders in list(_BY_ID.values()) for d in list(holders.values())]


def _declaring(declared: list[_Declared], entry: str) -> list[_Declared]:
    """Those of ``declared`` that send the sign-in under ``entry`` (a store entry or variable)."""
    return [d for d in declared if d.declares(entry)]


def sign_in_variable(name: str) -> str | None:
    """What the variable ``name`` holds when a provider class declares it a sign-in, or ``None``.

    ``Credentials`` asks it of every variable it reads a value from, so that a plugin's
    session read through ``secret_env`` (or ``env``) is judged where it is sent, as a
    stored sign-in is; the first class's wording wins when several declare it.

    Example:
        >>> class DocCookie: ...
        >>> declare(DocCookie, "doc-cookie", "Doc Cookie", (), ["doc.example"],
        ...     sign_in_variables=[("DOC_COOKIE", "Doc Cookie session cookie")])
        >>> sign_in_variable("DOC_COOKIE"), sign_in_variable("DOC_URL")
        ('Doc Cookie session cookie', None)
        >>> declared_hosts("anyone", "DOC_COOKIE")
        ('doc.example',)
    """
    return sign_in_variables().get(name)


def sign_in_variables() -> Mapping[str, str]:
    """Every variable a living provider class declares as a sign-in, with what it holds.

    Read before each provider's search (:meth:`~websearch_core.credentials.Credentials.
    note_sign_in_variables`), so kept as one dict, read again only after a class declares
    or is let go; none declared (a search by a provider that holds no sign-in, where no
    class that declares one was imported) costs one empty loop there.

    Example:
        >>> class DocSession: ...
        >>> declare(DocSession, "doc-session", "Doc Session", (),
        ...     sign_in_variables=[("DOC_SESSION", "Doc Session session cookie")])
        >>> sign_in_variables()["DOC_SESSION"]
        'Doc Session session cookie'
    """
    global _VARIABLES
    known = _VARIABLES
    if known is None:
        known = {}
        for declared in _every_declaration():
            for variable, what in declared.sign_in_variables:
                known.setdefault(variable, what)
        _VARIABLES = known
    return known


def declared_url_variables(provider_id: str) -> tuple[str, ...]:
    """The variables the classes with ``provider_id`` read a URL of their own from.

    A URL set in one (``ANTHROPIC_BASE_URL``) is where that provider's requests go, set by
    the user as a ``base_urls`` entry is: trusting ``provider_id`` in ``sign_in_gateways``
    trusts it too.

    Example:
        >>> class DocUrl: ...
        >>> declare(DocUrl, "doc-url", "Doc Url", (), url_variables=["DOC_URL"])
        >>> declared_url_variables("doc-url"), declared_url_variables("nobody")
        (('DOC_URL',), ())
    """
    holders = _BY_ID.get(provider_id)
    if holders is None:
        return ()
    return tuple(dict.fromkeys(name for d in holders.values() for name in d.url_variables))


def undeclared_refusal(provider_id: str, entry: str) -> str | None:
    """Why the token stored under ``entry`` may not be handed to ``provider_id``, or ``None``.

    Args:
        provider_id: The provider asking for it (``None`` is returned for an id no
            provider class has).
        entry: The credential store entry the token is kept under.

    Example:
        >>> class DocBare: ...
        >>> declare(DocBare, "doc-bare", "Doc Bare", ())
        >>> print(undeclared_refusal("doc-bare", "doc-bare"))  # doctest: +NORMALIZE_WHITESPACE
        Refusing to send the OAuth token stored under "doc-bare": provider "doc-bare" (Doc Bare)
        declares no sign-in, so where its requests take it is never checked; declare it:
        add StoredOAuth() to its credential_kinds, and its service's hosts to its
        sign_in_hosts
    """
    holders = _BY_ID.get(provider_id)
    if not holders:
        return None
    declared = list(holders.items())
    lacking = [cls for cls, said in declared if entry not in said.entries]
    if not lacking:
        return None
    kind = "StoredOAuth()" if entry == provider_id else f"StoredOAuth(entry={entry!r})"
    declare_it = f"add {kind} to its credential_kinds, and its service's hosts to its sign_in_hosts"
    if len(lacking) < len(declared):  # another class took the id of one that declares it
        named = ", ".join(f"{cls.__module__}.{cls.__qualname__}" for cls in lacking)
        return (
            f'Refusing to send the OAuth token stored under "{entry}" to provider '
            f'"{provider_id}": {named} also has that id and does not declare the sign-in, '
            "and a stored sign-in is handed out by provider id, so it could reach requests "
            f"no declaration covers; give that class an id of its own, or {declare_it}"
        )
    entries = sorted({e for _, said in declared for e in said.entries})
    if entries:
        named = ", ".join(f'"{e}"' for e in entries)
        what = f"declares only the sign-in stored under {named}"
    else:
        what = "declares no sign-in"
    label = declared[0][1].label
    return (
        f'Refusing to send the OAuth token stored under "{entry}": provider "{provider_id}" '
        f"({label}) {what}, so where its requests take it is never checked; "
        f"declare it: {declare_it}"
    )
