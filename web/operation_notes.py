"""The view's two notes in the request's record (web/request_log.py): which operation ran (name
and type, known once the document is parsed) and the codes of the errors it answered with.

A view base placed after `PersistedQueryView`, so that it sees the document a persisted query
stands for.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any

from graphql import GraphQLError, get_operation_ast, parse
from strawberry.http import GraphQLHTTPResponse, GraphQLRequestData
from strawberry.schema.base import BaseSchema
from strawberry.types import ExecutionResult

from schema.schema import DOCUMENT_CACHE_SIZE, ArraygraphSchema
from web.request_log import record_of

GRAPHQL_NAME = re.compile(r"[_A-Za-z][_0-9A-Za-z]{0,127}")
# Documents whose operation is remembered (by the text's hash and length: the texts themselves
# are not kept), as many as the schema's document cache holds.
REMEMBERED_OPERATIONS = DOCUMENT_CACHE_SIZE
Operation = tuple[str | None, str | None]  # name, type (None when unknown)


class OperationsSeen:
    """The name and type of the operation a request runs; a document is parsed once here (the
    schema's document cache parses it once too: its statistics count only the schema's use)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.known: OrderedDict[tuple[int, int, str | None, int], Operation] = OrderedDict()

    def __call__(self, query: object, operation_name: object, max_tokens: int) -> Operation:
        sent = operation_name if isinstance(operation_name, str) else None
        if sent is not None and not GRAPHQL_NAME.fullmatch(sent):
            sent = None
        if not isinstance(query, str):
            return sent, None
        # Python's string hash is keyed per process (unless PYTHONHASHSEED fixes it): a client
        # cannot aim two texts at one key; a collision would only mislabel a log line.
        key = (hash(query), len(query), sent, max_tokens)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = _operation(query, sent, max_tokens)
            if len(self.known) > self.size:
                self.known.popitem(last=False)
        else:
            self.known.move_to_end(key)
        return found


def _operation(query: str, sent: str | None, max_tokens: int) -> Operation:
    """The operation (the client's name and no type when the document does not parse or names
    no such operation)."""
    try:
        document = parse(query, no_location=True, max_tokens=max_tokens)
    except GraphQLError:
        return sent, None
    operation = get_operation_ast(document, sent)
    if operation is None:
        return sent, None
    return (operation.name.value if operation.name else None), operation.operation.value


OPERATIONS = OperationsSeen(REMEMBERED_OPERATIONS)


class OperationNotes:
    schema: BaseSchema

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
        if record is not None and isinstance(self.schema, ArraygraphSchema):
            record.graphql = True
            record.operation_name, record.operation_type = OPERATIONS(
                request_data.query,
                request_data.operation_name,
                self.schema.document_cache.max_tokens,
            )
        result: ExecutionResult = await super().execute_single(  # type: ignore[misc]
            request=request,
            request_adapter=request_adapter,
            sub_response=sub_response,
            context=context,
            root_value=root_value,
            request_data=request_data,
        )
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
