"""How much the HTML engines' parsers add to lxml's own parse, on the real captures.

For each engine's results capture in ``../shared/fixtures`` three things are timed on the
same decoded page (the ``str`` a provider gets from ``HttpResponse.text()``):

* **lxml**: lxml's HTML parse alone with the options ``parse_document`` uses
  (``lxml.etree.fromstring(page, HTMLParser(remove_comments=False, collect_ids=False))``),
  the floor any lxml-based parser pays, so the ratio is the cost of everything else (the
  plain ``lxml.html.document_fromstring(page)`` is 0-5% slower, which would flatter us);
* **ours**: the provider's ``parse_page`` (parse, select, unwrap, text, dates);
* **ddgs**: the same engine's extraction in the ``ddgs`` package
  (``extract_results`` + ``post_extract_results``), where ddgs has the engine and is
  installed (``pip install ddgs``; it is a benchmark-only dependency, never imported by
  the package). Without it that column is skipped with a note.

With ``--read``, each engine's read of a response is timed instead, two ways on the same
body, interleaved: from its text (``HttpResponse.text()``, then ``parse_page`` of that
text, as engines read before) and as the engines read it (``html.decoded_page``, then
``parse_page`` given the body's bytes too, which lxml parses instead of the text when the
text is exactly their decoding); the ratio is bytes / text.

The three run interleaved call by call, in a rotating order, so drift in the machine's
speed hits them alike. Each line gives the medians, the interquartile range of each, and
the ratio of ours to lxml and to ddgs (median of the per-round ratios, with its IQR).
Loopback-free, bounded loops, no pass/fail: targets are read off the ratios. The machine
is shared and noisy, so ``--repeat N`` runs every case N times in a row (one line each);
read a row off the median of its repeats and quote the spread::

    python benchmarks/bench_parsers.py [--rounds 400] [--repeat 3] [--engine duckduckgo] [--read]
"""

import argparse
import gc
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import lxml.etree

from websearch_core.html import decoded_page
from websearch_core.providers import bing, duckduckgo, ecosia, google, mojeek, startpage, yahoo
from websearch_core.transport import HttpResponse

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures"
WARMUP = 30
LXML_PARSER = lxml.etree.HTMLParser(remove_comments=False, collect_ids=False)


@dataclass(frozen=True)
class Case:
    """One engine and capture: our parser and, when ddgs has the engine, its class name."""

    name: str
    capture: str
    ours: Callable[..., object]
    """``parse_page(page, *, source=None)``."""
    ddgs_engine: str | None


CASES = (
    Case(
        "duckduckgo",
        "duckduckgo/html_results_eino_2025.html",
        duckduckgo.parse_page,
        "duckduckgo.Duckduckgo",
    ),
    Case("duckduckgo-lite", "duckduckgo/lite_results_zeta_2026.html", duckduckgo.parse_page, None),
    Case("bing", "bing/serp_javascript_tutorial_http_2026.html", bing.parse_page, "bing.Bing"),
    Case("yahoo", "yahoo/serp_javascript_tutorial_2026.html", yahoo.parse_page, "yahoo.Yahoo"),
    Case(
        "startpage",
        "startpage/serp_javascript_tutorial_http_2026.html",
        startpage.parse_page,
        "startpage.Startpage",
    ),
    Case(
        "google", "google/serp_ai_tools_pt-BR_rendered_2025-03.html", google.parse_page, None
    ),  # ddgs's Google reads the no-JavaScript layout: nothing to extract on a rendered page
    Case("ecosia", "ecosia/serp_javascript_tutorial_2026.html", ecosia.parse_page, None),
    Case("mojeek", "mojeek/serp_javascript_tutorial_2026.html", mojeek.parse_page, "mojeek.Mojeek"),
)


def _ddgs_extractor(engine: str | None) -> Callable[[str], object] | None:
    """ddgs's extraction for ``module.Class`` under ``ddgs.engines``, or ``None``."""
    if engine is None:
        return None
    try:
        import importlib

        module_name, class_name = engine.split(".")
        module = importlib.import_module(f"ddgs.engines.{module_name}")
    except ImportError:
        return None
    instance = getattr(module, class_name)()

    def extract(page: str) -> object:
        return instance.post_extract_results(instance.extract_results(page))

    return extract


def _quartiles(samples: list[float]) -> tuple[float, float, float]:
    q1, median, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    return q1, median, q3


