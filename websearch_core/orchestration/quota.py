"""How the chain spends free tiers: what each failure means for the next call, and budgets.

Pure policy, no I/O: given an error and the time, :func:`mark_for_failure` says how long a
provider stays out and why; :class:`Budget` parses ``"2000/month"`` and names the counting
window; :class:`Rate` parses ``"1/s"`` and says how far apart requests must be. The ledger
stores the marks and counters in the state store.

* Rate limited (429 with a short wait): wait and retry once when the wait fits the budget;
  otherwise cool down until the limit resets.
* Quota exhausted (402, spent credits, Tavily 432/433): out until the reset time the provider
  gave, or the start of next month (UTC) when it gave none.
* Authorization (401/403): out for a short while, so a fixed key is picked up soon.
* Transient (timeout, connection, 5xx, challenge page): a circuit breaker whose cooldown
  doubles with each consecutive failure and resets on a success.
"""

import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final, Literal

from ..control_chars import safe_message
from ..errors import (
    AuthorizationError,
    ChallengeError,
    ConfigurationError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    SearchProviderError,
)
from ..state.base import ProviderMark
from ..utc_times import utc_moment

__all__ = [
    "LONG_MARK_SECONDS",
    "SKIPPED_SUFFIX",
    "Budget",
    "FailurePolicy",
    "Period",
    "Rate",
    "brief_mark",
    "describe_mark",
    "is_transient",
    "mark_for_failure",
    "period_window",
    "start_of_next_month",
    "usage_periods_near",
    "utc_text",
]

Period = Literal["minute", "hour", "day", "month"]
_PERIODS: Final[tuple[Period, ...]] = ("minute", "hour", "day", "month")
_BUDGET = re.compile(r"^\s*(\d+)\s*/\s*(minute|hour|day|month)\s*$", re.IGNORECASE)
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(s|sec|second|min|minute|h|hour)\s*$", re.IGNORECASE)
_RATE_SECONDS = {"s": 1.0, "sec": 1.0, "second": 1.0, "min": 60.0, "minute": 60.0}
_RATE_SECONDS.update({"h": 3600.0, "hour": 3600.0})


@dataclass(frozen=True, slots=True)
class Budget:
    """A request budget such as ``2000/month``: at most ``limit`` requests per ``period``."""

    limit: int
    period: Period

    @classmethod
    def parse(cls, provider: str, text: str) -> "Budget":
        """Parse ``"<N>/<minute|hour|day|month>"``.

        Raises:
            ConfigurationError: The text is not a budget; the message names the provider.
        """
        match = _BUDGET.match(text)
        if match is None or int(match.group(1)) < 1:
            raise ConfigurationError(
                f"budget.{provider} must look like '2000/month' (a positive count per minute, "
                f"hour, day or month), got {text!r}"
            )
        period: Period = match.group(2).lower()  # type: ignore[assignment]
        return cls(limit=int(match.group(1)), period=period)

    def __str__(self) -> str:
        return f"{self.limit}/{self.period}"

    def window(self, now: float) -> tuple[str, float]:
        """The counting window containing ``now``: its key and when it ends (epoch seconds)."""
        return period_window(self.period, now)


@dataclass(frozen=True, slots=True)
class Rate:
    """A request rate such as ``1/s`` or ``30/min``: at most ``limit`` requests per ``seconds``.

    Requests are spaced evenly, :attr:`interval` apart, rather than let through in bursts:
    spacing keeps every window of the provider's own (fixed or sliding) limit under the
    rate, where a burst at a window's end followed by one at the next window's start can
    draw a 429.
    """

    limit: int
    seconds: float

    @classmethod
    def parse(cls, provider: str, text: str) -> "Rate":
        """Parse ``"<N>/<s|sec|second|min|minute|h|hour>"``.

        Raises:
            ConfigurationError: The text is not a rate; the message names the provider.
        """
        match = _RATE.match(text) if isinstance(text, str) else None
        if match is None or int(match.group(1)) < 1:
            raise ConfigurationError(
                f"rate.{provider} must look like '1/s' or '30/min' (a positive count per "
                f"second, minute or hour), got {text!r}"
            )
        return cls(limit=int(match.group(1)), seconds=_RATE_SECONDS[match.group(2).lower()])

    def __str__(self) -> str:
        unit = {1.0: "s", 60.0: "min", 3600.0: "h"}.get(self.seconds, f"{self.seconds:g}s")
        return f"{self.limit}/{unit}"

    @property
    def interval(self) -> float:
        """Seconds between two requests."""
        return self.seconds / self.limit


def period_window(period: Period, now: float) -> tuple[str, float]:
    """Key and end of the calendar window (UTC) of ``period`` that contains ``now``.

    Every request asks for its month's window (and its budget's): the last window of
    each period is kept, and reused while ``now`` falls inside it.
    """
    last = _last_window.get(period)
    if last is not None and last[0] <= now < last[1]:
        return last[2], last[1]
    start, end, key = _window(period, now)
    _last_window[period] = (start, end, key)
    return key, end


