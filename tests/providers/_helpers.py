"""Builders shared by the provider parser tests: a keyed context and canned responses."""

import json
from pathlib import Path
from typing import Any, Final

from websearch_core.credentials import Credentials, CredentialStore, OAuthToken
from websearch_core.providers.base import ProviderContext
from websearch_core.settings import Settings
from websearch_core.testing import MockTransport, scripted
from websearch_core.transport import HttpRequest, HttpResponse, SseResponse, Transport

OFFLINE: Final = object()
"""``transport=OFFLINE`` gives a real ``Transport`` with no HTTP session (nothing is sent)."""


def offline_transport() -> Transport:
    """A ``Transport`` without a session: enough for building requests, never for sending."""
    return Transport(None, timeout_seconds=5, max_response_bytes=1 << 20)  # type: ignore[arg-type]


def key_context(
    provider: str,
    key: str | None,
    *,
    transport: Any = OFFLINE,
    environ: dict[str, str] | None = None,
    system_prompt: str = "",
) -> ProviderContext:
    """A context whose only explicit credential is ``key`` for ``provider`` (none if falsy)."""
    return ProviderContext(
        transport=offline_transport() if transport is OFFLINE else transport,
        settings=Settings(),
        credentials=Credentials(explicit={provider: key} if key else {}, environ=environ or {}),
        system_prompt=system_prompt,
    )


def ok(body: Any, headers: dict[str, str] | None = None) -> HttpResponse:
    """A 200 response whose body is ``body`` as JSON."""
    return HttpResponse(status=200, body=json.dumps(body).encode(), headers=headers or {})


def status(code: int, body: str = "", headers: dict[str, str] | None = None) -> HttpResponse:
    """A ``code`` response with a text ``body``."""
    return HttpResponse(status=code, body=body.encode(), headers=headers or {})


def stored_context(
    provider: str,
    tmp_path: Path | None,
    *,
    keys: dict[str, str] | None,
    environ: dict[str, str] | None,
    token: OAuthToken | None,
    system_prompt: str,
) -> ProviderContext:
    """A context with explicit ``keys`` and, under ``tmp_path``, a store holding ``token``."""
    store = None
    if tmp_path is not None:
        store = CredentialStore(tmp_path / "credentials.json")
        if token is not None:
            store.set_oauth(provider, token)
    return ProviderContext(
        transport=offline_transport(),
        settings=Settings(),
        credentials=Credentials(explicit=keys or {}, store=store, environ=environ or {}),
        system_prompt=system_prompt,
    )


class ScriptedTransport(MockTransport):
    """Answers each request with the next scripted response (an exception is raised).

    A thin wrapper over :class:`websearch_core.testing.MockTransport`, so the transport's
    own paths (base URL, time bound, size cap, SSE parsing, error mapping) still run.

    Args:
        responses: The answers, in order; a request past the end fails the test.
        provider: ``(id, label)`` every request must be sent for.
    """

    def __init__(
        self, *responses: HttpResponse | BaseException, provider: tuple[str, str] | None = None
    ) -> None:
        super().__init__(scripted(*responses))
        self.expected = provider

    @property
    def sent(self) -> list[HttpRequest]:
        """The requests sent so far."""
        return self.requests

    async def send(
        self, provider: str, label: str, request: HttpRequest, **kw: Any
    ) -> HttpResponse:
        assert self.expected in (None, (provider, label)), (provider, label)
        return await super().send(provider, label, request, **kw)

    async def send_sse(
        self, provider: str, label: str, request: HttpRequest, **kw: Any
    ) -> SseResponse:
        assert self.expected in (None, (provider, label)), (provider, label)
        return await super().send_sse(provider, label, request, **kw)
