"""Pinning the JSON-RPC ids a Z.AI session sends, for tests whose replies are fixed text.

Z.AI's reader takes the reply to its request's own ``id`` (a fresh UUID a request); a
test that scripts its replies as fixed JSON names their ids up front, so the requests
must go with those ids for the replies to answer them.
"""

import pytest


def pin_rpc_ids(monkeypatch: pytest.MonkeyPatch, *ids: str) -> None:
    """Send ``ids`` in order as the session's JSON-RPC ids, the last one from then on."""
    left = list(ids)

    def next_id() -> str:
        return left.pop(0) if len(left) > 1 else left[0]

    monkeypatch.setattr("websearch_core.providers.zai.rpc_id", next_id)
    monkeypatch.setattr("websearch_core.providers._zai_session.rpc_id", next_id)
