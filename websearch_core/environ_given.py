"""What a ``Credentials`` given an ``environ`` of its own says of the process environment.

``Credentials(environ=...)`` reads that mapping in place of ``os.environ``: it replaces the
process environment, it is not layered over it. So a test given ``environ={}`` is not
served the developer's own keys, as ``subprocess.run(env=...)`` hands a child only the
mapping it is given; to layer overrides over the process environment, give
``collections.ChainMap(overrides, os.environ)``. A key then set in ``os.environ`` alone is
"not found", and the spec's ``credentials not found. Set BRAVE_API_KEY ...`` told a user
who had set ``BRAVE_API_KEY`` to set it. :func:`unseen_clause` is the sentence added to that
text when so, naming the variables and never their values.
"""

import os
from collections.abc import Iterable, Mapping

__all__ = ["unseen_clause", "unseen_variables"]


def unseen_variables(environ: Mapping[str, str], names: Iterable[str]) -> tuple[str, ...]:
    """Those of ``names`` set (not blank) in ``os.environ`` but not in ``environ``.

    Empty when ``environ`` is ``os.environ`` itself (nothing there is unseen), so a
    ``Credentials`` built without one never adds anything to an error.

    Example:
        >>> os.environ["DOC_UNSEEN_KEY"] = "k"
        >>> unseen_variables({}, ["DOC_UNSEEN_KEY", "DOC_UNSET_KEY"])
        ('DOC_UNSEEN_KEY',)
        >>> unseen_variables({"DOC_UNSEEN_KEY": "given"}, ["DOC_UNSEEN_KEY"])
        ()
        >>> unseen_variables(os.environ, ["DOC_UNSEEN_KEY"])
        ()
        >>> del os.environ["DOC_UNSEEN_KEY"]
    """
    if environ is os.environ:
        return ()
    process = os.environ
    return tuple(
        name
        for name in dict.fromkeys(names)
        if (process.get(name) or "").strip() and not (environ.get(name) or "").strip()
    )


def unseen_clause(environ: Mapping[str, str], names: Iterable[str]) -> str:
    """The sentence a "not found" error adds when ``names`` are set where it did not look.

    Empty when none is (:func:`unseen_variables`), so the spec's text stands as it is.

    Example:
        >>> os.environ["DOC_UNSEEN_KEY"] = "k"
        >>> unseen_clause({}, ["DOC_UNSEEN_KEY"]).split(":")[0]
        ' DOC_UNSEEN_KEY is set in os.environ, which these Credentials do not read'
        >>> del os.environ["DOC_UNSEEN_KEY"]
        >>> unseen_clause({}, ["DOC_UNSEEN_KEY"])
        ''
    """
    unseen = unseen_variables(environ, names)
    if not unseen:
        return ""
    named = " and ".join(unseen)
    verb, pronoun = ("is", "it") if len(unseen) == 1 else ("are", "them")
    return (
        f" {named} {verb} set in os.environ, which these Credentials do not read: they were "
        f"given an environ of their own, which replaces it; add {pronoun} there (or layer "
        "it: collections.ChainMap(environ, os.environ)), or pass the key in explicit=."
    )
