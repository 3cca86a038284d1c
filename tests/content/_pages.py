"""The annotated article pages in ../shared/pages, and the benchmark's scoring."""

import gzip
import json
import os
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from websearch_core.content import decode_html

SHARED_PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "pages"
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class Page:
    key: str
    url: str
    html: str
    body: str


def load_pages() -> list[Page]:
    """Every annotated page; skipped locally without ../shared/pages, required in CI."""
    truth_file = SHARED_PAGES / "ground-truth.json"
    if not truth_file.is_file():
        if os.environ.get("CI"):
            raise FileNotFoundError(f"required pages missing in CI: {SHARED_PAGES}")
        pytest.skip(f"annotated pages not available: {SHARED_PAGES}")
    truth = json.loads(truth_file.read_text(encoding="utf-8"))
    pages = []
    for key, item in sorted(truth.items()):
        raw = gzip.decompress((SHARED_PAGES / "html" / f"{key}.html.gz").read_bytes())
        pages.append(Page(key, item["url"], decode_html(raw), item["articleBody"]))
    return pages


def load_page(key_prefix: str) -> Page:
    return next(page for page in load_pages() if page.key.startswith(key_prefix))


def _shingles(text: str) -> Counter[str]:
    tokens = _TOKEN.findall(text)
    return Counter(" ".join(tokens[i : i + 4]) for i in range(max(1, len(tokens) - 3)))


def precision_recall(truth: str, predicted: str) -> tuple[float, float]:
    """The benchmark's per-page score: shared 4-token shingles over predicted / expected."""
    expected, got = _shingles(truth), _shingles(predicted)
    tp = sum((expected & got).values())
    precision = tp / sum(got.values()) if got else 0.0
    recall = tp / sum(expected.values()) if expected else 0.0
    return precision, recall


def f1(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    """F1 from the page-averaged precision and recall, as the benchmark computes it."""
    precision = statistics.fmean(p for p, _ in pairs)
    recall = statistics.fmean(r for _, r in pairs)
    return 2 * precision * recall / (precision + recall), precision, recall
