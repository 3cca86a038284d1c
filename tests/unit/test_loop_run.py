"""``run_to_end``: ``asyncio.run``'s value and errors, without rendering the value."""

import asyncio
import signal

import pytest

from websearch_core.loop_run import run_to_end


class _Rendered:
    """A value that counts how often it is rendered with ``repr()``."""

    def __init__(self) -> None:
        self.renders = 0

    def __repr__(self) -> str:
        self.renders += 1
        return "_Rendered()"


def test_the_value_comes_back_unrendered() -> None:
    value = _Rendered()

    async def give() -> _Rendered:
        await asyncio.sleep(0)
        return value

    assert run_to_end(give()) is value
    assert value.renders == 0


def test_the_coroutines_error_is_raised_as_it_was() -> None:
    async def fail() -> None:
        raise LookupError("no such thing")

    with pytest.raises(LookupError, match=r"^no such thing$"):
        run_to_end(fail())


def test_ctrl_c_cancels_the_coroutine_and_raises_keyboard_interrupt() -> None:
    cancelled: list[bool] = []

    async def wait_for_ever() -> None:
        asyncio.get_running_loop().call_later(0.05, signal.raise_signal, signal.SIGINT)
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    with pytest.raises(KeyboardInterrupt):
        run_to_end(wait_for_ever())
    assert cancelled == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
