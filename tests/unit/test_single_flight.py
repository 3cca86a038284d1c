"""One run of an async job per key at a time (:mod:`websearch_core.single_flight`)."""

import asyncio
import threading

import pytest

from websearch_core.single_flight import SingleFlight


class Job:
    """A job that counts its runs and finishes when the test lets it."""

    def __init__(self, outcome: str | Exception = "fresh") -> None:
        self.runs = 0
        self.release = asyncio.Event()
        self.outcome = outcome

    async def __call__(self) -> str:
        self.runs += 1
        await self.release.wait()
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return self.outcome


async def test_callers_of_one_key_share_one_run_and_other_keys_run_their_own() -> None:
    flight: SingleFlight[str] = SingleFlight()
    job, other = Job("a"), Job("b")
    calls = [flight.run("k", job), flight.run("k", job), flight.run("other", other)]
    tasks = [asyncio.create_task(call) for call in calls]
    await asyncio.sleep(0)
    job.release.set()
    other.release.set()
    assert await asyncio.gather(*tasks) == ["a", "a", "b"]
    assert (job.runs, other.runs) == (1, 1)
    # Once it is over, the next caller runs the job anew.
    assert await flight.run("k", job) == "a" and job.runs == 2


async def test_a_failure_is_raised_to_every_caller_of_that_run() -> None:
    flight: SingleFlight[str] = SingleFlight()
    job = Job(ValueError("refused"))
    tasks = [asyncio.create_task(flight.run("k", job)) for _ in range(3)]
    await asyncio.sleep(0)
    job.release.set()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    assert [str(o) for o in outcomes] == ["refused"] * 3 and job.runs == 1


@pytest.mark.parametrize(
    ("cancelled", "runs"),
    [("first", 2), ("waiter", 1)],
    ids=["a-cancelled-first-caller-hands-the-job-to-a-waiter", "a-cancelled-waiter-leaves-it"],
)
async def test_a_cancelled_caller_leaves_the_run_to_the_other(cancelled: str, runs: int) -> None:
    # The first caller's attempt timed out: its waiter must not inherit that cancellation,
    # and runs the job anew. A waiter cancelled leaves the first caller's run alone.
    flight: SingleFlight[str] = SingleFlight()
    job = Job()
    first = asyncio.create_task(flight.run("k", job))
    await asyncio.sleep(0)
    waiter = asyncio.create_task(flight.run("k", job))
    await asyncio.sleep(0)
    gone, other = (first, waiter) if cancelled == "first" else (waiter, first)
    gone.cancel()
    await asyncio.sleep(0)
    job.release.set()
    assert await other == "fresh" and job.runs == runs
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert gone.cancelled()


def test_each_event_loop_runs_its_own() -> None:
    # A future cannot be awaited from another loop (the sync bridge runs one per thread).
    flight: SingleFlight[str] = SingleFlight()
    runs: list[int] = []
    started = threading.Barrier(2)

    async def job() -> str:
        runs.append(1)
        await asyncio.to_thread(started.wait, 5)
        return "fresh"

    results: list[str] = []
    threads = [
        threading.Thread(target=lambda: results.append(asyncio.run(flight.run("k", job))))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert results == ["fresh", "fresh"] and len(runs) == 2
