"""The client's own aiohttp session, which never sends a request twice behind the ledger's back.

aiohttp sends an idempotent request (a GET) again, once and silently, when a reused
keep-alive connection turns out closed; the provider then sees two requests where the
request ledger counted one (a second billed call, a second step of a rate limit). The
only switch for it is private: ``ClientSession._retry_connection`` (read and turned off on
aiohttp 3.14.5 here; the lowest bound, 3.11, is run by CI's lowest-bounds job). Being
private, it may go, be renamed or stop taking effect in any release, so it is turned off
only when it is there as the ``bool`` aiohttp keeps and reads back ``False`` afterwards.
Otherwise the session is built on a connector that never reuses a connection
(``TCPConnector(force_close=True)``, public): slower (a new connection per request), but
nothing is ever re-sent on a reused one.
"""

import logging
from typing import TYPE_CHECKING

from .said_once import first_time

if TYPE_CHECKING:
    import aiohttp
    from aiohttp.abc import AbstractResolver

__all__ = ["open_own_session", "stop_silent_resends"]

logger = logging.getLogger("websearch_core.own_session")

_SWITCH = "_retry_connection"
"""Where aiohttp 3.11 to 3.14.5 keeps the switch of its silent re-send."""

CONNECTION_LIMIT = 32
"""How many connections the client's own session keeps open at once."""


def stop_silent_resends(session: "aiohttp.ClientSession") -> bool:
    """Turn off ``session``'s silent re-send; ``False`` if this aiohttp's switch is not known.

    Args:
        session: A session not yet used.

    Returns:
        Whether the switch was there, as a ``bool``, and now reads ``False``.
    """
    if not isinstance(getattr(session, _SWITCH, None), bool):
        return False
    setattr(session, _SWITCH, False)
    return getattr(session, _SWITCH, None) is False


def open_own_session(resolver: "AbstractResolver | None" = None) -> "aiohttp.ClientSession":
    """A new session for the client, on the running loop, that never re-sends silently.

    The proxy (``WEBSEARCH_PROXY``, else ``HTTPS_PROXY``/``NO_PROXY``) is chosen per request
    by the transport, so the session does not trust the environment: a loopback endpoint
    goes direct, and trusting it, aiohttp would also send the ``~/.netrc`` login of every
    host it lists (see :mod:`websearch_core.env_proxies`).

    Args:
        resolver: The connector's resolver (the client's
            :class:`~websearch_core.lookups.PendingLookups`); ``None``: aiohttp's default.
            A connector given one does not close it.
    """
    import aiohttp  # on first use: importing the client must not cost aiohttp's ~80 ms

    session = _session(force_close=False, resolver=resolver)
    if stop_silent_resends(session):
        return session
    session.detach()  # never used: no connection of its connector is left open
    if first_time(("no resend switch",)):
        logger.info(
            "aiohttp %s has no switch WebSearch knows for its silent re-send of a request on "
            "a dropped connection: connections are not reused, so none is sent twice",
            aiohttp.__version__,
        )
    return _session(force_close=True, resolver=resolver)


def _session(*, force_close: bool, resolver: "AbstractResolver | None") -> "aiohttp.ClientSession":
    """The client's session, its connections reused unless ``force_close``."""
    import aiohttp

    from .connect_phase import WatchedConnector  # a timeout while connecting: not the provider's

    return aiohttp.ClientSession(
        timeout=aiohttp.ClientTimeout(total=None),
        connector=WatchedConnector(
            limit=CONNECTION_LIMIT, force_close=force_close, resolver=resolver
        ),
        trust_env=False,
    )
