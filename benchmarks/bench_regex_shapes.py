"""Every compiled pattern in ``websearch_core`` driven with inputs built to its own shape.

``bench_regex_scaling.py`` times the shapes stop 55 found by hand; this one finds them. It
gathers every compiled pattern the package's modules hold (module and class attributes, and
the tuples, dicts and records inside them), reads each pattern's parse tree, and for every
unbounded repeat builds the texts a backtracking engine reads worst: the text that leads up
to the repeat, then a long run of what the repeat accepts with whatever should close it
missing, the lead and one pump repeated as a whole, and the lead alone repeated (an opener
such as ``<title>`` many times). Each text is read the way a pattern reads the most,
``finditer`` from every position, at three sizes, and the time per KiB at the larger sizes
is set against the smallest's: about 1.0x while the time grows with the text, about 4x and
16x when it grows with the square of it.

A first pass reads every text once per size; a pattern whose worst text looks to grow is
timed again over interleaved rounds, and only that reading decides. Each line names a
pattern, its worst text's shape, the per-KiB ratios at 4x and 16x the smallest size (each
size's quickest reading), and ``flat``, ``bound`` (it grows, on text its callers never
give it: :data:`BOUNDED`) or ``GROWS``. A pattern its callers only ``match`` is judged by
its reading from the text's start (:data:`FROM_ITS_START`). The exit status is 1 while a
pattern grows.

Usage: ``python benchmarks/bench_regex_shapes.py [--rounds 5] [--only NAME] [--all]``
(``--all`` prints the flat patterns too; by default only the summary and the growing ones).
"""

import argparse
import dataclasses
import importlib
import itertools
import pkgutil
import re
import sys
import time
from collections.abc import Iterator
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

import websearch_core

SIZES = (4_096, 16_384, 65_536)
GROWTH = 3.0
"""A per-KiB ratio at 16x the smallest size above this is read as growth (linear: ~1)."""
NOISE = 0.002
"""Seconds: a text read this fast at the largest size is too quick to time (noise)."""
FROM_ITS_START = {
    "content.decode._META_CHARSET": "match, once after each <meta tag's opening",
    "content.decode._XML_ENCODING": "match",
    "content.fetch._XHTML_ROOT": "match",
    "content.markup_guard._WALK": "match",
    "dates._ALL_FINAL": "fullmatch",
    "dates._NO_DAY": "fullmatch",
    "filters.links._AND_GOES_ON": "match, on the 200 characters after a cut URL",
    "filters.links._AND_ELSEWHERE": "match, on the 200 characters after a cut URL",
    "filters.links._CONNECTOR_AFTER": "match, on the 200 characters after a cut URL",
    "filters.links._FINAL_VERB": "match, on the 200 characters after a cut URL",
    "filters.links._FOR_MORE": "match, on the 200 characters after a cut URL",
    "filters.links._ITEM_MARKER": "fullmatch, from the start of a cut URL's line",
    "filters.links._ON_THE_URL": "match, on the 200 characters after a cut URL",
    "filters.links._URL_LINE": "match, at the start of the line after a label",
    "filters.links_wide._AFTER": "match, on the 400 characters after a cut URL",
    "filters.links_wide._LISTED": "match, after the mark that follows a cut URL",
    "providers._scraper._TAG_DOT_CLASS": "fullmatch, on a provider's own selector",
    "sanitize._PLAIN_URLS": "fullmatch",
    "sent_secret._ASSIGNMENT": "match",
    "sent_secret._WHOLE_STAND_IN": "fullmatch",
}
"""Patterns their callers only ``match`` or ``fullmatch`` (read at each call site): their
verdict is the reading from the text's start, where ``finditer``'s restarts never happen."""
BOUNDED = {
    "filters.links._CLAUSE_JOIN": "search over the 400 characters handed before a cut URL",
    "content.documents._CDATA": "sub up to the text's last ]]>: every opening has a close",
    "filters.links._CONNECTOR_BEFORE": "search over the 200 characters before a cut URL",
    "filters.links._POINTER": "search over the 200 characters before a cut URL",
    "filters.links._SUBJECT_JOIN": "finditer over a subject of at most 81 characters",
    "providers._yahoo_parse._DATE_SUFFIX": "a span's text, its whitespace runs collapsed",
    "settings._VARIABLE": "the user's own path setting, no text from outside",
}
"""Patterns that grow on text their callers never give them, and what bounds the text."""
CHECKED = 4
"""At most this many of a pattern's worst-looking texts are timed again over rounds."""
SLOW = 0.25
"""Seconds: a text this slow to read is not grown further (it would take minutes)."""
ALPHABET = (
    "aZ09 \t\n\r.,;:!?-_/\\\"'`()[]{}<>=&%#@+*$|~^\x00\x1b\x7f\x85\xa0\xb7é\u2026\u201c\u202a\u2400"
)
"""The characters a class is sampled from first: each kind of character a body may hold."""
CANDIDATES = ALPHABET + "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in ALPHABET)
"""Then the rest of printable ASCII, so a class such as ``[xX]`` still gets a sample."""
REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
WIDE = 256
"""A repeat allowing more than this many copies is driven; a smaller bound is a constant."""
VARIANTS = 4
"""At most this many leads are kept at each step, so alternations do not multiply."""


