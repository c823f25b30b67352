"""A Strawberry schema whose documents come parsed and validated from a `DocumentCache`, and
whose execution context runs the schema's check (`runtime.execution.executor`).

On the path `Schema.execute` takes (with extensions), Strawberry skips parsing when the
execution context's `graphql_document` is set, and validation when its `pre_execution_errors`
is not None; `_provided_operation_name` is the operationName the client sent. The input types
marked `build_directly` are built from graphql-core's coercion as the schema is made.
"""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.types import ExecutionContext

from runtime.execution.executor import TypedErrorsExecutionContext, checked_execution_context
from runtime.execution.input_builders import attach_input_builders
from runtime.limits.operation_fields import Charge, ExecutionCheck
from runtime.request.document_cache import DocumentCache
from runtime.request.operation_choice import unresolved_operation


class PreparedDocumentSchema(strawberry.Schema):
    """A schema whose documents come parsed and validated from a `DocumentCache`."""

    def __init__(
        self,
        *,
        document_cache: DocumentCache,
        check: ExecutionCheck | None = None,
        charge: Charge | None = None,
        **kwargs: Any,
    ) -> None:
        context_class = TypedErrorsExecutionContext
        if check is not None:
            context_class = checked_execution_context(check, charge)
        super().__init__(execution_context_class=context_class, **kwargs)
        attach_input_builders(self._schema)
        document_cache.bind(self._schema)
        self.document_cache = document_cache

    def _create_execution_context(self, *args: Any, **kwargs: Any) -> ExecutionContext:
        context = super()._create_execution_context(*args, **kwargs)
        context.parse_options["max_tokens"] = self.document_cache.max_tokens
        if context.query:
            prepared = self.document_cache.lookup(context.query)
            if prepared is not None:  # else Strawberry parses, and reports the syntax error
                context.graphql_document, errors = prepared
                name = context._provided_operation_name  # what the client sent, or None
                unresolved = unresolved_operation(prepared[0], name)
                context.pre_execution_errors = list(errors) or unresolved
        return context
