"""The view's two notes in the request's record (web/request_log.py): which operation ran (name
and type, known once the document is parsed) and the codes of the errors it answered with.

A view base placed after `PersistedQueryView`, so that it sees the document a persisted query
stands for.
"""

from __future__ import annotations

import re
from typing import Any

from strawberry.http import GraphQLHTTPResponse, GraphQLRequestData
from strawberry.types import ExecutionResult

from resolvers.context import Context
from web.request_log import record_of

GRAPHQL_NAME = re.compile(r"[_A-Za-z][_0-9A-Za-z]{0,127}")


class OperationNotes:
    async def execute_single(  # Strawberry passes every argument by name
        self,
        request: Any,
        request_adapter: Any,
        sub_response: Any,
        context: Any,
        root_value: Any,
        request_data: GraphQLRequestData,
    ) -> ExecutionResult:
        record = record_of(request.scope)
        if record is not None:  # the client's name until the document says which operation
            sent = request_data.operation_name
            record.graphql = True
            named = isinstance(sent, str) and GRAPHQL_NAME.fullmatch(sent) is not None
            record.operation_name = sent if named else None
        result: ExecutionResult = await super().execute_single(  # type: ignore[misc]
            request=request,
            request_adapter=request_adapter,
            sub_response=sub_response,
            context=context,
            root_value=root_value,
            request_data=request_data,
        )
        if record is not None and isinstance(context, Context) and context.operation:
            record.operation_name, record.operation_type = context.operation
        return result

    async def process_result(self, request: Any, result: ExecutionResult) -> GraphQLHTTPResponse:
        record = record_of(request.scope)
        if record is not None:
            codes = [str((error.extensions or {}).get("code")) for error in result.errors or ()]
            record.note_error_codes(codes)
        response: GraphQLHTTPResponse = await super().process_result(  # type: ignore[misc]
            request, result
        )
        return response
