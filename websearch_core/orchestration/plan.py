"""Which providers a call tries: :mod:`websearch_core.chain_plan`, under its old name.

The plan lives outside this package, whose ``__init__`` imports the whole chain, so that
it can be asked with the providers alone imported (see that module).
"""

from ..chain_plan import FELL_BACK, ChainOrder, ChainPlan, resolve_candidates

__all__ = ["FELL_BACK", "ChainOrder", "ChainPlan", "resolve_candidates"]
