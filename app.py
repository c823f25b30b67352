"""The ASGI application, assembled: routes, middleware and lifespan; each piece in `web/`."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route

from resolvers.context import Clock
from schema.schema import build_schema
from settings import Settings
from store.chat.chat_page_size import check_messages_per_page
from store.database import Database
from web.body_limit import BodyLimit
from web.cors import cors
from web.endpoint.direct_route import DirectRoute
from web.endpoint.persisted_queries import persisted_queries
from web.endpoint.view import GraphQLView
from web.graphiql.page import graphiql_routes
from web.health import health_routes
from web.identity.access_line import saying_who_may_call
from web.identity.lifespan import loading_keys
from web.identity.metrics import register_identity_metrics
from web.observability.metrics import Metrics, metrics_route, watching_commands
from web.observability.request_log import RequestLog
from web.observability.tracing import tracing_extensions
from web.state import AppState, lifespan, utc_now

GRAPHQL_PATH = "/graphql"


def create_app(
    settings: Settings | None = None,
    *,
    clock: Clock = utc_now,
    demo: bool = False,
    database: Database | None = None,
) -> Starlette:
    """The application; its lifespan opens the database (unless given), indexes and demo data."""
    settings = settings or Settings.from_env()
    check_messages_per_page(settings.messages_per_page)
    state = AppState(settings, clock, database)
    schema = build_schema(settings, extensions=tracing_extensions())
    metrics = Metrics(schema.document_cache, settings.metrics_operations)
    register_identity_metrics(metrics.registry, state.authenticator)
    endpoint = GraphQLView(state, schema, persisted_queries(settings, schema))
    middleware = [
        # Outermost: every request logged, with its id.
        Middleware(RequestLog, metrics=metrics, graphql_path=GRAPHQL_PATH),
        *cors(settings),
        Middleware(BodyLimit, max_bytes=settings.max_request_bytes),
        Middleware(DirectRoute, path=GRAPHQL_PATH, endpoint=endpoint),  # innermost: the hot path
    ]
    routes = [Route(GRAPHQL_PATH, endpoint), *health_routes(state)]
    routes += graphiql_routes(settings)  # the IDE's assets, when GraphiQL is on
    routes.append(metrics_route(metrics))
    started = watching_commands(lifespan(state, demo=demo), state, metrics)
    started = loading_keys(started, state.authenticator)
    started = saying_who_may_call(started, settings)
    app = Starlette(routes=routes, middleware=middleware, lifespan=started)
    app.state.arraygraph = state
    app.state.schema = schema
    return app


def sdl() -> str:
    """The schema in GraphQL SDL."""
    return build_schema().as_str()
