"""Compatibility path: quota policy lives in :mod:`websearch_core.orchestration.quota`.

Kept so that ``from websearch_core.quota import Budget`` keeps working; new code imports
from the orchestration package.
"""

from .orchestration.quota import (
    Budget,
    FailurePolicy,
    Period,
    Rate,
    describe_mark,
    is_transient,
    mark_for_failure,
    period_window,
    start_of_next_month,
)

__all__ = [
    "Budget",
    "FailurePolicy",
    "Period",
    "Rate",
    "describe_mark",
    "is_transient",
    "mark_for_failure",
    "period_window",
    "start_of_next_month",
]
