"""Retrieval-augmented answering with LlamaIndex: web search -> scored nodes -> LLM answer.

::

    pip install "websearch-tools[llamaindex]"
    python examples/llamaindex_rag.py --offline      # simulator + MockLLM, which echoes
    python examples/llamaindex_rag.py "what is new in Python 3.13?"   # real search
    pip install llama-index-llms-openai && OPENAI_API_KEY=... python examples/llamaindex_rag.py

``RetrieverQueryEngine`` puts the retrieved nodes into its question-answering prompt. Offline,
``MockLLM`` (shipped with llama-index-core) answers with that prompt, so the output shows what
a real LLM (LlamaIndex's configured default) would read. A failed search raises
``WebSearchError``: a query engine should not answer from missing context.
"""

import asyncio
import sys

from _setup import extra_missing, llamaindex_llm, parse_args, search_options

from websearch_core import WebSearchError

try:  # the [llamaindex] extra; without it, say what to install rather than a traceback
    from llama_index.core.llms import MockLLM
    from llama_index.core.query_engine import RetrieverQueryEngine

    from llamaindex_websearch import WebSearchRetriever
except ModuleNotFoundError as missing:
    raise SystemExit(extra_missing(missing)) from None

QUESTION = "What is new in Python 3.13?"


async def main() -> int:
    args = parse_args("Answer a question from web search results with LlamaIndex.", QUESTION)
    async with (
        search_options(args.offline) as options,
        WebSearchRetriever(k=3, **options) as retriever,
    ):
        llm = llamaindex_llm(args.offline, MockLLM())
        engine = RetrieverQueryEngine.from_args(retriever, llm=llm)
        try:
            response = await engine.aquery(args.question)
        except WebSearchError as error:
            print(f"search failed: {error}", file=sys.stderr)
            return 1
    print("sources:")
    for scored in response.source_nodes:
        metadata = scored.node.metadata
        print(f"  {scored.score:.2f}  {metadata['title']} ({metadata['url']})")
    print("answer:")
    print(str(response).strip())
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
