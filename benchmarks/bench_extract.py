"""Main-content extraction quality and speed: ours next to trafilatura and readability-lxml.

Reads the annotated article pages in ``../shared/pages`` (outside the repository; see its
SOURCES.md) and scores each extractor on the same pages in the same run, as that benchmark
does: tokens are ``\\w+`` runs, a page's text and its annotated ``articleBody`` are compared as
multisets of 4-token shingles, precision and recall are averaged over pages and F1 is
computed from the two averages. The F1 spread is a bootstrap over pages (standard deviation
of F1 over resamples); the time spread is over repeated timed passes, and the time ratio is
the median of
per-pass ratios (robust to load from other processes).

Usage::

    python benchmarks/bench_extract.py [--pages DIR] [--repeat N] [--json]
"""

import argparse
import gzip
import json
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import lxml.html
import trafilatura
from readability import Document

from websearch_core.content import decode_html, extract_content

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PAGES = ROOT.parent / "shared" / "pages"
_TOKEN = re.compile(r"\w+")
_SHINGLE = 4

Extractor = Callable[[str, str], str]


def ours(html: str, url: str) -> str:
    return extract_content(html, url=url).text


def trafilatura_default(html: str, url: str) -> str:
    return trafilatura.extract(html, url=url) or ""


def readability_lxml(html: str, url: str) -> str:
    summary = Document(html, url=url).summary()
    return str(lxml.html.fromstring(summary).text_content())


BASELINE = "trafilatura (defaults)"
EXTRACTORS: dict[str, Extractor] = {
    "websearch_core": ours,
    "trafilatura (defaults)": trafilatura_default,
    "readability-lxml": readability_lxml,
}


def shingles(text: str) -> Counter[str]:
    tokens = _TOKEN.findall(text)
    count = max(1, len(tokens) - _SHINGLE + 1)
    return Counter(" ".join(tokens[i : i + _SHINGLE]) for i in range(count))


def precision_recall(truth: str, predicted: str) -> tuple[float, float]:
    expected, got = shingles(truth), shingles(predicted)
    tp = sum((expected & got).values())
    fp = sum((got - expected).values())
    fn = sum((expected - got).values())
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall


def f1(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    precision = statistics.fmean(p for p, _ in pairs)
    recall = statistics.fmean(r for _, r in pairs)
    score = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return score, precision, recall


def bootstrap_sd(pairs: list[tuple[float, float]], rounds: int = 1000) -> float:
    rng = random.Random(0)
    scores = [f1(rng.choices(pairs, k=len(pairs)))[0] for _ in range(rounds)]
    return statistics.stdev(scores)


def load_pages(folder: Path) -> list[tuple[str, str, str]]:
    truth = json.loads((folder / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for key, item in sorted(truth.items()):
        data = gzip.decompress((folder / "html" / f"{key}.html.gz").read_bytes())
        pages.append((item["url"], decode_html(data), item["articleBody"]))
    return pages


def run(pages: list[tuple[str, str, str]], repeat: int) -> list[dict[str, object]]:
    scores = {
        name: [precision_recall(body, extract(html, url)) for url, html, body in pages]
        for name, extract in EXTRACTORS.items()
    }
    # Timed passes interleave the extractors, so a load spike from another process on the
    # machine hits all of them alike instead of skewing one ratio.
    times: dict[str, list[float]] = {name: [] for name in EXTRACTORS}
    for _ in range(repeat):
        for name, extract in EXTRACTORS.items():
            start = time.perf_counter()
            for url, html, _body in pages:
                extract(html, url)
            times[name].append((time.perf_counter() - start) * 1000 / len(pages))
    base = times[BASELINE]
    rows: list[dict[str, object]] = []
    for name, pairs in scores.items():
        ratios = [mine / theirs for mine, theirs in zip(times[name], base, strict=True)]
        score, precision, recall = f1(pairs)
        rows.append(
            {
                "extractor": name,
                "f1": score,
                "f1_sd": bootstrap_sd(pairs),
                "precision": precision,
                "recall": recall,
                "ms_per_page": statistics.median(times[name]),
                "ms_min": min(times[name]),
                "ms_max": max(times[name]),
                "x_trafilatura": statistics.median(ratios),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=Path, default=DEFAULT_PAGES)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes per extractor")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    if not (args.pages / "ground-truth.json").is_file():
        print(f"no annotated pages at {args.pages} (need ground-truth.json)", file=sys.stderr)
        return 2
    pages = load_pages(args.pages)
    rows = run(pages, max(1, args.repeat))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{len(pages)} pages, {args.repeat} timed passes each")
    print(
        f"{'extractor':<24} {'F1':>6} {'±sd':>6} {'prec':>6} {'recall':>6} {'ms/page':>8} "
        f"{'min-max':>11} {'x trafilatura':>13}"
    )
    for r in rows:
        print(
            f"{r['extractor']:<24} {r['f1']:6.3f} {r['f1_sd']:6.3f} {r['precision']:6.3f} "
            f"{r['recall']:6.3f} {r['ms_per_page']:8.1f} "
            f"{r['ms_min']:5.1f}-{r['ms_max']:<5.1f} {r['x_trafilatura']:13.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
