"""The identity tests' fixtures: the request log, as the observability tests catch it; the
tokens PyJWT decodes."""

from __future__ import annotations

from typing import Any

import jwt
import pytest

from tests.observability.conftest import request_log

__all__ = ["decoded", "request_log"]


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every token PyJWT decoded (verified, or refused) during the test."""
    calls: list[str] = []
    real = jwt.PyJWT.decode

    def counting(decoder: jwt.PyJWT, token: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(token)
        return real(decoder, token, *args, **kwargs)

    monkeypatch.setattr(jwt.PyJWT, "decode", counting)
    return calls
