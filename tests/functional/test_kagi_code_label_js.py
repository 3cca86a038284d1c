"""Kagi's 2xx error label reads its code as the reference's ``first.code || status`` does.

The reference writes the label in JavaScript, in a template literal: a truthy code is shown
by ``String(code)`` (``true`` as ``true``, the JSON number ``429.0`` as ``429``, ``1.5`` as
``1.5``, an array joined by commas, an object as ``[object Object]``), a falsy one (``null``,
``false``, ``""``, ``0``) gives the HTTP status. Before, only strings and integers were
shown; ``true``, every float, arrays and objects gave the status, and an integer past 2**53
kept digits ``JSON.parse`` drops. Each row was checked against Node 20's own
``${code || 200}`` of the same JSON text (scratch script, outside the tree).

Each row is a 2xx body served by the loopback simulator and read through ``WebSearch``.
"""

from typing import Final

import pytest

from tests.functional._sim_helpers import failure_after, sim_client
from websearch_core.errors import RateLimitedError
from websearch_core.testing import Fault, Simulator

JSON: Final = {"Content-Type": "application/json"}

LABELS: Final = [
    pytest.param("true", "true", id="true"),
    pytest.param("429.0", "429", id="429.0"),
    pytest.param("1.5", "1.5", id="1.5"),
    pytest.param("-2.50", "-2.5", id="-2.50"),
    pytest.param("1e21", "1e+21", id="1e21"),
    pytest.param("1E-7", "1e-7", id="1E-7"),
    pytest.param("12345678901234567890", "12345678901234567000", id="past-2**53"),
    pytest.param("[]", "", id="empty-array"),
    pytest.param("[429]", "429", id="one-item-array"),
    pytest.param("[1, [2, null], true]", "1,2,,true", id="nested-array"),
    pytest.param("{}", "[object Object]", id="empty-object"),
    pytest.param('{"status": 429}', "[object Object]", id="object"),
]
"""A code as JSON text and the label JavaScript's ``${code || status}`` gives it: all
failed before (the status, or the integer's every digit)."""

HELD: Final = [
    pytest.param("null", "200", id="null"),
    pytest.param("false", "200", id="false"),
    pytest.param('""', "200", id="empty-string"),
    pytest.param("0", "200", id="0"),
    pytest.param("-0.0", "200", id="-0.0"),
    pytest.param('"0"', "0", id="string-0"),
    pytest.param("7", "7", id="7"),
    pytest.param('"E42"', "E42", id="text"),
]
"""Guards: rows that read the same before (falsy codes give the status; text and small
integers are shown as sent)."""


async def _kagi_failure(
    code_json: str, entry_rest: str = ', "msg": "Too many requests"'
) -> Exception:
    body = f'{{"data": null, "error": [{{"code": {code_json}{entry_rest}}}]}}'
    async with Simulator(["kagi"]) as sim:
        fault = Fault.http(200, body, JSON)
        return await failure_after(sim, "kagi", "code label", fault, always=True, cache=False)


@pytest.mark.parametrize(("code_json", "label"), LABELS + HELD)
async def test_kagi_s_label_is_javascript_s_code_or_status(code_json: str, label: str) -> None:
    """The label is ``String(code || status)``; see :data:`LABELS` and :data:`HELD`."""
    failure = await _kagi_failure(code_json)

    assert str(failure) == f"Kagi API error ({label}): Too many requests"


async def test_a_whole_float_status_code_types_the_failure_as_its_status() -> None:
    """Failed before: ``429.0`` is the number 429 to ``JSON.parse``, so it is a rate limit as
    ``429`` is (a plain failure before)."""
    failure = await _kagi_failure("429.0")

    assert isinstance(failure, RateLimitedError)


async def test_a_number_code_without_a_message_is_the_message() -> None:
    """Failed before: the reference takes a finite number as the message when no
    ``message``/``msg`` is given (``String(value)``); a float was no message, so the body
    read as a success with no ``data`` and the error was lost."""
    failure = await _kagi_failure("1.5", "")

    assert str(failure) == "Kagi API error (1.5): 1.5"


async def _kagi_body_failure(status: int, errors: str) -> Exception:
    body = f'{{"data": null, "error": {errors}}}'
    async with Simulator(["kagi"]) as sim:
        fault = Fault.http(status, body, JSON)
        return await failure_after(sim, "kagi", "later entry", fault, always=True, cache=False)


@pytest.mark.parametrize("status", [200, 400])
async def test_kagi_reads_the_message_of_a_later_error_entry(status: int) -> None:
    """Failed before: only the first entry was read, so a first entry with no message left
    the 400 quoted raw and the 200 refused as ``expected data to be an object``, the
    error unsaid; the reference reads each entry in order for one."""
    failure = await _kagi_body_failure(status, '[{"location": "query"}, {"msg": "Bad query"}]')

    assert str(failure) == f"Kagi API error ({status}): Bad query"


async def test_kagi_s_label_takes_the_first_entry_s_code_only() -> None:
    """Failed before (no message read): the label's code is the first entry's (a string
    here, so no code: the status), the message a later entry's."""
    failure = await _kagi_body_failure(200, '["query", {"msg": "Bad query", "code": 5}]')

    assert str(failure) == "Kagi API error (200): Bad query"


async def test_kagi_s_first_entry_still_wins() -> None:
    """A guard (held before): a first entry with a message gives it, whatever follows."""
    failure = await _kagi_body_failure(200, '[{"msg": "First", "code": 7}, {"msg": "Second"}]')

    assert str(failure) == "Kagi API error (7): First"


@pytest.mark.parametrize(
    ("meta", "request_id"),
    [
        pytest.param('{"trace": 1.5, "id": "abc"}', "1.5", id="float-trace"),
        pytest.param('{"id": 7.0}', "7", id="whole-float-id"),
        pytest.param('{"id": 12345678901234567890}', "12345678901234567000", id="past-2**53"),
    ],
)
async def test_kagi_s_numeric_request_id_reads_as_javascript(meta: str, request_id: str) -> None:
    """Failed before: a float was passed over (the ``id``, or none) and a long integer kept
    digits ``JSON.parse`` drops; the reference passes ``meta.trace ?? meta.id`` on as it
    came, a number as its ``String``."""
    body = (
        f'{{"meta": {meta}, "data": {{"search": [{{"url": "https://a.example/", "title": "A"}}]}}}}'
    )
    async with Simulator(["kagi"]) as sim:
        sim["kagi"].always(Fault.http(200, body, JSON))
        async with sim_client(sim, cache=False) as ws:
            response = await ws.search("request id", provider="kagi")

    assert response.request_id == request_id
