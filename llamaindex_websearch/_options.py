"""The ``WebSearch`` options a LlamaIndex tool keeps for later, checked when it is built.

``create_web_search_tool``, ``WebSearchToolSpec`` and ``create_web_fetch_tool`` keep their
``**kwargs`` and build the client at the first call (settings are read then, not at
import). A mistyped keyword (``api_key=`` for ``api_keys=``) was therefore found by mypy,
or at run time only by that first call, as ``Error: configuration: ...`` text an agent
would read. Its name is checked here when the tool is built, as the LangChain tools and
both retrievers check theirs. The refusal is worded as the tool classes word theirs
(:mod:`llamaindex_websearch._keywords`), listing the keywords the call takes. The values
are checked here too, each on its own (:func:`refuse_bad_values`), and a ``web_search``
client beside options (:func:`refuse_both_sources`); what needs the environment (another
setting read from there) is checked at the first call. Every refusal is a
``ConfigurationError``, as LangChain's builders raise for the same option
(:mod:`websearch_core.build_errors`); one that was a ``TypeError`` still is one.
"""

from collections.abc import Collection, Iterable, Mapping

from ._keywords import refuse_unknown_keyword

__all__ = [
    "refuse_bad_values",
    "refuse_both_sources",
    "refuse_unknown_options",
    "refuse_wrong_objects",
]


def refuse_unknown_options(
    owner: str, given: Iterable[str], *own: str, calls: Collection[str] = ()
) -> None:
    """Refuse a keyword that is neither a ``WebSearch`` argument nor one of ``own``.

    Args:
        owner: The function or class the caller called, for the message.
        given: The keywords given.
        *own: The caller's own keyword-only parameters, also known names.
        calls: The arguments each call of the tool built takes (``limit``): one given
            here is said to go with each call.

    Raises:
        OptionTypeError: A keyword is unknown (a ``TypeError``); the message names the one
            probably meant and lists the keywords ``owner`` takes (``web_search``, ``own``,
            then ``WebSearch``'s).
    """
    from websearch_core.build_errors import OptionTypeError
    from websearch_core.client import WEB_SEARCH_OPTION_NAMES  # loads with the tool anyway

    takes = ("web_search", *own, *sorted(WEB_SEARCH_OPTION_NAMES))
    try:
        refuse_unknown_keyword(owner, given, takes, calls=calls)
    except TypeError as error:
        raise OptionTypeError(str(error)) from None


def refuse_wrong_objects(owner: str, web_search: object, options: Mapping[str, object]) -> None:
    """Refuse a ``web_search``, ``settings``, ``session`` or hook of the wrong kind, now.

    Kept for the first call, ``create_web_search_tool(web_search="...")`` or
    ``settings="brave"`` made that call raise ``AttributeError`` (a tool that never raises
    for its arguments) naming neither the option nor the factory.

    Raises:
        OptionTypeError: One is not what it must be (a ``TypeError``); the message names it
            and its type, never its value (a string given by mistake may be a key).
    """
    from websearch_core.build_errors import OptionTypeError
    from websearch_core.client import WebSearch
    from websearch_core.client_arguments import check_client_arguments, web_search_problem

    if web_search is not None and not isinstance(web_search, WebSearch):
        raise OptionTypeError(f"{owner}(): {web_search_problem(web_search)}")
    try:
        check_client_arguments(
            options.get("settings"), options.get("session"), options.get("oauth_refreshers")
        )
    except TypeError as error:
        raise OptionTypeError(f"{owner}(): {error}") from None


def refuse_bad_values(owner: str, options: Mapping[str, object]) -> None:
    """Refuse a ``provider``, ``api_keys`` entry or setting the client would refuse, now.

    Kept for the first call, ``create_web_search_tool(provider="bravee")`` or
    ``timeout_seconds=0`` was taken and every call answered ``Error: configuration: ...`` to
    the agent; LangChain's tools refuse the same values when built. The checks are the
    client's own, in its words: each setting given is checked as its ``Settings`` field
    (:mod:`websearch_core.settings_given`); what depends on the environment or the config
    file (another setting read from there) is still checked at the first call.

    Raises:
        ConfigurationError: The provider is unknown (the message lists the ids and the one
            meant), a key in ``api_keys`` is of the wrong shape or has a flaw no key has, or
            a setting's value is one its field refuses (named as given); the message never
            holds a key.
    """
    from websearch_core.credentials import explicit_keys
    from websearch_core.errors import ConfigurationError
    from websearch_core.provider_ids import preferred_provider
    from websearch_core.settings import SettingsOverrides
    from websearch_core.settings_errors import configuration_errors
    from websearch_core.settings_given import check_given_settings

    provider = options.get("provider")
    given = {
        name: value
        for name, value in options.items()
        if name in SettingsOverrides.__optional_keys__
    }
    try:
        if provider is None or isinstance(provider, str):
            preferred_provider(provider)
        explicit_keys(options.get("api_keys"))
        with configuration_errors({name: name for name in given}):
            check_given_settings(given)
    except ValueError as error:  # ConfigurationError is one
        raise ConfigurationError(f"{owner}(): {error}") from None


def refuse_both_sources(owner: str, web_search: object, options: Mapping[str, object]) -> None:
    """Refuse a ``web_search`` client given beside options to build one, as LangChain does.

    An option that holds nothing (``provider=None``, ``api_keys={}``) is not one: passed on
    from a caller's own defaults, it was refused here but taken by LangChain's tool.

    Raises:
        OptionTypeError: Both were given (a ``TypeError``); the message names ``owner`` and
            the options given, in the words every adapter uses (:mod:`websearch_core.one_source`).
    """
    from websearch_core.one_source import both_sources_problem

    problem = both_sources_problem(web_search, options)
    if problem is not None:
        from websearch_core.build_errors import OptionTypeError

        raise OptionTypeError(f"{owner}(): {problem}")
