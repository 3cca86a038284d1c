"""An HTML engine holds one page's body at a time, however many pages a search reads.

A page's body is wanted until the engine has read its sources; the setup step's (Startpage's
home page) until the search request is built from it. Holding them longer kept a 7 MB page
(or two) while the next one arrived. Each answer here is a fresh copy of a large capture, so
``tracemalloc``'s peak counts every body still held when the next is made.
"""

import tracemalloc

import pytest

from tests.conftest import read_capture
from websearch_core.credentials import Credentials
from websearch_core.loop_run import run_to_end
from websearch_core.models import SearchParams
from websearch_core.provider_types import ProviderContext
from websearch_core.providers import get_provider
from websearch_core.settings import Settings
from websearch_core.testing import MockTransport
from websearch_core.transport import HttpRequest, HttpResponse

SIZE = 2_000_000


def _large(capture: str) -> bytes:
    """The capture with an ASCII comment before ``</body>``: about :data:`SIZE` bytes."""
    body = read_capture(capture)
    at = body.rindex(b"</body>")
    return body[:at] + b"<!-- " + b"x" * (SIZE - len(body)) + b" -->" + body[at:]


def _search(provider: str, page: bytes) -> tuple[int, int, int]:
    """``(requests made, sources, peak traced bytes)`` of one search answered with copies."""

    def answer(request: HttpRequest) -> HttpResponse:
        fresh = bytes(memoryview(page))  # a new body each time, as from the network
        return HttpResponse(status=200, body=fresh, url=request.url)

    transport = MockTransport(answer, timeout_seconds=60, max_response_bytes=8 << 20)
    context = ProviderContext(
        transport=transport,
        settings=Settings(),
        credentials=Credentials(explicit={}, environ={}),
        system_prompt="",
    )
    search = get_provider(provider).search(SearchParams(query="q", num_search_results=20), context)
    tracemalloc.start()
    try:
        sources = len(run_to_end(search).sources)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return len(transport.requests), sources, peak


@pytest.mark.parametrize(
    ("provider", "capture", "requests"),
    [
        ("duckduckgo", "duckduckgo/html_results_eino_2025.html", 2),  # two pages
        ("startpage", "startpage/serp_javascript_tutorial_http_2026.html", 3),  # home, 2 pages
    ],
)
def test_a_search_of_several_large_pages_holds_one_body_at_a_time(
    provider: str, capture: str, requests: int
) -> None:
    page = _large(capture)
    made, sources, peak = _search(provider, page)
    assert made == requests and sources > 0  # every step was made and read
    assert peak < 1.5 * len(page), (peak, len(page))  # one body; each one more held is 1x
