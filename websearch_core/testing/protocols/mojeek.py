"""Mojeek for the simulator: ``GET /search``, the home page, and a working ALTCHA wall.

Results carry the markup of the real page: a ``div.serp-results`` column with a
``ul.results-standard`` of ``li`` rows (every third one a clustered ``li.clu-result``), each
with an ``h2 > a.title`` link, a ``p.s`` snippet and a "See more results" link back to
Mojeek. A query with no results gets Mojeek's "No pages found" page.

The proof-of-work wall works like ALTCHA's: the challenge page (the captured page's shape,
``<title>Captcha</title>`` and an empty ``div.captcha-wrap`` filled by the module script
``/js/page_specific/altcha.js``) shows an ``altcha-widget`` with a checkbox. Clicking it
fetches ``/altcha/challenge`` (``{algorithm, challenge, salt, signature, maxnumber}`` where
``challenge = SHA-256(salt + number)`` for a secret number and ``signature`` is an HMAC of
the challenge), searches for the number with ``crypto.subtle`` in the page, and posts the
base64 JSON solution to ``/altcha/verify``. The server checks the signature, the hash and
that the salt is fresh, then sets the pass cookie and redirects back to the search, which
from then on is served. Nothing but a real browser gets through.

:meth:`MojeekProtocol.challenge` serves the ALTCHA page (HTTP 200). With ``altcha=True``
every ``/search`` without a valid pass cookie gets it. :meth:`MojeekProtocol.malformed` is a
200 page that is neither results nor a wall.
"""

import base64
import hashlib
import hmac
import html
import json
import secrets
from datetime import datetime
from urllib.parse import quote_plus, urlsplit

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._operators import Operators
from ._windows import DateWindow, between_days, past

__all__ = [
    "ALTCHA_MAX_NUMBER",
    "HOME_PAGE",
    "MALFORMED_PAGE",
    "PASS_COOKIE",
    "WIDGET_SCRIPT_PATH",
    "MojeekProtocol",
    "challenge_page",
    "no_results_page",
    "results_page",
]

PASS_COOKIE = "mojeek_altcha_pass"
WIDGET_SCRIPT_PATH = "/js/page_specific/altcha.js"
ALTCHA_MAX_NUMBER = 3000
"""The secret number is below this, so the page's search takes a fraction of a second."""

HOME_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Mojeek</title>
</head><body class="home"><form action="/search" method="get"><input name="q" type="search">
</form></body></html>
"""

MALFORMED_PAGE = """<!DOCTYPE html><html lang="en"><head><title>Mojeek</title></head><body>
<div class="container"><p>Service temporarily unavailable, please retry.</p></div></body></html>
"""

_WIDGET_SCRIPT = """
async function sha256hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest)).map(b => b.toString(16).padStart(2, '0')).join('');
}

class AltchaWidget extends HTMLElement {
  connectedCallback() {
    this.innerHTML = '<div class="altcha" data-state="unverified"><label>' +
      '<input type="checkbox" name="altcha-check"> I am not a robot</label></div>';
    this.querySelector('input').addEventListener('change', () => this.verify());
  }
  async verify() {
    this.firstElementChild.dataset.state = 'verifying';
    const response = await fetch(this.getAttribute('challengeurl'), {credentials: 'same-origin'});
    const challenge = await response.json();
    for (let number = 0; number <= challenge.maxnumber; number++) {
      if (await sha256hex(challenge.salt + number) === challenge.challenge) {
        const payload = btoa(JSON.stringify({
          algorithm: challenge.algorithm, challenge: challenge.challenge, number: number,
          salt: challenge.salt, signature: challenge.signature}));
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = '/altcha/verify';
        for (const [name, value] of [['altcha', payload],
                                     ['continue', location.pathname + location.search]]) {
          const input = document.createElement('input');
          input.type = 'hidden'; input.name = name; input.value = value;
          form.appendChild(input);
        }
        document.body.appendChild(form);
        form.submit();
        return;
      }
    }
    this.firstElementChild.dataset.state = 'error';
  }
}

customElements.define('altcha-widget', AltchaWidget);
document.querySelector('.captcha-wrap').innerHTML =
  '<altcha-widget challengeurl="/altcha/challenge"></altcha-widget>';
"""


def challenge_page(query: str = "") -> str:
    """The ALTCHA page, in the captured page's shape (written for the simulator)."""
    feedback = f"/about/contact?q={quote_plus(query)}"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="UTF-8">\n'
        '<title>Captcha</title>\n</head>\n<body data-theme="light" class="home">\n'
        '<div class="header"><div class="left"><a href="/">Mojeek</a></div></div>\n'
        '<div class="captcha-wrap"><p>JavaScript is required to complete this challenge. '
        "Please enable it and reload the page.</p></div>"
        f'<script type="module" src="{WIDGET_SCRIPT_PATH}"></script>'
        f'<div class="footer"><a href="{html.escape(feedback)}">Feedback</a></div>\n'
        "</body>\n</html>\n"
    )


def _row(index: int, result: SimResult) -> str:
    cluster = " clu-result" if index % 3 == 0 else ""
    url = html.escape(result.url)
    host = urlsplit(result.url).hostname or ""
    more = f"/search?q={quote_plus('site:' + host)}"
    return f"""
<li class="r{index}{cluster}">
  <a title="{url}" href="{url}" class="ob"><p class="i"><span class="url">{url}</span></p></a>
  <h2><a class="title" title="{url}" href="{url}">{html.escape(result.title)}</a></h2>
  <p class="s">{html.escape(result.snippet)}</p>
  <p class="more"><a href="{html.escape(more)}">See more results from {html.escape(host)} »</a></p>
</li>"""


