"""A key in the SearXNG endpoint's query under a name that does not say "key" never shows.

Stop 51 took a query parameter for a credential by its name holding ``key``, ``token``,
``auth``, ``secret``, ``pass``, ``sig``, ``session`` or ``credential``. Gateways name it
otherwise: Azure Functions' ``?code=``, ``?pwd=``, ``?jwt=``, a gateway reading the key
from ``?q=``, or a name of its own (``?x=``). The endpoint's query is sent with every
search, so a gateway quoting the refused request put the key in the error, the tool's
text and the DEBUG line. Driven on the loopback simulator, read with the walk of
``_leaks.reachable_texts``.
"""

import json
import logging

import pytest

from tests.conformance._leaks import echo_forms_seen, library_logs, reachable_texts
from websearch_core import AllProvidersFailedError, WebSearch
from websearch_core.query_secrets import query_secrets
from websearch_core.testing import Fault, Simulator

KEY = "sk-proj-Q7fK2mVt9XbL4nRw8ZcJ1pHs6dGy3uEa"
"""A key of a real provider's shape (OpenAI's project keys): 40 characters."""
SHORT = "Zq81mWx4"
"""A short key (8 characters): only its name can say it is one."""


def _fault(status: int, name: str, secret: str) -> Fault:
    """A failure of ``status`` whose body quotes the refused request line."""
    body = json.dumps({"error": {"message": f"refused GET /search?{name}={secret}&format=json"}})
    return Fault.http(status, body=body, headers={"Content-Type": "application/json"})


async def _seen(name: str, secret: str, status: int) -> tuple[list[str], str]:
    """Everything a tool call and a raising search give back, and what was sent first as
    ``name`` (the endpoint's ``q`` is sent before the search's own)."""
    async with Simulator(["searxng"]) as sim:
        origin = sim["searxng"].base_url
        sim["searxng"].always(_fault(status, name, secret))
        settings = sim.settings(
            rate_limit_wait_seconds=0, searxng={"endpoint": f"{origin}/?{name}={secret}"}
        )
        async with WebSearch(settings) as ws:
            result = await ws.run("python asyncio", provider="searxng")
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider="searxng", use_cache=False)
        sent = [value for key, value in sim["searxng"].requests[0].query if key == name]
    assert result.error is not None
    return [result.text, repr(result), *reachable_texts(caught.value)], sent[0]


@pytest.mark.parametrize("status", [429, 500])
@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("code", KEY),
        ("pwd", SHORT),
        ("jwt", KEY),
        ("x", KEY),
        ("gw", KEY),
        ("code", SHORT),
        ("q", SHORT),
    ],
)
async def test_a_key_under_an_ordinary_name_never_shows(
    name: str, secret: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Failed before for each name and status: the value was no secret."""
    caplog.set_level(logging.DEBUG)
    seen, sent = await _seen(name, secret, status)
    assert sent == secret, "the endpoint's query is sent: the echo is of a real request"
    everything = [*seen, *library_logs(caplog.records)]
    assert "refused GET /search?" in seen[0]
    assert secret not in "\n".join(everything)
    assert echo_forms_seen(secret, everything) == []


def test_each_documented_query_key_name_is_read() -> None:
    """A guard (passed before): the reference's query key names (Exa MCP's ``exaApiKey``)
    and the usual ones are credentials."""
    names = ["exaApiKey", "key", "api_key", "apikey", "access_token", "auth", "token"]
    for name in names:
        assert query_secrets(f"https://gw.example/?{name}=v4lue") == ("v4lue",), name


def test_guard_settings_in_the_query_are_no_secrets() -> None:
    """A guard: the settings a SearXNG endpoint carries stay ordinary text."""
    url = (
        "https://searx.example/?engines=google,duckduckgo,bing&language=en-US"
        "&categories=general,science&country_code=de&time_range=month&safesearch=1"
        "&theme=simple&format=json&pageno=2&image_proxy=True&api-version=2024-06-01"
        "&deployment=gpt-4o-mini-2024-07-18&tenant=1b4e28ba-2fa1-11d2-883f-0016d3cca427"
    )
    assert query_secrets(url) == ()
