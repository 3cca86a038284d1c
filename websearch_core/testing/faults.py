"""Faults the simulator can inject instead of a normal answer.

A :class:`Fault` is a value; :class:`~websearch_core.testing.simulator.SimulatedProvider`
serves queued faults in order, then falls back to its sticky fault (if any), then to the
provider's normal answer.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Fault", "FaultKind", "Framing"]

FaultKind = Literal[
    "status",
    "hang",
    "reset",
    "truncate",
    "malformed",
    "challenge",
    "oversized",
    "raw",
    "cut",
    "stall",
    "held",
]

Framing = Literal["declared", "chunked", "gzip"]
"""How an oversized body travels: with its ``Content-Length``, in chunks with none, or
gzip-compressed in chunks (so only its inflated size is over the cap)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Fault:
    """One injected misbehaviour.

    Use the constructors (``Fault.rate_limited(retry_after=1)``) rather than the fields.
    """

    kind: FaultKind
    status: int = 500
    body: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    size: int = 0
    framing: Framing = "declared"
    raw: bytes = b""
    trailer: bytes = b""
    """What a ``held`` fault sends after the answer's body."""
    first: int = 0
    """How many of a ``held`` body's first bytes go alone, before the rest (0: none)."""

    @classmethod
    def http(cls, status: int, body: str = "", headers: Mapping[str, str] | None = None) -> "Fault":
        """Answer with ``status``, ``body`` and ``headers``."""
        return cls(kind="status", status=status, body=body, headers=dict(headers or {}))

    @classmethod
    def rate_limited(cls, retry_after: float | None = None, body: str = "rate limited") -> "Fault":
        """HTTP 429, with ``Retry-After`` when given."""
        headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else {}
        return cls.http(429, body, headers)

    @classmethod
    def payment_required(cls, body: str = "payment required") -> "Fault":
        """HTTP 402: credits spent."""
        return cls.http(402, body)

    @classmethod
    def unauthorized(cls, body: str = "invalid token") -> "Fault":
        """HTTP 401."""
        return cls.http(401, body)

    @classmethod
    def forbidden(cls, body: str = "forbidden") -> "Fault":
        """HTTP 403."""
        return cls.http(403, body)

    @classmethod
    def server_error(cls, status: int = 500, body: str = "internal error") -> "Fault":
        """A 5xx status."""
        return cls.http(status, body)

    @classmethod
    def hang(cls, seconds: float = 3600.0) -> "Fault":
        """Accept the request and say nothing for ``seconds`` (past any sane timeout)."""
        return cls(kind="hang", seconds=seconds)

    @classmethod
    def reset(cls) -> "Fault":
        """Drop the connection before any response."""
        return cls(kind="reset")

    @classmethod
    def truncate(cls) -> "Fault":
        """Send headers promising a body, half of it, then close."""
        return cls(kind="truncate")

    @classmethod
    def malformed(cls) -> "Fault":
        """HTTP 200 with a body the provider's parser cannot read."""
        return cls(kind="malformed")

    @classmethod
    def challenge(cls) -> "Fault":
        """The provider's bot-challenge page (providers without one answer 403)."""
        return cls(kind="challenge")

    @classmethod
    def redirect(cls, location: str, status: int = 307) -> "Fault":
        """Redirect to ``location`` (another origin, a ``file:`` URL ...)."""
        return cls.http(status, "", {"Location": location})

    @classmethod
    def oversized(
        cls,
        size: int = 16 * 1024 * 1024,
        framing: Framing = "declared",
        status: int = 200,
        headers: Mapping[str, str] | None = None,
    ) -> "Fault":
        """A body of ``size`` bytes, streamed as ``framing`` says, with ``status``.

        The simulator writes it a piece at a time, so a body of hundreds of megabytes costs
        the test process no more than one piece. A ``status`` other than 200 (a 503 or a 429,
        with ``headers`` such as ``Retry-After``) is an error page past every size cap.
        """
        return cls(
            kind="oversized", size=size, framing=framing, status=status, headers=dict(headers or {})
        )

    @classmethod
    def not_http(cls, data: bytes = b"HELLO WORLD\r\n\r\n") -> "Fault":
        """Answer with ``data`` in place of an HTTP response (a bad status line), then close."""
        return cls(kind="raw", raw=data)

    @classmethod
    def cut(cls, head: bytes) -> "Fault":
        """Send ``head`` (a status line and headers, perhaps some body), then drop the connection.

        A reply that breaks after it began: the headers promise a body that never comes.
        """
        return cls(kind="cut", raw=head)

    @classmethod
    def stall(cls, head: bytes, seconds: float = 3600.0) -> "Fault":
        """Send ``head`` (a status line, headers and the first bytes), then nothing for ``seconds``.

        A slow-loris reply: it started in time, so only a deadline over the whole exchange
        (not one to the first byte) ends it.
        """
        return cls(kind="stall", raw=head, seconds=seconds)

    @classmethod
    def held_open(
        cls,
        *,
        before: bytes = b"",
        after: bytes = b"",
        content_type: str | None = None,
        framing: Framing = "chunked",
        first: int = 0,
        seconds: float = 3600.0,
    ) -> "Fault":
        """The provider's normal answer, then the socket held open for ``seconds``.

        A server or proxy that keeps the connection after its last event: only the
        reader's own end of the stream (its closing event, or a declared length) ends the
        read, never the close. The answer is the protocol's own, so it carries what the
        request asked for (a JSON-RPC reply the request's ``id``).

        Args:
            before: Bytes sent ahead of the answer's body (MCP notifications before the
                reply, another API's events).
            after: Bytes sent after it (another API's events after the reply).
            content_type: The label in place of the answer's own (a gateway relabelling a
                stream as ``application/json``).
            framing: ``"chunked"``: the body as one chunk with no last chunk, so it never
                ends; ``"declared"``: its ``Content-Length`` and ``Connection: close``, and
                the socket kept after it (only the length can end the body).
            first: The body's first bytes sent on their own (a server flushing a few bytes
                before the rest, so the client's first read is shorter than ``data:``);
                the rest follows once the client's loop had its turn to read them.
            seconds: How long the socket is held before the simulator lets go.
        """
        headers = {"Content-Type": content_type} if content_type else {}
        return cls(
            kind="held",
            raw=before,
            trailer=after,
            headers=headers,
            framing=framing,
            first=first,
            seconds=seconds,
        )

    @classmethod
    def undecodable(cls, encoding: str = "gzip") -> "Fault":
        """HTTP 200 whose body claims ``Content-Encoding: encoding`` but is not encoded so."""
        headers = {"Content-Encoding": encoding, "Content-Type": "application/json"}
        return cls(kind="status", status=200, body="{}" * 64, headers=headers)