def _interleaved(functions: list[Callable[[], object]], rounds: int) -> list[list[float]]:
    """Per-function call times; each round calls every function once, order rotating."""
    times: list[list[float]] = [[] for _ in functions]
    count = len(functions)
    for index in range(WARMUP + rounds):
        for step in range(count):
            which = (index + step) % count
            started = time.perf_counter()
            functions[which]()
            elapsed = time.perf_counter() - started
            if index >= WARMUP:
                times[which].append(elapsed)
    return times


def _ms(quartiles: tuple[float, float, float]) -> str:
    q1, median, q3 = quartiles
    return f"{median * 1e3:6.3f} ms [{q1 * 1e3:.3f}-{q3 * 1e3:.3f}]"


def _ratio(ours: list[float], base: list[float]) -> str:
    q1, median, q3 = _quartiles([o / b for o, b in zip(ours, base, strict=True)])
    return f"{median:5.2f}x [{q1:.2f}-{q3:.2f}]"


def bench(case: Case, rounds: int, *, with_ddgs: bool) -> None:
    """Time one case and print its line."""
    path = FIXTURES / case.capture
    if not path.is_file():
        print(f"{case.name:<16} skipped: {path} not available")
        return
    page = path.read_bytes().decode("utf-8")
    ddgs = _ddgs_extractor(case.ddgs_engine) if with_ddgs else None
    functions: list[Callable[[], object]] = [
        lambda: lxml.etree.fromstring(page, LXML_PARSER),
        lambda: case.ours(page),
    ]
    if ddgs is not None:
        functions.append(lambda: ddgs(page))
    gc.collect()
    times = _interleaved(functions, rounds)
    line = (
        f"{case.name:<16} lxml {_ms(_quartiles(times[0]))}  ours {_ms(_quartiles(times[1]))}"
        f"  ours/lxml {_ratio(times[1], times[0])}"
    )
    if ddgs is not None:
        line += f"  ddgs {_ms(_quartiles(times[2]))}  ours/ddgs {_ratio(times[1], times[2])}"
    elif case.ddgs_engine is not None and with_ddgs:
        line += "  ddgs: not installed (pip install ddgs)"
    print(line)


def bench_read(case: Case, rounds: int) -> None:
    """Time one engine's read of a response, from its text and from its bytes; print it."""
    path = FIXTURES / case.capture
    if not path.is_file():
        print(f"{case.name:<16} skipped: {path} not available")
        return
    response = HttpResponse(status=200, body=path.read_bytes())

    # Both written alike (the text held in a local, then the call): written as
    # ``case.ours(response.text())`` instead, the text side timed ~5% apart on small pages.
    def from_text() -> object:
        text = response.text()
        return case.ours(text)

    def from_bytes() -> object:
        text, source = decoded_page(response.body)
        return case.ours(text, source=source)

    gc.collect()
    times = _interleaved([from_text, from_bytes], rounds)
    print(
        f"{case.name:<16} text {_ms(_quartiles(times[0]))}"
        f"  bytes {_ms(_quartiles(times[1]))}  bytes/text {_ratio(times[1], times[0])}"
    )


def main() -> None:
    """Parse the options and run every (or one) case."""
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--rounds", type=int, default=400, help="timed rounds per case")
    options.add_argument("--engine", action="append", help="only this case (repeatable)")
    options.add_argument("--repeat", type=int, default=1, help="runs of each case, in a row")
    options.add_argument("--no-ddgs", action="store_true", help="skip the ddgs column")
    options.add_argument(
        "--read", action="store_true", help="time each engine's read of a response instead"
    )
    args = options.parse_args()
    print(
        f"python {platform.python_version()} lxml {'.'.join(map(str, lxml.etree.LXML_VERSION))}"
        f" libxml2 {'.'.join(map(str, lxml.etree.LIBXML_VERSION))}, {args.rounds} rounds;"
        " medians [IQR], ratios are medians of per-round ratios [IQR]"
    )
    try:
        import ddgs  # noqa: F401
    except ImportError:
        print("ddgs not installed: the ddgs column is skipped (pip install ddgs)")
    for case in CASES:
        if args.engine and case.name not in args.engine:
            continue
        for _ in range(max(1, args.repeat)):
            if args.read:
                bench_read(case, args.rounds)
            else:
                bench(case, args.rounds, with_ddgs=not args.no_ddgs)


if __name__ == "__main__":
    main()
