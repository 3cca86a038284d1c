"""Whether a search's failures say this machine is offline rather than its providers failing.

Two or more providers all failing the same way before anything reached them is this
machine's network, not the providers: every host name unresolved (no connection, no DNS),
every connection refused or without a route (a firewall, a captive portal), or every one
refused by the proxy this machine is set to use. The chain adds the hint for that cause to
its error, and the ledger counts none of those failures towards a circuit breaker, so the
first search once the network is back asks the providers again. One host alone may be a
mistyped base URL or a provider that is down, the user's or the provider's failure to see,
so it takes two; and a provider that answered (or failed another way) shows the network
works, so the failures beside it count.

A reset connection or a timeout reached (or may have reached) some host, and a working
network gives those for one provider's outage too: they never make the machine offline.
A timeout that came while the request's connection was still being opened is the
exception: nothing was sent, and a firewall dropping packets or a proxy that never answers
hangs every connection alike (:mod:`~websearch_core.connect_phase`; measured: two providers
behind a full-backlog listener, ``timeout_seconds`` 0.5, opened both breakers in two
searches; now neither, with the hint). It is a connection not made (``connect``), or the
proxy not reached (``proxy``) when the request went through one.

A DNS server that does not answer is the unresolved case too. The system resolver
(aiohttp's threaded ``getaddrinfo``) gives up by itself after resolv.conf's ``timeout`` x
``attempts`` per name server (5 s x 2 by glibc's defaults) and says ``EAI_AGAIN``, a
host-not-found. A provider timeout shorter than that ends first, with the same bare
``TimeoutError`` aiohttp raises for a provider slow to answer; the client's own session
knows which names it is still looking up (:mod:`~websearch_core.lookups`), so such a
timeout is a host not found as well (measured: two providers behind a silent name server,
``timeout_seconds`` 0.5, opened both breakers in two searches; now neither, with the
offline hint). A caller's session carries its own resolver: its timeouts stay timeouts.

Whether the failures that reached no host count towards their providers' breakers is
decided here once, for the chain and for Public Web's fan-out alike
(:func:`unreached_count`): a search held them back until it knew.
"""

from collections.abc import Iterable, Sequence

from ..errors import DeadlineExceededError, HostNotReachedError, ProviderNotConfiguredError
from ..providers.base import ProviderContext, SearchProvider
from .ledger import ProviderSkippedError

__all__ = [
    "OFFLINE_MIN_PROVIDERS",
    "hint_cause",
    "is_unreached",
    "lone_unreached_cause",
    "machine_offline",
    "offline_cause",
    "proxy_source",
    "sent_nothing",
    "unreached_count",
]

OFFLINE_MIN_PROVIDERS = 2
"""Providers that must all fail alike, unreached, before the machine is the one to blame."""

_UNSENT = (ProviderSkippedError, ProviderNotConfiguredError, DeadlineExceededError)
"""Failures that sent nothing (a cooldown, a budget, a missing key, providers the deadline
left untried): they tell nothing of the network. Untried ones read as reached before, so two
names without an answer from DNS that took the whole deadline were counted, and two searches
opened both breakers."""


def is_unreached(error: BaseException) -> bool:
    """``error`` reached no host (unresolved, refused, no route): whose failure it is waits."""
    return isinstance(error, HostNotReachedError)


def sent_nothing(error: BaseException) -> bool:
    """``error`` reached no host and no request of its attempt left this machine.

    Its request is then given back to the provider's monthly count. An engine whose plain
    fetch was answered before headless Chromium reached no host sent that request
    (:attr:`~websearch_core.errors.HostNotReachedError.request_sent`): it counts as used.
    """
    return isinstance(error, HostNotReachedError) and not error.request_sent


def asked(errors: Iterable[BaseException]) -> list[BaseException]:
    """The failures of providers that were asked.

    Skips, missing setups and providers the deadline left untried sent nothing.
    """
    return [error for error in errors if not isinstance(error, _UNSENT)]


def offline_cause(errors: Iterable[BaseException]) -> str | None:
    """How this machine failed to reach two or more providers alike, else ``None``.

    Args:
        errors: Every failure of one search (or one fan-out); skips and providers that
            could not run sent nothing, so they neither count nor spoil it. The Public
            Web aggregate whose engines all failed so counts as the engines it asked.

    Returns:
        The common :attr:`~websearch_core.errors.HostNotReachedError.cause` (``dns``,
        ``connect`` or ``proxy``) when every provider asked failed with it; ``None`` when
        fewer than two were, or any failed another way (it reached its host: the network
        works).
    """
    unreached = _unreached_alike(errors)
    if unreached is None or unreached[1] < OFFLINE_MIN_PROVIDERS:
        return None
    return unreached[0]


def lone_unreached_cause(errors: Iterable[BaseException]) -> str | None:
    """How the one provider asked failed before reaching its host, else ``None``.

    A forced provider (or the only one left to ask) whose host name did not resolve said
    nothing of the network, while two such providers got the offline hint. One failure
    cannot tell this machine from a mistyped base URL or a provider that is down, so its
    hint says "if the host name is right", as a page fetch's does
    (:func:`~websearch_core.format.with_lone_host_hint`).

    Args:
        errors: Every failure of one search; skips and providers that could not run sent
            nothing, so they neither count nor spoil it.

    Returns:
        The :attr:`~websearch_core.errors.HostNotReachedError.cause` when exactly one host
        was asked and not reached; ``None`` otherwise.
    """
    unreached = _unreached_alike(errors)
    if unreached is None or unreached[1] != 1:
        return None
    return unreached[0]


