"""Whether a change moved a benchmark's ratio: the same benchmark on two commits, run by run.

A benchmark's ratio moves 0.02-0.03x from one run to the next on a shared 2-core machine,
as much as a change of 10-15 us a search, and a change measured inside one process against
a patched copy of itself can read several times larger than in the benchmark (see the
ninth call-path round in ``RESULTS.md``). This runs the benchmark itself, each run in a
fresh interpreter, alternately on an export of ``--base`` and on the working tree (the
order flipped every pair), and prints every pair's ratios, then the medians and their
difference per line of output::

    python benchmarks/ab_compare.py --base 036b454 --pairs 6 -- bench_overhead.py call --rounds 800
    python benchmarks/ab_compare.py --base HEAD~3 -- bench_parsers.py --engine duckduckgo --no-ddgs

Every line a benchmark prints with a ratio (``ratio 1.75x``, ``ours/lxml 1.60x``) is
compared, keyed by the words before its first figure. The export gets a link to the same
``../shared`` as the working tree, so both read the same captures.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
CHECKOUT = BENCHMARKS.parent
_RATIO = re.compile(r"^([^\d]*).*?(?:ratio|ours/lxml)\s+([\d.]+)x")
"""A line with a ratio; its label is what comes before its first figure."""
_FILLER = {"floor", "lxml"}


def export_revision(revision: str, into: Path) -> Path:
    """``revision`` of this repository written out under ``into``, beside a ``shared`` link."""
    tree = into / "main"
    tree.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(CHECKOUT), "archive", revision], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    (into / "shared").symlink_to((CHECKOUT.parent / "shared").resolve())
    return tree


def _ratios(tree: Path, command: list[str]) -> dict[str, list[float]]:
    """One run of the benchmark in ``tree``: its ratios by the first word of each line."""
    script, *arguments = command
    output = subprocess.run(
        [sys.executable, str(tree / "benchmarks" / script), *arguments],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found: dict[str, list[float]] = {}
    for line in output.splitlines():
        match = _RATIO.match(line)
        if match:
            label = " ".join(word for word in match[1].split() if word not in _FILLER)
            found.setdefault(label, []).append(float(match[2]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--pairs", type=int, default=6)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- script.py [args]")
    args = parser.parse_args()
    command = [part for part in args.command if part != "--"]
    if not command:
        parser.error("name the benchmark to run after --")
    runs: dict[str, dict[str, list[float]]] = {"base": {}, "tree": {}}
    with tempfile.TemporaryDirectory() as directory:
        trees = {"base": export_revision(args.base, Path(directory)), "tree": CHECKOUT}
        for index in range(args.pairs):
            order = ["base", "tree"] if index % 2 == 0 else ["tree", "base"]
            for side in order:
                for key, values in _ratios(trees[side], command).items():
                    runs[side].setdefault(key, []).extend(values)
            pair = "   ".join(
                f"{key} {runs['base'][key][-1]:.2f} -> {runs['tree'][key][-1]:.2f}x"
                for key in runs["base"]
                if key in runs["tree"]
            )
            print(f"pair {index + 1}: {pair}", flush=True)
    for key, base in runs["base"].items():
        tree = runs["tree"].get(key)
        if not tree:
            continue
        before, after = statistics.median(base), statistics.median(tree)
        print(
            f"{key:<12} {args.base}: median {before:.3f}x [{min(base):.2f}-{max(base):.2f}]"
            f"   working tree: median {after:.3f}x [{min(tree):.2f}-{max(tree):.2f}]"
            f"   change {after - before:+.3f}x"
        )


if __name__ == "__main__":
    main()
