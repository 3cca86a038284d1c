"""Offline testing for websearch-tools and for agents built on it.

Shipped in the package, like ``aiohttp.test_utils``: :class:`Simulator` starts loopback
servers that speak each provider's real wire protocol and can inject faults (429 with
``Retry-After``, 402, 401, 403, 5xx, hangs, resets, replies cut or stalled after they
began, malformed bodies, challenge pages, oversized bodies), so an agent can be tested end
to end with no network and no keys; ``python -m websearch_core.testing serve``
(:mod:`.serve`) serves it for the ``websearch`` command, with the lines that point the
command at it.
:class:`MockTransport` is the in-process counterpart for unit tests: a function answers
each request and no socket is opened.
"""

from .faults import Fault, FaultKind, Framing
from .mock_transport import MockTransport, Reads, in_parts, scripted
from .simulator import PROTOCOLS, RecordedRequest, SimResult, SimulatedProvider, Simulator

__all__ = [
    "PROTOCOLS",
    "Fault",
    "FaultKind",
    "Framing",
    "MockTransport",
    "Reads",
    "RecordedRequest",
    "SimResult",
    "SimulatedProvider",
    "Simulator",
    "in_parts",
    "scripted",
]
