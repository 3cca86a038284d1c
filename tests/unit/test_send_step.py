"""``send_step`` routes each request to the right fetcher with the right size cap.

It hands back the fetcher's own awaitable instead of awaiting it in a frame of its own, so
these tests pin what reaches the transport (plain or streamed, the provider's cap against
the transport's) and that a step with its own fetcher never reaches the transport.
"""

from typing import Any, ClassVar

import pytest

from websearch_core.credentials import Credentials
from websearch_core.models import SearchParams, SearchResponse
from websearch_core.providers.base import ProtocolProvider, ProviderContext, ProviderInfo
from websearch_core.request_loop import run_protocol, send_step
from websearch_core.settings import Settings
from websearch_core.transport import HttpRequest, HttpResponse, SseResponse, Transport

INFO = ProviderInfo(id="capped", label="Capped", kind="api", description="d", docs_url="x")
OK = HttpResponse(status=200, body=b"{}")


class _Recording(Transport):
    """Records every send and its keyword options instead of touching a socket."""

    def __init__(self, cap: int) -> None:
        super().__init__(None, timeout_seconds=5, max_response_bytes=cap)  # type: ignore[arg-type]
        self.calls: list[tuple[str, HttpRequest, dict[str, Any]]] = []

    async def send(self, provider: str, label: str, request: HttpRequest, **options: Any) -> Any:
        self.calls.append(("send", request, options))
        return OK

    async def send_sse(
        self, provider: str, label: str, request: HttpRequest, **options: Any
    ) -> Any:
        self.calls.append(("send_sse", request, options))
        return SseResponse(status=200, body=b"")


class _Provider(ProtocolProvider):
    info: ClassVar[ProviderInfo] = INFO

    def __init__(self, cap: int | None) -> None:
        self.max_response_bytes = cap  # type: ignore[misc]

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        return HttpRequest(method="GET", url="https://capped.example/", params=(("q", "x"),))

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        return SearchResponse(provider=INFO.id)


def _context(transport: Transport) -> ProviderContext:
    return ProviderContext(
        transport=transport, settings=Settings(), credentials=Credentials(environ={})
    )


@pytest.mark.parametrize(
    ("provider_cap", "transport_cap", "expected"),
    [
        (None, 4096, {}),
        (1024, 4096, {"max_response_bytes": 1024}),
        (8192, 4096, {"max_response_bytes": 4096}),
    ],
)
@pytest.mark.parametrize("stream", [False, True])
async def test_the_cap_is_the_lesser_of_the_provider_and_the_transport(
    provider_cap: int | None, transport_cap: int, expected: dict[str, int], stream: bool
) -> None:
    transport = _Recording(transport_cap)
    request = HttpRequest(method="GET", url="https://capped.example/", stream=stream)
    response = await send_step(_Provider(provider_cap), request, _context(transport))
    assert transport.calls == [("send_sse" if stream else "send", request, expected)]
    assert isinstance(response, SseResponse if stream else HttpResponse)


class _Engine(_Provider):
    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="engine", label="Engine", kind="scraper", description="d", docs_url="x"
    )


@pytest.mark.parametrize(
    ("provider_cap", "expected"),
    [
        (None, {"response_name": "page"}),
        (1024, {"max_response_bytes": 1024, "response_name": "page"}),
    ],
)
async def test_an_html_engines_body_is_named_a_page(
    provider_cap: int | None, expected: dict[str, object]
) -> None:
    # Its size cap then reads "Engine page exceeded ..." where an API's reads
    # "Capped API response exceeded ..." (the transport's default, passed by no keyword).
    transport = _Recording(4096)
    request = HttpRequest(method="GET", url="https://engine.example/")
    await send_step(_Engine(provider_cap), request, _context(transport))
    assert transport.calls == [("send", request, expected)]


async def test_a_step_with_its_own_fetcher_never_reaches_the_transport() -> None:
    transport = _Recording(4096)
    context = _context(transport)
    handed: list[object] = []

    async def fetch(given: Any) -> HttpResponse:
        handed.append(given)
        return HttpResponse(status=201, body=b"own")

    request = HttpRequest(method="GET", url="https://capped.example/", fetch_with=fetch)
    response = await send_step(_Provider(1024), request, context)
    assert response == HttpResponse(status=201, body=b"own")
    assert handed == [context] and transport.calls == []


async def test_a_protocol_provider_search_runs_the_loop_when_awaited() -> None:
    transport = _Recording(4096)
    provider = _Provider(None)
    pending = provider.search(SearchParams(query="x"), _context(transport))
    assert transport.calls == []  # nothing is sent until the search is awaited
    response = await pending
    assert response.provider == INFO.id
    assert [call[0] for call in transport.calls] == ["send"]
    direct = await run_protocol(provider, SearchParams(query="x"), _context(transport))
    assert direct == response
