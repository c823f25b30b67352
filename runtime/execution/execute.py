"""An operation executed as Strawberry's `Schema.execute` executes it.

The lean path, when no extension runs: graphql-core's execution as `Schema._execute_operation`
runs it, on `Schema._schema`, with `optimized_is_awaitable` and the schema's execution context
class (which takes `operation_extensions`); `execute`'s two steps inline (`build`,
`execute_operation`), and the executor released once it has answered. Skipped: Strawberry's
extension runner and middleware manager (nothing to run without extensions) and its
`_process_errors`' suggestion removal (`disable_field_suggestions` is left off: the schema's
`process_errors` removes suggestions). With extensions (tracing), `Schema.execute` itself, so
that their hooks run, its refusals made `OperationRefused`.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, cast

import strawberry
from graphql import DocumentNode
from graphql.execution import ExecutionResult, Executor
from graphql.pyutils import AwaitableOrValue
from strawberry.exceptions import MissingQueryError
from strawberry.execution import optimized_is_awaitable
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.types import ExecutionResult as StrawberryResult
from strawberry.types.graphql import OperationType

from runtime.request.operation_choice import KINDS_BY_METHOD, NO_QUERY, OperationRefused


def runs_extensions(schema: strawberry.Schema) -> bool:
    """Whether `Schema.execute` would run extensions (tracing, or the one Strawberry adds for
    schema directives): their hooks need its path; without any, the lean path answers alike."""
    return bool(schema.extensions) or bool(schema.directives)


def execute_document(
    schema: strawberry.Schema,
    document: DocumentNode,
    *,
    variables: dict[str, Any] | None,
    operation_name: str | None,
    context: object,
    extensions: dict[str, Any] | None,
) -> AwaitableOrValue[ExecutionResult]:
    """graphql-core's execute, as `Schema.execute` runs it when no extension does (no
    `@defer`/`@stream` to refuse, no incremental results from this executor)."""
    built = schema.execution_context_class.build(
        schema._schema,
        document,
        None,
        context,
        variables,
        operation_name,
        # Typed to answer a bool, not a TypeGuard; Strawberry passes it the same way.
        is_awaitable=optimized_is_awaitable,  # type: ignore[arg-type]
        operation_extensions=extensions,
    )
    if isinstance(built, list):
        return ExecutionResult(None, built)
    # A plain executor's result: never the incremental kind.
    result = cast("AwaitableOrValue[ExecutionResult]", built.execute_operation())
    if not optimized_is_awaitable(result):
        _release(built)
        return result
    return _released(built, cast("Awaitable[ExecutionResult]", result))


def _release(executor: Executor[Any]) -> None:
    """graphql-core's executor holds itself through its resolve-info helpers (bound methods of
    its own): a cycle that only the garbage collector frees, with the request's context and all
    it loaded, each collection walking them. Once the operation has answered nothing reads them:
    dropping them lets reference counting free the request's objects at once."""
    executor.async_helpers = None  # type: ignore[assignment]


async def _released(executor: Executor[Any], result: Awaitable[ExecutionResult]) -> ExecutionResult:
    try:
        return await result
    finally:
        _release(executor)


async def execute_with_extensions(
    schema: strawberry.Schema,
    query: str | None,
    *,
    variables: dict[str, Any] | None,
    operation_name: str | None,
    context: object,
    extensions: dict[str, Any] | None,
    method: str,
) -> StrawberryResult:
    """`Schema.execute`, every extension's hooks run; OperationRefused where nothing may run."""
    try:
        return await schema.execute(
            query,
            variable_values=variables,
            context_value=context,
            operation_name=operation_name,
            allowed_operation_types={OperationType(k) for k in KINDS_BY_METHOD[method]},
            operation_extensions=extensions,
        )
    except CannotGetOperationTypeError as exc:
        raise OperationRefused(exc.as_http_error_reason()) from exc
    except InvalidOperationTypeError as exc:
        raise OperationRefused(exc.as_http_error_reason(method), 405) from exc
    except MissingQueryError as exc:
        raise OperationRefused(NO_QUERY) from exc
