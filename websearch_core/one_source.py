"""A ready client or the options to build one, never both: one rule and one wording.

Every adapter takes either ``web_search=`` (a :class:`~websearch_core.WebSearch` the caller
built) or the options to build its own. Given both, one would be silently ignored, so they
are refused. LangChain's tool refused only options with a value (``provider=None`` or
``api_keys={}`` passed on from a caller's own defaults built) in words listing the four it
takes; LlamaIndex's factories refused any keyword at all, even ``provider=None``, in other
words, naming neither the call nor the option. Both now follow this module: an option
counts when it holds something, and the refusal names the options given.
"""

from collections.abc import Mapping

__all__ = ["both_sources_problem"]


def _holds_something(value: object) -> bool:
    """Whether an option would change the client built (``None`` and ``{}`` would not)."""
    return value is not None and not (isinstance(value, Mapping) and not value)


def both_sources_problem(web_search: object, options: Mapping[str, object]) -> str | None:
    """What is wrong with a ready client given beside options to build one, if anything.

    Args:
        web_search: The ready client given, or ``None``.
        options: The options to build a client, by name (values are never shown: one may
            hold a key).

    Returns:
        The refusal's text, naming the options that hold something; ``None`` when there is
        no client or no such option.

    Example:
        >>> both_sources_problem(object(), {"provider": "brave", "api_keys": {}})
        'pass either web_search or the options to build a client (provider), not both'
        >>> both_sources_problem(object(), {"provider": None}) is None
        True
    """
    if web_search is None:
        return None
    given = [name for name, value in options.items() if _holds_something(value)]
    if not given:
        return None
    return f"pass either web_search or the options to build a client ({', '.join(given)}), not both"
