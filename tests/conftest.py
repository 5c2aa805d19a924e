"""Fixtures shared by the test modules."""

from __future__ import annotations

import socket

import pytest

from tests.helpers import NetworkUsed


@pytest.fixture
def no_network(monkeypatch):
    """Every way out to the network raises NetworkUsed for the test's duration."""

    def refuse(*args, **kwargs):
        raise NetworkUsed(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
