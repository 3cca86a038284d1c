"""One search of a 200 body served through the loopback simulator, and what it left behind.

The bounds tests (``test_response_bounds``, ``test_page_bounds``) grow one field of a real
capture and read the same three outputs: the tool's result, the command's ``--json`` and the
rows the cache stored. The body is built once the simulator has dealt the provider's key, so
a test can put the key where an upstream would echo it.
"""

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websearch_core import WebSearch
from websearch_core.cli_output import json_text, search_json
from websearch_core.models import SearchToolResult
from websearch_core.state.base import STATE_FILE_NAME
from websearch_core.testing import Fault, Simulator

__all__ = ["Served", "serve_body"]

BodyFor = Callable[[str], tuple[str, str]]
"""From the provider's key: the body served and its ``Content-Type``."""


class Served:
    """What one search of a served body gave: the tool result, its JSON and cache rows."""

    def __init__(self, result: SearchToolResult, cache_rows: list[int], key: str) -> None:
        self.key = key
        self.result = result
        self.text = result.text
        self.json = json_text(search_json(result))
        self.cache_rows = cache_rows


async def serve_body(
    provider: str, body_for: BodyFor, state: Path | None = None, **settings: Any
) -> Served:
    """Search ``provider`` answering every request with ``body_for(key)``.

    Args:
        provider: The provider searched.
        body_for: The body and its content type, given the key the simulator dealt.
        state: A directory for a SQLite store (the cache on); ``None``: no cache.
        **settings: More settings (a raised ``max_response_bytes``, say).
    """
    async with Simulator([provider]) as sim:
        key = sim.api_keys()[provider]
        served, content_type = body_for(key)
        sim[provider].always(Fault.http(200, served, {"Content-Type": content_type}))
        stored: dict[str, Any] = {"cache": False}
        if state is not None:
            stored = {"state_backend": "sqlite", "state_dir": state}
        config = sim.settings(provider=provider, rate_limit_wait_seconds=0, **stored, **settings)
        async with WebSearch(config, api_keys=sim.api_keys()) as search:
            result = await search.run("python asyncio")
    assert not result.text.startswith("Error:"), result.text[:300]
    rows: list[int] = []
    if state is not None:
        with sqlite3.connect(state / STATE_FILE_NAME) as store:
            rows = [size for (size,) in store.execute("SELECT length(value) FROM cache")]
    return Served(result, rows, key)
