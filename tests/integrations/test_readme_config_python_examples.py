"""The README's Python, Retrievers and config-file examples run as written, each in its own process.

``test_readme_examples`` runs the client's and the retrievers' blocks in the test's own
process, wrapped in a coroutine of its own, and checks little of what their comments say
(the metadata's first three names, the first two scores). Here each runs as a user's script
would: in a process of its own, its ``async with`` and ``await`` inside ``async def main()``
and ``asyncio.run`` (as the Python section says), its settings from the environment, the
searches on a loopback simulator of its own (no key, no network). The six are forked
children of one interpreter that imported the frameworks (:func:`run_scripts`), each to its
own exit, all run before the first test: six fresh interpreters spent 1-5 s each. What
each block's comments claim is then read back in the same process: the snippet as
``page_content``, the six metadata names, the node's text, the scores ``1 / rank``. The
config file is written as shown and each of its lines is checked to do what its comment
says, through searches on the simulator. Every test here is a guard: each passed on the
README and code it was written against, and an edit that breaks an example or its comment
fails here.
"""

import json
import re
import subprocess
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.integrations._readme_scripts import (
    as_script,
    readme_block,
    run_scripts,
    simulated_env,
    user_env,
)
from websearch_core.testing import Simulator
from websearch_core.testing.faults import Fault


class Ran(NamedTuple):
    """A script's simulator (what it was asked, its faults) and the script's outcome."""

    sim: Simulator
    done: subprocess.CompletedProcess[str]


Setup = Callable[[Simulator, Path], tuple[str, dict[str, str]]]
"""A case's making: its script and environment, given its simulator and its folder."""

_SETUPS: dict[str, Setup] = {}


def _setup(name: str) -> Callable[[Setup], Setup]:
    """Register a case's making under ``name``; its test reads ``ran[name]``."""

    def register(make: Setup) -> Setup:
        _SETUPS[name] = make
        return make

    return register


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Ran]]:
    """Every case made, each with its own simulator (Brave and DuckDuckGo on loopback),
    home and working folder, and its script run."""
    root = tmp_path_factory.mktemp("readme-python")
    with ExitStack() as stack:
        sims: dict[str, Simulator] = {}
        scripts = {}
        for name, make in _SETUPS.items():
            sim = stack.enter_context(Simulator(["brave", "duckduckgo"]).running_in_thread())
            folder = root / name
            folder.mkdir()
            sims[name] = sim
            scripts[name] = (*make(sim, folder), folder)
        done = run_scripts(scripts, root)
        yield {name: Ran(sims[name], done[name]) for name in sims}


