"""extract_content on the real annotated pages and on pages written to show one feature each."""

import re

import pytest

from tests.content._pages import Page, f1, load_page, load_pages, precision_recall
from websearch_core import extract_content as exported
from websearch_core.content import PageContent, extract_content, html_to_markdown

_PARA = "<p>" + "This paragraph carries the argument forward with words, commas, and detail. " * 4
_PARA += "</p>"


@pytest.fixture(scope="module")
def annotated() -> list[tuple[Page, PageContent]]:
    """Each annotated page with what ``extract_content`` gives for it, extracted once.

    Both tests below read the same 63 extractions (5-7 s of each at load 10); the
    extraction is pure, and neither test changes what it is given.
    """
    return [(page, extract_content(page.html, url=page.url)) for page in load_pages()]


def test_main_text_quality_on_the_annotated_pages(
    annotated: list[tuple[Page, PageContent]],
) -> None:
    # trafilatura's defaults score 0.940 and readability-lxml 0.961 on these pages
    # (benchmarks/bench_extract.py); this pins our pipeline above both.
    pairs = [precision_recall(page.body, content.text) for page, content in annotated]
    score, precision, recall = f1(pairs)
    assert len(annotated) == 63
    assert score >= 0.965, (score, precision, recall)
    assert min(precision, recall) >= 0.95


def test_every_annotated_page_gives_text_and_a_title(
    annotated: list[tuple[Page, PageContent]],
) -> None:
    for page, content in annotated:
        assert content.title, page.url
        assert len(content.text.split()) >= 30, page.url
        assert "](" not in content.text, "plain text must not carry Markdown links"
        assert content.markdown


def test_metadata_of_a_real_article() -> None:
    page = load_page("08f79376")  # cbssports.com, November 2019
    content = extract_content(page.html, url=page.url)
    assert content.title == (
        "Browns player on Mason Rudolph's role in fight with Myles Garrett: He asked for it"
    )
    assert content.author == "Bryan DeArdo"
    assert content.published_date == "2019-11-19"
    assert content.site_name == "CBSSports.com"
    assert content.language == "en"
    assert content.url == page.url
    # the headline is metadata, not repeated as the first paragraph of the text
    assert not content.text.startswith(content.title)
    # links in the article body survive in the Markdown, absolute
    assert "[Myles Garrett](https://www.cbssports.com/nfl/players/" in content.markdown


def test_non_english_pages_keep_their_script_and_language() -> None:
    page = load_page("ff0f958a")  # a Russian diet article
    content = extract_content(page.html, url=page.url)
    assert content.language == "ru"
    assert content.title == "Диета Аткинса (14 дней)"
    assert "Аткинс" in content.text


def _article_page() -> str:
    return f"""<html lang="de"><head><title>Release notes | Example</title>
<meta property="og:site_name" content="Example News">
<meta name="author" content="Jane Roe">
<meta property="article:published_time" content="2024-03-05T10:00:00Z"></head>
<body><nav><ul><li><a href="/">Home</a></li><li><a href="/about">About us</a></li></ul></nav>
<main><article><h1>Release notes</h1>{_PARA}<h2>Benchmarks</h2>{_PARA}
<table><thead><tr><th>Library</th><th>Version</th><th>Requests per second</th></tr></thead>
<tbody><tr><td>aiohttp</td><td>3.10</td><td>12000</td></tr>
<tr><td>httpx</td><td>0.27</td><td>9000</td></tr></tbody></table>
{_PARA}<h2>Usage</h2><ol><li>Install the package from PyPI.</li>
<li>Import the client, then call search.</li></ol>
<pre><code>from example import Client
client = Client()</code></pre>{_PARA}<p>See <a href="/docs/start">the guide</a> first.</p>
</article></main><footer>Copyright Example Corp, all rights reserved</footer></body></html>"""


def test_markdown_keeps_headings_lists_tables_code_and_links() -> None:
    md = extract_content(_article_page(), url="https://example.org/news/1").markdown
    assert "## Benchmarks" in md
    assert "| Library | Version | Requests per second |" in md
    assert "| aiohttp | 3.10 | 12000 |" in md
    assert "1. Install the package from PyPI.\n2. Import the client, then call search." in md
    assert "```\nfrom example import Client\nclient = Client()\n```\n\n" in md
    assert "See [the guide](https://example.org/docs/start) first." in md
    assert "About us" not in md and "Copyright Example" not in md
    assert not any(line != line.rstrip() for line in md.splitlines())


