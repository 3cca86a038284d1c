"""The tests' refused port refuses connections and cannot be handed to a new listener."""

import socket

import pytest

from tests.refused_port import refused_port


def test_a_connection_to_the_refused_port_is_refused() -> None:
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", refused_port()), timeout=5).close()


def test_no_listener_can_be_given_the_refused_port() -> None:
    # A listener bound the way asyncio's servers bind (address reuse on) cannot take it.
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        with pytest.raises(OSError, match="in use"):
            listener.bind(("127.0.0.1", refused_port()))


def test_every_caller_is_given_the_same_held_port() -> None:
    assert refused_port() == refused_port()
