"""The README's Python, Retrievers and config-file examples run as written, each in a new process.

``test_readme_examples`` runs the client's and the retrievers' blocks in the test's own
process, wrapped in a coroutine of its own, and checks little of what their comments say
(the metadata's first three names, the first two scores). Here each runs as a user's script
would: in a fresh interpreter, its ``async with`` and ``await`` inside ``async def main()``
and ``asyncio.run`` (as the Python section says), its settings from the environment, the
searches on the loopback simulator (no key, no network). What each block's comments claim
is then read back in the same process: the snippet as ``page_content``, the six metadata
names, the node's text, the scores ``1 / rank``. The config file is written as shown and
each of its lines is checked to do what its comment says, through searches on the
simulator. Every test here is a guard: each passed on the README and code it was written
against, and an edit that breaks an example or its comment fails here.
"""

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integrations._readme_scripts import (
    as_script,
    readme_block,
    run_script,
    simulated_env,
    user_env,
)
from websearch_core.testing import Simulator
from websearch_core.testing.faults import Fault


@pytest.fixture
def sim() -> Iterator[Simulator]:
    """The simulator's Brave and DuckDuckGo on loopback."""
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as simulator:
        yield simulator


def _last_json(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_the_client_example_prints_the_model_s_text_then_the_sources(
    sim: Simulator, tmp_path: Path
) -> None:
    """A guard: ``print(result.text)`` is what a model reads, then the structured sources,
    and ``search()`` answers with the structured response."""
    block = readme_block('WebSearch(provider="brave") as ws:')
    checks = (
        "\nprint('=== checks ===')\n"
        "print(json.dumps({'text': result.text, 'sources': repr(result.response.sources),"
        " 'provider': result.response.provider, 'searched': len(response.sources),"
        " 'type': type(response).__name__}))\n"
    )
    done = run_script(as_script(block, checks), simulated_env(sim, tmp_path), tmp_path)
    found = _last_json(done)
    printed = done.stdout.partition("=== checks ===")[0]
    assert printed == f"{found['text']}\n{found['sources']}\n"
    assert str(found["text"]).startswith("[1] ")
    assert found["provider"] == "brave"  # provider="brave" is tried first
    assert found["type"] == "SearchResponse" and found["searched"]


def test_run_returns_the_error_text_where_search_raises(sim: Simulator, tmp_path: Path) -> None:
    """A guard: with every provider down, ``run()`` returns ``Error: ...`` text with the
    error in ``result.error`` and each provider's part in ``result.failures``, while
    ``search()`` raises ``AllProvidersFailedError`` whose ``.failures`` holds typed errors."""
    for provider in sim.providers:
        sim[provider].always(Fault(kind="status", status=500))
    block = readme_block('WebSearch(provider="brave") as ws:')
    block = block.replace("    print(", "    pass  # print(")
    block = block.replace("    response = await", "    try_search = lambda: ")
    checks = (
        "\nfrom websearch_core import AllProvidersFailedError\n"
        "try:\n    await ws.search('latest aiohttp release')\n"
        "except AllProvidersFailedError as error:\n    raised = error\n"
        "print(json.dumps({'text': result.text, 'error': str(result.error),"
        " 'failures': [f.provider for f in result.failures],"
        " 'typed': sorted({type(f).__name__ for f in raised.failures}),"
        " 'raised': str(raised)}))\n"
    )
    found = _last_json(run_script(as_script(block, checks), simulated_env(sim, tmp_path), tmp_path))
    assert str(found["text"]).startswith("Error: All web search providers failed: brave: ")
    assert found["failures"] == ["brave", "duckduckgo"]  # in attempt order, preferred first
    assert found["typed"] and "WebSearchError" not in found["typed"]  # subclasses, not base
    assert "; duckduckgo: " in str(found["raised"])  # each joined with "; " in one sentence


def test_the_langchain_retriever_example_gives_what_its_comments_say(
    sim: Simulator, tmp_path: Path
) -> None:
    """A guard: three documents, the snippet as ``page_content``, the six metadata names
    with an ISO 8601 ``published_date``, and ``aclose`` closing its session."""
    pytest.importorskip("langchain_core")
    block = readme_block("from langchain_websearch import WebSearchRetriever")
    checks = (
        "\nprint(json.dumps({'count': len(docs), 'content': [d.page_content for d in docs],"
        " 'metadata': [d.metadata for d in docs]}))\n"
    )
    found = _last_json(run_script(as_script(block, checks), simulated_env(sim, tmp_path), tmp_path))
    assert found["count"] == 3  # k=3
    metadata = found["metadata"]
    assert isinstance(metadata, list)
    names = "title, url, published_date (ISO 8601), age_seconds, provider, rank"
    assert names in block  # the comment these checks hold
    assert list(metadata[0]) == [
        "title",
        "url",
        "published_date",
        "age_seconds",
        "provider",
        "rank",
    ]
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?", metadata[0]["published_date"]
    )
    assert [m["rank"] for m in metadata] == [1, 2, 3]
    snippets = [r.snippet for r in sim["brave"].results_for("what is PEP 703?")][:3]
    assert found["content"] == snippets  # the snippet, not the title


