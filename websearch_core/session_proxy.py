"""The proxy a caller's aiohttp session sends through by itself, read where aiohttp keeps it.

A caller's session given ``ClientSession(proxy=...)`` sends every request through that
proxy, and aiohttp cannot be told to send one request past it; :mod:`websearch_core.transport`
refuses a loopback request such a session would hand to a proxy on another machine. aiohttp
has no public reader for that proxy: it keeps it in the private slot ``_default_proxy``
(read on aiohttp 3.14.5 here; the lowest bound, 3.11, is run by CI's lowest-bounds job,
whose refusal test needs it). Being private, it may go or change shape in any release, so
it is read here only, and only as the shapes aiohttp stores: ``None``, a ``str`` or a
``yarl.URL``. Anything else (the slot gone, renamed, or holding a new kind of value) is
:data:`UNREADABLE`: the transport then sends as the session does and says once that it
could not check, rather than guessing from a value it does not understand.
"""

import enum
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    import aiohttp

__all__ = ["UNREADABLE", "Unreadable", "session_proxy"]


class Unreadable(enum.Enum):
    """The one value saying the session's own proxy could not be read."""

    UNREADABLE = "unreadable"


UNREADABLE: Final = Unreadable.UNREADABLE
"""What :func:`session_proxy` answers when the aiohttp in use keeps the proxy elsewhere."""

_SLOT = "_default_proxy"
"""Where aiohttp (3.11 to 3.14.5 at least) keeps ``ClientSession(proxy=...)``."""

_MISSING = object()


def session_proxy(session: "aiohttp.ClientSession") -> str | Literal[Unreadable.UNREADABLE] | None:
    """The proxy ``session`` sends through by itself, ``None`` if none, or :data:`UNREADABLE`.

    Args:
        session: A caller's session (the client's own never carries a proxy of its own).

    Returns:
        The proxy URL as text, ``None`` when the session was given no proxy, or
        :data:`UNREADABLE` when this aiohttp keeps it elsewhere or in a shape not known here.
    """
    from yarl import URL  # loaded with aiohttp, which made ``session``

    value = getattr(session, _SLOT, _MISSING)
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, URL):
        return str(value)
    return UNREADABLE
