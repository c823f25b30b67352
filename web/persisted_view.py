"""The view's two steps for persisted queries: read a request's `documentId`, and swap the
document a request names for its text before anything executes (web/persisted_queries.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from cross_web import AsyncHTTPRequestAdapter
from graphql import GraphQLError
from strawberry.http import GraphQLRequestData
from strawberry.types import ExecutionResult

from schema.strawberry_internals import DocumentIdRequest
from web.persisted_queries import NOT_FOUND, PersistedQueries, PersistedQueryError

# A miss must not be cached by a proxy: the client registers the document next.
UNCACHED = "private, no-cache, must-revalidate"


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
        if isinstance(parsed, DocumentIdRequest) or not isinstance(parsed, GraphQLRequestData):
            return parsed  # the common POST read its documentId already (PlainJsonPost)
        return DocumentIdRequest(
            query=parsed.query,
            variables=parsed.variables,
            operation_name=parsed.operation_name,
            extensions=parsed.extensions,
            protocol=parsed.protocol,
            document_id=await self._document_id(request),
        )

    async def _document_id(self, request: AsyncHTTPRequestAdapter) -> object:
        """A GET's `documentId` parameter, or the member of a POST body that took Strawberry's
        general path (parsed again, as the view parses it: rare)."""
        if request.method == "GET":
            return request.query_params.get("documentId")
        try:
            data = self.decode_json(await request.get_body())  # type: ignore[attr-defined]
        except json.JSONDecodeError:
            return None
        return data.get("documentId") if isinstance(data, dict) else None

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
            errors = [GraphQLError(error.message, extensions=extensions)]
            return ExecutionResult(data=None, errors=errors)
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
