"""A query's ``site:`` reads an internationalised name as ``include_domains`` does.

``include_domains=["bücher.de"]`` is searched as ``site:xn--bcher-kva.de`` (the ASCII form a
request carries), but ``site:bücher.de`` typed in the query stayed plain text: no site was
asked of a provider and no result was filtered. ``site:`` now reads its host through
:func:`websearch_core.domain_names.domain_name`, the domain filters' one reading.
"""

from collections.abc import AsyncIterator

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core.filters.query import Token, tokenize
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult


@pytest.mark.parametrize(
    ("typed", "kind", "value", "path"),
    [
        ("site:bücher.de", "site", "xn--bcher-kva.de", ""),
        ("-site:https://www.Bücher.DE./", "exclude_site", "xn--bcher-kva.de", ""),
        ("domain:münchen.例え.jp/Karte", "site", "xn--mnchen-3ya.xn--r8jz45g.jp", "/karte"),
    ],
)
def test_an_internationalised_site_is_read_in_its_ascii_form(
    typed: str, kind: str, value: str, path: str
) -> None:
    assert tokenize(typed) == (Token(kind, value, typed, path),)  # type: ignore[arg-type]


@pytest.mark.parametrize("typed", ["site:GitHub.com", "site:https://*.docs.rs./", "site:x.io/a"])
def test_an_ascii_site_reads_as_before(typed: str) -> None:
    """Guard: the ASCII forms ``site:`` read are read the same (passes before and after)."""
    (token,) = tokenize(typed)
    assert token.kind == "site"
    assert token.value in {"github.com", "docs.rs", "x.io"}


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        simulator["brave"].honour_operators = False  # every result served: ours to filter
        simulator["brave"].results = [
            SimResult("Unicode host", "https://bücher.de/buch", "One."),
            SimResult("ASCII host", "https://www.xn--bcher-kva.de/b", "Two."),
            SimResult("Elsewhere", "https://elsewhere.example/c", "Three."),
        ]
        yield simulator


async def test_a_typed_site_is_sent_as_the_parameter_is(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        typed = await ws.search("buch site:Bücher.de", provider="brave")
        given = await ws.search("buch", provider="brave", include_domains=["bücher.de"])
    sent = [request.query_dict()["q"] for request in sim["brave"].requests]
    assert sent == ["buch site:xn--bcher-kva.de"] * 2
    assert [s.title for s in typed.sources] == [s.title for s in given.sources]
    assert [s.title for s in typed.sources] == ["Unicode host", "ASCII host"]