def _last_json(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return found


_CLIENT = 'WebSearch(provider="brave") as ws:'


@_setup("client")
def _client(sim: Simulator, folder: Path) -> tuple[str, dict[str, str]]:
    checks = (
        "\nprint('=== checks ===')\n"
        "print(json.dumps({'text': result.text, 'sources': repr(result.response.sources),"
        " 'provider': result.response.provider, 'searched': len(response.sources),"
        " 'type': type(response).__name__}))\n"
    )
    return as_script(readme_block(_CLIENT), checks), simulated_env(sim, folder)


def test_the_client_example_prints_the_model_s_text_then_the_sources(
    ran: dict[str, Ran],
) -> None:
    """A guard: ``print(result.text)`` is what a model reads, then the structured sources,
    and ``search()`` answers with the structured response."""
    done = ran["client"].done
    found = _last_json(done)
    printed = done.stdout.partition("=== checks ===")[0]
    assert printed == f"{found['text']}\n{found['sources']}\n"
    assert str(found["text"]).startswith("[1] ")
    assert found["provider"] == "brave"  # provider="brave" is tried first
    assert found["type"] == "SearchResponse" and found["searched"]


@_setup("error text")
def _error_text(sim: Simulator, folder: Path) -> tuple[str, dict[str, str]]:
    for provider in sim.providers:
        sim[provider].always(Fault(kind="status", status=500))
    block = readme_block(_CLIENT)
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
    return as_script(block, checks), simulated_env(sim, folder)


def test_run_returns_the_error_text_where_search_raises(ran: dict[str, Ran]) -> None:
    """A guard: with every provider down, ``run()`` returns ``Error: ...`` text with the
    error in ``result.error`` and each provider's part in ``result.failures``, while
    ``search()`` raises ``AllProvidersFailedError`` whose ``.failures`` holds typed errors."""
    found = _last_json(ran["error text"].done)
    assert str(found["text"]).startswith("Error: All web search providers failed: brave: ")
    assert found["failures"] == ["brave", "duckduckgo"]  # in attempt order, preferred first
    assert found["typed"] and "WebSearchError" not in found["typed"]  # subclasses, not base
    assert "; duckduckgo: " in str(found["raised"])  # each joined with "; " in one sentence


_LANGCHAIN = "from langchain_websearch import WebSearchRetriever"


@_setup("langchain")
def _langchain(sim: Simulator, folder: Path) -> tuple[str, dict[str, str]]:
    checks = (
        "\nprint(json.dumps({'count': len(docs), 'content': [d.page_content for d in docs],"
        " 'metadata': [d.metadata for d in docs]}))\n"
    )
    return as_script(readme_block(_LANGCHAIN), checks), simulated_env(sim, folder)


def test_the_langchain_retriever_example_gives_what_its_comments_say(ran: dict[str, Ran]) -> None:
    """A guard: three documents, the snippet as ``page_content``, the six metadata names
    with an ISO 8601 ``published_date``, and ``aclose`` closing its session."""
    pytest.importorskip("langchain_core")
    block = readme_block(_LANGCHAIN)
    sim, done = ran["langchain"]
    found = _last_json(done)
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


@_setup("llamaindex")
def _llamaindex(sim: Simulator, folder: Path) -> tuple[str, dict[str, str]]:
    block = readme_block("from llamaindex_websearch import WebSearchRetriever")
    checks = (
        "\nprint(json.dumps({'text': [n.text for n in nodes],"
        " 'content': [n.node.get_content() for n in nodes],"
        " 'urls': [n.metadata['url'] for n in nodes], 'scores': [n.score for n in nodes]}))\n"
    )
    return as_script(block, checks), simulated_env(sim, folder)


def test_the_llamaindex_retriever_example_gives_what_its_comments_say(ran: dict[str, Ran]) -> None:
    """A guard: the node's text is its title, URL and snippet (``get_content()``), and the
    scores are ``1 / rank``: 1.0, 0.5, 0.33..."""
    pytest.importorskip("llama_index.core")
    sim, done = ran["llamaindex"]
    found = _last_json(done)
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


@_setup("config as shown")
def _config_as_shown(sim: Simulator, folder: Path) -> tuple[str, dict[str, str]]:
    config = folder / "config.toml"
    config.write_text(_config_example(), encoding="utf-8")
    env = {**simulated_env(sim, folder), "WEBSEARCH_CONFIG_FILE": str(config)}
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
    return script, env


def test_the_config_file_as_shown_prefers_brave_and_budgets_it(ran: dict[str, Ran]) -> None:
    """A guard: written as shown, the file's ``provider`` is tried first and its
    ``[budget]`` line counts each Brave request; its other values are the defaults."""
    sim, done = ran["config as shown"]
    found = _last_json(done)
    assert found["provider"] == "brave" and found["answered"] == "brave"
    assert found["deadline"] == found["default_deadline"] == 55  # "(default 55)"
    assert found["ttl"] == 900 and found["cache"] is True
    assert found["budget"] == {"brave": "2000/month"}
    assert len(sim["brave"].requests) == 1


@_setup("config uncommented")
def _config_uncommented(sim: Simulator, folder: Path) -> tuple[str, dict[str, str]]:
    example = re.sub(r"^# (?=[a-z_]+ = )", "", _config_example(), flags=re.MULTILINE)
    example = example.replace('brave = "..."', f'brave = "{sim.api_keys()["brave"]}"')
    example = example.replace("http://127.0.0.1:8080", sim.base_urls()["brave"])
    config = folder / "config.toml"
    config.write_text(example, encoding="utf-8")
    sim["brave"].always(Fault(kind="status", status=500))
    env = {**user_env(folder), "WEBSEARCH_CONFIG_FILE": str(config)}
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
    return script, env


def test_the_config_file_s_commented_lines_do_what_their_comments_say(ran: dict[str, Ran]) -> None:
    """A guard: uncommented (its key filled in, its base URL the simulator's), ``fallback =
    false`` pins Brave (a failure is not switched away from), ``exclude`` leaves DuckDuckGo
    out, ``providers`` is the chain exactly, ``base_urls.brave`` sends Brave there, and
    ``sign_in_gateways`` trusts codex's URL."""
    sim, done = ran["config uncommented"]
    found = _last_json(done)
    assert found["fallback"] is False and found["exclude"] == ["duckduckgo"]
    assert found["providers"] == ["brave", "gemini", "kimi"] and found["timeout"] == 30
    assert found["gateways"] == ["codex"]
    # Pinned, Brave's failure is the answer; every line uncommented at once also lists a
    # chain the pin leaves unused, which the error names after the spec's text.
    assert str(found["error"]).startswith("Brave API error (500). The settings contradict")
    assert "duckduckgo" not in str(found["error"])
    assert len(sim["brave"].requests) >= 1 and not sim["duckduckgo"].requests
