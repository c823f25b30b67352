"""The engine's own fixtures: a fresh engine per test."""

from __future__ import annotations

import pytest

from embedded import EmbeddedEngine


@pytest.fixture
def engine() -> EmbeddedEngine:
    return EmbeddedEngine()
