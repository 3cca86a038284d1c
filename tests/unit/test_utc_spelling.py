"""UTC is written one way for a program (``+00:00``) and one for a person (`` UTC``).

Neither the spec nor DESIGN fixes a zone's spelling (the spec's source line holds "a
formatted age or published date"), so the README states ours: an ISO instant the package
writes itself ends ``+00:00``, a time written for a person ends `` UTC``, a provider's
own ``Z`` is kept in a search's output and written again by the retrievers, and the one
``Z`` of ours is the compact stamp in a moved-aside state file's name. Each case here
runs the code that writes the form the README names.
"""

import asyncio
import json
import re
import time
from pathlib import Path

import pytest

from tests.conftest import read_capture
from websearch_core import WebSearch
from websearch_core.cli import main
from websearch_core.dates import with_iso_dates
from websearch_core.models import SearchResponse
from websearch_core.orchestration.quota import utc_text
from websearch_core.providers._exa_parse import parse_results
from websearch_core.retrieval import source_metadata
from websearch_core.state.base import STATE_FILE_NAME, ProviderMark

README = Path(__file__).resolve().parents[2] / "README.md"
_ISO_UTC = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00")


def _marks(marks: dict[str, float]) -> None:
    """Store a mark ending ``until`` seconds from now for each provider, in the SQLite state."""

    async def store() -> None:
        async with WebSearch() as web_search:
            state = await web_search.state()
            now = time.time()
            for provider, lasting in marks.items():
                mark = ProviderMark("rate_limited", until=now + lasting, reason="429", set_at=now)
                await state.set_mark(provider, mark)

    asyncio.run(store())


def _json_marks(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    assert main(["providers", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["providers"]
    return {row["id"]: row["mark"]["until"] for row in rows if row["mark"] is not None}


def test_providers_json_writes_a_mark_s_end_with_plus_zero(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Guard: ``until`` was already ``isoformat``'s ``+00:00``; held so it stays one form."""
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "sqlite")
    _marks({"brave": 3600.0})
    until = _json_marks(capsys)["brave"]
    assert _ISO_UTC.fullmatch(until), until


def test_providers_json_shows_a_mark_past_the_calendar_as_the_table_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: ``OverflowError`` traceback, exit 1, where the table showed 9999.

    A mark stored by a version with no bound on ``auth_cooldown_seconds`` (``1e300``).
    """
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "sqlite")
    _marks({"brave": 1e300})
    assert _json_marks(capsys)["brave"] == "9999-12-31T23:59:59+00:00"
    assert main(["providers"]) == 0
    assert "until 9999-12-31 23:59:59 UTC" in capsys.readouterr().out


def test_a_time_for_a_person_ends_utc() -> None:
    """Guard: a mark's end in the table and the failure texts."""
    assert utc_text(1767225600.0) == "2026-01-01 00:00:00 UTC"


def test_a_provider_s_own_z_is_kept_and_the_retrievers_write_plus_zero() -> None:
    """Guard: Exa's capture dates its results ``...Z``; a search keeps them as sent."""
    data = json.loads(read_capture("exa/search_doc_example_latest_llm_research.json"))
    response = with_iso_dates(SearchResponse(provider="exa", sources=parse_results(data)))
    sent = [source.published_date for source in response.sources]
    assert sent and all(date and date.endswith("Z") for date in sent), sent
    for rank, source in enumerate(response.sources, 1):
        written = source_metadata(source, "exa", rank)["published_date"]
        assert isinstance(written, str) and written.endswith("+00:00"), written
        assert written[:19] == str(source.published_date)[:19]  # the same instant


def test_the_readme_states_each_form() -> None:
    """Failed before: the README named no spelling of UTC for what the package writes."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    for said in (
        "Times the package writes itself are UTC",
        "`2026-01-01 00:00:00 UTC`",
        "ISO 8601 with `+00:00` (`providers --json`'s `until`, never `Z`",
        "is kept as written in a search's output (Exa's `2023-11-16T01:36:32.547Z`)",
        "the retrievers write it again with `+00:00`",
        "(`state.sqlite3.broken-20261207T101500Z`)",
    ):
        assert said in text, said


def test_a_moved_aside_state_file_is_stamped_in_compact_utc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Guard: the one ``Z`` of ours, in a file name, where ``+00:00``'s ``:`` cannot go."""
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "sqlite")
    state_dir = tmp_path / "state"
    state_dir.mkdir(exist_ok=True)
    (state_dir / STATE_FILE_NAME).write_bytes(b"not a database, " * 64)
    assert main(["providers", "reset", "--all"]) == 0
    moved = Path(capsys.readouterr().out.splitlines()[0].rsplit(" ", 1)[1])
    stamp = moved.name.removeprefix(f"{STATE_FILE_NAME}.broken-")
    assert re.fullmatch(r"\d{8}T\d{6}Z", stamp), moved.name
