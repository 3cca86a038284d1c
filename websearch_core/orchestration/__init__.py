"""Orchestration: which providers a call tries, and how one attempt at a provider runs.

The sequential chain and the Public Web fan-out both run each provider through
:func:`~websearch_core.orchestration.attempt.run_attempt`, so the time bound, the result
caps, text sanitising and secret masking hold the same way for every provider.
"""

from .attempt import attempt_timeout, call_redactor, context_secrets, run_attempt

__all__ = ["attempt_timeout", "call_redactor", "context_secrets", "run_attempt"]
