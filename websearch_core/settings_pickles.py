"""Settings pickled on their own: whole without a secret, refused naming the one they hold.

``pickle.dumps(Settings(api_keys={"brave": "..."}))`` wrote every key, proxy password,
SearXNG token and URL password into the pickle in clear text, while a tool holding the
same settings was refused (:mod:`websearch_core.tool_pickles`). Settings follow the tools'
rule now. Refused rather than pickled without the secret: an unpickled model is a snapshot
that does not read the environment again, so a copy quietly missing its keys would search
without them. A secret read from the environment or the config file is refused as one
given in code is: pickle would write it all the same. ``copy.copy`` and ``copy.deepcopy``
(pydantic's own, which frameworks use to copy tools) do not pickle: copies keep every
setting.
"""

from pydantic import BaseModel

from .secret_places import mentions_secret, secret_places

__all__ = ["picklable_settings"]


def picklable_settings(settings: BaseModel) -> None:
    """Check that a settings model (``Settings``, ``SearxngSettings``) may be pickled.

    Args:
        settings: The model being pickled.

    Raises:
        TypeError: A field holds a secret, wherever it was read from (code, environment,
            config file); the message names the field (``api_keys.brave``), never its value.

    Example:
        >>> from websearch_core.settings import SearxngSettings
        >>> picklable_settings(SearxngSettings(endpoint="https://searx.example.org"))
        >>> picklable_settings(SearxngSettings(token="..."))
        Traceback (most recent call last):
        ...
        TypeError: cannot pickle SearxngSettings: it holds a secret (token), which pickle would write in clear text; build the settings in the process that uses them: Settings() reads the environment and the config file where it runs, and a client the credential store (websearch auth set)
    """  # noqa: E501
    owner = type(settings).__name__
    for name, info in type(settings).model_fields.items():
        value = getattr(settings, name)
        where = next(secret_places(name, value, named=mentions_secret(info.annotation)), None)
        if where is not None:
            raise TypeError(
                f"cannot pickle {owner}: it holds a secret ({where}), which pickle would write "
                "in clear text; build the settings in the process that uses them: Settings() "
                "reads the environment and the config file where it runs, and a client the "
                "credential store (websearch auth set)"
            )
