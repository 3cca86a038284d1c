"""The one decision of what a sign-in's refusal advises, so that the advice can be followed.

Why this exists: every refusal to send a sign-in off its hosts ended "or set base_urls.<id>
to that endpoint and add <id> to sign_in_gateways", with <id> the base URL id the request
went under. For a request sent under ``route="brave"``, or by a provider that sends no
sign-in of its own, the settings refuse that id ("brave sends no sign-in: ... name the id of
the service the sign-in belongs to"), so a user who followed the first text hit the second.
And a ``Transport`` built without the client's credentials is not given the settings'
base URLs, so the advice to set one there could not work either: its own ``base_urls=`` and
``sign_in_gateways=`` are what it takes.

The rule (:func:`gateway_advice`): a base URL id may be trusted with a sign-in when the
settings accept it in ``sign_in_gateways`` (:data:`~websearch_core.provider_ids.
SIGN_IN_ROUTES`) or it is the id of a provider declaring that sign-in (a plugin's own,
which only its ``Transport`` can trust, as the settings know no plugin's id). Under such an
id the advice is to trust it where trust is set; under any other it says whose the sign-in
is and to send it under that provider's route (one the settings accept, when one is),
trusted the same way.

Which ids may be trusted at all is decided here too (:func:`signless_gateways`), for the
settings and for a ``Transport``'s ``sign_in_gateways=`` alike: ``brave`` sends no sign-in,
so trusting it could only let another service's through, and both refuse it in the same
words (:func:`signless_gateways_message`).
"""

from collections.abc import Iterable, Sequence
from typing import Final

from .provider_entry_points import installed_provider
from .provider_ids import BASE_URL_IDS, SIGN_IN_ROUTES
from .sign_in_declarations import declares_a_sign_in

__all__ = [
    "GATEWAYS_SETTING",
    "GATEWAYS_VARIABLE",
    "gateway_advice",
    "own_provider_gateways",
    "set_url_advice",
    "signless_gateways",
    "signless_gateways_message",
]

GATEWAYS_SETTING: Final = "sign_in_gateways"
"""The setting that trusts a base URL with sign-ins, by its ``base_urls`` id."""
GATEWAYS_VARIABLE: Final = "WEBSEARCH_SIGN_IN_GATEWAYS"
"""Its variable (a comma-separated or JSON list of ids)."""


def gateway_advice(route: str, owners: Sequence[str], *, own_transport: bool = False) -> str:
    """How to let a refused sign-in through a gateway, as the refusal's last clause.

    Args:
        route: The base URL id the request went under (its ``route``, else its sender's id).
        owners: The ids of the providers the sign-in belongs to (those declaring it, its
            service's own first: :func:`~websearch_core.sign_in_declarations.
            sign_in_owners`); empty when no living provider class declares it.
        own_transport: The request went through a ``Transport`` built without the client's
            credentials, whose ``base_urls=`` and ``sign_in_gateways=`` are what it trusts.

    Returns:
        The clause after "send its requests there or to a loopback address, or"; empty
        when no gateway can be trusted with it (no provider declares it).

    Example:
        >>> print(gateway_advice("codex", ["codex"]))  # doctest: +NORMALIZE_WHITESPACE
        set base_urls.codex to that endpoint and add codex to sign_in_gateways
        (WEBSEARCH_SIGN_IN_GATEWAYS) to trust it
        >>> print(gateway_advice("brave", ["codex"]))  # doctest: +NORMALIZE_WHITESPACE
        the sign-in is codex's and no base URL but its own may be trusted with it: send it
        under route="codex" and set base_urls.codex to that endpoint and add codex to
        sign_in_gateways (WEBSEARCH_SIGN_IN_GATEWAYS) to trust it
        >>> print(gateway_advice("codex", ["codex"], own_transport=True))
        ... # doctest: +NORMALIZE_WHITESPACE
        build the Transport with base_urls={"codex": "<that endpoint>"} and
        sign_in_gateways=["codex"] to trust it
        >>> gateway_advice("brave", [])
        ''
    """
    if route in SIGN_IN_ROUTES or route in owners:
        if own_transport or not _settings_trust(route):
            return (
                f'build the Transport with base_urls={{"{route}": "<that endpoint>"}} and '
                f'{GATEWAYS_SETTING}=["{route}"] to trust it'
            )
        return (
            f"set base_urls.{route} to that endpoint and add {route} to {GATEWAYS_SETTING} "
            f"({GATEWAYS_VARIABLE}) to trust it"
        )
    if not owners:
        return ""
    owner = next((pid for pid in owners if pid in SIGN_IN_ROUTES), owners[0])
    trusted = gateway_advice(owner, owners, own_transport=own_transport)
    return (
        f"the sign-in is {owner}'s and no base URL but its own may be trusted with it: "
        f'send it under route="{owner}" and {trusted}'
    )


def signless_gateways(ids: Iterable[str], *, own_transport: bool = False) -> list[str]:
    """Those of ``ids`` no sign-in is sent under, so that none may be trusted with one.

    Trusting an id trusts the URL set under it with the sign-ins sent there; no request of
    Brave's carries one, so trusting ``brave`` could only let another service's sign-in
    (the ChatGPT one, sent by a plugin under ``route="brave"``) through Brave's gateway:
    the misdirection ``sign_in_gateways`` exists to stop. A built-in id is refused unless a
    sign-in is sent under it (:data:`~websearch_core.provider_ids.SIGN_IN_ROUTES`).

    Args:
        ids: The ids to be trusted (the settings' are known base URL ids already).
        own_transport: They are given to a ``Transport``, which also trusts a plugin's id
            (no setting knows it) and a built-in id a living class of that id declares a
            sign-in under: the ids :func:`gateway_advice` tells it to trust.

    Example:
        >>> signless_gateways(["codex", "brave"]), signless_gateways(["mine"], own_transport=True)
        (['brave'], [])
    """
    return [
        pid
        for pid in ids
        if pid not in SIGN_IN_ROUTES
        and not (own_transport and (pid not in BASE_URL_IDS or declares_a_sign_in(pid)))
    ]


