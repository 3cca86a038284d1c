"""Constants and builders the LangChain and LlamaIndex integration tests share."""

from collections.abc import Mapping

from websearch_core import SEARCH_PROVIDER_ORDER, Settings
from websearch_core.testing import Simulator

MODEL_FIELDS = ["query", "recency", "limit", "max_tokens", "temperature", "num_search_results"]
"""The tool arguments a model sees, in schema order."""

SOURCE_KEYS = ["title", "url", "published_date", "age_seconds", "provider", "rank"]
"""The metadata keys of one retrieved document or node, in order (a dated, single-engine
result; ``engines`` is only there for aggregate results)."""


def assert_flat(metadata: Mapping[str, object]) -> None:
    """Every value is what any vector store accepts: a string, an int or a bool."""
    for key, value in metadata.items():
        assert type(value) in (str, int, bool), f"{key}: {value!r} is not flat"


def sim_settings(sim: Simulator, *exclude: str) -> Settings:
    """Only the simulated providers may run (a keyless one must never reach the real site)."""
    others = tuple(pid for pid in SEARCH_PROVIDER_ORDER if pid not in sim.providers)
    return sim.settings(exclude=(*others, *exclude))
