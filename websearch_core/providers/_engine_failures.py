"""How a key-free HTML engine words a failure of its fetch: one text, for every engine.

The reference gives Ecosia, Google and Mojeek ``<Engine> search failed: <msg>`` (503) for a
fetch that failed; DuckDuckGo, Bing, Yahoo and Startpage, which it leaves silent, said the
transport's ``<Engine> connection failed (<host>): ...``. A first user offline read seven
lines in two wordings for one cause. Every engine now says the reference's form:
``<Engine> search failed: the connection failed (<host>): <cause>``, the stem the
transport now gives every provider's transport failure (the API providers' too). An
engine's own prefix (Google's ``Google browser search failed``) is kept as data
(:class:`FailureTexts`); the others take :func:`engine_failure_texts` from their label.

The error keeps its class and what the offline hints read from it (a loopback address,
the proxy's variable, whether the request left): ``type(error)(id, text, 503)`` dropped
them, so three engines refused at loopback read as a blocked network.

The module is private (leading underscore), so the registry's contract test does not read
it as a provider.
"""

from dataclasses import dataclass
from typing import TypeVar

from ..connection_causes import search_failed_prefix
from ..control_chars import safe_message
from ..errors import SearchProviderError

__all__ = ["FailureTexts", "engine_failure_texts", "reworded", "without_label"]

_E = TypeVar("_E", bound=SearchProviderError)


@dataclass(frozen=True, slots=True, kw_only=True)
class FailureTexts:
    """An engine's wording for failures of the fetch itself.

    ``failed`` has one ``{}`` for the detail (``Google browser search failed: {}``);
    ``timed_out`` is used as is.
    """

    failed: str
    timed_out: str
    names_browser: bool = False
    """Whether ``failed`` says "browser" (Google's spec text) whichever fetch failed: then a
    failure of the plain fetch ends saying why the browser was not started, so that it does
    not read as Chromium having run and failed."""


def engine_failure_texts(label: str) -> FailureTexts:
    """The reference's ``<Engine> search failed: {}`` and ``<Engine> search timed out.``.

    Args:
        label: The engine's display name (``Ecosia``).
    """
    return FailureTexts(
        failed=f"{search_failed_prefix(label)}{{}}", timed_out=f"{label} search timed out."
    )


def without_label(message: str, label: str) -> str:
    """The transport's failure text without the engine's name, which the prefix already gives.

    ``Ecosia search failed: Ecosia connection failed (www.ecosia.org): ...`` said the
    name twice; now ``Ecosia search failed: the connection failed (www.ecosia.org): ...``.
    The transport words its failures so already, for every provider
    (:func:`~websearch_core.connection_causes.search_failed`): that stem goes. A text that
    starts with the label alone (``<Label> sent ...``: "it"; a noun: "the") loses the
    label; a text that starts with neither is kept whole.

    Example:
        >>> without_label("Bing search failed: the connection failed (x): refused", "Bing")
        'the connection failed (x): refused'
        >>> without_label("Bing sent an invalid HTTP response (x): ...", "Bing")
        'it sent an invalid HTTP response (x): ...'
    """
    stemmed = message.removeprefix(search_failed_prefix(label))
    if stemmed != message:
        return stemmed
    rest = message.removeprefix(f"{label} ")
    if rest == message:
        return message
    return f"it {rest}" if rest.startswith("sent ") else f"the {rest}"


def reworded(error: _E, failure: FailureTexts, detail: str, status: int | None) -> _E:
    """``error`` saying ``failure.failed`` with ``detail`` and ``status``, all else kept.

    A copy, so the class and the attributes the offline hints read (``loopback``, the
    proxy's ``source``, ``request_sent``) stay as the transport set them.

    Args:
        error: The fetch's failure as the transport raised it.
        failure: The engine's wording.
        detail: What goes in its ``{}`` (:func:`without_label` of the transport's text,
            with any clause on the browser after it).
        status: The status it carries: the reference's 503 where the browser was not
            started, else the transport's own (a gateway's 502, none for a refusal), so
            the chain counts it as before.
    """
    message = safe_message(failure.failed.format(detail))  # as every provider error's is
    # Not copy.copy: an exception is copied by calling its class with its args, which a
    # class taking more than the message (HostNotReachedError) refuses.
    said = type(error).__new__(type(error), message)
    said.__dict__.update(vars(error))
    said.message, said.status = message, status
    return said
