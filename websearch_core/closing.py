"""``async with`` for everything that owns a session: leaving the block calls ``aclose()``."""

from types import TracebackType
from typing import Self

__all__ = ["AsyncClosing"]


class AsyncClosing:
    """Mixin: ``async with obj:`` returns ``obj`` and awaits ``obj.aclose()`` on the way out.

    The client, the state stores and every tool and retriever hold an HTTP session or a
    connection; this is the one place their context-manager protocol is written.
    """

    __slots__ = ()

    async def aclose(self) -> None:
        """Release what this object holds (each class says what)."""
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()