_CODE = (
    '<span class="k">def</span> <span class="nf">first</span>():\n    return 1\n\n\n'
    '<span class="k">def</span> second():\n    \n    return 2\n'
)


@pytest.mark.parametrize(
    "block",
    [f"<pre><code>{_CODE}</code></pre>", f'<div class="highlight"><pre>{_CODE}</pre></div>'],
    ids=["pre-code", "highlighted-pre"],
)
def test_code_keeps_its_blank_lines_in_the_markdown_as_in_the_text(block: str) -> None:
    # trafilatura drops every empty line of its Markdown: the two lines between Python's
    # functions (and a YAML or diff's gaps) were lost there, while the text kept them.
    page = f"<html><body><article><h1>Code</h1>{_PARA}{block}{_PARA}</article></body></html>"
    content = extract_content(page)
    code = "def first():\n    return 1\n\n\ndef second():\n\n    return 2"
    assert f"```\n{code}\n```\n\n" in content.markdown
    assert "def first():\n    return 1\n\n\ndef second():\n    \n    return 2" in content.text
    assert "\u2400" not in content.markdown


def test_plain_text_is_paragraphs_separated_by_blank_lines() -> None:
    content = extract_content(_article_page(), url="https://example.org/news/1")
    blocks = content.text.split("\n\n")
    assert "See the guide first." in blocks
    assert "- Install the package from PyPI.\n- Import the client, then call search." in blocks
    assert "aiohttp | 3.10 | 12000" in content.text
    assert "from example import Client\nclient = Client()" in blocks
    assert not re.search(r"[*#`\[]", content.text)


def test_metadata_from_markup() -> None:
    content = extract_content(_article_page(), url="https://example.org/news/1")
    assert content == content.model_copy()  # frozen value
    assert (content.title, content.author, content.site_name) == (
        "Release notes",
        "Jane Roe",
        "Example News",
    )
    assert content.published_date == "2024-03-05"
    assert content.language == "de"


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ('<html lang="pt_BR">', "pt-BR"),
        ('<html><meta http-equiv="Content-Language" content="fr, en">', "fr"),
        ('<html><meta property="og:locale" content="es_ES">', "es-ES"),
        ('<html lang="not a tag">', None),
    ],
)
def test_language_from_the_page_declaration(head: str, expected: str | None) -> None:
    html = f"{head}<body><article>{_PARA}{_PARA}</article></body></html>"
    assert extract_content(html).language == expected


@pytest.mark.parametrize("html", ["", "   \n", "<!-- only a comment -->"])
def test_empty_pages_give_empty_content(html: str) -> None:
    content = extract_content(html, url="https://example.org/")
    assert (content.text, content.markdown, content.url) == ("", "", "https://example.org/")


def test_bytes_are_refused_with_the_reason() -> None:
    with pytest.raises(TypeError, match="needs the page as str, got bytes"):
        extract_content(b"<p>hi</p>")  # type: ignore[arg-type]


def test_exported_from_the_package_root() -> None:
    assert exported is extract_content
    assert isinstance(exported("<p>x</p>"), PageContent)


def test_a_tiny_readability_container_yields_to_the_whole_page() -> None:
    # readability treats class names like "share" as boilerplate and would keep 39 words of
    # this page; the whole-page extraction finds the six paragraphs.
    sentence = "Sentence with several words that forms part of the story, told at length. "
    html = (
        "<html><body><div class='share'>"
        + "".join(f"<p>{sentence * 3}</p>" for _ in range(6))
        + "</div></body></html>"
    )
    content = extract_content(html)
    assert content.text.count("told at length") == 18
    assert len(content.text.split("\n\n")) == 6


_XHTML = (
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"'
    ' "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
    '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">'
    "<head><title>An XHTML article</title></head>"
    '<body><div id="content"><h1>An XHTML article</h1>'
    + "".join(
        f"<p>Paragraph {n} of an ordinary article, with enough words in it.</p>" for n in range(20)
    )
    + "</div></body></html>"
)


@pytest.mark.parametrize(
    "prefix",
    [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        "\ufeff <?xml version='1.0' encoding='iso-8859-1' standalone='no' ?>",
    ],
)
def test_a_leading_xml_declaration_is_ignored_like_browsers_do(prefix: str) -> None:
    # lxml refuses a str with an encoding declaration; the page used to extract to nothing.
    plain = extract_content(_XHTML, url="https://example.org/x")
    declared = extract_content(prefix + _XHTML, url="https://example.org/x")
    assert plain.title == "An XHTML article"
    assert plain.text.count("of an ordinary article") == 20
    assert (declared.title, declared.text, declared.markdown, declared.language) == (
        plain.title,
        plain.text,
        plain.markdown,
        plain.language,
    )


