"""Whether the HTML engines' parsers read every capture as they did on another commit.

A speed change to a parser must not change what it returns. This runs every engine's
``parse_page`` over every capture in its ``../shared/fixtures/<engine>`` directory (text
and, where the body decodes cleanly, its bytes too), on an export of ``--base`` and on the
working tree, each in a fresh interpreter, and compares the two outputs capture by
capture: sources field by field, the next-page form, or the error's type and message. A
result's age is compared net of the clock reading of its run, so the seconds between the
two runs do not count::

    python benchmarks/parsers_equal.py --base 56d33cc

It prints one line per engine and every capture that differs, and exits 1 if any does.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from ab_compare import export_revision

BENCHMARKS = Path(__file__).resolve().parent
CHECKOUT = BENCHMARKS.parent
ENGINES = ("duckduckgo", "bing", "yahoo", "startpage", "google", "ecosia", "mojeek")

_DUMP = r"""
import importlib, json, sys, time
from pathlib import Path
from websearch_core.html import decoded_page

def plain(value, clock):
    if hasattr(value, "model_dump"):
        fields = value.model_dump()
        if fields.get("age_seconds") is not None:
            fields["age_seconds"] -= clock  # net of this run's clock
        return fields
    if hasattr(value, "_fields"):  # a named tuple, or a page that reads as one
        return {name: plain(getattr(value, name), clock) for name in value._fields}
    if isinstance(value, (list, tuple)):
        return [plain(item, clock) for item in value]
    if hasattr(value, "__dataclass_fields__"):
        return {name: plain(getattr(value, name), clock) for name in value.__dataclass_fields__}
    if hasattr(value, "items"):
        return {str(key): plain(item, clock) for key, item in value.items()}
    return value

fixtures = Path(sys.argv[1])
out = {}
for engine in sys.argv[2:]:
    module = importlib.import_module(f"websearch_core.providers.{engine}")
    for path in sorted((fixtures / engine).glob("*.htm*")):
        body = path.read_bytes()
        text, source = decoded_page(body)
        for how, kwargs in (("text", {}), ("bytes", {"source": source})):
            if how == "bytes" and source is None:
                continue
            clock = int(time.time())
            try:
                result = plain(module.parse_page(text, **kwargs), clock)
            except Exception as error:  # the error is the output
                result = {"error": type(error).__name__, "message": str(error)}
            out[f"{engine}/{path.name} ({how})"] = result
print(json.dumps(out, sort_keys=True, default=repr))
"""


def _outputs(tree: Path, fixtures: Path, engines: list[str]) -> dict[str, object]:
    output = subprocess.run(
        [sys.executable, "-c", _DUMP, str(fixtures), *engines],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found: dict[str, object] = json.loads(output)
    return found


def _same(old: object, new: object) -> bool:
    """Equal, ages within a second (a run may read the clock either side of a tick)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return old.keys() == new.keys() and all(
            abs(old[k] - new[k]) <= 1
            if k == "age_seconds" and isinstance(old[k], int) and isinstance(new[k], int)
            else _same(old[k], new[k])
            for k in old
        )
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(map(_same, old, new))
    return old == new


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--engine", action="append", choices=ENGINES, help="only this engine")
    args = parser.parse_args()
    engines = args.engine or list(ENGINES)
    fixtures = (CHECKOUT.parent / "shared" / "fixtures").resolve()
    with tempfile.TemporaryDirectory() as directory:
        base = _outputs(export_revision(args.base, Path(directory)), fixtures, engines)
    tree = _outputs(CHECKOUT, fixtures, engines)
    differing = 0
    for engine in engines:
        keys = sorted(key for key in base.keys() | tree.keys() if key.startswith(f"{engine}/"))
        bad = [key for key in keys if not _same(base.get(key), tree.get(key))]
        differing += len(bad)
        print(f"{engine:<12} {len(keys) - len(bad)}/{len(keys)} readings the same")
        for key in bad:
            print(f"  differs: {key}")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