def test_the_llamaindex_retriever_example_gives_what_its_comments_say(
    sim: Simulator, tmp_path: Path
) -> None:
    """A guard: the node's text is its title, URL and snippet (``get_content()``), and the
    scores are ``1 / rank``: 1.0, 0.5, 0.33..."""
    pytest.importorskip("llama_index.core")
    block = readme_block("from llamaindex_websearch import WebSearchRetriever")
    checks = (
        "\nprint(json.dumps({'text': [n.text for n in nodes],"
        " 'content': [n.node.get_content() for n in nodes],"
        " 'urls': [n.metadata['url'] for n in nodes], 'scores': [n.score for n in nodes]}))\n"
    )
    found = _last_json(run_script(as_script(block, checks), simulated_env(sim, tmp_path), tmp_path))
    assert found["text"] == found["content"]
    first = sim["brave"].results_for("what is PEP 703?")[0]
    text = found["text"]
    assert isinstance(text, list)
    urls = found["urls"]
    assert isinstance(urls, list) and first.url.rstrip("?") == urls[0]  # an empty query dropped
    assert text[0] == f"{first.title}\n{urls[0]}\n{first.snippet}"
    scores = found["scores"]
    assert isinstance(scores, list) and len(scores) == 3
    assert scores[:2] == [1.0, 0.5] and f"{scores[2]:.2f}" == "0.33"


def _config_example() -> str:
    return readme_block('provider = "brave"          # preferred', "toml")


def test_the_config_file_as_shown_prefers_brave_and_budgets_it(
    sim: Simulator, tmp_path: Path
) -> None:
    """A guard: written as shown, the file's ``provider`` is tried first and its
    ``[budget]`` line counts each Brave request; its other values are the defaults."""
    config = tmp_path / "config.toml"
    config.write_text(_config_example(), encoding="utf-8")
    env = {**simulated_env(sim, tmp_path), "WEBSEARCH_CONFIG_FILE": str(config)}
    script = (
        "import json\nfrom websearch_core import Settings, WebSearch\n"
        "s = Settings()\n"
        "ws = WebSearch()\n"
        "r = ws.run_sync('python')\n"
        "print(json.dumps({'provider': s.provider, 'deadline': s.deadline_seconds,"
        " 'default_deadline': Settings.model_fields['deadline_seconds'].default,"
        " 'ttl': s.cache_ttl_seconds, 'cache': s.cache, 'budget': s.budget,"
        " 'answered': r.response.provider}))\n"
    )
    found = _last_json(run_script(script, env, tmp_path))
    assert found["provider"] == "brave" and found["answered"] == "brave"
    assert found["deadline"] == found["default_deadline"] == 55  # "(default 55)"
    assert found["ttl"] == 900 and found["cache"] is True
    assert found["budget"] == {"brave": "2000/month"}
    assert len(sim["brave"].requests) == 1


def test_the_config_file_s_commented_lines_do_what_their_comments_say(
    sim: Simulator, tmp_path: Path
) -> None:
    """A guard: uncommented (its key filled in, its base URL the simulator's), ``fallback =
    false`` pins Brave (a failure is not switched away from), ``exclude`` leaves DuckDuckGo
    out, ``providers`` is the chain exactly, ``base_urls.brave`` sends Brave there, and
    ``sign_in_gateways`` trusts codex's URL."""
    example = re.sub(r"^# (?=[a-z_]+ = )", "", _config_example(), flags=re.MULTILINE)
    example = example.replace('brave = "..."', f'brave = "{sim.api_keys()["brave"]}"')
    example = example.replace("http://127.0.0.1:8080", sim.base_urls()["brave"])
    config = tmp_path / "config.toml"
    config.write_text(example, encoding="utf-8")
    sim["brave"].always(Fault(kind="status", status=500))
    env = {**user_env(tmp_path), "WEBSEARCH_CONFIG_FILE": str(config)}
    env["WEBSEARCH_BASE_URLS__DUCKDUCKGO"] = sim.base_urls()["duckduckgo"]
    script = (
        "import json\nfrom websearch_core import Settings, WebSearch\n"
        "s = Settings()\n"
        "r = WebSearch().run_sync('python')\n"
        "print(json.dumps({'fallback': s.fallback, 'exclude': list(s.exclude),"
        " 'providers': list(s.providers), 'timeout': s.timeout_seconds,"
        " 'gateways': list(s.sign_in_gateways), 'asked': [a.provider for a in"
        " r.response.attempts] if r.response else None, 'error': str(r.error)}))\n"
    )
    found = _last_json(run_script(script, env, tmp_path))
    assert found["fallback"] is False and found["exclude"] == ["duckduckgo"]
    assert found["providers"] == ["brave", "gemini", "kimi"] and found["timeout"] == 30
    assert found["gateways"] == ["codex"]
    # Pinned, Brave's failure is the answer; every line uncommented at once also lists a
    # chain the pin leaves unused, which the error names after the spec's text.
    assert str(found["error"]).startswith("Brave API error (500). The settings contradict")
    assert "duckduckgo" not in str(found["error"])
    assert len(sim["brave"].requests) >= 1 and not sim["duckduckgo"].requests
