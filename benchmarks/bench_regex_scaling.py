"""How the time of the readers of untrusted text grows with it: each size against the smallest.

A query, an error body, a fetched feed and a parser's error message come from outside; a
pattern that reads a run again from each of its characters turns a big enough one into a
hang (stop 55: an unclosed quote in a 16,000-character query took 18 s to tokenize). For
each shape, the reader is timed on the text grown 4x and 16x with the smallest size's run
interleaved, and each line prints the time per KiB against the smallest's (near 1.0x while
the time grows with the text) with the spread over rounds.

Usage: ``python benchmarks/bench_regex_scaling.py [--rounds 7]``
"""

import argparse
import statistics
import time
from collections.abc import Callable

from websearch_core.connection_causes import protocol_fault
from websearch_core.content.documents import data_content
from websearch_core.filters.links import unlinked
from websearch_core.filters.query import tokenize
from websearch_core.providers._gemini_catalog import refuses_model

SIZES = (4_096, 16_384, 65_536)
_tokenize = tokenize.__wrapped__
"""The tokenizer under its cache of recent queries: each round reads its query again."""


def _unclosed_quote(size: int) -> None:
    _tokenize('"' + "a" * (size - 1))


def _unclosed_quote_words(size: int) -> None:
    _tokenize('"' + "a " * (size // 2))


def _dotted_term(size: int) -> None:
    _tokenize("-a" + "." * (size - 3) + "@")


def _models_run(size: int) -> None:
    refuses_model(400, "models/" * (size // 7))


def _unclosed_titles(size: int) -> None:
    data_content(b"<title>" * (size // 7), "application/rss+xml")


def _unclosed_cdata(size: int) -> None:
    body = b"<title>" + b"<![CDATA[" * ((size - 20) // 9) + b"</title>"
    data_content(body, "application/rss+xml")


def _blank_run(size: int) -> None:
    protocol_fault(ValueError("Bad status line" + " " * size + "x"))


_CUT = "https://cut.example/p"


def _spaces_then_url(size: int) -> None:
    unlinked(" " * (size - len(_CUT)) + _CUT, [_CUT], [])


def _spaces_then_link(size: int) -> None:
    unlinked(" " * (size - len(_CUT) - 5) + f"[a]({_CUT})", [_CUT], [])


def _cut_per_sentence(size: int) -> None:
    unlinked(f"Details are at {_CUT}. See {_CUT} for details. " * (size // 73), [_CUT], [])


def _cut_per_line(size: int) -> None:
    unlinked(f"Sources: {_CUT}\n- x ([a]({_CUT}))\n" * (size // 60), [_CUT], [])


SHAPES: dict[str, Callable[[int], None]] = {
    "query, unclosed quote": _unclosed_quote,
    'query, "a a a ...': _unclosed_quote_words,
    "query, -a.....@": _dotted_term,
    "gemini error, models/...": _models_run,
    "feed, <title> x N": _unclosed_titles,
    "feed title, <![CDATA[ x N": _unclosed_cdata,
    "parser error, blank run": _blank_run,
    "answer cut, spaces + URL": _spaces_then_url,
    "answer cut, spaces + link": _spaces_then_link,
    "answer cut, 2 per sentence": _cut_per_sentence,
    "answer cut, 2 per line": _cut_per_line,
}


def _timed(read: Callable[[int], None], size: int) -> float:
    started = time.perf_counter()
    read(size)
    return time.perf_counter() - started


def main() -> None:
    """Print each shape's per-KiB time at each size against the smallest size's."""
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=7, help="interleaved rounds per size")
    rounds = options.parse_args().rounds
    smallest = SIZES[0]
    for shape, read in SHAPES.items():
        read(smallest)  # imports and caches warmed outside the timed rounds
        for size in SIZES[1:]:
            ratios = []
            for _ in range(rounds):
                base = _timed(read, smallest) / smallest
                grown = _timed(read, size) / size
                ratios.append(grown / base)
            print(
                f"{shape:26} {size:>7} chars vs {smallest:>6}: per KiB "
                f"{statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}]"
            )


if __name__ == "__main__":
    main()
