"""What the README's prose says of the providers, held to the registry and the chain.

The provider table is generated, but the quick start counts the providers and names the
keyless chain in words, and the command-line section lists which providers a
``--language`` or ``--country`` reaches. These read the same facts from the code and
compare. All are guards: the prose was right when they were written.
"""

import re
from pathlib import Path
from typing import cast

from websearch_core import Settings
from websearch_core.credentials import Credentials, CredentialStore
from websearch_core.orchestration.plan import resolve_candidates
from websearch_core.providers import SEARCH_PROVIDER_ORDER, ProviderContext, get_provider
from websearch_core.transport import Transport

README = Path(__file__).resolve().parents[2] / "README.md"


def _prose() -> str:
    return " ".join(README.read_text(encoding="utf-8").split())


def test_the_quick_start_counts_the_providers() -> None:
    """A guard: "the same N search providers" is every registered one but the aggregate."""
    found = re.search(r"all over the same (\d+) search providers", _prose())
    assert found is not None
    searched = [pid for pid in SEARCH_PROVIDER_ORDER if get_provider(pid).info.kind != "aggregate"]
    assert int(found.group(1)) == len(searched)


def test_the_keyless_chain_is_the_one_a_search_without_keys_plans(tmp_path: Path) -> None:
    """A guard: the engines the quick start names, in its order, are the plan's."""
    context = ProviderContext(
        transport=cast(Transport, None),  # planning sends nothing
        settings=Settings(),
        credentials=Credentials(environ={}, store=CredentialStore(tmp_path / "none.json")),
    )
    planned = [provider.info.label for provider in resolve_candidates(context).providers]
    found = re.search(r"uses the credential-free engines: (\w+) first, then ([^.]+)\.", _prose())
    assert found is not None
    named = [found.group(1), *(name.strip() for name in found.group(2).split(","))]
    assert named == planned


def test_the_language_and_country_lists_are_the_providers_that_honour_them() -> None:
    """A guard: each list names, in chain order, exactly the providers honouring the filter."""
    prose = _prose()
    for option, field in (("--language", "language"), ("--country", "country")):
        found = re.search(rf"`{option}` \([^)]*\) reaches ([a-z, ]+?)(?:;|\. Other)", prose)
        assert found is not None, option
        named = re.split(r", (?:and )?| and ", found.group(1).strip(" ,"))
        honour = [pid for pid in SEARCH_PROVIDER_ORDER if field in get_provider(pid).info.honours]
        assert named == honour, option
