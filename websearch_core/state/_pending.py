"""Usage counts held in memory until the SQLite store writes them in one transaction.

Why: a search with no budget on its provider needs nothing from its usage counter before
the request goes out (nothing can refuse it but a cooldown mark, which is read), so its
increment is a statistic. Writing it then and there costs a write transaction on the
event loop's thread per search, and 200 concurrent searches queue 200 of them. Counted
here instead, they reach the file as one transaction per flush interval.

This module only keeps the numbers, thread-safe (the store calls it from the event loop's
thread and from its own); when and how they are written is the store's business. Readers
that add the pending counts to what they read from the file pass the :attr:`generation`
they started at: a batch taken for writing, or written, since then may or may not be in
what they read, so they must read again where no batch can be under way: the store's
thread, the only one that takes, writes and settles batches while the store is open.
"""

import threading
import time
from dataclasses import dataclass, field

from ._count_times import CountTimes

__all__ = ["Pending", "PendingUsage"]

_Key = tuple[str, str]  # (provider, period)
Batch = dict[_Key, "Pending"]


@dataclass(slots=True)
class Pending:
    """What one usage counter owes the file.

    Attributes:
        count: Increments not yet written (less those given back before they were).
        expires_at: The counter's expiry as the latest increment gave it (the latest
            call's value wins, as in ``increment_usage``).
        counted_at: When the increments were made, in a bounded space, exact while few
            (:class:`._count_times.CountTimes`; fewer than ``count`` when some came
            from where no time was kept: an older journal). A reset of the provider in
            the file since then drops the increments counted before it when they are
            written late (a journal merged after it).
    """

    count: int
    expires_at: float
    counted_at: CountTimes = field(default_factory=CountTimes)