def signless_gateways_message(ids: Sequence[str]) -> str:
    """The text refusing ``sign_in_gateways`` ids no sign-in is ever sent under.

    Most likely another id was meant: the text names those that may be trusted.

    Example:
        >>> print(signless_gateways_message(["brave"]))  # doctest: +NORMALIZE_WHITESPACE
        brave sends no sign-in: a base URL is trusted only with its own service's sign-ins,
        and none is sent through brave's (one there would be another service's); name the id
        of the service the sign-in belongs to (anthropic, codex, gemini, perplexity,
        google_oauth) or remove brave
    """
    named = ", ".join(ids)
    owner = f"{ids[0]}'s" if len(ids) == 1 else "theirs"
    return (
        f"{named} {'sends' if len(ids) == 1 else 'send'} no sign-in: a base URL is trusted "
        f"only with its own service's sign-ins, and none is sent through {owner} (one there "
        "would be another service's); name the id of the service the sign-in belongs to "
        f"({', '.join(SIGN_IN_ROUTES)}) or remove {named}"
    )


def own_provider_gateways(unknown: Sequence[str]) -> str:
    """What the settings add when refusing ``unknown`` ids of which a provider of yours is one.

    The settings trust no plugin's id, by choice: they are read from the environment and
    the config file by every process (the command, the tools), which run built-in providers
    only and never import a plugin, and are checked when built, before a plugin's module
    may be; accepting an id a living class declares would make one variable valid in one
    process and an error in another, and accepting any would lose the typo check
    (``codx``) that keeps a gateway from going untrusted unnoticed. A plugin runs in a
    context its caller builds, with a ``Transport`` it builds, whose ``sign_in_gateways=``
    trusts its id: the refusal said only ``unknown provider id``, so a user who had
    written the provider was not told where its trust goes.

    A provider whose class is not imported is named too when its package declares it
    under the entry-point group :data:`~websearch_core.provider_entry_points.
    PROVIDER_GROUP` (read from metadata, nothing imported): the advice depended on the
    class having been imported, so one variable had it in one process and not another.

    Returns:
        ``; <id> is a provider of your own ...`` naming those of ``unknown`` a living
        class declares a sign-in under (:func:`~websearch_core.sign_in_declarations.
        declares_a_sign_in`) or an installed package declares
        (:func:`~websearch_core.provider_entry_points.installed_provider`, whose entry
        point it names), else empty.

    Example:
        >>> from websearch_core.sign_in_declarations import declare
        >>> class DocOwn: ...
        >>> declare(DocOwn, "doc-own", "Doc Own", ["doc-own"])
        >>> print(own_provider_gateways(["doc-own", "codx"]))  # doctest: +NORMALIZE_WHITESPACE
        ; doc-own is a provider of your own, which the settings do not know (the command
        and the tools read them too, and run built-in providers only): trust its gateway on
        the Transport you build for it, with sign_in_gateways=["doc-own"]
        >>> own_provider_gateways(["codx"])
        ''
    """
    declared = {pid: installed_provider(pid) for pid in unknown}
    own = [pid for pid in unknown if declares_a_sign_in(pid) or declared[pid]]
    if not own:
        return ""
    named = " and ".join(own)
    installed = "; ".join(f"{pid}: {declared[pid]}" for pid in own if declared[pid])
    where = f" (installed: {installed})" if installed else ""
    listed = ", ".join(f'"{pid}"' for pid in own)
    which = "is a provider" if len(own) == 1 else "are providers"
    its = "its gateway" if len(own) == 1 else "their gateways"
    return (
        f"; {named} {which} of your own{where}, which the settings do not know (the command and "
        "the tools read them too, and run built-in providers only): trust "
        f"{its} on the Transport you build for it, with {GATEWAYS_SETTING}=[{listed}]"
    )


def set_url_advice(route: str, *, on_transport: bool = False) -> str:
    """How to trust the URL already set under the base URL id ``route`` with a sign-in.

    The last clause of the credential check's refusal of a URL set for a provider that
    sends a sign-in (:func:`~websearch_core.sign_in_destination.endpoint_refusal`): the
    settings for an id they accept, else (a plugin's own id, set on its ``Transport`` or in
    its URL variable) the ``Transport``'s ``sign_in_gateways=``, which the check reads too.
    A URL set on a ``Transport`` the user built (``on_transport``) is trusted there too,
    whatever its id: the settings' advice sent a user who built the transport, and never
    touched the settings or the variable, to them.

    Example:
        >>> print(set_url_advice("codex"))
        add codex to sign_in_gateways (WEBSEARCH_SIGN_IN_GATEWAYS)
        >>> print(set_url_advice("my-plugin"))
        build the Transport with sign_in_gateways=["my-plugin"]
        >>> print(set_url_advice("codex", on_transport=True))
        build the Transport with sign_in_gateways=["codex"]
    """
    if _settings_trust(route) and not on_transport:
        return f"add {route} to {GATEWAYS_SETTING} ({GATEWAYS_VARIABLE})"
    return f'build the Transport with {GATEWAYS_SETTING}=["{route}"]'


def _settings_trust(route: str) -> bool:
    """Whether the settings accept ``route`` in ``sign_in_gateways``.

    The ids a sign-in of a built-in provider is sent under; no plugin's id, which the
    settings do not know.
    """
    return route in SIGN_IN_ROUTES
