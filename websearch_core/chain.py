"""Which providers to try, in what order, and the sequential fallback loop.

Resolution follows the spec: a forced provider runs alone when it is explicitly available
and otherwise falls back to the auto chain; a preferred provider goes first (gated by its
explicit availability), then the auto order minus it, each gated by ``is_available``;
excluded providers never run. The loop stops at the first response with something a
model can read; everything else is recorded and the loop moves on. Cancellation is never
recorded as a failure: it propagates.
"""

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .errors import ConfigurationError, EmptyResponseError, SearchProviderError
from .format import format_failures, format_provider_failure
from .models import Attempt, SearchParams, SearchResponse
from .providers import SEARCH_PROVIDER_ORDER, ProviderContext, SearchProvider, get_provider
from .transport import redact

__all__ = ["ChainOutcome", "context_secrets", "resolve_candidates", "run_chain"]

logger = logging.getLogger("websearch_core")


@dataclass(slots=True)
class ChainOutcome:
    """What the loop produced: a response, or the failures in attempt order."""

    response: SearchResponse | None
    failures: list[tuple[SearchProvider, BaseException]] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)

    @property
    def last_provider(self) -> str:
        """The id of the last provider tried, or ``"none"``."""
        return self.failures[-1][0].info.id if self.failures else "none"

    def failure_message(self) -> str:
        """The spec's final error text for this outcome."""
        return format_failures(
            (provider.info.id, format_provider_failure(error, provider.info.label))
            for provider, error in self.failures
        )


def resolve_candidates(
    context: ProviderContext,
    *,
    forced: str | None = None,
    preferred: str | None = None,
    excluded: Iterable[str] = (),
    order: Sequence[str] = SEARCH_PROVIDER_ORDER,
) -> tuple[list[SearchProvider], list[Attempt]]:
    """The providers to try, in order, plus a ``skipped`` attempt for each one left out.

    Args:
        context: Used for availability checks.
        forced: A provider id an internal caller insists on (``"auto"`` means none).
        preferred: The configured preferred provider, tried first.
        excluded: Ids never returned, not even as fallbacks.
        order: The auto-chain order.

    Raises:
        ConfigurationError: ``forced``, ``preferred`` or an excluded id is unknown.
    """
    excluded_ids = set(excluded)
    for provider_id in excluded_ids:
        get_provider(provider_id)  # unknown ids are configuration errors, not silent no-ops
    skipped: list[Attempt] = []
    if forced and forced != "auto":
        provider = get_provider(forced)
        if forced not in excluded_ids and provider.is_explicitly_available(context):
            return [provider], skipped
        reason = "excluded" if forced in excluded_ids else "not available"
        skipped.append(
            Attempt(provider=forced, outcome="skipped", detail=f"forced provider {reason}")
        )
        preferred = None
    chain: list[SearchProvider] = []
    if preferred and preferred != "auto":
        provider = get_provider(preferred)
        if preferred in excluded_ids:
            skipped.append(Attempt(provider=preferred, outcome="skipped", detail="excluded"))
        elif provider.is_explicitly_available(context):
            chain.append(provider)
        else:
            skipped.append(Attempt(provider=preferred, outcome="skipped", detail="not configured"))
    for provider_id in order:
        if provider_id == preferred or provider_id in excluded_ids:
            continue
        provider = get_provider(provider_id)
        if provider.is_available(context):
            chain.append(provider)
    return chain, skipped


async def run_chain(
    providers: Sequence[SearchProvider], params: SearchParams, context: ProviderContext
) -> ChainOutcome:
    """Try each provider in turn until one returns renderable content.

    Returns:
        The outcome; ``response`` is set on success and carries the attempt log.
    """
    outcome = ChainOutcome(response=None)
    for provider in providers:
        provider_id = provider.info.id
        started = time.perf_counter()
        try:
            response = await provider.search(params, context)
            if not response.has_renderable_content():
                raise EmptyResponseError(
                    provider_id, f"{provider.info.label} returned no renderable search content."
                )
        except Exception as error:  # every provider failure moves the chain on
            elapsed = _ms(started)
            _scrub(error, context_secrets(context))
            status = error.status if isinstance(error, SearchProviderError) else None
            detail = format_provider_failure(error, provider.info.label)
            outcome.failures.append((provider, error))
            outcome.attempts.append(
                Attempt(
                    provider=provider_id, outcome="failed", status=status, ms=elapsed, detail=detail
                )
            )
            logger.warning(
                "web search provider %s failed (%s): %s",
                provider_id,
                status,
                detail,
                exc_info=not isinstance(error, SearchProviderError | ConfigurationError),
            )
            continue
        outcome.attempts.append(Attempt(provider=provider_id, outcome="success", ms=_ms(started)))
        logger.info("web search served by %s", provider_id)
        outcome.response = response.model_copy(update={"attempts": tuple(outcome.attempts)})
        return outcome
    return outcome


def context_secrets(context: ProviderContext) -> tuple[str, ...]:
    """Every credential value this call could have used: keys, tokens, passwords."""
    searxng = context.settings.searxng
    extra = (searxng.token, searxng.basic_password)
    revealed = tuple(secret.get_secret_value() for secret in extra if secret is not None)
    return (*context.credentials.secrets(), *revealed)


def _scrub(error: Exception, secrets: Sequence[str]) -> None:
    """Remove credentials from an error's message in place, whatever raised it."""
    if isinstance(error, SearchProviderError):
        error.message = redact(error.message, secrets)
        error.args = (error.message,)
    else:
        error.args = tuple(redact(str(arg), secrets) for arg in error.args)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
