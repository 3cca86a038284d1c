"""Retrieval-augmented answering with LangChain: web search -> documents -> prompt -> model.

::

    pip install "websearch-tools[langchain]"
    python examples/langchain_rag.py --offline      # simulator + a fake model that echoes
    python examples/langchain_rag.py "what is new in Python 3.13?"   # real search
    LANGCHAIN_MODEL=openai:gpt-4o-mini python examples/langchain_rag.py   # and a real model

Offline, ``ParrotFakeChatModel`` (shipped with langchain-core) answers with the prompt it was
given, so the output shows exactly what a real model would read. A failed search raises
``WebSearchError`` from the retriever: a chain should not answer from missing context.
"""

import asyncio
import sys

from _setup import extra_missing, format_sources, langchain_chat_model, parse_args, search_options

from websearch_core import WebSearchError

try:  # the [langchain] extra; without it, say what to install rather than a traceback
    from langchain_core.documents import Document
    from langchain_core.language_models.fake_chat_models import ParrotFakeChatModel
    from langchain_core.output_parsers import StrOutputParser
    from langchain_core.prompts import ChatPromptTemplate
    from langchain_core.runnables import RunnablePassthrough

    from langchain_websearch import WebSearchRetriever
except ModuleNotFoundError as missing:
    raise SystemExit(extra_missing(missing)) from None

QUESTION = "What is new in Python 3.13?"

PROMPT = ChatPromptTemplate.from_messages(
    [
        (
            "system",
            "Answer from the numbered sources only and cite them as [n]. "
            "If they do not answer the question, say so.",
        ),
        ("human", "Sources:\n\n{context}\n\nQuestion: {question}"),
    ]
)


def format_documents(documents: list[Document]) -> str:
    return format_sources(
        [(d.metadata["title"], d.metadata["url"], d.page_content) for d in documents]
    )


async def main() -> int:
    args = parse_args("Answer a question from web search results with LangChain.", QUESTION)
    async with (
        search_options(args.offline) as options,
        WebSearchRetriever(k=3, **options) as retriever,
    ):
        model = langchain_chat_model(args.offline, ParrotFakeChatModel())
        chain = (
            {"context": retriever | format_documents, "question": RunnablePassthrough()}
            | PROMPT
            | model
            | StrOutputParser()
        )
        try:
            answer = await chain.ainvoke(args.question)
        except WebSearchError as error:
            print(f"search failed: {error}", file=sys.stderr)
            return 1
    print("answer:")
    print(answer)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
