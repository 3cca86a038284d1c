"""What the ``USED`` column of ``websearch providers`` counts, said under the table.

Against the simulator (``python -m websearch_core.testing serve`` pastes
``WEBSEARCH_STATE_BACKEND=memory``) a user searched, ran ``websearch providers`` and read
``USED 0`` under ``USED counts requests this month``: each command keeps its state in its
own memory and starts from none, so the listing can never count another command's
searches, and nothing said so. The footer now says whose requests it counts, and
``--json`` says the same in its ``used_counts`` field (:func:`used_counts_scope`): a script
reading ``used_this_month`` had nothing to tell a month's count from one command's.
"""

__all__ = ["USED_THIS_COMMAND", "USED_THIS_MONTH", "used_counts_line", "used_counts_scope"]

USED_THIS_MONTH = "month"
"""``used_counts`` when each row's count is its requests this month, from any process."""
USED_THIS_COMMAND = "this_command"
"""``used_counts`` when the state is in this command's own memory: its requests alone."""


def used_counts_scope(state_backend: str, *, store_available: bool) -> str | None:
    """What ``websearch providers --json``'s counts cover: the footer's meaning as a value.

    Args:
        state_backend: The ``state_backend`` setting (``memory``, ``sqlite``, ...).
        store_available: Whether the state store answered (the counts are ``null`` if not).

    Returns:
        :data:`USED_THIS_COMMAND` for a memory store, :data:`USED_THIS_MONTH` otherwise,
        ``None`` while the store is unavailable (no count to qualify).

    Example:
        >>> used_counts_scope("memory", store_available=True)
        'this_command'
        >>> used_counts_scope("sqlite", store_available=True)
        'month'
    """
    if not store_available:
        return None
    return USED_THIS_COMMAND if state_backend == "memory" else USED_THIS_MONTH


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
    scope = used_counts_scope(state_backend, store_available=store_available)
    if scope is None:
        return "USED is unknown (?) while the state store is unavailable"
    if scope == USED_THIS_COMMAND:
        return (
            "USED counts this command's requests only: state_backend is memory "
            "(WEBSEARCH_STATE_BACKEND), so cooldowns, budgets and counts live in each "
            "command's own memory and a search run before is not counted"
        )
    return "USED counts requests this month"
