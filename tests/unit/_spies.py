"""A call counter for tests that must show a step was (or was not) taken again."""

from typing import Any

import pytest


def count_calls(target: object, name: str, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the calls of ``target``'s method ``name`` (one entry a call); each still runs.

    The method is replaced on ``target`` alone (an instance keeps its class untouched) and
    restored by ``monkeypatch`` after the test.
    """
    calls: list[int] = []
    method = getattr(target, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return method(*args, **kwargs)

    monkeypatch.setattr(target, name, counted)
    return calls