def _page(title: str, column: str) -> str:
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">'
        f"<title>{html.escape(title)} - Mojeek Search</title></head><body>"
        f'<div class="container serp-results"><div class="result-col">{column}</div></div>'
        "</body></html>"
    )


def results_page(query: str, results: list[SimResult]) -> str:
    """The results page for ``query``."""
    rows = "".join(_row(index, result) for index, result in enumerate(results, start=1))
    return _page(query, f'<div class="results"><ul class="results-standard">{rows}</ul></div>')


def no_results_page(query: str) -> str:
    """Mojeek's page for a query nothing matches."""
    return _page(query, f"<p>No pages found matching: <b>{html.escape(query)}</b></p>")


class MojeekProtocol:
    """Answers like ``www.mojeek.de``, with a real proof-of-work wall.

    Args:
        altcha: Put every ``/search`` without a pass cookie behind the ALTCHA wall.

    Attributes:
        solved: How many proofs of work were accepted.
        rejected: How many submitted proofs were refused.
    """

    operators = Operators(site=True)
    """Mojeek reads ``site:`` in ``q``; ``filetype:`` it takes as words (the core never
    sends it)."""

    def __init__(self, *, altcha: bool = False) -> None:
        self.altcha = altcha
        self.solved = 0
        self.rejected = 0
        self._key = secrets.token_bytes(16)
        self._open_salts: set[str] = set()
        self._passes: set[str] = set()

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Home, search, the widget script, the ALTCHA endpoints, or 404."""
        if request.path == "/":
            return web.Response(text=HOME_PAGE, content_type="text/html")
        if request.path == WIDGET_SCRIPT_PATH:
            return web.Response(text=_WIDGET_SCRIPT, content_type="text/javascript")
        if request.path == "/altcha/challenge":
            return web.json_response(self._new_challenge())
        if request.path == "/altcha/verify" and request.method == "POST":
            return self._verify(request)
        if request.path != "/search":
            return web.Response(status=404, text="Not Found")
        query = request.query_dict().get("q", "")
        if self.altcha and not self.has_pass(request):
            return web.Response(text=challenge_page(query), content_type="text/html")
        page = results_page(query, results) if results else no_results_page(query)
        return web.Response(text=page, content_type="text/html")

    def date_window(self, request: RecordedRequest) -> DateWindow:
        """The dates ``since`` asks for: ``day``, ``month``, ``year``, or a first ``YYYYMMDD``."""
        since = request.query_dict().get("since", "")
        if since in ("day", "month", "year"):
            return past(since[0])
        try:
            first = datetime.strptime(since, "%Y%m%d").date()
        except ValueError:
            return past("")
        return between_days(first, None)

    def challenge(self) -> web.Response:
        """The ALTCHA proof-of-work page, HTTP 200 as Mojeek serves it."""
        return web.Response(text=challenge_page(), content_type="text/html")

    def malformed(self) -> web.Response:
        """A 200 page that is neither results nor a wall."""
        return web.Response(text=MALFORMED_PAGE, content_type="text/html")

    def has_pass(self, request: RecordedRequest) -> bool:
        """Whether the request carries a pass cookie this server issued."""
        cookies = request.header("Cookie") or ""
        for part in cookies.split(";"):
            name, _, value = part.strip().partition("=")
            if name == PASS_COOKIE and value in self._passes:
                return True
        return False

    def _sign(self, challenge: str) -> str:
        return hmac.new(self._key, challenge.encode(), hashlib.sha256).hexdigest()

    def _new_challenge(self) -> dict[str, object]:
        salt = secrets.token_hex(12)
        number = secrets.randbelow(ALTCHA_MAX_NUMBER)
        challenge = hashlib.sha256(f"{salt}{number}".encode()).hexdigest()
        self._open_salts.add(salt)
        return {
            "algorithm": "SHA-256",
            "challenge": challenge,
            "salt": salt,
            "signature": self._sign(challenge),
            "maxnumber": ALTCHA_MAX_NUMBER,
        }

    def _valid(self, payload: str) -> bool:
        try:
            data = json.loads(base64.b64decode(payload, validate=True))
            salt, number = str(data["salt"]), int(data["number"])
            challenge, signature = str(data["challenge"]), str(data["signature"])
        except (ValueError, KeyError, TypeError):
            return False
        if salt not in self._open_salts:
            return False
        if not hmac.compare_digest(self._sign(challenge), signature):
            return False
        return hashlib.sha256(f"{salt}{number}".encode()).hexdigest() == challenge

    def _verify(self, request: RecordedRequest) -> web.Response:
        form = dict(request.form())
        target = form.get("continue", "/search")
        if not target.startswith("/search"):
            target = "/search"
        if not self._valid(form.get("altcha", "")):
            self.rejected += 1
            return web.Response(status=403, text="verification failed")
        self._open_salts.discard(json.loads(base64.b64decode(form["altcha"]))["salt"])
        token = secrets.token_hex(16)
        self._passes.add(token)
        self.solved += 1
        return web.Response(
            status=303,
            headers={"Location": target, "Set-Cookie": f"{PASS_COOKIE}={token}; Path=/; HttpOnly"},
        )
