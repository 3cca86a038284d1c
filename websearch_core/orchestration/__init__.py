"""Orchestration: which providers a call tries, how each attempt runs, and what it costs.

Providers (:mod:`websearch_core.providers`) know one upstream each; everything that decides
*which* of them to ask and *whether* they may be asked lives here:

* :mod:`.plan`: resolution of forced / preferred / listed / excluded ids into a plan.
* :mod:`.chain`: the sequential fallback loop over a plan.
* :mod:`.fanout`: the concurrent fan-out behind the Public Web aggregate.
* :mod:`.attempt`: the one attempt step both of them use, so the time bound, the result
  caps, text sanitising and secret masking hold the same way for every provider.
* :mod:`.ledger` over :mod:`.quota`: skip, reserve, mark and forgive, over the state store.

The older paths ``websearch_core.chain``, ``websearch_core.ledger`` and
``websearch_core.quota`` re-export these names.
"""

from .attempt import attempt_timeout, call_redactor, context_secrets, run_attempt
from .chain import MIN_ATTEMPT_SECONDS, ChainOutcome, ChainRunner
from .fanout import EngineOutcome, FanOutProvider, PublicEnginesFailedError, fan_out, merged_search
from .ledger import Ledger, ProviderSkippedError, mark_scope
from .plan import ChainPlan, resolve_candidates
from .quota import Budget, FailurePolicy, Rate

__all__ = [
    "MIN_ATTEMPT_SECONDS",
    "Budget",
    "ChainOutcome",
    "ChainPlan",
    "ChainRunner",
    "EngineOutcome",
    "FailurePolicy",
    "FanOutProvider",
    "Ledger",
    "ProviderSkippedError",
    "PublicEnginesFailedError",
    "Rate",
    "attempt_timeout",
    "call_redactor",
    "context_secrets",
    "fan_out",
    "mark_scope",
    "merged_search",
    "resolve_candidates",
    "run_attempt",
]
