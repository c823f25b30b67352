"""The request log of a test, caught through arraygraph's JSON formatter."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from tests.observability.observed import LogLines
from web.observability.logging_setup import JsonFormatter


@pytest.fixture
def request_log() -> Iterator[LogLines]:
    """The `arraygraph.request` logger's lines, as JSON, for the length of the test."""
    logger = logging.getLogger("arraygraph.request")
    captured = LogLines()
    handler = logging.StreamHandler(captured.stream)
    handler.setFormatter(JsonFormatter())
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        yield captured
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
