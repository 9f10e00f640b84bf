"""Fixtures of the protection tests."""

from __future__ import annotations

import io
import json
import logging

import pytest

from fogkeeper.security.requests import JsonFormatter


@pytest.fixture
def log_lines():
    """What the configured standard-error handler writes, each line parsed as JSON."""
    (handler,) = [
        h for h in logging.getLogger("django").handlers if isinstance(h.formatter, JsonFormatter)
    ]
    stream = io.StringIO()
    previous = handler.setStream(stream)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        handler.setStream(previous)
