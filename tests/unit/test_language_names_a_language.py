"""A ``language`` whose two letters name no language is refused, naming the option.

``websearch --language zz python`` (and ``language="zz"`` in the API) was accepted: it has
a tag's shape, and each provider ignored the code it did not know, so the user read results
in any language with no word why. Two-letter language subtags are ISO 639-1 codes, a closed
list; three letters are read by shape alone (ISO 639-3 has thousands: ``yue``).
"""

import pytest
from pydantic import ValidationError

from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.models import SearchParams
from websearch_core.testing import Simulator


@pytest.mark.parametrize("given", ["zz", "ZZ_de", "qq-BR"])
def test_the_option_naming_no_language_is_refused_and_nothing_searched(
    brave: Simulator, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    assert main(["--no-cache", "--language", given, "python"]) == EXIT_USAGE
    (error,) = capsys.readouterr().err.splitlines()
    assert "--language" in error
    assert "names no language" in error
    assert "ISO 639" in error
    assert "'en'" in error  # an example of what to write
    assert brave["brave"].requests == []


def test_the_api_refuses_it_too() -> None:
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="python", language="zz")
    (error,) = caught.value.errors()
    assert error["loc"] == ("language",)
    assert "names no language" in error["msg"]


@pytest.mark.parametrize(("given", "sent"), [("de", "de"), ("pt_br", "pt-br"), ("iw", "he")])
def test_languages_and_registered_codes_still_reach_the_provider(
    brave: Simulator, capsys: pytest.CaptureFixture[str], given: str, sent: str | None
) -> None:
    """A guard (passes before and after): ISO 639-1 codes, a region, and ``iw`` (Hebrew as
    older Java locales write it, still in the IANA registry) are searched."""
    assert main(["--no-cache", "--language", given, "python"]) == EXIT_OK
    (request,) = brave["brave"].requests
    assert request.query_dict().get("search_lang") == sent


@pytest.mark.parametrize("given", ["yue", "haw", "tlh"])
def test_three_letter_codes_are_read_by_shape(given: str) -> None:
    """A guard (passes before and after): three letters are not checked against a list."""
    assert SearchParams(query="python", language=given).language == given
