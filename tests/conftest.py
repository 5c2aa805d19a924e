"""Fixtures shared by the test modules, and how the suite is run."""

from __future__ import annotations

import os
import socket
import sys

import pytest
from hypothesis import settings

# Compiled modules are kept (in __pycache__/, which git ignores) even where
# PYTHONDONTWRITEBYTECODE is set: without them each run, each worker process and each
# command a test starts compiles the package and the tests (their rewritten asserts) anew,
# seconds every time. Set before the package is first imported, so its modules are kept too.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# No deadline per example: a property holds or not however busy the machine is (on a
# loaded CI runner a slow example failed as DeadlineExceeded, not as a wrong result).
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


@pytest.fixture
def no_network(monkeypatch):
    """Every way out to the network raises NetworkUsed for the test's duration."""
    from tests.helpers import NetworkUsed

    def refuse(*args, **kwargs):
        raise NetworkUsed(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
