r"""A secret a provider puts into a request, where the user set it, and the one rule for it.

Every credential a provider sends (an API key, a stored OAuth token, a session cookie
header, a SearXNG token or password) goes into a header, and a header cannot hold a
control character: ``BRAVE_API_KEY="k\r\ney"`` or a hand-edited store entry used to reach
the transport and fail as ``request was not sent``, which names neither the variable nor
the store. Each source is described here as a :class:`SentSecret`, and :meth:`problem`
is the one place that decides and words the refusal, so the providers table, the chain's
skip and a forced provider's fallback all say the same, never showing the value.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from .control_chars import CONTROL_IN_LINE

__all__ = ["UNSENDABLE", "SentSecret", "first_problem"]

UNSENDABLE = "contains a control character (a line break, a NUL), so it cannot be sent"
"""Why such a secret is refused, between where it is and how to fix it."""


@dataclass(frozen=True, slots=True)
class SentSecret:
    """One secret a provider would send, named by what it is and where it was set.

    Attributes:
        value: The secret as it would be sent (hidden from ``repr``).
        what: What it is, e.g. ``Brave API key`` or ``Gemini OAuth token``.
        where: Where it was set, e.g. ``in BRAVE_API_KEY`` or ``stored in the credential
            store /home/u/.config/websearch-tools/credentials.json``.
        fix: What to do about it, e.g. ``remove it from BRAVE_API_KEY``.
    """

    value: str = field(repr=False)
    what: str
    where: str
    fix: str

    def problem(self) -> str | None:
        """Why this secret cannot be sent, in one sentence, or ``None`` when it can."""
        if CONTROL_IN_LINE.search(self.value) is None:
            return None
        return f"{self.what} {self.where} {UNSENDABLE}; {self.fix}."


def first_problem(secrets: Iterable[SentSecret | None]) -> str | None:
    """The first of ``secrets`` that cannot be sent, as :meth:`SentSecret.problem` says it.

    ``None`` entries (a source with nothing set) are passed over.
    """
    for secret in secrets:
        if secret is not None:
            problem = secret.problem()
            if problem is not None:
                return problem
    return None