@dataclasses.dataclass(frozen=True)
class Found:
    """One compiled pattern and the first place it was found under."""

    name: str
    pattern: re.Pattern[Any]


def _gather(where: str, value: object, found: dict[tuple[object, int], Found], depth: int) -> None:
    if isinstance(value, re.Pattern):
        found.setdefault((value.pattern, value.flags), Found(where, value))
        return
    if depth > 3:
        return
    if isinstance(value, tuple | list | frozenset | set):
        for index, item in enumerate(value):
            _gather(f"{where}[{index}]", item, found, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _gather(f"{where}[{key!r}]", item, found, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            _gather(f"{where}.{field.name}", getattr(value, field.name, None), found, depth + 1)


def gather() -> list[Found]:
    """Every distinct compiled pattern the package's modules hold, by its first name."""
    found: dict[tuple[object, int], Found] = {}
    for module_info in pkgutil.walk_packages(websearch_core.__path__, "websearch_core."):
        if module_info.name.endswith("__main__"):
            continue  # running it would start the command
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            where = f"{module_info.name.removeprefix('websearch_core.')}.{name}"
            if isinstance(value, type) and value.__module__ == module.__name__:
                for attribute, item in vars(value).items():
                    _gather(f"{where}.{attribute}", item, found, 1)
            else:
                _gather(where, value, found, 0)
    return list(found.values())


def _inside(op: Any, value: Any) -> list[Any]:
    """The sequences inside one item that are read from where the item starts."""
    if op in REPEATS:
        return [value[2]]
    if op is sre.SUBPATTERN:
        return [value[3]]
    if op is sre.ATOMIC_GROUP:
        return [value]
    if op is sre.BRANCH:
        return list(value[1])
    if op in (sre.ASSERT, sre.ASSERT_NOT) and value[0] == 1:
        return [value[1]]  # a lookahead reads on from here; a lookbehind reads back
    if op is sre.GROUPREF_EXISTS:
        return [branch for branch in value[1:] if branch]
    return []


class Shapes:
    """The texts that drive one pattern's repeats, built from its parse tree."""

    def __init__(self, pattern: re.Pattern[Any]) -> None:
        """Parse the pattern the way ``re`` does, keeping its flags for the samples."""
        source = pattern.pattern
        self._bytes = isinstance(source, bytes)
        text = source.decode("latin-1") if self._bytes else source
        flags = pattern.flags & ~re.UNICODE if self._bytes else pattern.flags
        self._tree = sre_parse.parse(text, flags)
        self._flags = flags

    def _accepts(self, item: tuple[Any, Any]) -> list[str]:
        """The alphabet's characters one single-character item matches, one of each kind."""
        sub = sre_parse.SubPattern(self._tree.state, [item])
        compiled = re._compiler.compile(sub, self._flags)  # type: ignore[attr-defined]
        accepted = [c for c in CANDIDATES if compiled.fullmatch(c)]
        kinds: dict[str, str] = {}
        for char in accepted:
            kind = (
                "word"
                if char.isalnum()
                else "space"
                if char.isspace()
                else "print"
                if char.isprintable()
                else "other"
            )
            kinds.setdefault(kind, char)
        return list(kinds.values())

    def samples(self, items: Any) -> list[str]:
        """A few short texts the sequence matches (the leads to a repeat)."""
        texts = [""]
        for item in items:
            texts = [a + b for a, b in itertools.product(texts, self._item(item))][:VARIANTS]
        return texts

    def _item(self, item: tuple[Any, Any]) -> list[str]:
        op, value = item
        if op is sre.LITERAL:
            return [chr(value)]
        if op in (sre.NOT_LITERAL, sre.IN, sre.ANY):
            return self._accepts(item)[:2] or [""]
        if op in REPEATS:
            low, _, body = value
            bodies = self.samples(body)
            return [b * low for b in bodies] + ([bodies[0]] if low == 0 else [])
        if op is sre.SUBPATTERN:
            return self.samples(value[3])
        if op is sre.ATOMIC_GROUP:
            return self.samples(value)
        if op is sre.BRANCH:
            return [t for alt in value[1] for t in self.samples(alt)][:VARIANTS]
        if op is sre.GROUPREF_EXISTS:
            return self.samples(value[1]) + (self.samples(value[2]) if value[2] else [""])
        return [""]  # anchors, lookarounds, group references: no text of their own

    def pumps(self, body: Any) -> list[str]:
        """The runs one copy of a repeat's body reads: one character of each kind it takes."""
        if len(body) == 1 and body[0][0] in (sre.LITERAL, sre.NOT_LITERAL, sre.IN, sre.ANY):
            return self._accepts(body[0])
        return [t for t in self.samples(body) if t][:3]

    def drives(
        self, items: Any | None = None, leads: list[str] | None = None
    ) -> Iterator[tuple[str, str]]:
        """Each wide repeat's leads and pumps, the repeats inside groups and lookaheads too."""
        items = self._tree if items is None else items
        leads = [""] if leads is None else leads
        for item in items:
            op, value = item
            if op in REPEATS and value[1] > WIDE:
                yield from itertools.product(leads, self.pumps(value[2]))
            for inner in _inside(op, value):
                yield from self.drives(inner, leads)
            leads = [a + b for a, b in itertools.product(leads, self._item(item))][:VARIANTS]

    def texts(self, size: int) -> dict[str, str | bytes]:
        """Every driving text at about ``size`` characters, keyed by its shape."""
        out: dict[str, str | bytes] = {}
        for lead, pump in self.drives():
            forms = {
                f"{lead!r} + {pump!r} x N": lead + pump * max(1, (size - len(lead)) // len(pump)),
                f"({lead!r} + {pump!r}) x N": (lead + pump) * max(1, size // len(lead + pump)),
            }
            if lead:
                forms[f"{lead!r} x N"] = lead * max(1, size // len(lead))
            for shape, text in forms.items():
                out.setdefault(shape, text.encode("utf-8") if self._bytes else text)
        return out


def _read(pattern: re.Pattern[Any], text: str | bytes, *, once: bool = False) -> float:
    """The processor time one ``finditer`` over the text takes, in seconds.

    With ``once``, the text is read by ``fullmatch`` instead: from its start only, as a
    pattern used by ``match`` or ``fullmatch`` reads it. The thread's own processor time,
    not the wall clock: on a shared machine a read of 64k characters is paused by other
    work far more often than one of 4k is, which read as growth of 2-4x on patterns that
    plainly scan once (stop 56, load 7-13).
    """
    started = time.thread_time()
    if once:
        pattern.fullmatch(text)
    else:
        for _ in pattern.finditer(text):
            pass
    return time.thread_time() - started


def _ratios(
    pattern: re.Pattern[Any], shape: str, shapes: Shapes, rounds: int, *, once: bool = False
) -> list[float]:
    """Per-KiB time at each larger size over the smallest's, quickest reading of each.

    The sizes are read interleaved, and each one's quickest reading over the rounds is
    kept: on a shared machine a slow reading is the load, never the pattern, while a
    pattern that reads its text again from each character is slow every time. A reading
    over ``SLOW`` seconds ends the rounds and leaves the sizes above it unread: its ratio
    already tells, and more would take minutes.
    """
    texts = {size: shapes.texts(size)[shape] for size in SIZES}
    quickest = dict.fromkeys(SIZES, float("inf"))
    for _ in range(rounds):
        for size in SIZES:
            took = _read(pattern, texts[size], once=once)
            quickest[size] = min(quickest[size], took / len(texts[size]))
            if took > SLOW and size != SIZES[0]:
                break
        else:
            continue
        break
    base = quickest[SIZES[0]]
    return [quickest[size] / base for size in SIZES[1:] if quickest[size] != float("inf")]


def _screen(pattern: re.Pattern[Any], shapes: Shapes) -> tuple[list[tuple[float, str]], int]:
    """One pass over every shape: those that look to grow, worst first, and the text count.

    The growth is the per-KiB ratio at 16x the smallest size, or at 4x where the 4x text
    already took over ``SLOW`` seconds or grew (then scaled by 4, as the square's would be).
    The smallest text is read three times and its quickest kept: one reading of a fast text
    on a busy machine can look several times slower than it is.
    """
    by_size = {size: shapes.texts(size) for size in SIZES}
    suspects = []
    for shape, small_text in by_size[SIZES[0]].items():
        small = min(_read(pattern, small_text) for _ in range(3)) / len(small_text)
        middle_text = by_size[SIZES[1]][shape]
        middle = _read(pattern, middle_text)
        at_4x = middle / len(middle_text) / max(small, 1e-12)
        if middle > SLOW or at_4x > GROWTH:
            ratio = at_4x * 4  # growing already: the 16x text would only take longer
        else:
            large_text = by_size[SIZES[2]][shape]
            large = _read(pattern, large_text)
            if large < NOISE:
                continue
            ratio = large / len(large_text) / max(small, 1e-12)
        if ratio > GROWTH:
            suspects.append((ratio, shape))
        if ratio > 4 * GROWTH:
            break  # plainly growing: the rounds will confirm it, the other texts can wait
    return sorted(suspects, reverse=True), len(by_size[SIZES[0]])


def _grows(ratios: list[float]) -> bool:
    """Growth at 16x the smallest size, or at 4x where the 16x text was too slow to read."""
    return ratios[-1] > (GROWTH if len(ratios) == 2 else 2.0)


def _judged(entry: Found, rounds: int) -> tuple[str, str, int]:
    """One pattern's verdict, what it rests on, and how many texts were read."""
    shapes = Shapes(entry.pattern)
    suspects, count = _screen(entry.pattern, shapes)
    verdict = "flat"
    detail = f"{count} texts, none over {GROWTH}x in one pass" if count else "no wide repeat"
    for _, shape in suspects[:CHECKED]:
        ratios = _ratios(entry.pattern, shape, shapes, rounds)
        read = ", ".join(f"{r:.2f}x" for r in ratios)
        detail = f"{shape[:70]}: per KiB at 4x, 16x {read}"
        if len(ratios) < 2:
            detail += " (16x not read: slow)"
        if not _grows(ratios):
            continue
        from_start = _ratios(entry.pattern, shape, shapes, rounds, once=True)
        detail += "; from its start only (match, fullmatch): " + ", ".join(
            f"{r:.2f}x" for r in from_start
        )
        verdict = "GROWS"
        if entry.name in FROM_ITS_START:
            verdict = "GROWS" if _grows(from_start) else "flat"
            detail += f" (as used: {FROM_ITS_START[entry.name]})"
        elif entry.name in BOUNDED:
            verdict = "bound"
            detail += f" (as used: {BOUNDED[entry.name]})"
        break
    return verdict, detail, count


def main() -> None:
    """Screen every pattern, time the growing-looking ones again, and print the verdicts."""
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=5, help="interleaved rounds per size")
    options.add_argument("--only", help="read only the patterns whose name holds this")
    options.add_argument("--all", action="store_true", help="print the flat patterns too")
    arguments = options.parse_args()
    found = [f for f in gather() if not arguments.only or arguments.only in f.name]
    verdicts = dict.fromkeys(("flat", "bound", "GROWS"), 0)
    texts_read = 0
    for entry in found:
        verdict, detail, count = _judged(entry, arguments.rounds)
        verdicts[verdict] += 1
        texts_read += count
        if verdict != "flat" or arguments.all:
            print(f"{verdict:5} {entry.name}: {detail}", flush=True)
    print(
        f"{len(found)} patterns, {texts_read} texts at {len(SIZES)} sizes each: "
        f"{verdicts['flat']} flat, {verdicts['bound']} growing on texts their callers bound, "
        f"{verdicts['GROWS']} growing (per-KiB time at 16x the smallest over {GROWTH}x)"
    )
    if verdicts["GROWS"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
