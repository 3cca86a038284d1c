"""Every ``Credentials`` in this process that has handed out a sign-in, while it lives.

Why this exists: a request sent through a ``Transport`` built without the client's
credentials (a user's own, in a context built to call a provider alone) was not judged at
all, so a plugin sending a sign-in through it went anywhere: such a transport has no
credentials to ask what was handed out. It asks these instead
(:meth:`~websearch_core.transport.Transport.send`). Held weakly: a client let go takes its
sign-ins with it, and none is kept alive by being listed here.
"""

import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .sign_in_sends import HandsOut

__all__ = ["note_holder", "sign_in_holders"]

_HOLDERS: "dict[int, weakref.ref[HandsOut]]" = {}
"""Each by its id, dropped by its reference's callback when it is let go: a plain dict, so
that the usual answer, none, is one C-level test (a ``WeakSet``'s cost ~0.15 us a request)."""


def note_holder(holder: "HandsOut") -> None:
    """List ``holder``, which has just handed out a sign-in (listed once, however often)."""
    key = id(holder)
    if key not in _HOLDERS:
        # The callback runs as the holder is let go, before its id can be reused.
        _HOLDERS[key] = weakref.ref(holder, lambda _: _HOLDERS.pop(key, None))


def sign_in_holders() -> "tuple[HandsOut, ...]":
    """Those listed and still alive: none, the usual case, costs one empty test."""
    if not _HOLDERS:
        return ()
    alive = (ref() for ref in tuple(_HOLDERS.values()))
    return tuple(holder for holder in alive if holder is not None)
