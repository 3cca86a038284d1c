"""A small page laid out in ``<div>``s (a header, a menu, a content wrapper) reads whole.

Stop 57 read a page whole and in order only when its blocks stood flat below its single
wrappers; a small page whose header or menu is a ``<div>`` beside a ``<div>`` of content
still got the extractors' reading: under 250 characters trafilatura's dump of every text
node, site links and all, one line each, and the page's ``<h1>`` as its title. The layout
around the content (a menu, a header or footer, a cookie banner) must stay out. Pages here
are written for the tests; the annotated article pages are scored in ``test_extract.py``.
"""

from websearch_core.content import extract_content

DIV_HEADER = """<html><head><title>Hello page</title></head><body>
<div class="header"><a href="/">Example</a> <a href="/docs/">Docs</a></div>
<div class="content"><h1>Hi</h1>
<p>Some text here with <a href="/x">a link</a>.</p></div>
</body></html>"""

LAID_OUT = """<html><head><title>Test page</title></head><body>
<div id="top"><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul></div>
<div class="wrapper"><div class="inner"><h1>Main heading</h1>
<p>First paragraph with <a href="/a">a link</a> and
<strong>bold</strong> words.</p>
<h2>Second section</h2>
<p>Another paragraph of text.</p>
<ul><li>One item</li><li>Two item</li></ul>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
</div></div>
<div class="site-footer">Copyright 2026 Example</div>
<div id="cookieConsent"><p>We use cookies to improve the site.</p><button>OK</button></div>
</body></html>"""

LAID_OUT_MARKDOWN = """# Main heading

First paragraph with [a link](https://example.org/a) and **bold** words.

## Second section

Another paragraph of text.

- One item
- Two item

| Name | Value |
|---|---|
| a | 1 |"""

ROLES = """<html><head><title>Landmarks by role</title></head><body>
<div role="banner"><span>Example site</span></div>
<div role="navigation"><span>Menu:</span> <a href="/">Home</a></div>
<div class="page"><h1>Roles</h1><p>Only this sentence is the page's content.</p>
<p>And this one.</p></div>
<div role="contentinfo"><span>Contact us by mail.</span></div>
</body></html>"""


def test_a_small_page_beside_a_div_header_is_titled_and_read_whole() -> None:
    page = extract_content(DIV_HEADER, url="https://example.org/hello")
    assert page.title == "Hello page"
    assert page.markdown == "# Hi\n\nSome text here with [a link](https://example.org/x)."
    assert page.text == "Hi\n\nSome text here with a link."


def test_a_wrapped_page_keeps_its_blocks_and_leaves_out_menu_footer_and_cookies() -> None:
    page = extract_content(LAID_OUT, url="https://example.org/test")
    assert page.title == "Test page"
    assert page.markdown == LAID_OUT_MARKDOWN
    for layout in ("Home", "About", "Copyright", "cookies"):
        assert layout not in page.text


def test_landmark_roles_on_divs_are_layout_not_text() -> None:
    page = extract_content(ROLES, url="https://example.org/roles")
    assert page.title == "Landmarks by role"
    assert page.text == "Roles\n\nOnly this sentence is the page's content.\n\nAnd this one."


def test_a_list_of_links_inside_the_content_stays_and_one_beside_it_goes() -> None:
    # Only beside the content wrapper is a run of links a menu: inside it, a "See also"
    # list is the page's own.
    html = (
        "<html><head><title>Links page</title></head><body>"
        '<div><a href="/">Home</a> | <a href="/news">News</a></div>'
        "<div><h1>Links</h1><p>Read these next.</p>"
        '<ul><li><a href="/one">One guide</a></li><li><a href="/two">Two guide</a></li></ul>'
        "</div></body></html>"
    )
    page = extract_content(html, url="https://example.org/links")
    assert page.markdown == (
        "# Links\n\nRead these next.\n\n"
        "- [One guide](https://example.org/one)\n- [Two guide](https://example.org/two)"
    )