def test_html_to_markdown_ignores_a_leading_xml_declaration() -> None:
    fragment = "<html><body><p>Hello <b>there</b> friend.</p></body></html>"
    declared = '<?xml version="1.0" encoding="UTF-8"?>\n' + fragment
    assert html_to_markdown(declared) == html_to_markdown(fragment) == "Hello **there** friend."


def _tour_page() -> str:
    return (
        "<html><head><title>Tour dates</title></head><body><article><h1>Tour dates</h1>"
        f"{_PARA}<p>The band plays these dates:<br>June 9, West Palm Beach, FL<br>"
        f"June 10, Tampa, FL<br/>June 14, Alpharetta, GA</p>{_PARA}"
        "<ul><li>HL7<br>HL7 is a standards group.</li><li>IHE</li></ul>"
        "<blockquote><p>First quoted paragraph ends here.</p><p>Second quoted one.</p>"
        f"</blockquote>{_PARA}<table><tr><th>City</th><th>Venue</th></tr>"
        f"<tr><td>Tampa<br>FL</td><td>Amphitheatre</td></tr></table>{_PARA}"
        "</article></body></html>"
    )


def test_a_line_break_in_a_paragraph_is_a_new_line_of_the_plain_text() -> None:
    blocks = extract_content(_tour_page()).text.split("\n\n")
    assert (
        "The band plays these dates:\nJune 9, West Palm Beach, FL\nJune 10, Tampa, FL\n"
        "June 14, Alpharetta, GA"
    ) in blocks


def test_a_line_break_in_a_list_item_or_a_table_cell_is_a_space() -> None:
    text = extract_content(_tour_page()).text
    assert "- HL7 HL7 is a standards group.\n- IHE" in text
    assert "City | Venue\nTampa FL | Amphitheatre" in text


def test_paragraphs_inside_a_quote_do_not_run_together() -> None:
    text = extract_content(_tour_page()).text
    assert "First quoted paragraph ends here.\nSecond quoted one." in text


def test_the_lines_of_a_real_tour_list_keep_apart() -> None:
    page = load_page("9cb8224b")  # billboard.com: 30 tour dates, one <br> after each
    text = extract_content(page.html, url=page.url).text
    assert "West Palm Beach, FL\nJune 10 -- MIDFLORIDA Credit Union Amphitheatre" in text
    assert not re.search(r"[A-Z]{2}(?:June|July|Aug|Sept|Oct)\b", text)


def _nested(depth: int, tag: str = "div") -> str:
    return (
        "<html><head><title>Deep</title></head><body>"
        + f"<{tag} class='wrap'>" * depth
        + f"<h2>Deep heading</h2>{_PARA}<p>The last <a href='/end'>words</a> of it.</p>"
        + f"</{tag}>" * depth
        + "</body></html>"
    )


@pytest.mark.parametrize(("depth", "tag"), [(300, "div"), (1500, "div"), (400, "span")])
def test_a_page_nested_past_the_parsers_limit_keeps_its_text(depth: int, tag: str) -> None:
    # libxml2 stops building the tree 256 elements deep: this page used to give no text.
    content = extract_content(_nested(depth, tag), url="https://example.org/deep")
    shallow = extract_content(_nested(3, tag), url="https://example.org/deep")
    assert content.text == shallow.text
    assert content.text.endswith("The last words of it.")
    assert "[words](https://example.org/end)" in content.markdown


def test_text_in_hundreds_of_unclosed_tags_is_read() -> None:
    # Every word opens a <b> it never closes: the text sits in the nesting itself.
    html = "<html><body><article><p>" + "".join(f"<b>word{n} " for n in range(600))
    text = extract_content(html + "</p></article></body></html>").text
    assert text.split() == [f"word{n}" for n in range(600)]


def test_soft_hyphens_do_not_split_words_in_the_plain_text() -> None:
    paragraph = "Der Not\u00adfall\u00adda\u00adten\u00adsatz liegt im Handschuhfach. " * 20
    page = extract_content(f"<html><body><article><p>{paragraph}</p></article></body></html>")
    assert "\u00ad" not in page.text and "\u00ad" not in page.markdown
    assert page.text.count("Notfalldatensatz") == 20
