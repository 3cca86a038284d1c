"""How the Codex backend's error bodies read: OpenAI's ``error.code`` beside the status.

OpenAI answers every billing refusal with a 429 whose ``error.type`` is
``insufficient_quota``, and tells them apart only by ``error.code``
(https://developers.openai.com/api/docs/guides/error-codes, "429 - Credit balance
exhausted"; https://help.openai.com/en/articles/6614457-troubleshooting-api-usage-and-spend-limits):

* ``credit_balance_exhausted``: no prepaid credits left; adding credits restores access.
* ``organization_spend_limit_exceeded`` / ``project_spend_limit_exceeded``: a hard spend
  limit the owner set (https://developers.openai.com/api/docs/guides/spend-limits.md);
  raising it restores access.
* ``organization_usage_limit_exceeded``: the usage limit OpenAI assigned; only OpenAI
  raises it, so it stays a spent quota held out until next month.

The first three are a :class:`~websearch_core.errors.CreditsSpentError`, checked again
after a while. An ``insufficient_quota`` without one of those codes cannot be told from
the assigned limit and stays the shared classifier's spent quota. The documents are the
public API's; that ``chatgpt.com``'s Codex backend sends the same codes is not confirmed.
"""

from typing import Any, Final

from ..errors import CreditsSpentError
from ..js_trim import trim
from ..json_decode import decoded_json
from .base import ErrorMap

__all__ = ["ERRORS", "SPENT_BALANCE_CODES", "error_code"]

SPENT_BALANCE_CODES: Final = frozenset(
    {
        "credit_balance_exhausted",
        "organization_spend_limit_exceeded",
        "project_spend_limit_exceeded",
    }
)
"""OpenAI's ``error.code`` values for a balance or spend limit its owner tops up or raises."""


def error_code(body: str) -> str | None:
    """The ``error.code`` of an OpenAI error body, or ``None`` when it has none.

    Example:
        >>> error_code('{"error": {"code": "credit_balance_exhausted"}}')
        'credit_balance_exhausted'
    """
    try:
        data: Any = decoded_json(body)  # a head, its one mark dropped where it was decoded
    except ValueError:
        return None
    error = data.get("error") if isinstance(data, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return trim(code) or None if isinstance(code, str) else None


ERRORS: Final = ErrorMap(
    prefix="Codex API error",
    code=error_code,
    codes=dict.fromkeys(sorted(SPENT_BALANCE_CODES), CreditsSpentError),
)
"""The Codex provider's error map: the shared classifier, and :data:`SPENT_BALANCE_CODES`."""