def _unreached_alike(errors: Iterable[BaseException]) -> tuple[str, int] | None:
    """The one cause every failure asked shares and the hosts they asked, else ``None``.

    ``None`` when any failure asked reached its host, the causes differ, or none was asked.
    """
    causes: set[str] = set()
    hosts = 0
    for error in asked(errors):
        if not isinstance(error, HostNotReachedError):
            return None
        causes.add(error.cause)
        hosts += error.hosts  # an aggregate's failure counts each engine it asked
    if len(causes) != 1:
        return None
    return causes.pop(), hosts


def hint_cause(cause: str, errors: Iterable[BaseException]) -> str:
    """The hint to give for ``cause``: ``loopback`` when every refusal came from this machine.

    A connection refused at a loopback address is no firewall or captive portal: nothing
    listens where a base URL points (a simulator stopped, its pasted variables left in the
    shell), and "this machine's network looks blocked" sent the user to check a network
    that works. Any other host among them keeps ``cause``.

    Example:
        >>> from websearch_core.errors import HostNotReachedError
        >>> refused = HostNotReachedError("brave", "refused", loopback=True)
        >>> hint_cause("connect", [refused, refused]), hint_cause("dns", [refused])
        ('loopback', 'dns')
    """
    if cause != "connect":
        return cause
    for error in asked(errors):
        if not (isinstance(error, HostNotReachedError) and error.loopback):
            return cause
    return "loopback"


def proxy_source(errors: Iterable[BaseException]) -> str | None:
    """The one variable or setting that named every proxy not reached, else ``None``.

    ``None`` too when one of them came from no setting of ours (a session's own proxy),
    or from different ones: the hint then names no one setting.
    """
    sources = {
        error.proxy_source for error in asked(errors) if isinstance(error, HostNotReachedError)
    }
    return sources.pop() if len(sources) == 1 else None


def machine_offline(errors: Iterable[BaseException]) -> bool:
    """Two or more providers were asked, and every one failed alike before reaching it."""
    return offline_cause(errors) is not None


def unreached_count(
    failures: Sequence[tuple[SearchProvider, BaseException]],
    context: ProviderContext,
    *,
    answered: bool = False,
    ended: bool = True,
    unsettled: int = 0,
) -> bool:
    """Whether the failures that reached no host, held back by a search, are counted now.

    The one rule for the chain and for Public Web's fan-out (which applied only part of
    it: a fan-out cancelled dropped them all, and one engine left alone counted):

    1. A provider that answered, or failed after reaching its host, shows the network
       works: each unreached failure is its own provider's (or its base URL's), counted.
       Before, two unresolved names beside an answer read as this machine offline. A
       fan-out run by the chain hands the engines' failures it would not count to the
       chain, whose verdict sees the providers after it too.
    2. A search cut short (its caller cancelled it) before any host was reached gives no
       verdict: nothing is counted. A machine offline whose searches a caller's timeout
       cuts short (a DNS that does not answer is slow) would open every breaker, while
       dropping loses one count that a later search counts again.
    3. Two or more providers asked, all unreached alike: this machine
       (:func:`machine_offline`), not counted. Providers the deadline left untried were
       not asked: they neither show the network works nor make a failure a lone one's.
    4. One provider asked alone whose own host name did not resolve: far more likely this
       machine than the provider, and nothing beside it tells the two apart (counted,
       searches offline with a forced provider or a lone engine opened its breaker, and
       the first search once the network was back sent nothing). A base URL the user set
       may be mistyped, which the cooldown then shows: it still counts, as a refused
       connection to an official host does (the host may be down).

    Args:
        failures: Each provider (or engine) asked or skipped, with its error; skips and
            providers that could not run sent nothing, so they tell nothing.
        context: The call's settings (which base URLs the user set).
        answered: Some provider (or engine) of the search answered.
        ended: The search ran to its end (``False``: its caller cancelled it).
        unsettled: Providers asked that neither answered nor failed (engines a fan-out cut
            off at its deadline): they show nothing of the network, but a failure beside
            them was not asked alone.
    """
    sent = [(provider, error) for provider, error in failures if asked((error,))]
    if answered or any(not is_unreached(error) for _, error in sent):
        return True
    if not ended:
        return False
    if machine_offline(error for _, error in sent):
        return False
    return unsettled > 0 or not _alone_on_its_own_host(sent, context)


def _alone_on_its_own_host(
    sent: Sequence[tuple[SearchProvider, BaseException]], context: ProviderContext
) -> bool:
    """One provider was asked, and its own (not a user-set) host name did not resolve.

    Public Web whose one engine failed so says ``dns`` as its cause, and sets no base URL
    of its own: the fan-out applied this rule to the engine's URL already.
    """
    if len(sent) != 1:
        return False
    provider, error = sent[0]
    unresolved = isinstance(error, HostNotReachedError) and error.cause == "dns"
    return unresolved and provider.sent_url(context) is None
