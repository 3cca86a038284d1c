"""The ``Credentials`` a transport built without any asks: listed while they live.

A transport of your own judges the sign-ins every ``Credentials`` alive has handed out
(tests/functional/test_sign_in_own_transport.py); a client let go must take its sign-ins
with it, and one that handed none out is never asked.
"""

import gc

from websearch_core import Credentials
from websearch_core.sent_secret import SentSecret
from websearch_core.sign_in_holders import sign_in_holders

SESSION = "holder-session-value-0123456789"


def test_only_a_credentials_that_handed_out_a_sign_in_is_listed_while_it_lives() -> None:
    quiet, holding = Credentials(environ={}), Credentials(environ={})
    holding.hand_out_sign_in(SentSecret(SESSION, "a session", "in X", "remove"), "perplexity")
    holding.hand_out_sign_in(SentSecret(SESSION, "a session", "in X", "remove"), "perplexity")
    listed = sign_in_holders()
    assert listed.count(holding) == 1 and quiet not in listed
    del listed, holding
    gc.collect()
    assert not any(SESSION in held.sign_ins for held in sign_in_holders())