class PendingUsage:
    """Per (provider, period) counts waiting for the next flush, and whether one is due."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)  # notified when a batch ends
        self._counts: Batch = {}
        self._armed = False  # a flush is scheduled and will see everything added since
        self._generation = 0  # moves when a batch is taken and when it ends
        self._in_flight = 0  # batches taken and neither written nor put back yet

    @property
    def generation(self) -> int:
        """Moves when a batch is taken and when it ends: what a reader starts from."""
        return self._generation

    def add(
        self,
        provider: str,
        windows: tuple[tuple[str, float], ...],
        generation: int | None,
        wall_now: float | None = None,
    ) -> tuple[bool, list[int]] | None:
        """Count one in each ``(period, expires_at)`` window of ``provider``.

        Args:
            provider: The provider id.
            windows: The windows' periods and expiries.
            generation: :attr:`generation` before the caller read the file's counts;
                ``None`` where no batch can be under way (the thread that writes them).
            wall_now: The wall-clock time of the count (see :attr:`Pending.counted_at`;
                ``None``: now).

        Returns:
            ``None`` (nothing counted) when a batch was taken or ended since ``generation``,
            or is being written: the file's counts the caller read may or may not hold it.
            Else whether the caller must schedule a flush (none is scheduled), and each
            window's pending count after this increment, in ``windows`` order.
        """
        at = time.time() if wall_now is None else wall_now
        with self._lock:
            if not self._agrees(generation):
                return None
            counts: list[int] = []
            for period, expires_at in windows:
                entry = self._counts.get((provider, period))
                if entry is None:
                    entry = self._counts[(provider, period)] = Pending(0, expires_at)
                entry.count += 1
                entry.expires_at = expires_at
                entry.counted_at.add(at)
                counts.append(entry.count)
            arm = not self._armed
            self._armed = True
        return arm, counts

    def count(
        self, provider: str, period: str, wall_now: float, generation: int | None
    ) -> int | None:
        """One counter's pending count (0 when none or expired); ``None`` as for :meth:`add`."""
        with self._lock:
            if not self._agrees(generation):
                return None
            entry = self._counts.get((provider, period))
            return 0 if entry is None or entry.expires_at <= wall_now else entry.count

    def _agrees(self, generation: int | None) -> bool:
        # Under the lock: no batch was taken or ended since ``generation``, none is being written.
        if generation is None:
            return True
        return generation == self._generation and not self._in_flight

    def give_back(self, provider: str, periods: list[str]) -> bool:
        """Take one back from each period's pending count, if every one has one.

        Returns:
            Whether it did (else nothing changed, and the count is the file's to release).
        """
        with self._lock:
            entries = [self._counts.get((provider, period)) for period in periods]
            found = [entry for entry in entries if entry is not None and entry.count > 0]
            if len(found) != len(periods):
                return False
            for entry in found:
                entry.count -= 1
                entry.counted_at.give_back()  # the latest count is the one given back
            return True

    def disarm(self) -> None:
        """The scheduled flush is starting: the next :meth:`add` must schedule another."""
        with self._lock:
            self._armed = False

    def take(self, provider: str | None = None) -> Batch:
        """Everything pending (or one provider's), to be written; call :meth:`settle` after."""
        with self._lock:
            if provider is None:
                taken, self._counts = self._counts, {}
            else:
                taken = {k: v for k, v in self._counts.items() if k[0] == provider}
                for key in taken:
                    del self._counts[key]
            self._generation += 1
            self._in_flight += 1
        return taken

    def settle(self) -> None:
        """The batch :meth:`take` returned is in the file (or was empty).

        A new generation: a reader that started while the batch was being written may have
        read the file before its commit, so what it read may or may not hold the batch.
        """
        with self._lock:
            self._in_flight -= 1
            self._generation += 1
            self._idle.notify_all()

    def restore(self, batch: Batch) -> bool:
        """Put back a batch whose write failed, merged with what arrived meanwhile.

        Returns:
            Whether the caller must schedule a flush (something is pending, none scheduled).
        """
        with self._lock:
            self._in_flight -= 1
            self._generation += 1  # as in settle: readers of the meantime read again
            self._idle.notify_all()
            for key, entry in batch.items():
                current = self._counts.get(key)
                if current is None:
                    self._counts[key] = Pending(
                        entry.count, entry.expires_at, entry.counted_at.copy()
                    )
                else:  # the newer increment's expiry stands
                    current.count += entry.count
                    since = current.counted_at
                    current.counted_at = entry.counted_at.copy()  # they came first
                    current.counted_at.extend(since)
            arm = bool(self._counts) and not self._armed
            self._armed = self._armed or arm
        return arm

    def wait_idle(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds until no batch is being written; whether none is.

        For the exit's flush: a batch taken by the store's thread is in neither memory nor
        the file until it commits, and a process that ended then lost it. Waited for, it
        is either in the file or put back here to be taken.
        """
        with self._idle:
            return self._idle.wait_for(lambda: not self._in_flight, max(timeout, 0.0))

    def request_flush(self) -> bool:
        """Something else waits for the next flush (a cache entry): whether to schedule one.

        One flush writes everything pending, so whatever waits for it shares this flag:
        a second timer would only find the first one's work done.

        Returns:
            Whether no flush was scheduled (the caller schedules it; now one is).
        """
        with self._lock:
            arm = not self._armed
            self._armed = True
        return arm

    def rearm(self) -> bool:
        """A flush failed before taking its batch: whether the caller must schedule another.

        Returns:
            Whether something is pending and no flush is scheduled (now one is).
        """
        with self._lock:
            arm = bool(self._counts) and not self._armed
            self._armed = self._armed or arm
        return arm

    def total(self) -> int:
        """Every count pending, for the one log line that says some were never written."""
        with self._lock:
            return sum(entry.count for entry in self._counts.values())

    def holds_any(self) -> bool:
        """Whether anything at all is pending."""
        with self._lock:
            return bool(self._counts)

    def holds(self, provider: str) -> bool:
        """Whether anything of ``provider`` is pending."""
        with self._lock:
            return any(key[0] == provider for key in self._counts)
