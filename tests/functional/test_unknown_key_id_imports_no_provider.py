"""An unknown id in ``api_keys={...}`` is refused without importing any provider's module.

The refusal names every id and, for a key's variable given as an id
(``{"GOOGLE_API_KEY": ...}``), the provider it belongs to. Those variables are declared in
the providers' modules, so the build imported all of them to say it: a tool's first call,
on the loop, with no deadline to bound them. They are read from a table now
(:mod:`websearch_core.key_variable_names`), held here to what the providers declare.
"""

import textwrap

import pytest

from tests.loop_imports import run_watched
from websearch_core.key_names import key_variables
from websearch_core.key_variable_names import KEY_VARIABLES
from websearch_core.provider_ids import KEY_IDS, listed_ids

_SCRIPT = textwrap.dedent(
    """
    import json, sys

    from websearch_core import WebSearch
    from websearch_core.errors import ConfigurationError
    from websearch_core.settings import Settings

    settings = Settings(providers=("brave",), state_backend="memory")
    before = {name for name in sys.modules if name.startswith("websearch_core.providers.")}
    try:
        WebSearch(settings, api_keys={GIVEN: "a-key"})
        said = None
    except ConfigurationError as error:
        said = str(error)
    after = {name for name in sys.modules if name.startswith("websearch_core.providers.")}
    print(json.dumps({"said": said, "imported": sorted(after - before)}))
    """
)
"""A client built with one unknown ``api_keys`` id, in a fresh interpreter."""


@pytest.mark.parametrize(
    ("given", "meant"),
    [("GOOGLE_API_KEY", "; did you mean gemini?"), ("bravo", "; did you mean brave?")],
)
def test_an_unknown_api_keys_id_is_refused_without_importing_a_provider(
    given: str, meant: str
) -> None:
    """The same refusal, the variable's provider still named, and no provider module read.

    Failed before: every provider's module was imported to learn their variables (25
    modules, ``imported`` not empty).
    """
    found = run_watched(_SCRIPT, GIVEN=given)
    said = found["said"]
    assert isinstance(said, str), found
    known = listed_ids(KEY_IDS)
    assert said == f"api_keys: unknown provider id {given.lower()} (known: {known}){meant}", said
    assert found["imported"] == [], found


def test_the_key_variable_table_is_what_the_providers_declare() -> None:
    """Guard: the table is every provider's key variables, as their modules declare them.

    A guard (it holds the data to the modules, and fails only when one of them changes a
    variable without the table).
    """
    assert dict(KEY_VARIABLES) == key_variables()
