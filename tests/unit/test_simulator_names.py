"""The simulator refuses providers it cannot serve naming what was meant, not a bare KeyError."""

import pytest

from websearch_core.testing import PROTOCOLS, Simulator


def test_one_id_given_as_a_string_is_refused_naming_the_list_form() -> None:
    # A string is a sequence of letters: it asked for providers 'b', 'r', ... and failed
    # with "no simulator protocol for provider 'b'".
    with pytest.raises(TypeError, match=r"not one string: Simulator\(\['brave'\]\)"):
        Simulator("brave")


def test_a_mistyped_id_names_the_one_meant_and_the_known_ones() -> None:
    with pytest.raises(KeyError) as caught:
        Simulator(["bravo"])
    message = caught.value.args[0]
    assert message.startswith("no simulator protocol for provider 'bravo'; did you mean brave? ")
    assert message.endswith(f"(known: {', '.join(PROTOCOLS)})")


def test_the_aggregate_is_said_to_be_simulated_through_its_engines() -> None:
    with pytest.raises(KeyError, match="'public': it is an aggregate; simulate its engines"):
        Simulator(["public"])


def test_asking_for_a_provider_not_simulated_names_those_that_are() -> None:
    # It was a bare KeyError('tavily').
    sim = Simulator(["brave", "duckduckgo"])
    with pytest.raises(KeyError) as caught:
        sim["tavily"]
    assert caught.value.args[0] == (
        "'tavily' is not simulated here (simulated: brave, duckduckgo); list it in Simulator([...])"
    )
