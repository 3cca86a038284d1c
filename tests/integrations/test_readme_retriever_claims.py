"""What the README's Retrievers section says of the documents, played through the simulator.

The section's examples run in ``test_readme_config_python_examples``; its prose makes more
claims: flat metadata, the Public Web aggregate's ``engines`` as ``"duckduckgo:1,mojeek:2"``,
page text in place of the snippet for up to 20 results with ``metadata["content"]`` saying
which, an answer document first, and a raise where the tool would answer with text. Each is
checked here for both packages, against loopback servers only (the simulator, and a page
server serving a real article of ``../shared/pages``). All are guards: each held when
written.
"""

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.content._pages import load_pages
from tests.content._server import PageServer, server_in_thread
from websearch_core import SEARCH_PROVIDER_ORDER, AllProvidersFailedError
from websearch_core.testing import Simulator
from websearch_core.testing.faults import Fault
from websearch_core.testing.simulator import SimResult

README = Path(__file__).resolve().parents[2] / "README.md"


def _section() -> str:
    """The Retrievers section, its lines joined."""
    text = README.read_text(encoding="utf-8").split("\n## Retrievers\n", 1)[1]
    return " ".join(text.split("\n## ", 1)[0].split())


@pytest.fixture
def sim(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """Tavily, DuckDuckGo and Mojeek on loopback, every other provider but Public Web out."""
    with Simulator(["tavily", "duckduckgo", "mojeek"]).running_in_thread() as simulator:
        kept = {*simulator.providers, "public"}
        others = [pid for pid in SEARCH_PROVIDER_ORDER if pid not in kept]
        monkeypatch.setenv("WEBSEARCH_BASE_URLS", json.dumps(simulator.base_urls()))
        monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
        monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
        monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
        monkeypatch.setenv("TAVILY_API_KEY", simulator.api_keys()["tavily"])
        yield simulator


def _langchain(query: str, **options: Any) -> list[tuple[str, dict[str, Any]]]:
    pytest.importorskip("langchain_core")
    from langchain_websearch import WebSearchRetriever

    return [(d.page_content, d.metadata) for d in WebSearchRetriever(**options).invoke(query)]


def _llamaindex(query: str, **options: Any) -> list[tuple[str, dict[str, Any]]]:
    pytest.importorskip("llama_index.core")
    from llamaindex_websearch import WebSearchRetriever

    nodes = WebSearchRetriever(**options).retrieve(query)
    return [(n.node.get_content(), n.metadata) for n in nodes]


RETRIEVE = [pytest.param(_langchain, id="langchain"), pytest.param(_llamaindex, id="llamaindex")]


@pytest.mark.parametrize("retrieve", RETRIEVE)
def test_the_aggregate_s_documents_name_their_engines_in_flat_metadata(
    sim: Simulator, retrieve: Any
) -> None:
    """A guard: ``engines`` has the README's shape, and every value is a str, int or bool."""
    example = re.search(r'add `engines` as `"(?P<shape>[^"]+)"`', _section())
    assert example and example["shape"] == "duckduckgo:1,mojeek:2"
    documents = retrieve("python", k=3, provider="public")
    assert len(documents) == 3
    for _, metadata in documents:
        assert re.fullmatch(r"duckduckgo:\d+,mojeek:\d+", metadata["engines"]), metadata
        assert all(isinstance(v, (str, int, bool)) for v in metadata.values()), metadata


@pytest.mark.parametrize("retrieve", RETRIEVE)
def test_the_answer_comes_first_with_its_citation_count(sim: Simulator, retrieve: Any) -> None:
    """A guard: ``include_answer=True`` puts the provider's answer before the ``k`` results."""
    documents = retrieve("python", k=2, provider="tavily", include_answer=True)
    (answer_text, answer), *results = documents
    assert answer["kind"] == "answer" and answer["provider"] == "tavily"
    assert isinstance(answer["citations"], int) and answer_text.strip()
    assert [m["rank"] for _, m in results] == [1, 2]


@pytest.mark.parametrize("retrieve", RETRIEVE)
def test_a_failed_search_raises_where_the_tool_would_answer(sim: Simulator, retrieve: Any) -> None:
    """A guard: ``AllProvidersFailedError``, each provider's error in ``.failures``."""
    for provider in sim.providers:
        sim[provider].always(Fault(kind="status", status=500))
    with pytest.raises(AllProvidersFailedError) as raised:
        retrieve("python", k=2, provider="tavily", fallback=False)
    assert raised.value.failures


def test_the_page_count_the_readme_states_is_each_package_s() -> None:
    """A guard: "up to 20 pages" is the bound both retrievers fetch."""
    from langchain_websearch.retriever import MAX_PAGES as LANGCHAIN_PAGES
    from llamaindex_websearch.retriever import MAX_PAGES as LLAMAINDEX_PAGES

    stated = re.search(r"\(up to (?P<n>\d+) pages, fetched within the search's", _section())
    assert stated
    assert int(stated["n"]) == LANGCHAIN_PAGES == LLAMAINDEX_PAGES


@pytest.fixture
def article() -> Iterator[PageServer]:
    """A loopback server serving a real article at ``/article``."""
    yield from server_in_thread({"/article": load_pages()[0].html})


@pytest.mark.parametrize("retrieve", RETRIEVE)
def test_content_is_the_page_or_says_snippet_where_none_was_had(
    sim: Simulator,
    article: PageServer,
    retrieve: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: a page served gives its text and ``content: page``; one refused (the
    second result's address answers nothing) keeps the snippet and says ``snippet``."""
    monkeypatch.setenv("WEBSEARCH_FETCH_ALLOW_PRIVATE", "1")
    sim["tavily"].results = [
        SimResult(title="PEP 703", url=article.url("/article"), snippet="Making the GIL optional."),
        SimResult(title="Gone", url=article.url("/missing"), snippet="A page that is gone."),
    ]
    (page_text, page), (kept_text, kept) = retrieve(
        "python", k=2, provider="tavily", include_content=True
    )
    # LlamaIndex's text leads with the title and URL; both end with what stands for the page.
    assert page["content"] == "page" and not page_text.endswith("Making the GIL optional.")
    assert kept["content"] == "snippet" and kept_text.endswith("A page that is gone.")
    assert article.hits["/article"] >= 1
