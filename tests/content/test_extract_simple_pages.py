"""Small and simple pages (only their content) come out whole, in order, with their title.

readability's cleaner dropped a short list or table of such a page, and under 250
characters trafilatura fell back to a dump of the text: no heading, no link, a line per
text node. Pages here are written for the tests; the annotated article pages, whose
results must not move, are scored in ``test_extract.py``.
"""

import pytest

from tests.content._server import PageServer
from websearch_core import WebSearch
from websearch_core.content import extract_content

TINY = (
    "<html><head><title>Hello page</title></head><body><h1>Hi</h1>"
    '<p>Some text here with <a href="/x">a link</a>.</p></body></html>'
)

LONGER = """<html><head><title>Test page</title></head><body>
<h1>Main heading</h1>
<p>First paragraph with <a href="/a">a link</a> and
<strong>bold</strong> words.</p>
<h2>Second section</h2>
<p>Another paragraph of text.</p>
<ul><li>One item</li><li>Two item</li></ul>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
</body></html>"""

LONGER_MARKDOWN = """# Main heading

First paragraph with [a link](https://example.org/a) and **bold** words.

## Second section

Another paragraph of text.

- One item
- Two item

| Name | Value |
|---|---|
| a | 1 |"""

DOCS = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Configuration - Example docs</title></head><body>
<header><a href="/">Example</a> <a href="/docs/">Docs</a> <a href="/blog/">Blog</a></header>
<nav><ul><li><a href="/docs/install">Install</a></li>
<li><a href="/docs/config">Configuration</a></li></ul></nav>
<main><article><h1>Configuration</h1>
<p>Settings are read from the environment first, then from
<code>example.toml</code> in the working directory.</p>
<h2>Variables</h2>
<table><thead><tr><th>Name</th><th>Default</th></tr></thead>
<tbody><tr><td><code>EXAMPLE_TIMEOUT</code></td><td>30</td></tr></tbody></table>
<pre><code>[example]
timeout = 10</code></pre>
<p>See <a href="/docs/api">the API reference</a> for every option.</p>
<ul><li>Values are checked at start-up.</li><li>Unknown keys are an error.</li></ul>
</article></main>
<footer><p>Copyright 2026 Example maintainers.</p></footer></body></html>"""

README = """<html><head><title>README.md - acme/widget</title></head><body>
<article class="markdown-body entry-content" itemprop="text">
<div class="markdown-heading"><h1 class="heading-element">widget</h1>
<a class="anchor" href="#widget"></a></div>
<p>A small library that renders <strong>widgets</strong> in the terminal.</p>
<div class="markdown-heading"><h2 class="heading-element">Install</h2>
<a class="anchor" href="#install"></a></div>
<div class="highlight highlight-source-shell"><pre>pip install widget</pre></div>
<div class="markdown-heading"><h2 class="heading-element">Usage</h2>
<a class="anchor" href="#usage"></a></div>
<ol><li>Create a <code>Widget</code>.</li><li>Call <code>draw()</code>.</li></ol>
<p>Read the <a href="https://example.org/widget/docs">documentation</a> for more.</p>
</article></body></html>"""


@pytest.mark.parametrize(
    ("html", "title"), [(TINY, "Hello page"), (LONGER, "Test page")], ids=["tiny", "longer"]
)
def test_a_simple_page_is_titled_by_its_title_tag_not_its_h1(html: str, title: str) -> None:
    assert extract_content(html).title == title


def test_a_tiny_page_keeps_its_h1_as_a_heading_and_its_link_on_one_line() -> None:
    page = extract_content(TINY, url="https://example.org/hello")
    assert page.markdown == "# Hi\n\nSome text here with [a link](https://example.org/x)."
    assert page.text == "Hi\n\nSome text here with a link."


def test_a_simple_page_keeps_the_heading_list_and_table_after_its_paragraph() -> None:
    page = extract_content(LONGER, url="https://example.org/test")
    assert page.markdown == LONGER_MARKDOWN
    assert page.text.split("\n\n")[-2:] == ["- One item\n- Two item", "Name | Value\na | 1"]


def test_a_docs_page_keeps_a_paragraph_on_one_line_and_leaves_out_the_site_chrome() -> None:
    page = extract_content(DOCS, url="https://example.org/docs/config")
    assert (
        "Settings are read from the environment first, then from `example.toml` in the "
        "working directory.\n\n## Variables\n\n| Name | Default |" in page.markdown
    )
    assert page.markdown.endswith(
        "See [the API reference](https://example.org/docs/api) for every option.\n\n"
        "- Values are checked at start-up.\n- Unknown keys are an error."
    )
    assert "```\n[example]\ntimeout = 10\n```" in page.markdown
    for chrome in ("Blog", "Install", "Copyright"):
        assert chrome not in page.text
    # The heading is part of the <title> (which adds the site's name): the heading stays.
    assert page.title == "Configuration"


def test_a_rendered_readme_keeps_its_one_line_code_block_in_order() -> None:
    page = extract_content(README, url="https://example.org/acme/widget")
    assert page.markdown == (
        "# widget\n\nA small library that renders **widgets** in the terminal.\n\n"
        "## Install\n\n```\npip install widget\n```\n\n## Usage\n\n"
        "1. Create a `Widget`.\n2. Call `draw()`.\n\n"
        "Read the [documentation](https://example.org/widget/docs) for more."
    )


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        " JavaScript:alert(1)",
        "java\tscript:alert(1)",
        "\x01javascript:alert(1)",
        "data:text/html,<b>x</b>",
        "vbscript:msgbox(1)",
    ],
)
def test_a_link_that_runs_code_keeps_only_its_words(href: str) -> None:
    # Markdown a reader renders must not carry a script address as a link: the extractors
    # never wrote one, and a simple page's own blocks must not start to.
    page = extract_content(
        f'<html><head><title>T</title></head><body><h1>Hi</h1><p>Click <a href="{href}">'
        'me</a> or <a href="/ok">this</a>.</p></body></html>',
        "https://example.org/",
    )
    assert page.markdown == "# Hi\n\nClick me or [this](https://example.org/ok)."


def test_an_article_page_in_columns_is_left_to_the_extractors() -> None:
    # Guard: a layout of <div> columns (a link rail beside the story) is no simple page:
    # the rail stays out and trafilatura's title, the story's <h1>, stays.
    sentence = "A sentence of the story that is long enough to be read as its text. "
    html = (
        "<html><head><title>Site name: home</title></head><body>"
        "<div class='rail'><ul><li><a href='/1'>Other story</a></li>"
        "<li><a href='/2'>Another story</a></li></ul></div><div class='story'>"
        "<h1>The story</h1>"
        + "".join(f"<p>Part {n}. {sentence * 3}</p>" for n in range(6))
        + "</div></body></html>"
    )
    page = extract_content(html)
    assert page.title == "The story"
    assert "Other story" not in page.text
    assert page.text.count("of the story") == 18


@pytest.mark.parametrize(
    ("path", "html", "title", "markdown"),
    [
        ("/tiny", TINY, "Hello page", "# Hi\n\nSome text here with [a link]({base}/x)."),
        ("/longer", LONGER, "Test page", LONGER_MARKDOWN.replace("https://example.org", "{base}")),
    ],
    ids=["tiny", "longer"],
)
async def test_a_simple_page_fetched_on_loopback_comes_out_whole(
    ws: WebSearch, server: PageServer, path: str, html: str, title: str, markdown: str
) -> None:
    server.page(path, html, "text/html; charset=utf-8")
    page = await ws.fetch(server.url(path), allow_private_addresses=True, use_browser=False)
    assert page.title == title
    assert page.markdown == markdown.format(base=server.url("").rstrip("/"))
