"""Defaults and limits the README's prose states beside a setting are the settings model's.

The variable table is generated; the prose and the example config file also say
"`deadline_seconds` (default 55, at most 900)" and the per-kind timeouts in words. These
checks find each such statement and compare it with the field it names, so a default
changed in the code fails here until the prose follows. All are guards: they passed on
the code they were written against.
"""

import re
from pathlib import Path

from websearch_core.settings import Settings
from websearch_core.settings_limits import DEFAULT_TIMEOUTS_BY_KIND, MAX_TIMEOUT_SECONDS

README = Path(__file__).resolve().parents[2] / "README.md"

_STATED = re.compile(
    r"`(?:WEBSEARCH_)?(?P<name>[A-Za-z_]+)`[^`.;]{0,40}?\(?default (?P<default>\d+(?:\.\d+)?)"
    r"(?:, at most (?P<most>\d+(?:\.\d+)?)(?P<days> days)?)?"
)
"""A setting (or its variable) in backquotes, then its default, and maybe its bound."""
_UP_TO = re.compile(r"up to (?P<most>\d+(?:\.\d+)?) s \(`(?P<name>[a-z_]+)`\)")
"""The other order, as the rate-limit wait is said: "a wait of up to 2 s (`name`)"."""


def _prose() -> str:
    """The README with its line breaks and config-comment continuations joined."""
    text = README.read_text(encoding="utf-8")
    text = re.sub(r"\n\s*#\s*", " ", text)  # a comment wrapped onto the next line
    return " ".join(text.split())


def _bound(name: str) -> float | None:
    for rule in Settings.model_fields[name].metadata:
        limit = getattr(rule, "le", None)
        if limit is not None:
            return float(limit)
    return None


def test_each_stated_default_and_bound_is_the_field_s() -> None:
    """A guard: every "`setting` (default N, at most M)" matches the model."""
    checked = 0
    for found in _STATED.finditer(_prose()):
        name = found["name"].lower()
        if name not in Settings.model_fields:
            continue
        checked += 1
        assert float(found["default"]) == Settings.model_fields[name].default, found[0]
        if found["most"]:
            most = float(found["most"]) * (86_400 if found["days"] else 1)
            assert most == _bound(name), found[0]
    for found in _UP_TO.finditer(_prose()):
        checked += 1
        assert float(found["most"]) == Settings.model_fields[found["name"]].default, found[0]
    assert checked >= 5  # the statements are still found (the patterns did not go stale)


def test_each_per_kind_timeout_sentence_is_the_code_s() -> None:
    """A guard: wherever the README lists the per-kind defaults, they are the code's."""
    words = {"answer": "answer engines", "api": "APIs", "scraper": "scrapers"}
    kinds = [f"{words[kind]} {DEFAULT_TIMEOUTS_BY_KIND[kind]:g}" for kind in words]
    kinds.append(f"the Public Web aggregate {DEFAULT_TIMEOUTS_BY_KIND['aggregate']:g}")
    assert set(DEFAULT_TIMEOUTS_BY_KIND) == {*words, "aggregate"}  # no kind left unsaid
    expected = f"default by kind: {', '.join(kinds)}; at most {MAX_TIMEOUT_SECONDS:g}"
    text = _prose()
    stated = re.findall(r"default by kind: [^)]*?; at most \d+", text)
    assert len(stated) >= 2
    assert set(stated) == {expected}