def usage_periods_near(now: float, slack: float) -> tuple[str, ...]:
    """The usage counters' period keys a request within ``slack`` seconds of ``now`` counts in.

    A request counts in its month's window (``month:...``) and, with a budget, in that
    budget's (``budget:<period>:...``): the keys any release of this library writes (the
    store's key layout). A reset of a store that lists counters before deleting them
    (Redis's ``SCAN``) names these too, so that one another process creates in between, with
    no index entry (an older release), is deleted with the rest; ``slack`` covers that
    process's clock being off and a window's end falling in between.

    Example:
        >>> usage_periods_near(0.0, 0.0)[:3]
        ('month:1970-01', 'budget:minute:1970-01-01T00:00', 'budget:hour:1970-01-01T00')
        >>> len(usage_periods_near(1_000_000.0, 60.0))  # the minutes before and after too
        7
    """
    keys: dict[str, None] = {}
    for moment in (now - slack, now, now + slack):
        keys[_window("month", moment)[2]] = None
    for period in _PERIODS:
        for moment in (now - slack, now, now + slack):
            keys["budget:" + _window(period, moment)[2]] = None
    return tuple(keys)


_last_window: dict[str, tuple[float, float, str]] = {}
"""Per period, the last window computed: its start, its end and its key."""


def _window(period: Period, now: float) -> tuple[float, float, str]:
    moment = datetime.fromtimestamp(now, UTC)
    if period == "month":
        start = moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        return start.timestamp(), start_of_next_month(now), moment.strftime("month:%Y-%m")
    if period == "day":
        start = moment.replace(hour=0, minute=0, second=0, microsecond=0)
        key, step = start.strftime("day:%Y-%m-%d"), timedelta(days=1)
    elif period == "hour":
        start = moment.replace(minute=0, second=0, microsecond=0)
        key, step = start.strftime("hour:%Y-%m-%dT%H"), timedelta(hours=1)
    else:
        start = moment.replace(second=0, microsecond=0)
        key, step = start.strftime("minute:%Y-%m-%dT%H:%M"), timedelta(minutes=1)
    return start.timestamp(), (start + step).timestamp(), key


def start_of_next_month(now: float) -> float:
    """Epoch seconds of the first instant of the next calendar month, UTC."""
    moment = datetime.fromtimestamp(now, UTC)
    year, month = (moment.year + 1, 1) if moment.month == 12 else (moment.year, moment.month + 1)
    return datetime(year, month, 1, tzinfo=UTC).timestamp()


@dataclass(frozen=True, slots=True)
class FailurePolicy:
    """The numbers behind the marks; every one is a setting."""

    rate_limit_wait_budget: float = 2.0
    """Longest ``Retry-After`` worth waiting for before retrying the same provider once."""
    rate_limit_cooldown: float = 60.0
    """Cooldown after a 429 that gave no reset time."""
    auth_cooldown: float = 300.0
    """How long a provider that refused its credentials stays out."""
    circuit_threshold: int = 2
    """Consecutive transient failures before the breaker opens (one blip is forgiven)."""
    circuit_base: float = 30.0
    """First breaker cooldown; it doubles with each further failure."""
    circuit_max: float = 3600.0
    """Longest breaker cooldown."""


def mark_for_failure(
    error: BaseException, *, now: float, failures: int, policy: FailurePolicy
) -> ProviderMark | None:
    """The mark a failure leaves on its provider, or ``None`` when it leaves none.

    Args:
        error: What the provider raised.
        now: Current epoch seconds.
        failures: Consecutive transient failures including this one (for the breaker).
        policy: The cooldown numbers.
    """
    reason = _reason(error)
    if isinstance(error, QuotaExhaustedError):
        until = error.reset_at.timestamp() if error.reset_at else start_of_next_month(now)
        return ProviderMark(kind="exhausted", until=max(until, now + 1), reason=reason, set_at=now)
    if isinstance(error, RateLimitedError):
        wait = error.retry_after if error.retry_after is not None else policy.rate_limit_cooldown
        return ProviderMark(
            kind="rate_limited", until=now + max(wait, 1.0), reason=reason, set_at=now
        )
    if isinstance(error, AuthorizationError):
        return ProviderMark(
            kind="unauthorized", until=now + policy.auth_cooldown, reason=reason, set_at=now
        )
    if is_transient(error) and failures >= policy.circuit_threshold:
        steps = failures - policy.circuit_threshold
        cooldown = min(policy.circuit_base * (2**steps), policy.circuit_max)
        return ProviderMark(
            kind="circuit_open", until=now + cooldown, reason=reason, failures=failures, set_at=now
        )
    return None


def is_transient(error: BaseException) -> bool:
    """Timeouts, connection failures, 5xx and challenge pages: worth a circuit breaker."""
    if isinstance(error, ProviderUnavailableError | ChallengeError):
        return True
    return (
        isinstance(error, SearchProviderError) and error.status is not None and error.status >= 500
    )


