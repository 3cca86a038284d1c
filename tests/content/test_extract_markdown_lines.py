"""The Markdown's lines: a paragraph reads on one line, a ``<pre>`` is a fenced block.

The extractors' Markdown kept the source's line breaks inside a paragraph (a link written
on a line of its own came out mid-sentence on its own line), where a browser renders one
space; a ``<br>`` and a ``<pre>`` keep their breaks. A one-line ``<pre>`` came out as
inline code, as if it stood in a sentence. Pages here are written for the tests, and one
real annotated page shows the line breaks.
"""

import pytest

from tests.content._pages import load_page
from websearch_core.content import extract_content

_SENTENCE = "A sentence of the story that is long enough to be read as its text. "
_RAIL = (
    "<div class='rail'><ul><li><a href='/1'>Other story</a></li>"
    "<li><a href='/2'>Another story</a></li></ul></div>"
)


def _article(*blocks: str) -> str:
    """An article page in columns (a link rail beside the story): the extractors' page."""
    story = "".join(f"<p>Part {n}. {_SENTENCE * 3}</p>" for n in range(6))
    return (
        f"<html><head><title>Site: home</title></head><body>{_RAIL}<div class='story'>"
        f"<h1>The story</h1><p>{_SENTENCE * 2}</p>{''.join(blocks)}{story}</div></body></html>"
    )


def test_a_paragraph_written_over_source_lines_is_one_line_of_markdown() -> None:
    page = extract_content(
        _article(
            "<p>Shares of construction goods giant\n            "
            '<a href="https://example.org/hd">Home Depot</a>\n       are dropping\n'
            "in premarket trading.</p>"
        )
    )
    assert (
        "Shares of construction goods giant [Home Depot](https://example.org/hd) are "
        "dropping in premarket trading." in page.markdown
    )
    assert "Shares of construction goods giant Home Depot are dropping" in page.text


@pytest.mark.parametrize("after_break", ["", "\n", "\n   "])
def test_a_br_keeps_its_break_however_the_source_is_laid_out(after_break: str) -> None:
    # Guard for the break itself (the Markdown marks it as trafilatura always has); the
    # source line break after it must not add to it.
    page = extract_content(_article(f"<p>June 9, Tampa<br>{after_break}June 10, Miami</p>"))
    assert "June 9, Tampa\n\nJune 10, Miami" in page.markdown


def test_a_pre_keeps_its_lines_while_prose_and_inline_code_join() -> None:
    # A <pre> is a block whose lines are its content (trafilatura made a bare one a quote
    # and ran its lines together); inline code's source breaks render as spaces.
    page = extract_content(
        _article(
            "<p>Run\n<code>make\n  all</code>\nthen read\nthe log.</p>",
            "<pre>a = 1\n  b = 2</pre>",
        )
    )
    assert "Run `make all` then read the log.\n\n```\na = 1\n  b = 2\n```\n\nPart 0." in (
        page.markdown
    )
    assert "Run make all then read the log.\n\na = 1\n  b = 2\n\nPart 0." in page.text


def test_the_annotated_barrons_page_keeps_its_linked_names_in_the_sentence() -> None:
    page = load_page("f8ff621a")  # barrons.com: each linked company name on its own line
    content = extract_content(page.html, url=page.url)
    assert (
        "Shares of construction goods giant [Home Depot](https://www.barrons.com/quote/HD) "
        "are dropping in premarket trading" in content.markdown
    )
    assert (
        "easily outpacing the [Dow Jones Industrial Average](https://www.barrons.com/quote/"
        "index/DJIA) and [S&P 500](https://www.barrons.com/quote/index/SPX) over the same span."
    ) in content.markdown


@pytest.mark.parametrize(
    "pre",
    ["<pre>pip install widget</pre>", "<pre><code>pip install widget</code></pre>"],
    ids=["pre", "pre-code"],
)
def test_a_one_line_pre_on_an_article_is_a_fenced_block(pre: str) -> None:
    page = extract_content(_article("<p>Install it first:</p>", pre, "<p>Then run it.</p>"))
    assert "Install it first:\n\n```\npip install widget\n```\n\nThen run it." in page.markdown


README = """<html><head><title>README.md - acme/widget</title></head><body>
<article class="markdown-body entry-content" itemprop="text">
<h1>widget</h1>
<p>A small library that renders <strong>widgets</strong> in the terminal.</p>
<h2>Install</h2>
<div class="highlight highlight-source-shell"><pre>pip install widget</pre></div>
<p>Then call <code>draw()</code>.</p>
</article></body></html>"""


def test_a_one_line_pre_on_a_simple_page_is_a_fenced_block() -> None:
    page = extract_content(README)
    assert page.markdown == (
        "# widget\n\nA small library that renders **widgets** in the terminal.\n\n"
        "## Install\n\n```\npip install widget\n```\n\nThen call `draw()`."
    )
    # the plain text keeps the command a block of its own, as before
    assert "Install\n\npip install widget\n\nThen call draw()." in page.text


def test_the_annotated_tags_line_joins_with_one_space_between_links() -> None:
    # jaraguadosul.com.br writes each tag link on its own source line, its name led by a
    # space (<a> arrombamento</a>): a browser shows one space between the tags.
    page = load_page("f6ac15a4")
    content = extract_content(page.html, url=page.url)
    assert (
        "Tags: [sad](http://jaraguadosul.com.br/noticias.php?tag=sad) [arrombamento]("
        "http://jaraguadosul.com.br/noticias.php?tag=%20arrombamento) [veiculo]("
        "http://jaraguadosul.com.br/noticias.php?tag=%20veiculo)\n\n" in content.markdown
    )
