"""Constants and builders the LangChain and LlamaIndex integration tests share."""

from websearch_core import SEARCH_PROVIDER_ORDER, Settings
from websearch_core.testing import Simulator

MODEL_FIELDS = ["query", "recency", "limit", "max_tokens", "temperature", "num_search_results"]
"""The tool arguments a model sees, in schema order."""

SOURCE_KEYS = ["title", "url", "published_date", "age_seconds", "provider", "rank", "engines"]
"""The metadata keys of one retrieved document or node, in order."""


def sim_settings(sim: Simulator, *exclude: str) -> Settings:
    """Only the simulated providers may run (a keyless one must never reach the real site)."""
    others = tuple(pid for pid in SEARCH_PROVIDER_ORDER if pid not in sim.providers)
    return sim.settings(exclude=(*others, *exclude))