REASON_LIMIT: Final = 300
"""A mark keeps at most this many characters of the error that set it."""


def _reason(error: BaseException) -> str:
    """The text a mark keeps: the start of the error's message, at most :data:`REASON_LIMIT`.

    An upstream's error message may hold kilobytes of its body; the mark is stored, shown
    by ``websearch providers`` and repeated in every skip sentence until it ends, where
    the start (``Brave API error (429): ...``) says what happened.
    """
    text = error.message if isinstance(error, SearchProviderError) else str(error)
    return text[:REASON_LIMIT]


SKIPPED_SUFFIX: Final = "skipped without a request."
"""How every skip sentence ends (before a hint); the status table leaves it out."""
LONG_MARK_SECONDS: Final = 3600.0
"""A mark lasting longer than this says how to clear it (a renewed quota, say)."""


def utc_text(epoch: float) -> str:
    """``epoch`` as ``YYYY-MM-DD HH:MM:SS UTC``; one past the calendar's end as its last second.

    A mark an older version stored with ``auth_cooldown_seconds = 1e300`` (it had no
    bound) lies past any date Python can write: formatting it raised ``OverflowError``,
    so ``websearch providers`` failed with a traceback, and each search logged one,
    until the mark was reset. Such a mark is shown as lasting to the year 9999.
    """
    return utc_moment(epoch).strftime("%Y-%m-%d %H:%M:%S UTC")


_MARK_BRIEFS: Final = {
    "exhausted": "out of quota",
    "rate_limited": "rate limited",
    "unauthorized": "refused its credentials",
    "circuit_open": "cooling down",
}
"""A mark's kind in a few words, for :func:`brief_mark`."""
_DAY_SECONDS: Final = 86_400.0


def brief_mark(
    mark: ProviderMark, *, keyless: bool = False, now: float | None = None, dated: bool = False
) -> str:
    """A mark in a few words and its end, for a list that names many providers at once.

    The end is the whole date and time with ``dated``, as the mark's own sentence says
    it; without, a time of day when it is within a day of ``now`` (the cooldowns a list of
    engines holds), else the whole date: the shorter form is for a list that would not
    fit in what a mark keeps otherwise (:func:`~.engine_failures.engines_failed_text`).

    Example:
        >>> mark = ProviderMark(kind="rate_limited", until=1767225600.0, reason="429")
        >>> brief_mark(mark, now=1767225000.0)
        'rate limited until 00:00:00 UTC'
        >>> brief_mark(mark, now=1767225000.0, dated=True)
        'rate limited until 2026-01-01 00:00:00 UTC'
        >>> brief_mark(mark, now=1700000000.0)
        'rate limited until 2026-01-01 00:00:00 UTC'
    """
    what = _MARK_BRIEFS[mark.kind]
    if keyless and mark.kind == "unauthorized":
        what = "blocking automated requests"
    now = time.time() if now is None else now
    until = utc_text(mark.until)
    if not dated and 0 <= mark.until - now < _DAY_SECONDS:
        until = until.split(" ", 1)[1]
    return f"{what} until {until}"


def describe_mark(
    label: str, mark: ProviderMark, *, provider_id: str | None = None, keyless: bool = False
) -> str:
    """One sentence for a skipped provider: what happened and until when.

    Args:
        label: The provider's display name.
        mark: The mark that holds.
        provider_id: Its id; with it, a long mark (a month for spent credits) ends with the
            command that clears it, for whoever renewed the quota or fixed the cause.
        keyless: The provider needs no credentials (a credential-free engine): its 401 or
            403 is a block of automated requests, not a refused key.

    Example:
        >>> mark = ProviderMark(kind="exhausted", until=1767225600.0, reason="brave: credits"
        ...     " exhausted", set_at=1764547200.0)
        >>> describe_mark("Brave", mark, provider_id="brave")  # doctest: +NORMALIZE_WHITESPACE
        'Brave is out of quota until 2026-01-01 00:00:00 UTC (brave: credits exhausted);
        skipped without a request. `websearch providers reset brave` clears this mark.'
    """
    until = utc_text(mark.until)
    what = {
        "exhausted": "is out of quota",
        "rate_limited": "is rate limited",
        "unauthorized": "is blocking automated requests" if keyless else "refused its credentials",
        "circuit_open": "is cooling down after repeated failures",
    }[mark.kind]
    # A reason stored by an older version may still hold what an upstream wrote.
    reason = safe_message(mark.reason)
    text = f"{label} {what} until {until} ({reason}); {SKIPPED_SUFFIX}"
    lasts = mark.until - mark.set_at if mark.set_at else None
    if provider_id is not None and (
        mark.kind == "exhausted" or (lasts is not None and lasts > LONG_MARK_SECONDS)
    ):
        text += f" `websearch providers reset {provider_id}` clears this mark."
    return text
