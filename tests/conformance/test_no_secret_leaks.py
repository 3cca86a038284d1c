"""No provider lets its key reach the model's text, the metadata, an error or a log line.

Each keyed provider is driven through the simulator with a server that echoes the key back
in an error body and in a malformed success body.
"""

import logging

import pytest

from websearch_core import AllProvidersFailedError, WebSearch
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider
from websearch_core.testing import PROTOCOLS, Fault, Simulator

pytestmark = pytest.mark.usefixtures("short_gemini_backoff")  # its resends' waits: 1/100

KEY = "sk-live-0123456789abcdef"
KEYED = [
    pid for pid in SEARCH_PROVIDER_ORDER if pid in PROTOCOLS and get_provider(pid).info.env_vars
]


@pytest.mark.parametrize("provider_id", KEYED)
@pytest.mark.parametrize("status", [400, 401, 429, 500])
async def test_an_echoed_key_never_leaks(
    provider_id: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with Simulator([provider_id]) as sim:
        sim[provider_id].always(Fault.http(status, body=f'{{"error": "bad key {KEY}"}}'))
        settings = sim.settings(rate_limit_wait_seconds=0)
        async with WebSearch(settings, api_keys={provider_id: KEY}) as ws:
            result = await ws.run("python asyncio", provider=provider_id)
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider=provider_id, use_cache=False)
    assert result.error is not None
    assert sim[provider_id].requests, "the provider should have been asked"
    seen = "\n".join(
        [
            result.text,
            result.response.model_dump_json(),
            str(caught.value),
            repr(caught.value.failures),
            *(record.getMessage() for record in caplog.records),
        ]
    )
    assert KEY not in seen
