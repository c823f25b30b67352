"""Once serving, `arraygraph serve` says that browsers on other origins are refused when no
CORS origin is set, naming ARRAYGRAPH_CORS_ORIGINS with an example; set, it says nothing."""

from __future__ import annotations

import pytest

from cli import ready
from settings import Settings
from web.state import AppState, utc_now


def said(settings: Settings, capsys: pytest.CaptureFixture[str]) -> list[str]:
    ready(settings, AppState(settings, utc_now, None), "127.0.0.1:8000")
    return capsys.readouterr().err.splitlines()


def test_cors_hint_names_the_variable_when_no_origin_is_allowed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    hint, where = said(Settings(), capsys)
    assert "cross-origin browser calls are refused" in hint
    assert "ARRAYGRAPH_CORS_ORIGINS=http://localhost:5173" in hint
    assert where == "arraygraph: GraphiQL at http://127.0.0.1:8000/graphql"


def test_cors_hint_is_not_said_when_an_origin_is_allowed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = said(Settings(cors_origins=("http://localhost:5173",)), capsys)
    assert lines == ["arraygraph: GraphiQL at http://127.0.0.1:8000/graphql"]
