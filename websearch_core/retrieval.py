"""Search results as retrieval records: the metadata both frameworks' retrievers attach.

The LangChain and LlamaIndex retrievers wrap results in their own document types; what goes
into each record's metadata is the same and is defined here once. The metadata is flat:
every value a string, an int or a bool, and no key whose value is unknown. Retrieved
documents usually go into a vector store, and most stores (Chroma, Pinecone, Qdrant
filters, LangChain's ``filter_complex_metadata``) refuse lists, dicts and ``None``.
"""

from datetime import UTC, datetime

from .models import SearchResponse, SearchSource
from .providers._common import parse_date

__all__ = ["MetadataValue", "answer_metadata", "iso_date", "page_text", "source_metadata"]

MetadataValue = str | int | bool
"""What a metadata value may be: what every vector store accepts."""


def iso_date(text: str | None) -> str | None:
    """A provider's date as an ISO 8601 instant, or ``None`` when it is no date (``2 days ago``).

    Always an instant with its zone, so a vector store compares every record's date alike:
    a day is its midnight, and a date written without a zone is in UTC, as the core reads
    it (its age, the date filters). Records of a provider that gives days read
    ``2024-05-01T00:00:00`` before, with no zone, beside another's ``...+00:00``.

    Example:
        >>> iso_date("Fri, 29 Mar 2024 12:00:00 GMT")
        '2024-03-29T12:00:00+00:00'
        >>> iso_date("2024-05-01"), iso_date("2 days ago")
        ('2024-05-01T00:00:00+00:00', None)
    """
    if not text or not text.strip():
        return None
    when = parse_date(text.strip(), default=datetime(datetime.now(UTC).year, 1, 1))
    if when is None:
        return None
    return (when if when.tzinfo is not None else when.replace(tzinfo=UTC)).isoformat()


def page_text(source: SearchSource) -> str | None:
    """The text of the page behind ``source`` (``include_content``), when there is one."""
    if source.content is None:
        return None
    return source.content.text or source.content.markdown or None


def source_metadata(
    source: SearchSource, provider: str, rank: int, *, with_content: bool = False
) -> dict[str, MetadataValue]:
    """The flat metadata of one result at its 1-based ``rank``.

    Keys, in order: ``title``, ``url``, ``published_date`` (ISO 8601, when the provider
    gave a readable date), ``age_seconds`` (when known), ``provider``, ``rank``,
    ``engines`` (aggregate results only: ``engine:rank`` pairs joined by commas, such as
    ``duckduckgo:1,mojeek:2``) and, with ``with_content``, ``content``: ``page`` when the
    record holds the page's text, ``snippet`` when the page could not be had.

    Example:
        >>> source_metadata(SearchSource(title="T", url="https://t.example/"), "brave", 1)
        {'title': 'T', 'url': 'https://t.example/', 'provider': 'brave', 'rank': 1}
    """
    metadata: dict[str, MetadataValue] = {"title": source.title, "url": source.url}
    published = iso_date(source.published_date)
    if published is not None:
        metadata["published_date"] = published
    if source.age_seconds is not None:
        metadata["age_seconds"] = source.age_seconds
    metadata["provider"] = provider
    metadata["rank"] = rank
    if source.engines:
        metadata["engines"] = ",".join(f"{e.engine}:{e.rank}" for e in source.engines)
    if with_content:
        metadata["content"] = "page" if page_text(source) else "snippet"
    return metadata


def answer_metadata(response: SearchResponse) -> dict[str, MetadataValue]:
    """The flat metadata of the record holding a provider's written answer (rank 0).

    ``citations`` is how many passages the answer cites and ``citation_urls`` their URLs,
    one per line in citation order (present only when there are citations).
    """
    metadata: dict[str, MetadataValue] = {
        "kind": "answer",
        "provider": response.provider,
        "rank": 0,
        "citations": len(response.citations),
    }
    if response.citations:
        metadata["citation_urls"] = "\n".join(citation.url for citation in response.citations)
    return metadata
