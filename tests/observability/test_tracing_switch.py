"""Tracing is off unless an OTLP endpoint is set; set without the extra, it says so and stays
off."""

from __future__ import annotations

import logging
import sys

import pytest

from web.observability import tracing

EXPORTER = "opentelemetry.exporter.otlp.proto.http.trace_exporter"


def test_tracing_is_off_without_an_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(env: object) -> None:
        raise AssertionError("no provider is built without an endpoint")

    monkeypatch.setattr(tracing, "otlp_provider", refuse)
    assert tracing.tracing_extensions({}) == []
    assert tracing.tracing_extensions({"OTEL_EXPORTER_OTLP_ENDPOINT": "  "}) == []


def test_tracing_with_an_endpoint_but_no_extra_says_so_and_stays_off(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, EXPORTER, None)  # as if the extra were not installed
    with caplog.at_level(logging.WARNING, logger="arraygraph.tracing"):
        found = tracing.tracing_extensions({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"})
    assert found == []
    [record] = caplog.records
    assert "pip install 'arraygraph[otel]'" in record.getMessage()
    assert EXPORTER in record.getMessage()
