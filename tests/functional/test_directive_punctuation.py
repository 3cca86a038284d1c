"""A directive at a sentence's end is read without the sentence's punctuation.

Stop 50 (inputs51) left ``filetype:PDF.`` refused: a model writes a filter last in a
sentence (``find the 2024 report filetype:PDF.``, ``what changed site:python.org?``) and
the search failed with ``query: filetype:PDF. keeps the search to no file type ('PDF.' is
not one extension such as pdf)``; ``site:x.com,`` and ``site:python.org?`` were refused
alike (``not a domain name``), though ``site:x.com.`` was read. No domain, extension, date
or language code ends with ``.``, ``,``, ``;``, ``:``, ``!`` or ``?``, so that run (and an
unbalanced ``)``) is now the sentence's; what is inside a value keeps refusing
(``site:x.com?y=1``, ``filetype:pdf;docx``). ``intitle:why?`` keeps its ``?``: a title may.

Also: ``NOT filetype:pdf`` was refused with ``'pdf' is not one extension such as pdf``,
since the ``NOT`` stayed a word and ``filetype:pdf`` after it plain text, which the
``filetype:`` check refuses. It is now the word ``-filetype:pdf``, as ``NOT site:x`` is
``-site:x``, sent to the engines that read the operator.
"""

from collections.abc import AsyncIterator

import pytest
from pydantic import ValidationError

from tests.functional._sim_helpers import sim_client
from websearch_core.filters.merge import requested_filters
from websearch_core.models import SearchParams
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

_READ = [
    # (the query, the filter read from it)
    ("find the 2024 report filetype:PDF.", ("filetype", "pdf")),
    ("report filetype:pdf, please", ("filetype", "pdf")),
    ("report (filetype:pdf),", ("filetype", "pdf")),
    ("report filetype:pdf;", ("filetype", "pdf")),
    ("what changed site:python.org?", ("include_domains", "python.org")),
    ("docs on site:example.com, then", ("include_domains", "example.com")),
    ("not on -site:example.com!", ("exclude_domains", "example.com")),
    ("see site:github.com/anthropics.", ("include_domains", "github.com/anthropics")),
    ("news after:2025-01-01.", ("date_after", "2025-01-01")),
    ("news lang:de, bitte", ("language", "de")),
    ("docs on site: example.com,", ("include_domains", "example.com")),
]


@pytest.mark.parametrize(("query", "read"), _READ)
def test_a_directive_ending_a_sentence_is_read_as_its_filter(
    query: str, read: tuple[str, str]
) -> None:
    # Before: refused as no file type / no site, or (dates, lang:) left as words.
    assert read in requested_filters(SearchParams(query=query)).entries()


_STILL_REFUSED = [
    ("docs site:x.com?y=1", "site:x.com?y=1"),
    ("docs site:x.com:8080.", "site:x.com:8080."),
    ("report filetype:pdf;docx", "filetype:pdf;docx"),
    ("report filetype:pdf,docx.", "filetype:pdf,docx."),
]


@pytest.mark.parametrize(("query", "word"), _STILL_REFUSED)
def test_guard_punctuation_inside_a_value_is_still_refused(query: str, word: str) -> None:
    """Guard: only the end is the sentence's; a query string, a port or a list of
    extensions is refused, naming the word as typed."""
    with pytest.raises(ValidationError, match=f"query: {word.replace('?', '[?]')} keeps"):
        SearchParams(query=query)


def test_guard_words_asked_in_a_title_keep_their_punctuation() -> None:
    """Guard: a title may end in ``?``; ``intitle:why?`` asks for ``why?``."""
    assert ("in_title", "why?") in requested_filters(SearchParams(query="intitle:why?")).entries()


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave", "duckduckgo", "tavily"]) as simulator:
        for provider in ("brave", "duckduckgo", "tavily"):
            simulator[provider].results = [  # each reads its filters as the real one does
                SimResult("Page", "https://example.com/a", "One."),
                SimResult("Paper", "https://example.com/r.pdf", "Two."),
                SimResult("Elsewhere", "https://elsewhere.example/b", "Three."),
            ]
        yield simulator


@pytest.mark.parametrize("provider", ["brave", "duckduckgo"])
async def test_an_engine_is_sent_the_file_type_without_the_full_stop(
    sim: Simulator, provider: str
) -> None:
    # Before: refused, no request sent.
    async with sim_client(sim) as ws:
        found = await ws.search("annual report filetype:PDF.", provider=provider)
    assert [source.title for source in found.sources] == ["Paper"]
    assert [(f.name, f.value) for f in found.filters] == [("filetype", "pdf")]
    (request,) = sim[provider].requests
    sent = request.query_dict().get("q") or dict(request.form())["q"]
    assert sent == "annual report filetype:pdf"


async def test_a_question_ending_in_its_site_reaches_a_domain_parameter(
    sim: Simulator,
) -> None:
    # Before: refused as 'python.org?' having a query or fragment.
    async with sim_client(sim) as ws:
        found = await ws.search("what changed site:example.com?", provider="tavily")
    assert [source.title for source in found.sources] == ["Page", "Paper"]
    (request,) = sim["tavily"].requests
    body = request.json()
    assert (body["query"], body["include_domains"]) == ("what changed", ["example.com"])


@pytest.mark.parametrize("negation", ["NOT", "!"])
@pytest.mark.parametrize("provider", ["brave", "duckduckgo"])
async def test_not_before_a_file_type_keeps_that_type_out(
    sim: Simulator, provider: str, negation: str
) -> None:
    # Before: refused, "'pdf' is not one extension such as pdf".
    async with sim_client(sim) as ws:
        found = await ws.search(f"annual report {negation} filetype:pdf", provider=provider)
    assert [source.title for source in found.sources] == ["Page", "Elsewhere"]
    (request,) = sim[provider].requests
    sent = request.query_dict().get("q") or dict(request.form())["q"]
    assert sent == "annual report -filetype:pdf"


@pytest.mark.parametrize("typed", ["-tutorial.", "-tutorial,", "NOT tutorial!"])
async def test_a_term_kept_out_at_a_sentence_end_is_checked_as_the_word(typed: str) -> None:
    # Before: "-tutorial." was checked as "tutorial." (no snippet holds it, so the result
    # stayed though the record said post); "-tutorial," and "NOT tutorial!" were words.
    async with Simulator(["exa"]) as sim:
        sim["exa"].results = [
            SimResult("Guide", "https://a.example/g", "A tutorial for beginners."),
            SimResult("Reference", "https://b.example/r", "Every function, listed."),
        ]
        async with sim_client(sim) as ws:
            found = await ws.search(f"python {typed}", provider="exa")
    assert [source.title for source in found.sources] == ["Reference"]
    assert [(f.name, f.value, f.applied) for f in found.filters] == [
        ("exclude_terms", "tutorial", ("post",))
    ]
