"""A domain filter takes every form that names one site, and says why one that does not.

``include_domains`` and ``exclude_domains`` were refused with ``not a domain name`` for
``bücher.de`` (an internationalised name), ``example.com.`` and ``https://example.com/``,
though the query's ``site:`` reads the last two as that site; and the same four words
answered a URL with a path, an IP address and a port. The forms of one site are now read
as it (an internationalised name in the ASCII form a request carries, which is also how a
result's host is compared), and the others are refused saying why. The property test is
derandomized, so CI draws the same domains every run.

A query's ``site:`` reads its host through the same function
(:func:`websearch_core.domain_names.domain_name`): ``site:bücher.de`` stayed plain text (no
site asked of a provider, no result filtered) while ``include_domains=["bücher.de"]`` was
searched as ``site:xn--bcher-kva.de``; both are now sent alike.
"""

from collections.abc import AsyncIterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tests.functional._sim_helpers import sim_client
from websearch_core.filters.query import Token, tokenize
from websearch_core.models import SearchParams
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

_LABEL = st.from_regex(r"\A[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?\Z")
_DOMAINS = st.builds(
    lambda labels, top: ".".join([*labels, top]),
    st.lists(_LABEL, min_size=1, max_size=3).filter(lambda labels: labels[0] != "www"),
    st.from_regex(r"\A[a-z]{2,6}\Z"),
)
_BEFORE = st.sampled_from(["", "http://", "https://", "www.", "*.", "HTTPS://WWW.", " "])
_AFTER = st.sampled_from(["", ".", "/", "./", " "])


@settings(derandomize=True, max_examples=200, deadline=None)
@given(domain=_DOMAINS, before=_BEFORE, after=_AFTER, upper=st.booleans())
def test_every_form_of_one_site_is_read_as_it(
    domain: str, before: str, after: str, upper: bool
) -> None:
    written = f"{before}{domain.upper() if upper else domain}{after}"
    # Each list alone: the same site in both is refused as a contradiction (stop 51).
    included = SearchParams(query="q", include_domains=[written]).include_domains
    excluded = SearchParams(query="q", exclude_domains=[written]).exclude_domains
    assert included == excluded == (domain,)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("bücher.de", "xn--bcher-kva.de"),
        ("Bücher.DE.", "xn--bcher-kva.de"),
        ("münchen.例え.jp", None),
    ],
)
def test_an_internationalised_name_is_read_in_its_ascii_form(
    written: str, read: str | None
) -> None:
    (domain,) = SearchParams(query="q", include_domains=[written]).include_domains
    assert domain == (read or written.encode("idna").decode("ascii"))


@pytest.mark.parametrize(
    ("written", "why"),
    [
        ("https://github.com/laravel", "has a path; give the domain alone, such as 'github.com'"),
        ("example.com?q=1", "has a path; give the domain alone, such as 'example.com'"),
        ("93.184.216.34", "is an IP address; give a domain name such as 'example.com'"),
        ("[2001:db8::1]", "is an IP address; give a domain name such as 'example.com'"),
        ("example.com:8443", "has a port or a user name; give the domain alone"),
        ("ftp://example.com", "is not a web address; give the domain alone"),
        ("localhost", "(write one such as 'example.com')"),
        ("", "(write one such as 'example.com')"),
        ("exa mple.com", "(write one such as 'example.com')"),
    ],
)
def test_what_is_not_one_site_is_refused_saying_why(written: str, why: str) -> None:
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="q", exclude_domains=["ok.example", written])
    (only,) = caught.value.errors()
    assert only["loc"] == ("exclude_domains",)
    assert str(only["msg"]).startswith(f"Value error, not a domain name: {written!r} {why}")


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


async def test_an_internationalised_site_is_searched_and_kept_in_both_forms(
    sim: Simulator,
) -> None:
    async with sim_client(sim) as ws:
        found = await ws.search("buch", provider="brave", include_domains=["Bücher.de."])
    assert [source.title for source in found.sources] == ["Unicode host", "ASCII host"]
    (request,) = sim["brave"].requests
    assert request.query_dict()["q"] == "buch site:xn--bcher-kva.de"


async def test_an_internationalised_site_excluded_drops_both_forms(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        found = await ws.search("buch", provider="brave", exclude_domains=["bücher.de"])
    assert [source.title for source in found.sources] == ["Elsewhere"]


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("example.com", "must be a list of domain names, such as ['example.com'], not one string"),
        (None, "must be a list of domain names (leave it out for none), not None"),
    ],
)
def test_one_string_or_none_is_told_the_list_to_write(given: object, why: str) -> None:
    for name in ("include_domains", "exclude_domains"):
        with pytest.raises(ValidationError) as caught:
            SearchParams.model_validate({"query": "q", name: given})
        (only,) = caught.value.errors()
        assert (only["loc"], only["msg"]) == ((name,), f"Value error, {name} {why}")


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


async def test_a_typed_site_is_sent_as_the_parameter_is(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        typed = await ws.search("buch site:Bücher.de", provider="brave")
        given = await ws.search("buch", provider="brave", include_domains=["bücher.de"])
    sent = [request.query_dict()["q"] for request in sim["brave"].requests]
    assert sent == ["buch site:xn--bcher-kva.de"] * 2
    assert [s.title for s in typed.sources] == [s.title for s in given.sources]
    assert [s.title for s in typed.sources] == ["Unicode host", "ASCII host"]
