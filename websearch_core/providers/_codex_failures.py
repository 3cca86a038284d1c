"""How the Codex provider words a request that failed in transport: ``Codex request failed:``.

The reference words every failure of Codex's own with ``Codex``: ``Codex request failed:
<message>`` for a ``response.failed`` event, ``Codex API error (<status>): <body>``,
``Codex error (<code>): ...``. The transport's failures (a refused or reset connection,
TLS, a timeout, a request not sent, a redirect refused) said ``OpenAI search failed: ...``
from the provider's label (``OpenAI``), so one provider's failures read under two names.
They now take the reference's stem, the transport's clause after it, the error's class
and status kept (the chain, the offline hints and the ledger read those, not the text).

The module is private (leading underscore), so the registry's contract test does not read
it as a provider.
"""

from typing import Final, TypeVar

from ..connection_causes import search_failed_prefix
from ..errors import SearchProviderError
from ._engine_failures import FailureTexts, reworded

__all__ = ["CODEX_FAILED", "codex_failure", "codex_failure_text"]

CODEX_FAILED: Final = FailureTexts(
    failed="Codex request failed: {}", timed_out="Codex request failed: timed out"
)
"""The reference's stem for a failed Codex request. ``timed_out`` is not said alone: a
timeout keeps the seconds and the deadline's clause after it, as every provider's does."""

_E = TypeVar("_E", bound=SearchProviderError)


def codex_failure_text(message: str, label: str) -> str:
    """A transport text of ``label``'s (``OpenAI``) in the reference's Codex wording.

    Only the transport's stem is replaced (``OpenAI search failed: ``, or ``OpenAI search ``
    before ``timed out``), the clause after it kept. Any other text is kept whole: Codex's
    own, and the size cap's ``OpenAI API response exceeded <cap>`` (the reference's
    ``<Label> API response exceeded`` form, a limit of ours, not a request that failed).

    Example:
        >>> codex_failure_text("OpenAI search failed: the connection failed (x): reset", "OpenAI")
        'Codex request failed: the connection failed (x): reset'
        >>> codex_failure_text("OpenAI search timed out after 0.5s", "OpenAI")
        'Codex request failed: timed out after 0.5s'
        >>> codex_failure_text("OpenAI API response exceeded 64 KiB", "OpenAI")
        'OpenAI API response exceeded 64 KiB'
    """
    failed = message.removeprefix(search_failed_prefix(label))
    if failed != message:
        return CODEX_FAILED.failed.format(failed)
    timed_out = message.removeprefix(f"{label} search ")
    if timed_out != message and timed_out.startswith("timed out"):
        return CODEX_FAILED.failed.format(timed_out)
    return message


def codex_failure(error: _E, label: str) -> _E:
    """``error`` saying :func:`codex_failure_text`, its class, status and attributes kept."""
    said = codex_failure_text(error.message, label)
    if said == error.message:  # not the transport's stem: kept as it is
        return error
    detail = said.removeprefix(CODEX_FAILED.failed.format(""))
    return reworded(error, CODEX_FAILED, detail, error.status)
