"""The GraphQL endpoint: Strawberry's ASGI view, with arraygraph's context, JSON and errors.

The one place later needs extend (persisted queries, production mode, GraphQL-over-HTTP status
codes): each is a method here, or a step around `execute`.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import orjson
from strawberry.asgi import GraphQL
from strawberry.http import GraphQLHTTPResponse
from strawberry.types import ExecutionResult

from resolvers.context import Context, build_context
from schema.cost import bounded_response
from schema.errors import masked
from schema.schema import ArraygraphSchema
from schema.strawberry_internals import PlainJsonPost
from web.graphiql import graphiql_html
from web.http_protocol import GraphQLOverHttp, encode
from web.operation_notes import OperationNotes
from web.persisted_queries import PersistedQueries
from web.persisted_view import PersistedQueryView
from web.state import AppState


# OperationNotes after PersistedQueryView: it sees the document a persisted query stands for.
class GraphQLView(
    GraphQLOverHttp, PersistedQueryView, OperationNotes, PlainJsonPost, GraphQL[Context, None]
):
    def __init__(
        self, state: AppState, schema: ArraygraphSchema, persisted: PersistedQueries
    ) -> None:
        ide: Literal["graphiql"] | None = "graphiql" if state.settings.graphiql else None
        super().__init__(schema, graphql_ide=ide, allow_queries_via_get=True)
        self.state = state
        self.persisted = persisted

    async def get_context(self, request: Any, response: Any = None) -> Context:
        return build_context(
            request,
            database=self.state.database,
            settings=self.state.settings,
            clock=self.state.clock,
        )

    def decode_json(self, data: str | bytes) -> object:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
        try:
            # The standard parser accepts NaN and Infinity, which some clients send; validation
            # then rejects them with a clear GraphQL error instead of a bare HTTP 400.
            return json.loads(data)
        except RecursionError:  # nested deeper than orjson's 1,024 levels, and Python's stack
            raise json.JSONDecodeError("nested too deeply", "", 0) from None
        except ValueError as exc:  # an integer of over 4,300 digits: Python refuses to read it
            raise json.JSONDecodeError(str(exc), "", 0) from None

    def encode_json(self, data: object) -> bytes:
        # Over ARRAYGRAPH_MAX_RESPONSE_BYTES, one LIMIT_EXCEEDED error instead (schema/cost.py).
        return bounded_response(encode(data), self.state.settings.max_response_bytes)

    @property
    def graphql_ide_html(self) -> str:
        # Served from the package (web/graphiql.py): no CDN, so it works offline.
        return graphiql_html()

    async def process_result(self, request: Any, result: ExecutionResult) -> GraphQLHTTPResponse:
        # The schema gave every error its code; unexpected ones leave masked.
        if result.errors:
            result.errors = [masked(error) for error in result.errors]
        return await super().process_result(request, result)
