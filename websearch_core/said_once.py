"""Setup warnings said once per process: the one record of what was already said.

A warning about the setup (a ``WEBSEARCH_*`` variable that sets nothing, a credential
store other users can read, a credential a provider passes over) stays true for as long
as the setup does, while the code that notices it runs on every client or every search:
the auto chain checks every provider's credentials before each attempt. Said each time,
it buries the log of a long-running agent under one line repeated. Each such warning is
keyed here by what it is about, and said the first time only.

Tests reset the record (:func:`forget_all`) so that one test's warning does not silence
the same warning another test expects.
"""

from collections.abc import Hashable

__all__ = ["first_time", "forget_all"]

_said: set[Hashable] = set()
"""The keys of the warnings already said in this process."""


def first_time(key: Hashable) -> bool:
    """``True`` the first time ``key`` is asked in this process, ``False`` after.

    Args:
        key: What the warning is about, led by its kind so two kinds never share a key,
            e.g. ``("passed over", "perplexity", note)``. It must not hold a secret: the
            record lives as long as the process.
    """
    if key in _said:
        return False
    _said.add(key)
    return True


def forget_all() -> None:
    """Forget every warning said, so each is said again (for tests)."""
    _said.clear()
