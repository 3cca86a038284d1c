"""A failure of the provider that quotes its error body whole, and everything it shows.

Z.AI puts the body of a failed request into its error text as the body came: an upstream
echoing the key in some form (cut, grouped, encoded) reaches our masking unchanged there,
so the echo-form tests drive that provider and read all a caller can see afterwards.
"""

import json

import pytest

from tests.conformance._leaks import reachable_texts
from websearch_core import AllProvidersFailedError, WebSearch
from websearch_core.testing import Fault, Simulator

__all__ = ["QUOTING", "json_fault", "shown_after_failure"]

QUOTING = "zai"
"""Z.AI: its failure text quotes the upstream's message whole, on 401 and 403 too."""


def json_fault(status: int, message: str) -> Fault:
    """A failure of ``status`` whose JSON body carries ``message``, as an upstream words it."""
    body = json.dumps({"error": {"message": message}})
    return Fault.http(status, body=body, headers={"Content-Type": "application/json"})


async def shown_after_failure(key: str, fault: Fault, sim: Simulator) -> list[str]:
    """A tool call and a raising search failing by ``fault``: the text and all the error holds."""
    sim[QUOTING].always(fault)
    async with WebSearch(sim.settings(rate_limit_wait_seconds=0), api_keys={QUOTING: key}) as ws:
        result = await ws.run("python asyncio", provider=QUOTING)
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search("python asyncio", provider=QUOTING, use_cache=False)
    assert result.error is not None and sim[QUOTING].requests
    return [result.text, repr(result), *reachable_texts(caught.value)]
