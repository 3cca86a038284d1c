"""Compatibility path: the ledger lives in :mod:`websearch_core.orchestration.ledger`.

Kept so that ``from websearch_core.ledger import Ledger`` keeps working; new code imports
from the orchestration package.
"""

from .orchestration.ledger import (
    DEFAULT_MAX_WAIT,
    USAGE_PERIOD,
    Ledger,
    ProviderSkippedError,
    Reservation,
    mark_scope,
)

__all__ = [
    "DEFAULT_MAX_WAIT",
    "USAGE_PERIOD",
    "Ledger",
    "ProviderSkippedError",
    "Reservation",
    "mark_scope",
]
