"""The view's two steps for persisted queries: read a request's `documentId`, and swap the
document a request names for its text before anything executes (web/persisted_queries.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import orjson
from cross_web import AsyncHTTPRequestAdapter
from graphql import GraphQLError
from strawberry.http import GraphQLRequestData
from strawberry.types import ExecutionResult

from web.persisted_queries import NOT_FOUND, PersistedQueries, PersistedQueryError

# A miss must not be cached by a proxy: the client registers the document next.
UNCACHED = "private, no-cache, must-revalidate"


@dataclass
class DocumentIdRequest(GraphQLRequestData):
    """A request that names its document by `documentId` (GraphQL over HTTP)."""

    document_id: object = None


class PersistedQueryView:
    persisted: PersistedQueries

    def should_render_graphql_ide(self, request: Any) -> bool:
        # A GET that names its document by hash is an operation, whatever it accepts (Apollo
        # Client 3 sends `accept: */*`), never a request for the IDE.
        params = request.query_params
        if params.get("extensions") is not None or params.get("documentId") is not None:
            return False
        rendered: bool = super().should_render_graphql_ide(request)  # type: ignore[misc]
        return rendered

    async def parse_http_body(
        self, request: AsyncHTTPRequestAdapter
    ) -> GraphQLRequestData | list[GraphQLRequestData]:
        parsed: GraphQLRequestData | list[GraphQLRequestData]
        parsed = await super().parse_http_body(request)  # type: ignore[misc]
        if isinstance(parsed, GraphQLRequestData):
            document_id = await _document_id(request)
            if document_id is not None:
                return DocumentIdRequest(
                    query=parsed.query,
                    variables=parsed.variables,
                    operation_name=parsed.operation_name,
                    extensions=parsed.extensions,
                    protocol=parsed.protocol,
                    document_id=document_id,
                )
        return parsed

    async def execute_single(  # Strawberry passes every argument by name
        self,
        request: Any,
        request_adapter: AsyncHTTPRequestAdapter,
        sub_response: Any,
        context: Any,
        root_value: Any,
        request_data: GraphQLRequestData,
    ) -> ExecutionResult:
        document_id = getattr(request_data, "document_id", None)
        try:
            query = self.persisted.document(
                request_data.query, request_data.extensions, document_id
            )
        except PersistedQueryError as error:
            if error.code == NOT_FOUND:
                sub_response.headers["cache-control"] = UNCACHED
            extensions: dict[str, object] = {"code": error.code}
            if error.argument is not None:
                extensions["argument"] = error.argument
            return ExecutionResult(
                data=None, errors=[GraphQLError(error.message, extensions=extensions)]
            )
        if query is not request_data.query:
            request_data = replace(request_data, query=query)
        result: ExecutionResult = await super().execute_single(  # type: ignore[misc]
            request=request,
            request_adapter=request_adapter,
            sub_response=sub_response,
            context=context,
            root_value=root_value,
            request_data=request_data,
        )
        return result


async def _document_id(request: AsyncHTTPRequestAdapter) -> object:
    """The request's `documentId`, if it has one: a query parameter of a GET, a member of a
    POST's JSON body (parsed again only when the body mentions it: rare, and small)."""
    if request.method == "GET":
        return request.query_params.get("documentId")
    body = await request.get_body()
    if b"documentId" not in body:
        return None
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    return data.get("documentId") if isinstance(data, dict) else None
