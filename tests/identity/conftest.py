"""The identity tests' fixtures: the request log, as the observability tests catch it."""

from __future__ import annotations

from tests.observability.conftest import request_log

__all__ = ["request_log"]
