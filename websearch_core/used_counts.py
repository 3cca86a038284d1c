"""What the ``USED`` column of ``websearch providers`` counts, said under the table.

Against the simulator (``python -m websearch_core.testing serve`` pastes
``WEBSEARCH_STATE_BACKEND=memory``) a user searched, ran ``websearch providers`` and read
``USED 0`` under ``USED counts requests this month``: each command keeps its state in its
own memory and starts from none, so the listing can never count another command's
searches, and nothing said so. The footer now says whose requests it counts.
"""

__all__ = ["used_counts_line"]


def used_counts_line(state_backend: str, *, store_available: bool) -> str:
    """The sentence under the providers table saying what ``USED`` counts.

    Args:
        state_backend: The ``state_backend`` setting (``memory``, ``sqlite``, ...).
        store_available: Whether the state store answered (``?`` fills the column if not).

    Example:
        >>> print(used_counts_line("memory", store_available=True))
        ... # doctest: +NORMALIZE_WHITESPACE
        USED counts this command's requests only: state_backend is memory
        (WEBSEARCH_STATE_BACKEND), so cooldowns, budgets and counts live in each command's
        own memory and a search run before is not counted
        >>> used_counts_line("auto", store_available=True)
        'USED counts requests this month'
    """
    if not store_available:
        return "USED is unknown (?) while the state store is unavailable"
    if state_backend == "memory":
        return (
            "USED counts this command's requests only: state_backend is memory "
            "(WEBSEARCH_STATE_BACKEND), so cooldowns, budgets and counts live in each "
            "command's own memory and a search run before is not counted"
        )
    return "USED counts requests this month"
