"""A setting's word from the SearXNG endpoint, in the forms keys59 left shown.

Keys59 masked a word under an open setting's name (``?engines=hunterxyzw``, ``?model=Qx7w``)
with its name in eight forms, on the failure path only. Left shown: the word quoted alone
(``'hunterxyzw'``, SearXNG's own ``Invalid value "<value>" for parameter <name>``, OpenAI's
backticks), its pair as Ruby, PHP and Perl print it (``name => value``) and with ``+`` for
each space (a pair inside a query string). A custom theme (SearXNG lists its themes from a
directory an instance sets) was masked alone. Driven on the loopback simulator, read with
``_leaks.reachable_texts`` and every DEBUG record (``_failure_quoting``).
"""

import pytest

from tests.conformance.test_secret_query_words import FREE_WORDS, _failure_quoting

OPEN_WORDS = {name: word for name, word in FREE_WORDS.items() if name != "theme"}
"""A word under each open setting: SearXNG's engines and categories, a free setting's.
``theme``'s (open since keys60: an instance adds its own themes) is a guard below: it was
masked alone before."""
ALONE = {
    "single": "refused: unknown value '{secret}'",
    "double": 'refused: Invalid value "{secret}" for parameter {name}',
    "backtick": "refused: The {name} `{secret}` does not exist",
}
"""The word quoted alone: a gateway's ``repr``, SearXNG's ``SearxParameterException``
text, OpenAI's wording of an unknown model."""


@pytest.mark.parametrize("quote", sorted(ALONE))
@pytest.mark.parametrize(("name", "secret"), sorted(OPEN_WORDS.items()))
async def test_an_open_settings_word_quoted_alone_never_shows_in_a_failure(
    name: str, secret: str, quote: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A quote marks the word as a value echoed back, as the request's pair does.

    The bare word stays (an engine's name in the unanswered engines' line).
    """
    message = ALONE[quote].format(name=name, secret=secret)
    text, everything = await _failure_quoting(f"?{name}={secret}", message, caplog)
    assert text.lower().count("refused") == 1
    assert secret.lower() not in everything.lower()


@pytest.mark.parametrize(
    ("endpoint_query", "message", "kept"),
    [
        ("?engines=google", 'Invalid value "google" for parameter engines', "google"),
        ("?engines=hunterxyzw", "unknown engine 'bing'", "'bing'"),
        ("?model=Qx7w", "The model `gpt-4o-mini` does not exist", "`gpt-4o-mini`"),
    ],
)
async def test_guard_a_quoted_word_not_the_urls_stays_in_a_failure(
    endpoint_query: str, message: str, kept: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A guard: a documented value, or a word the URL does not hold, quoted stays (the
    JSON body escapes ``"``: the text holds ``\\"google\\"``)."""
    text, _ = await _failure_quoting(endpoint_query, message, caplog)
    assert kept in text and "***" not in text


ARROWS = {
    "ruby": 'refused {{"{name}"=>"{secret}", "q"=>"x"}}',
    "ruby34": 'refused {{"{name}" => "{secret}", "q" => "x"}}',
    "php": "refused Array ( [{name}] => {secret} [q] => x )",
    "perl": "refused {{ '{name}' => '{secret}', 'q' => 'x' }}",
    "plain": "refused {name} => {secret}; q => x",
}
"""A refused request's parameters as Ruby's ``inspect`` (before 3.4 and since), PHP's
``print_r``, Perl's ``Data::Dumper`` and a plain arrow write them."""
PLUSSED = {
    "yaml": "refused, see /error?detail={name}:+{secret}+q:+x",
    "spaced": "refused, see /error?detail={name}+%3D+{secret}",
    "json": "refused, see /error?detail=%7B%22{name}%22:+%22{secret}%22%7D",
    "arrow": "refused, see /error?detail={name}+=>+{secret}",
}
"""A spaced pair inside a query string, each space written ``+``."""


@pytest.mark.parametrize(
    ("form", "quote"), sorted({**ARROWS, **{f"plus-{k}": v for k, v in PLUSSED.items()}}.items())
)
@pytest.mark.parametrize(("name", "secret"), sorted(OPEN_WORDS.items()))
async def test_an_open_settings_pair_in_more_forms_never_shows_in_a_failure(
    name: str, secret: str, form: str, quote: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``name => value`` and a spaced pair with ``+`` for its spaces are masked too."""
    message = quote.format(name=name, secret=secret)
    text, everything = await _failure_quoting(f"?{name}={secret}", message, caplog)
    assert text.lower().count("refused") == 1
    assert secret.lower() not in everything.lower()


FORMS = {**ALONE, **ARROWS, **{f"plus-{k}": v for k, v in PLUSSED.items()}}


@pytest.mark.parametrize(("form", "quote"), sorted(FORMS.items()))
async def test_guard_a_themes_word_quoted_or_paired_never_shows_in_a_failure(
    form: str, quote: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A guard (passed before, the word masked alone then): ``theme``'s word, shown bare
    since keys60, stays masked quoted alone and in each new pair form."""
    message = quote.format(name="theme", secret="abcdefghij")
    text, everything = await _failure_quoting("?theme=abcdefghij", message, caplog)
    assert text.lower().count("refused") == 1
    assert "abcdefghij" not in everything.lower()


def _theme_page(theme: str) -> str:
    """An error page's line naming ``theme``'s stylesheet, as SearXNG's pages do."""
    return f"refused; see /static/themes/{theme}/css/searxng.min.css"


@pytest.mark.parametrize("theme", ["mytheme", "oscar"])
async def test_a_custom_theme_stays_in_a_failure(
    theme: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A theme's name is no secret: every page the instance serves names it in its assets'
    paths (``static/themes/<name>/``), so an error page quoting it keeps it. ``oscar`` is
    searx's, ``mytheme`` one a fork or an instance's ``ui.templates_path`` adds."""
    text, _ = await _failure_quoting(f"?theme={theme}", _theme_page(theme), caplog)
    assert f"/static/themes/{theme}/css" in text


async def test_guard_a_hyphened_theme_stays_in_a_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A guard: searx's ``pix-art`` (a hyphen in it: no key's word) was shown before too."""
    text, _ = await _failure_quoting("?theme=pix-art", _theme_page("pix-art"), caplog)
    assert "/static/themes/pix-art/css" in text


@pytest.mark.parametrize("secret", ["Qx7w", "Kp9vTq", "AbCdEfGh"])
async def test_guard_a_word_no_theme_is_stays_masked_alone(
    secret: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A guard: a word of no theme's shape (upper case in it, as no theme directory of
    SearXNG's is written) under ``theme`` is a key, masked alone as keys59 made it."""
    text, everything = await _failure_quoting(
        f"?theme={secret}", f"unknown value {secret} refused", caplog
    )
    assert "refused" in text
    assert secret.lower() not in everything.lower()
