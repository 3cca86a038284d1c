"""Which URLs one task's requests went to, for a fan-out's engines cut off waiting for DNS.

Public Web stops waiting for its engines at its hard deadline and cancels those still
running: cut off, which reads as an engine too slow and shows nothing of the network. Behind
a DNS server that does not answer, every engine was still waiting for its host name then,
and cut off so, its outcome spoiled the search's verdict: a provider after Public Web whose
name had no answer either counted it as its own failure (the network seemed to work) and
its breaker opened. The fan-out gives each engine's task a set here (:func:`record_requests`),
the transport adds each URL it sends to (:func:`note_request`), and at the cut-off a URL
whose host name (or proxy's) still has no answer makes the engine's outcome a host not
found (:meth:`~websearch_core.transport.Transport.unanswered_lookup`).

URLs, not the names the resolver is asked: a request that finds a lookup of its name under
way waits for that one (aiohttp starts one per name), so the resolver never hears of it,
and a silent name server's lookups outlive the search that started them. Per request this
costs a context variable's read, and a set's add inside a fan-out; no aiohttp here, so the
chain imports it before any session exists.
"""

from contextvars import ContextVar

__all__ = ["note_request", "record_requests"]

_SENT_TO: ContextVar[set[str] | None] = ContextVar("websearch_sent_to", default=None)
"""The set the current task's request URLs go to; ``None`` outside a fan-out's engine."""


def record_requests(urls: set[str] | None) -> None:
    """Add the URLs this task (and the tasks it starts) sends requests to from now on.

    Set inside the task, so only its own context (a copy of its creator's) holds ``urls``;
    ``None`` keeps none.
    """
    _SENT_TO.set(urls)


def note_request(url: str) -> None:
    """A request to ``url`` starts: add it to the current task's set, if it keeps one."""
    sent_to = _SENT_TO.get()
    if sent_to is not None:
        sent_to.add(url)
