"""One operation, from the text a request runs to its labelled result: the path of every HTTP
request.

The steps are those of Strawberry's `Schema.execute`, without its extension runner: the document
from the parse/validation cache (runtime/request/document_cache.py), the operation the request names
(runtime/request/operation_choice.py), graphql-core's `execute` with the schema's execution context
(variables coerced, the cost limit checked), and every error labelled once by the error table
(the schema's `process_errors`). For each request Strawberry's runner builds its extension
list and a middleware manager and enters an async context manager per phase: with no extension
to run, that is work without purpose, and a large share of a small request's time (`make
bench` prints `{ __typename }` against bare Starlette). A schema with extensions (tracing)
takes `Schema.execute` itself, so that their hooks run; both paths answer alike.

The request's context is built only when its operation executes (`context` is a factory): a
request refused or failed before that builds none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from graphql import GraphQLError
from graphql.execution import ExecutionResult

from runtime.execution.execute import execute_document, execute_with_extensions, runs_extensions
from runtime.execution.prepared_schema import PreparedDocumentSchema
from runtime.request.operation_choice import NO_QUERY, Noted, OperationRefused, choose

__all__ = ["Operation", "OperationRefused", "OperationRunner", "Outcome"]


class Operation(NamedTuple):
    """What a request asks to run: the document's text (a persisted query's, once looked up),
    its variables, the operationName it sent, its extensions."""

    query: str | None
    variables: dict[str, Any] | None
    operation_name: str | None
    extensions: dict[str, Any] | None


class Outcome(NamedTuple):
    """The labelled result, and the operation's name and kind when the document named one."""

    data: dict[str, Any] | None
    errors: list[GraphQLError]
    extensions: dict[str, Any] | None
    operation: Noted | None


class OperationRunner:
    """Runs operations on `schema`; OperationRefused when nothing of a request may run."""

    def __init__(self, schema: PreparedDocumentSchema) -> None:
        self.schema = schema
        self.cache = schema.document_cache
        self.traced = runs_extensions(schema)

    async def run(
        self, operation: Operation, *, method: str, context: Callable[[], object]
    ) -> Outcome:
        """`operation`, sent over `method`, with the context `context()` builds."""
        if self.traced:
            return await self._traced(operation, method, context)
        query, name = operation.query, operation.operation_name
        if not query:
            raise OperationRefused(NO_QUERY)
        prepared = self.cache.lookup(query)
        if prepared is None:
            return self._failed([self.cache.syntax_error(query)], None)
        document, errors = prepared
        noted, unresolved = choose(document, name, method)
        if errors or unresolved:
            return self._failed(list(errors) or unresolved, noted)
        try:
            result = execute_document(
                self.schema,
                document,
                variables=operation.variables,
                operation_name=name,
                context=context(),
                extensions=operation.extensions,
            )
            if not isinstance(result, ExecutionResult):
                result = await result
        except Exception as exc:  # as Strawberry does: an error of the answer, masked
            return self._failed([GraphQLError(str(exc), original_error=exc)], noted)
        if result.errors:
            self.schema.process_errors(result.errors)
        return Outcome(result.data, result.errors or [], None, noted)

    def _failed(self, errors: list[GraphQLError], noted: Noted | None) -> Outcome:
        self.schema.process_errors(errors)
        return Outcome(None, errors, None, noted)

    async def _traced(
        self, operation: Operation, method: str, context: Callable[[], object]
    ) -> Outcome:
        query, name = operation.query, operation.operation_name
        result = await execute_with_extensions(
            self.schema,
            query,
            variables=operation.variables,
            operation_name=name,
            context=context(),
            extensions=operation.extensions,
            method=method,
        )
        prepared = self.cache.lookup(query) if query else None  # a hit: Strawberry looked it up
        # Strawberry refused what `choose` refuses; past it, `choose` names what ran.
        noted = None if prepared is None else choose(prepared[0], name, method).noted
        return Outcome(result.data, result.errors or [], result.extensions or None, noted)
