"""With the tracing extra and an endpoint set, each operation and resolver is a span, and each
PyMongo command a span under the resolver that sent it; spans are caught in memory here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the tracing extra is not installed")

from opentelemetry.instrumentation.pymongo import PymongoInstrumentor
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
    InMemorySpanExporter,
)

from settings import Settings
from tests.support import ApiFactory
from tests.support.backends import Backend
from web.observability import tracing

QUERY = "query Traced { sensors(first: 1) { totalCount } }"


@pytest.fixture(scope="module")
def provider() -> Iterator[tuple[TracerProvider, InMemorySpanExporter]]:
    """A provider exporting into memory; PyMongo instrumented into it once (the instrumentor
    is one per process and keeps the provider it was first given)."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.instrument(provider)  # before the tests' database clients are created
    try:
        yield provider, exporter
    finally:
        PymongoInstrumentor().uninstrument()


@pytest.fixture
def exported(
    provider: tuple[TracerProvider, InMemorySpanExporter], monkeypatch: pytest.MonkeyPatch
) -> InMemorySpanExporter:
    """Tracing on (an endpoint set), into memory instead of OTLP."""
    tracer_provider, exporter = provider
    exporter.clear()
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
    monkeypatch.setattr(tracing, "otlp_provider", lambda env: tracer_provider)
    return exporter


def _named(spans: tuple[ReadableSpan, ...], name: str) -> ReadableSpan:
    [span] = [span for span in spans if span.name == name]
    return span


async def test_tracing_spans_the_operation_and_each_resolver(
    exported: InMemorySpanExporter, make_api: ApiFactory, settings: Settings
) -> None:
    async with make_api(settings) as api:
        await api.data(QUERY)
    spans = exported.get_finished_spans()
    operation = _named(spans, "GraphQL Query: Traced")
    resolver = _named(spans, "GraphQL Resolving: sensors")
    assert resolver.parent is not None and operation.context is not None
    assert resolver.parent.span_id == operation.context.span_id
    assert "graphql.param.first" not in (resolver.attributes or {})  # arguments are user data


async def test_tracing_spans_each_mongodb_command_under_its_resolver(
    exported: InMemorySpanExporter, make_api: ApiFactory, settings: Settings, backend: Backend
) -> None:
    if backend.name == "memory":
        pytest.skip("the embedded engine in process runs no PyMongo: no command spans")
    async with make_api(settings) as api:
        api.commands.reset()
        await api.data(QUERY)
        sent = api.commands.count
    spans = exported.get_finished_spans()
    resolver = _named(spans, "GraphQL Resolving: sensors")
    commands = [span for span in spans if span.name.endswith(".aggregate")]
    assert len(commands) == sent
    assert all(span.parent is not None for span in commands)
    assert resolver.context is not None
    assert {span.parent.span_id for span in commands if span.parent} == {resolver.context.span_id}


@pytest.mark.parametrize(
    ("method", "request_kwargs"),
    [
        ("GET", {"params": {"query": 'mutation { createSensor(title: "x") { id } }'}}),
        ("POST", {"json": {}}),
        ("POST", {"json": {"query": "{ __typename }", "operationName": "X"}}),
        ("POST", {"json": {"query": "{ nope }"}}),
        ("POST", {"json": {"query": "{ sensors { "}}),
        ("POST", {"json": {"query": "query A { __typename } query B { __typename }"}}),
        (
            "POST",
            {
                "json": {
                    "query": "query($n: Int) { sensors(first: $n) { id } }",
                    "variables": {"n": "x"},
                }
            },
        ),
        ("POST", {"json": {"query": QUERY}}),
    ],
    ids=[
        "get-mutation",
        "no-query",
        "unknown-name",
        "invalid",
        "unparsable",
        "unresolved",
        "variables",
        "ok",
    ],
)
async def test_tracing_on_answers_every_request_as_tracing_off(
    exported: InMemorySpanExporter,
    make_api: ApiFactory,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    request_kwargs: dict[str, Any],
) -> None:
    """Tracing runs Strawberry's `Schema.execute`, for its extension's hooks; every other request
    takes the lean path (runtime/request/operation.py): both answer alike."""
    answers = []
    for traced in (True, False):
        if not traced:
            monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT")
        async with make_api(settings) as api:
            response = await api.client.request(method, "/graphql", **request_kwargs)
            await api.data(QUERY)
        answers.append((response.status_code, response.headers["content-type"], response.json()))
        names = {span.name for span in exported.get_finished_spans()}
        assert ("GraphQL Query: Traced" in names) == traced
        exported.clear()
    assert answers[0] == answers[1]
