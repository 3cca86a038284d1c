"""``WebSearch``'s object arguments checked when it is built, each refusal naming the argument.

A newcomer's ``WebSearch("brave")`` (meaning the provider) or ``WebSearch("sk-...")`` (a key)
failed with ``AttributeError: 'str' object has no attribute 'api_keys'``, from inside the
constructor, naming neither the argument nor what it takes; a ``session`` or a refresh hook
of the wrong kind was taken without a word and failed at the first search. Here each is
refused with a ``TypeError`` that names the argument, the type it got and what to pass
instead. A value is never repeated: a string given by mistake may be a key.

Importing this module loads neither aiohttp nor the settings model: a real session or
``Settings`` means its module is loaded already, so anything else is refused without it.
"""

import sys
from collections.abc import Mapping

__all__ = ["check_client_arguments", "settings_problem", "web_search_problem"]


def check_client_arguments(
    settings: object = None, session: object = None, oauth_refreshers: object = None
) -> None:
    """Refuse a ``settings``, ``session`` or ``oauth_refreshers`` of the wrong kind.

    Raises:
        TypeError: One is given and is not what ``WebSearch`` takes; the message names
            the argument and its type, never its value.
    """
    if settings is not None and not _is_instance(settings, "websearch_core.settings", "Settings"):
        raise TypeError(settings_problem(settings))
    if session is not None and not _is_instance(session, "aiohttp", "ClientSession"):
        raise TypeError(
            f"session must be an aiohttp.ClientSession, not {type(session).__name__}; "
            "leave it out and WebSearch opens (and closes) its own"
        )
    if oauth_refreshers is not None:
        _check_refreshers(oauth_refreshers)


def _is_instance(value: object, module: str, name: str) -> bool:
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(value, getattr(loaded, name))


def settings_problem(settings: object) -> str:
    """What to say of a ``settings`` that is not a ``Settings``: what to pass instead.

    Every adapter that takes ``settings=`` words the refusal this way (LangChain's, which
    also reads a mapping as ``Settings``, only for what is neither).
    """
    kind = type(settings).__name__
    head = f"settings must be a websearch_core.Settings, not {kind}"
    if isinstance(settings, str):
        return (
            f"{head}; to choose a provider pass provider=... (WebSearch(provider='brave')), "
            "and a key api_keys={'brave': ...}"
        )
    if isinstance(settings, Mapping):
        return f"{head}; pass its fields as keywords (WebSearch(**fields)) or Settings(**fields)"
    return f"{head}; build one with Settings(...), or pass its fields to WebSearch as keywords"


def web_search_problem(web_search: object) -> str:
    """What to say of a ``web_search=`` that is not a ``WebSearch``, in every adapter's words.

    LangChain's tool answered pydantic's ``Input should be an instance of WebSearch`` where
    LlamaIndex's factories said what to do; both now say it (never repeating the value: a
    string given by mistake may be a key).
    """
    return (
        f"web_search must be a websearch_core.WebSearch, not {type(web_search).__name__}; "
        "leave it out to have the tool build its own"
    )


def _check_refreshers(refreshers: object) -> None:
    if not isinstance(refreshers, Mapping):
        raise TypeError(
            "oauth_refreshers must map a sign-in's store entry to its refresh hook, like "
            f"{{'codex': refresh}}, not {type(refreshers).__name__}"
        )
    for entry, hook in refreshers.items():
        if not callable(hook):
            raise TypeError(
                f"oauth_refreshers[{entry!r}] must be a refresh hook, an async function "
                f"called as await refresh(entry, token), not {type(hook).__name__}"
            )
