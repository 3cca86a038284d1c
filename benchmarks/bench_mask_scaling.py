"""How the failure mask's time grows with the text: each size against the smallest.

A provider's error body, a log line or a crash report goes through the failure mask
(``Redactor.__call__``) before anyone sees it. A mask whose time grows faster than the
text does is a hang waiting for a big enough body: a run of 16,000 hex digits with no
group after it took 18 s (stop 55), where 1,000 took under 0.1 s. For each shape, the mask
of the same text grown 4x and 16x is timed with the smallest size's mask interleaved, and
each line prints the time per KiB against the smallest's (near 1.0x while the time grows
with the text) with the spread over rounds.

Usage: ``python benchmarks/bench_mask_scaling.py [--rounds 7]``
"""

import argparse
import statistics
import subprocess
import time
from collections.abc import Callable

from websearch_core.redaction import Redactor

KEY = "BSAq7w9XkP2mLr4TzY8vN1cQ"
SIZES = (4_096, 16_384, 65_536)


def hex_run(size: int) -> str:
    """Hex digits with nothing grouped after them (a hash list, a binary body as hex)."""
    return "ab" * (size // 2) + " zz"


def xxd_dump(size: int) -> str:
    """An ``xxd`` dump of a request body of about ``size`` characters, the key inside."""
    body = (b"some request body padding " * (size // 64 + 1))[: size // 4]
    half = len(body) // 2
    dumped = subprocess.run(
        ["xxd"], input=body[:half] + KEY.encode() + body[half:], capture_output=True, check=True
    )
    return dumped.stdout.decode()


def base64_run(size: int) -> str:
    """Letters and digits with no break (a token, a base64 blob)."""
    return ("QmFzZTY0IGJsb2IgcGFkZGluZw" * (size // 26 + 1))[:size]


SHAPES: dict[str, Callable[[int], str]] = {
    "hex run": hex_run,
    "xxd dump": xxd_dump,
    "base64 run": base64_run,
}


def _timed(mask: Redactor, text: str) -> float:
    started = time.perf_counter()
    mask(text)
    return time.perf_counter() - started


def main() -> None:
    """Print each shape's per-KiB time at each size against the smallest size's."""
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=7, help="interleaved rounds per size")
    rounds = options.parse_args().rounds
    mask = Redactor([KEY])
    smallest = SIZES[0]
    for shape, make in SHAPES.items():
        base_text = make(smallest)
        for size in SIZES[1:]:
            text = make(size)
            ratios = []
            for _ in range(rounds):
                base = _timed(mask, base_text) / len(base_text)
                grown = _timed(mask, text) / len(text)
                ratios.append(grown / base)
            print(
                f"{shape:10} {len(text):>7} chars vs {len(base_text):>6}: per KiB "
                f"{statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}]"
            )


if __name__ == "__main__":
    main()
