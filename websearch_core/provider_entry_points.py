"""A provider of your own named by its installed package's metadata, without importing it.

Why this exists: the settings refuse a plugin's id in ``sign_in_gateways`` (every process
reads them, the command and the tools run built-in providers only) and say where its
gateway is trusted instead, on the ``Transport`` built for it. They could say so only when
the plugin's class was alive, imported before the settings were built: the command, a
tool, or a script building its settings first met a bare ``unknown provider id``, so one
variable got two answers in two processes. A package declaring its provider under the
entry-point group :data:`PROVIDER_GROUP` (the entry point's name its provider id) is named
from its installed metadata in every process, and nothing of it is imported: the settings
are checked before a plugin's module may be, and importing one to word an error would run
its code in a process that never uses it.
"""

from importlib.metadata import EntryPoint, entry_points
from typing import Final

__all__ = ["PROVIDER_GROUP", "installed_provider"]

PROVIDER_GROUP: Final = "websearch_core.providers"
"""The entry-point group a package declares its providers under, each named by its id
(``session-plugin = my_search.plugin:SessionPlugin``). Read for advice only: nothing of
it is loaded, and no provider runs by being declared there."""


def installed_provider(provider_id: str) -> str | None:
    """Where ``provider_id`` is declared in :data:`PROVIDER_GROUP`, or ``None``.

    Matched exactly, as a ``Transport``'s ``sign_in_gateways=`` matches the id the advice
    names (``Session-Plugin`` is not trusted by ``session-plugin``). Read from the installed
    distributions' metadata (``entry_points.txt``): the module named is not imported.

    Returns:
        ``<module>:<attribute> of <distribution> <version>`` (the distribution when its
        metadata names it), for the refusal to name.

    Example:
        >>> installed_provider("no-such-provider-anywhere") is None
        True
    """
    for entry in entry_points(group=PROVIDER_GROUP):
        if entry.name.strip() == provider_id:
            return _described(entry)
    return None


def _described(entry: EntryPoint) -> str:
    """``entry``'s target, and the distribution declaring it when known."""
    dist = entry.dist
    if dist is None:
        return entry.value
    return f"{entry.value} of {dist.name} {dist.version}"
