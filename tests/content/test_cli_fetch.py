"""``websearch fetch URL`` against a loopback server on its own thread."""

import json
from collections.abc import Iterator

import pytest
from pydantic import TypeAdapter

from tests.content._server import serve_in_thread
from tests.rendered_models import count_renderings
from websearch_core.cli import main
from websearch_core.content.models import PageContent

_BODY = "The command line prints the main text of pages with plenty of words in them. " * 6
ARTICLE = (
    "<html lang='en'><head><title>CLI page</title></head><body><nav>Menu Home About</nav>"
    f"<article><h1>CLI page</h1><p>{_BODY}</p><p>See <a href='/next'>the next page</a>.</p>"
    "</article></body></html>"
)


EMPTY = "<html><head><title>Nothing here</title></head><body><div></div></body></html>"


@pytest.fixture
def base() -> Iterator[str]:
    yield from serve_in_thread({"/a": ARTICLE, "/empty": EMPTY})


def test_prints_the_text(base: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fetch", f"{base}/a", "--allow-private", "--no-browser"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("CLI page\n\nThe command line prints")
    assert out.endswith("See the next page.\n")
    assert "Menu" not in out


def test_the_page_is_never_rendered_as_text(
    base: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python 3.11/3.12's asyncio.run renders its main task's result with repr() as it ends:
    # a fetched page is up to the body cap of text, which must not be rendered and dropped.
    rendered = count_renderings(monkeypatch, PageContent)
    assert main(["fetch", f"{base}/a", "--allow-private", "--no-browser"]) == 0
    assert capsys.readouterr().out.startswith("CLI page\n\nThe command line prints")
    assert rendered == []


def test_markdown(base: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fetch", f"{base}/a", "--markdown", "--allow-private", "--no-browser"]) == 0
    assert f"See [the next page]({base}/next)." in capsys.readouterr().out


def test_json(base: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fetch", f"{base}/a", "--json", "--allow-private", "--no-browser"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["title"], data["language"], data["status"], data["fetched_with"]) == (
        "CLI page",
        "en",
        200,
        "http",
    )


@pytest.mark.parametrize("flag", ["-v", "--verbose"])
def test_verbose_logs_the_fetch_as_a_search_does(
    base: str, flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-v`` is the search's spelling too; fetch refused it as an unrecognised argument."""
    argv = ["fetch", flag, f"{base}/a", "--allow-private", "--no-browser"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("CLI page\n")
    assert captured.err == f"websearch: fetched {base}/a (HTTP 200, text/html, with http)\n"
    assert main(argv) == 0
    assert capsys.readouterr().err == f"websearch: page {base}/a served from cache\n"


def test_refusal_is_one_line_and_status_1(base: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fetch", f"{base}/a"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"websearch: cannot fetch {base}/a: 127.0.0.1 is a loopback address; set "
        "allow_private_addresses=True or WEBSEARCH_FETCH_ALLOW_PRIVATE=1 to allow it "
        "(websearch fetch --allow-private)\n"
    )


def test_environment_allows_private(
    base: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBSEARCH_FETCH_ALLOW_PRIVATE", "1")
    assert main(["fetch", f"{base}/a", "--no-browser"]) == 0
    assert "CLI page" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["garbage", "enabled", "2"])
def test_an_unrecognised_allow_private_value_exits_2_naming_the_variable(
    base: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    # It used to mean off, silently: the refusal then blamed the address, not the typo.
    monkeypatch.setenv("WEBSEARCH_FETCH_ALLOW_PRIVATE", value)
    assert main(["fetch", f"{base}/a", "--no-browser"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"websearch: WEBSEARCH_FETCH_ALLOW_PRIVATE: {value!r} is not a boolean; write 1, "
        "true, yes or on to allow private addresses, or 0, false, no or off\n"
    )


@pytest.mark.parametrize("value", ["Y", "t", "y"])
def test_the_variable_takes_the_true_words_the_settings_take(
    base: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    assert TypeAdapter(bool).validate_python(value) is True  # as WEBSEARCH_CACHE reads it
    monkeypatch.setenv("WEBSEARCH_FETCH_ALLOW_PRIVATE", value)
    assert main(["fetch", f"{base}/a", "--no-browser"]) == 0
    assert "CLI page" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["fetch"], "URL: required, not given; see websearch fetch --help"),
        (["fetch", "https://a.example/", "--timeout", "0"], "must be more than 0"),
        (["fetch", "https://a.example/", "--timeout", "inf"], "at most 900, got inf"),
        (["fetch", "https://a.example/", "--timeout", "901"], "at most 900, got 901"),
        (
            ["fetch", "https://a.example/", "--json", "--markdown"],
            "websearch: --markdown: not allowed with --json; see websearch fetch --help\n",
        ),
    ],
)
def test_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("output", [[], ["--markdown"]])
def test_a_page_without_text_says_so_instead_of_printing_a_blank_line(
    base: str, output: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # It printed an empty line with status 0: nothing said whether anything was fetched.
    assert main(["fetch", f"{base}/empty", *output, "--allow-private", "--no-browser"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"websearch: warning: {base}/empty: the page has no readable text\n"


def test_a_page_without_text_still_prints_its_json(
    base: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fetch", f"{base}/empty", "--json", "--allow-private", "--no-browser"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["title"] == "Nothing here"
    assert captured.err.endswith(": the page has no readable text\n")


def test_options_written_before_fetch_are_fetch_s(
    base: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``websearch --json fetch URL`` searched the web for "fetch URL"; it now fetches."""
    argv = ["--json", "-v", "--no-cache", "--timeout", "5", "fetch", f"{base}/a"]
    assert main([*argv, "--allow-private", "--no-browser"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["title"] == "CLI page"
    assert captured.err == f"websearch: fetched {base}/a (HTTP 200, text/html, with http)\n"


def test_a_search_option_before_fetch_is_refused_naming_it(
    base: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--deadline", "5", "fetch", f"{base}/a"]) == 2
    assert capsys.readouterr().err == (
        "websearch: --deadline does not apply to fetch (websearch fetch --help lists its "
        'options); to search for the word "fetch", write: websearch --deadline 5 -- fetch '
        f"{base}/a\n"
    )


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("example.com", "the URL has no scheme; write it in full, as https://example.com"),
        ("ftp://example.com/a", "only http and https URLs are fetched, not ftp:"),
        ("https://", "the URL has no host"),
        ("https://example.com:99999/", "the URL is malformed (Port out of range 0-65535)"),
    ],
)
def test_a_url_written_wrong_is_invalid_input(
    url: str, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's exit statuses say 2 for invalid input; ``fetch example.com`` exited 1."""
    assert main(["fetch", url]) == 2
    assert capsys.readouterr() == ("", f"websearch: cannot fetch {url}: {reason}\n")
