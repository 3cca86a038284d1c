"""What the examples share: the ``--offline`` switch, the search it points at, the models.

``--offline`` starts the loopback simulator shipped in ``websearch_core.testing`` (DuckDuckGo's
protocol, serving a few fixed results) and uses the fake models that ship with each framework,
so an example runs with no network and no keys. Without it the search is real: your keys
(``BRAVE_API_KEY``, ``websearch auth set ...``), else the keyless engines. The model is real
when one is configured (see :func:`langchain_chat_model` and :func:`llamaindex_llm`), else the
fake one, and the example says so.
"""

import argparse
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Sequence
from typing import Any

from websearch_core.testing import SimResult, Simulator

OFFLINE_RESULTS = [
    SimResult(
        title="What's New In Python 3.13",
        url="https://docs.python.org/3/whatsnew/3.13.html",
        snippet=(
            "Python 3.13 brings a new interactive interpreter, an experimental "
            "free-threaded build that can run without the GIL, and an experimental JIT."
        ),
        published="2024-10-07T00:00:00Z",
    ),
    SimResult(
        title="PEP 703 - Making the Global Interpreter Lock Optional in CPython",
        url="https://peps.python.org/pep-0703/",
        snippet="This PEP proposes adding a build configuration to CPython without the GIL.",
        published="2023-01-09T00:00:00Z",
    ),
    SimResult(
        title="PEP 744 - JIT Compilation",
        url="https://peps.python.org/pep-0744/",
        snippet="The experimental copy-and-patch JIT compiler added to CPython 3.13.",
        published="2024-04-11T00:00:00Z",
    ),
]
"""What the simulated search engine answers offline, whatever the question."""


def parse_args(description: str, default_question: str) -> argparse.Namespace:
    """The question (optional) and ``--offline``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("question", nargs="?", default=default_question)
    parser.add_argument(
        "--offline",
        action="store_true",
        help="search the bundled simulator and use the framework's fake model (no network)",
    )
    return parser.parse_args()


@contextlib.asynccontextmanager
async def search_options(offline: bool) -> AsyncIterator[dict[str, Any]]:
    """Keyword arguments for a tool or retriever: the simulator offline, else your settings."""
    if not offline:
        yield {}
        return
    async with Simulator(["duckduckgo"]) as sim:
        sim["duckduckgo"].results = OFFLINE_RESULTS
        yield {"settings": sim.settings()}


FRAMEWORKS = {"langchain_core": "langchain", "llama_index": "llamaindex"}
"""The framework package each example imports first -> the extra that installs it."""


def extra_missing(missing: ModuleNotFoundError) -> str:
    """What to install when an example's framework is missing, as one line for ``SystemExit``.

    Run after ``pip install .`` alone (the Quick start's step 1), an example stopped at its
    first import with a traceback ending ``No module named 'langchain_core'``; the adapters
    say which extra to install, but their framework is imported first. A module missing
    from anything else is raised as it is: it is no extra's.
    """
    top = (missing.name or "").partition(".")[0]
    extra = FRAMEWORKS.get(top)
    if extra is None:
        raise missing
    example = os.path.basename(sys.argv[0]) or "this example"
    return (
        f"{example} needs {top}, which is not installed. Install it with: pip install "
        f'"websearch-tools[{extra}]" (from a checkout of the project: pip install ".[{extra}]")'
    )


def note(text: str) -> None:
    """Say how the example is running, on stderr (stdout is the example's output)."""
    print(f"note: {text}", file=sys.stderr)


def langchain_chat_model(offline: bool, fake: Any) -> Any:
    """A real chat model named by ``LANGCHAIN_MODEL`` (``openai:gpt-4o-mini``), else ``fake``.

    A real model needs ``pip install langchain langchain-<provider>`` and that provider's key.
    """
    name = os.environ.get("LANGCHAIN_MODEL")
    if offline or not name:
        if not offline:
            note("no LANGCHAIN_MODEL set: a fake chat model answers (the search is real)")
        return fake
    from langchain.chat_models import init_chat_model

    return init_chat_model(name)


def llamaindex_llm(offline: bool, fake: Any) -> Any:
    """LlamaIndex's configured default LLM (OpenAI with its key and package), else ``fake``."""
    if offline:
        return fake
    from llama_index.core import Settings

    try:
        return Settings.llm
    except (ImportError, ValueError) as error:  # no LLM package, or no key for it
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else error
        note(f"no LlamaIndex LLM configured ({first_line}): a mock LLM answers")
        return fake


def served_by(failed: bool, raw: object) -> str:
    """The provider that answered a tool call, or ``-`` when the search failed.

    A failed search's response still names the last provider it tried, so printing it
    without the status read as though that provider had answered.
    """
    if failed:
        return "- (the search failed; the error follows)"
    response = raw.get("response") if isinstance(raw, dict) else None
    return str(response["provider"]) if isinstance(response, dict) else "-"


def format_sources(sources: Sequence[tuple[str, str, str]]) -> str:
    """Numbered ``[n] title (url)`` lines with the text under each, as a model reads them."""
    return "\n\n".join(
        f"[{number}] {title} ({url})\n{text}"
        for number, (title, url, text) in enumerate(sources, start=1)
    )
