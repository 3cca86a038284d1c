"""Messages for provider ids no provider has: the reference's text, then a suggestion."""

import pytest

from websearch_core.provider_ids import unknown_ids_message, unknown_provider_message


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        (["bravo"], "; did you mean brave?"),
        (["Tavlly"], "; did you mean tavily?"),
        (["duckduck", "gogle"], "; did you mean duckduckgo, google?"),
        (["altavista"], ""),  # nothing close: no guess
    ],
)
def test_a_typo_gets_the_nearest_id_after_the_known_list(typed: list[str], hint: str) -> None:
    for message in (unknown_provider_message(*typed), unknown_ids_message(typed)):
        known_list_ends = message.index(")") + 1
        assert message[known_list_ends:] == hint
