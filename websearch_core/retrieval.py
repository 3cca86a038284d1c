"""Search results as retrieval records: the metadata both frameworks' retrievers attach.

The LangChain and LlamaIndex retrievers wrap results in their own document types; what goes
into each record's metadata is the same and is defined here once, as JSON-compatible data.
"""

from typing import Any

from .models import SearchResponse, SearchSource

__all__ = ["answer_metadata", "source_metadata"]


def source_metadata(source: SearchSource, provider: str, rank: int) -> dict[str, Any]:
    """The metadata of one result at its 1-based ``rank``.

    Example:
        >>> source_metadata(SearchSource(title="T", url="https://t.example/"), "brave", 1)["rank"]
        1
    """
    return {
        "title": source.title,
        "url": source.url,
        "published_date": source.published_date,
        "age_seconds": source.age_seconds,
        "provider": provider,
        "rank": rank,
        "engines": [engine.model_dump(mode="json") for engine in source.engines],
    }


def answer_metadata(response: SearchResponse) -> dict[str, Any]:
    """The metadata of the record holding a provider's written answer (rank 0)."""
    return {
        "kind": "answer",
        "provider": response.provider,
        "rank": 0,
        "citations": [citation.model_dump(mode="json") for citation in response.citations],
    }
