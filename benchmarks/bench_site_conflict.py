"""What the kept-out check (``filters.site_conflicts``) costs a search that types ``-site:``.

Stop 51 (inputs52) added the refusal of a site both wanted and kept out to
``SearchParams``' validation and measured 13 us more per query holding ``-site:``. This
times, per call, in batches interleaved with a rotating order (so the machine's drift hits
every piece alike):

* **params**: ``SearchParams(query=...)``, the whole validation a search pays, for a query
  keeping one site out, one wanting a site and keeping out a word, and one doing both;
* **tokenize**: the query read once, which the ``site:`` refusals need anyway;
* **conflict**: ``site_conflict`` alone on those tokens, the kept-out check's own work.

Each call of the first two gets a query not seen before (a counter appended), since the
tokenizer keeps its last readings and a repeated query would time the cache.

Loopback-free, bounded loops, no pass/fail; the medians in microseconds with their
quartiles::

    python benchmarks/bench_site_conflict.py [--rounds 300] [--batch 100]
"""

import argparse
import gc
import itertools
import statistics
import time
from collections.abc import Callable, Iterator

from websearch_core.filters.query import tokenize
from websearch_core.filters.site_conflicts import site_conflict
from websearch_core.models import SearchParams

QUERIES = {
    "-site: alone": "python asyncio tutorial -site:pinterest.com",
    "site: and -term": "python asyncio site:docs.python.org -tutorial",
    "site: and -site:": "python asyncio site:python.org -site:wiki.python.org",
}
"""The three queries whose ``-`` sends ``SearchParams`` to the check (a ``site:`` alone,
with no ``-``, ``!`` or ``NOT``, skips it)."""


def _fresh(query: str) -> Iterator[str]:
    """``query`` with a new number after it on each ``next``: never a cached reading."""
    return (f"{query} v{n}" for n in itertools.count())


def _batch(function: Callable[[], object], size: int) -> Callable[[], object]:
    def run() -> None:
        for _ in range(size):
            function()

    return run


def _timed(functions: list[Callable[[], object]], rounds: int, size: int) -> list[list[float]]:
    """Per-call times in microseconds; each round runs every batch once, order rotating."""
    times: list[list[float]] = [[] for _ in functions]
    batches = [_batch(function, size) for function in functions]
    for index in range(rounds + 5):
        for step in range(len(batches)):
            which = (index + step) % len(batches)
            started = time.perf_counter()
            batches[which]()
            elapsed = time.perf_counter() - started
            if index >= 5:  # warm-up rounds
                times[which].append(elapsed / size * 1e6)
    return times


def _us(samples: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    return f"{median:7.2f} us [{q1:.2f}-{q3:.2f}]"


def main() -> None:
    """Time each piece for each query and print one line per piece."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--batch", type=int, default=100)
    args = parser.parse_args()
    names: list[str] = []
    functions: list[Callable[[], object]] = []
    for label, query in QUERIES.items():
        tokens = tokenize(query)
        names += [f"{label}: params", f"{label}: tokenize", f"{label}: conflict"]
        for_params, for_tokenize = _fresh(query), _fresh(query)
        functions += [
            lambda fresh=for_params: SearchParams(query=next(fresh)),
            lambda fresh=for_tokenize: tokenize(next(fresh)),
            lambda t=tokens: site_conflict(t, (), ()),
        ]
    gc.collect()
    for name, samples in zip(names, _timed(functions, args.rounds, args.batch), strict=True):
        print(f"{name:<28} {_us(samples)}")


if __name__ == "__main__":
    main()
