"""OpenTelemetry tracing, an optional extra (`pip install 'arraygraph[otel]'`).

Off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set; the
OpenTelemetry SDK reads that and its other `OTEL_*` variables itself (`OTEL_SERVICE_NAME`,
headers, sampling). On, it gives the schema Strawberry's `OpenTelemetryExtension` (a span per
operation, its parsing, validation and each resolver) and instruments PyMongo (a span per
command, a child of the resolver's that sent it). With the endpoint set and the extra missing,
it says so once and tracing stays off. Resolver arguments are never span attributes: they are
user data.

PyMongo's instrumentation registers a listener for clients created afterwards: the app's own
client is (its lifespan opens it), a database handle given to `create_app` ready-made is not.
The embedded engine runs no PyMongo: its commands have no spans.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from strawberry.extensions import SchemaExtension

if TYPE_CHECKING:
    from opentelemetry.trace import TracerProvider

logger = logging.getLogger("arraygraph.tracing")

ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
SERVICE_NAME = "arraygraph"  # unless OTEL_SERVICE_NAME names another
ExtensionFactory = Callable[[], SchemaExtension]


def tracing_extensions(env: Mapping[str, str] | None = None) -> list[ExtensionFactory]:
    """The schema extensions tracing needs: none unless an OTLP endpoint is set and the extra
    is installed (PyMongo is instrumented on the way)."""
    env = os.environ if env is None else env
    if not any(env.get(name, "").strip() for name in ENDPOINT_VARIABLES):
        return []
    try:
        return instrument(otlp_provider(env))
    except ImportError as exc:
        logger.warning(
            "OTEL_EXPORTER_OTLP_ENDPOINT is set but the tracing extra is not installed "
            "(missing %s): tracing is off. Install it with: pip install 'arraygraph[otel]'",
            exc.name,
        )
        return []


def otlp_provider(env: Mapping[str, str]) -> TracerProvider:
    """The process's tracer provider, exporting spans in batches over OTLP/HTTP."""
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    named = env.get("OTEL_SERVICE_NAME", "").strip()
    resource = Resource.create({} if named else {"service.name": SERVICE_NAME})
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    return provider


def instrument(provider: TracerProvider) -> list[ExtensionFactory]:
    """Trace PyMongo's commands into `provider`; the Strawberry extension that traces the
    operations into it too."""
    from opentelemetry.instrumentation.pymongo import PymongoInstrumentor
    from strawberry.extensions.tracing import OpenTelemetryExtension

    instrumentor = PymongoInstrumentor()  # one per process: the first provider given stays
    if not instrumentor.is_instrumented_by_opentelemetry:
        instrumentor.instrument(tracer_provider=provider)
    return [partial(OpenTelemetryExtension, tracer_provider=provider, arg_filter=_no_arguments)]


def _no_arguments(arguments: dict[str, Any], info: Any) -> dict[str, Any]:
    return {}
