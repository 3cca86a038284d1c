"""Count where a test's models are rendered as text (``repr``), which must not happen.

Python 3.11/3.12's ``asyncio.run`` renders its main task's result with ``repr()`` as it
ends (twice, then drops it): for a search or a fetched page, tens of MB of text. The sync
bridge and the commands hand it nothing large (:mod:`websearch_core.loop_run`); tests
check that by counting renderings of the models that would be large.
"""

import pytest


def count_renderings(monkeypatch: pytest.MonkeyPatch, *models: type) -> list[str]:
    """From now on, each ``repr()`` of an instance of ``models`` appends its class's name.

    Returns:
        The list the names are appended to (empty while nothing was rendered).
    """
    rendered: list[str] = []

    def counted(model: object) -> str:
        rendered.append(type(model).__name__)
        return type(model).__name__

    for model in models:
        monkeypatch.setattr(model, "__repr__", counted)
    return rendered
