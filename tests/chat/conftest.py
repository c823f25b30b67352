"""Chat tests run with a cap of 3 messages a page, so that rollovers happen every few posts."""

from __future__ import annotations

import pytest

from settings import Settings

CAP = 3


@pytest.fixture
def settings() -> Settings:
    return Settings(messages_per_page=CAP)
