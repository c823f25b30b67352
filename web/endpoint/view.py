"""The GraphQL endpoint: GraphQL over HTTP's GET and POST, answered on one lean path.

A request: its `accept` and `content-type` read once -> the method (405 unless GET or POST)
-> a GET without an operation is the GraphiQL page (web/graphiql/page.py, 404 when it is off) ->
the operation read from the JSON body or the parameters (web/endpoint/request.py) -> a persisted
query's text looked up (web/endpoint/persisted_view.py) -> run by the schema's `OperationRunner`
(runtime/request/operation.py), which builds the request's Context only if the operation executes ->
unexpected errors masked (schema/errors.py) -> the answer in the media type the client accepts,
bounded in size (web/endpoint/http_protocol.py). The request's record gets the operation and its
error codes (web/endpoint/operation_notes.py). WebSocket connections never reach it: the route is
HTTP's alone, and Starlette closes them (GraphQL over WebSocket is not served).

Strawberry's HTTP view did the same through a request adapter, a sub-response, negotiation of
streaming transports arraygraph does not serve, and a runtime `Protocol` isinstance check per
request: together, a large share of the time of `{ __typename }`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from graphql import GraphQLError
from starlette.datastructures import QueryParams
from starlette.requests import ClientDisconnect, HTTPConnection
from starlette.types import Receive, Scope, Send

from resolvers.context import Context, build_context
from resolvers.errors import Unauthenticated
from runtime.request.operation import Operation, OperationRefused, OperationRunner
from schema.errors import masked
from schema.schema import ArraygraphSchema
from web.endpoint.http_protocol import (
    Answer,
    Headers,
    TransportError,
    client_left,
    graphql_answer,
    transport_error,
)
from web.endpoint.operation_notes import (
    note_error_codes,
    note_operation,
    note_refusal,
    note_sent_name,
)
from web.endpoint.persisted_queries import PersistedQueries, PersistedQueryError
from web.endpoint.persisted_view import persisted_document, persisted_failure
from web.endpoint.request import (
    RequestHead,
    SentOperation,
    from_body,
    from_params,
    is_json,
    read_body,
    wants_graphiql,
)
from web.graphiql.page import graphiql_html
from web.identity.challenge import url_credential, url_credential_reason
from web.observability.request_log import record_of
from web.state import AppState

HTML = "text/html; charset=utf-8"
# What a GET answer depends on besides its URL, for HTTP caches: the caller.
VARY_AUTHORIZATION = (b"vary", b"authorization")


class GraphQLView:
    """The endpoint, an ASGI application."""

    def __init__(
        self, state: AppState, schema: ArraygraphSchema, persisted: PersistedQueries
    ) -> None:
        self.state = state
        self.persisted = persisted
        self.runner = OperationRunner(schema)
        # Served from the package (web/graphiql/page.py): no CDN, so it works offline.
        self.graphiql = graphiql_html().encode() if state.settings.graphiql else None
        self.max_response_bytes = state.settings.max_response_bytes
        # With a cost budget, the caller is known before the operation runs: its budget is
        # charged then (resolvers/access/cost_budget.py).
        self.budgeted = schema.cost_budgets is not None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        head = RequestHead.of(scope)
        try:
            answer = await self._answer(scope, receive, head)
        except TransportError as error:
            answer = transport_error(error.status, error.reason, head.accept, record_of(scope))
        except ClientDisconnect:
            client_left(scope)
            return
        await answer.send(send)

    async def _answer(self, scope: Scope, receive: Receive, head: RequestHead) -> Answer:
        method = scope["method"]
        query_string = scope["query_string"]
        # Most POSTs have none: nothing to read. A GET's is its operation, read once.
        params = QueryParams(query_string) if query_string else None
        if params is not None:
            credential = url_credential(params)
            if credential is not None:  # before the body is read: nothing of it runs
                raise TransportError(400, url_credential_reason(credential))
        if method == "POST":
            if not is_json(head.content_type):
                raise TransportError(415, "Unsupported content type")
            sent = from_body(await read_body(receive))
        elif method == "GET":
            params = params if params is not None else QueryParams()
            if wants_graphiql(params, head.accept):
                if self.graphiql is None:  # a page, not an operation: no code in the metrics
                    return transport_error(404, "Not Found", head.accept)
                return Answer(200, self.graphiql, HTML)
            sent = from_params(params)
        else:
            raise TransportError(405, "GraphQL only supports GET and POST requests.")
        return await self._operation(scope, method, sent, head.accept)

    async def _operation(
        self, scope: Scope, method: str, sent: SentOperation, accept: str | None
    ) -> Answer:
        record = record_of(scope)
        headers: Headers = ()
        built: list[Context] = []
        data: dict[str, Any] | None = None
        extensions: dict[str, Any] | None = None
        errors: Sequence[GraphQLError]
        try:
            query = persisted_document(self.persisted, sent)
        except PersistedQueryError as error:
            errors, headers = persisted_failure(error)
        else:
            note_sent_name(record, sent.operation_name)
            operation = Operation(query, sent.variables, sent.operation_name, sent.extensions)
            if self.budgeted:
                built.append(await self._identified(scope))

            def context() -> Context:
                if not built:
                    built.append(self._context(scope))
                return built[0]

            try:
                outcome = await self.runner.run(operation, method=method, context=context)
            except OperationRefused as refused:
                raise TransportError(refused.status, refused.reason) from None
            note_operation(record, outcome.operation)
            data, errors, extensions = outcome.data, outcome.errors, outcome.extensions
        if errors:  # the schema gave every error its code; unexpected ones leave masked
            errors = [masked(error) for error in errors]
        note_error_codes(record, errors)
        if built and built[0].refusal is not None:  # the common request: no call
            note_refusal(record, built[0].refusal)
        response: dict[str, Any] = {"data": data}
        ran = built[0].mutations_ran if built else ()
        if errors:
            response["errors"] = [error.formatted for error in errors]
            if ran:  # a later field's error may null `data`: name the writes that stand
                extensions = {**(extensions or {}), "mutationsRan": list(ran)}
        if extensions:
            response["extensions"] = extensions
        if method == "GET":  # cacheable: a cache must not answer one caller with another's
            headers = (*headers, VARY_AUTHORIZATION)
        return graphql_answer(response, accept, self.max_response_bytes, headers, ran)

    async def _identified(self, scope: Scope) -> Context:
        """The request's context, its caller verified: the budget charged is theirs. A
        credential not accepted spends its address's budget, and the refusal is answered
        where a field asks for the identity."""
        context = self._context(scope)
        with contextlib.suppress(Unauthenticated):
            await context.identity()
        return context

    def _context(self, scope: Scope) -> Context:
        state = self.state
        return build_context(
            HTTPConnection(scope),
            database=state.database,
            settings=state.settings,
            clock=state.clock,
            authenticator=state.authenticator,
        )
