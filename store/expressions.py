"""Helpers for building aggregation expressions safely."""

from __future__ import annotations

from typing import Any


def literal(value: Any) -> dict[str, Any]:
    """A user value inside a pipeline: a string starting with `$` must never become a path."""
    return {"$literal": value}
