"""Compatibility path: planning and the fallback loop live in :mod:`websearch_core.orchestration`.

Kept so that ``from websearch_core.chain import resolve_candidates`` keeps working; new code
imports from the orchestration package (``plan`` for resolution, ``chain`` for the loop).
"""

from .orchestration.attempt import context_secrets
from .orchestration.chain import MIN_ATTEMPT_SECONDS, ChainOutcome, ChainRunner
from .orchestration.ledger import ProviderSkippedError
from .orchestration.plan import ChainPlan, resolve_candidates

__all__ = [
    "MIN_ATTEMPT_SECONDS",
    "ChainOutcome",
    "ChainPlan",
    "ChainRunner",
    "ProviderSkippedError",
    "context_secrets",
    "resolve_candidates",
]
