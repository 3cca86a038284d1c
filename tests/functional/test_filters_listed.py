"""A country reads applied only when the provider's documented list has it.

The shape checks take any ISO code, and a parameter that takes any string carries it;
yet Brave answers a ``country`` off its documented 37 with a 422 and a resend. The record
said ``native`` for the request that only carried it. Each case searches once on the
loopback simulator and reads what the request held and what the note says. DuckDuckGo's
cases are regions its ``kl`` list has and which were still lost (Norwegian Bokmål,
Slovenia). Languages keep no such list: Google's ``hl`` takes its 150-odd interface
languages, Hawaiian among them, so ``hl=haw`` goes out and reads applied.
"""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import RecordedRequest

QUERY = "laravel"
PROVIDERS = ("google", "brave", "duckduckgo")


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")  # Google keeps the plain fetch
    async with Simulator(list(PROVIDERS)) as simulator:
        yield simulator


@dataclass(frozen=True)
class Case:
    """One search: the fields passed, the parameter read back, and the note's end."""

    provider: str
    params: dict[str, Any]
    field: str
    """The query-string or form field that carries the filter."""
    sent: str | None
    """Its value in the request (``None``: absent)."""
    note: str | None
    """The line the result text ends with (``None``: no filter note at all)."""

    @property
    def label(self) -> str:
        values = ",".join(f"{key}={value}" for key, value in self.params.items())
        return f"{self.provider}-{values}"


CASES = (
    # Brave: a country off its 37 went out, met a 422 and a resend; now it stays here.
    Case("brave", {"country": "KE"}, "country", None, "Filters not applied: country=KE."),
    # DuckDuckGo lists no-no and sl-sl: Bokmål and Slovenia went as us-en, unapplied.
    Case("duckduckgo", {"language": "nb"}, "kl", "no-no", None),
    Case("duckduckgo", {"language": "nb", "country": "NO"}, "kl", "no-no", None),
    Case("duckduckgo", {"country": "SI"}, "kl", "sl-sl", None),
    # Britain's region is uk-en: beside a language it has none with, the country holds.
    Case(
        "duckduckgo",
        {"language": "de", "country": "GB"},
        "kl",
        "uk-en",
        "Filters not applied: language=de.",
    ),
)


LISTED = (
    Case("google", {"language": "haw"}, "hl", "haw", None),  # one of Google's interfaces
    Case("google", {"language": "pt-BR"}, "hl", "pt-BR", None),
    Case("google", {"language": "he"}, "hl", "he", None),  # Google writes it iw
    Case("brave", {"country": "GR"}, "country", "GR", None),
)
"""Values the providers take (on Brave's list; Google has none), which went out and read
applied before the lists too."""


def _field(request: RecordedRequest, name: str) -> str | None:
    """``name``'s value in the request's query string or form body (``None``: absent)."""
    pairs = [*request.query, *(request.form() if request.body else ())]
    values = [value for key, value in pairs if key == name]
    assert len(values) <= 1, f"{name} sent twice: {values}"
    return values[0] if values else None


async def _check(sim: Simulator, case: Case) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider=case.provider, use_cache=False, **case.params)
    assert result.error is None
    (request,) = sim[case.provider].requests  # no 422 and resend, one request
    assert _field(request, case.field) == case.sent
    last = result.text.splitlines()[-1]
    if case.note is None:
        assert not last.startswith("Filters not applied"), last
    else:
        assert last == case.note


@pytest.mark.parametrize("case", CASES, ids=[case.label for case in CASES])
async def test_a_value_off_the_documented_list_is_neither_sent_nor_applied(
    sim: Simulator, case: Case
) -> None:
    """What the one request carried, and the note: ``Filters not applied`` names exactly
    the values the provider's list lacks; a region DDG lists is sent and applied."""
    await _check(sim, case)


@pytest.mark.parametrize("case", LISTED, ids=[case.label for case in LISTED])
async def test_a_listed_value_goes_out_as_before(sim: Simulator, case: Case) -> None:
    """Guard (passes before and after): a value on the list is sent as it was and reads
    applied; the lists hold back only what they lack."""
    await _check(sim, case)
