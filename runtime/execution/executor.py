"""Every use of Strawberry's (and graphql-core's) internals, in one module.

These are the fast paths and hooks the public API does not offer. When upgrading
strawberry-graphql (the floor in pyproject.toml is the first release that reads `from_input`)
or graphql-core, re-check each, and run `tests/server/test_fast_paths.py`, which fails when one
silently stops being used:
- `install_input_builder` (schema/input_builders.py): argument conversion calls
  `__strawberry_definition__.from_input` (strawberry/types/arguments.py, `convert_argument`;
  0.329.0 and later); our `convert_argument` takes that module's function's place
  (`convert_arguments` and its own recursion look it up by name), taking a built input type,
  or a list of them, as graphql-core's coercion built it (`attach_input_builders` sets the
  `out_name` of its GraphQL type's fields and its `out_type`, which Strawberry leaves unset
  but for one-of types, in `schema_converter.from_input_object`), without the per-item
  dispatch; our `convert_arguments` takes the place of the one
  `strawberry/schema/schema_converter.py` imports (`get_arguments` looks it up by name), with
  the argument names and `_is_leaf_type` worked out once per field.
- `schema/variable_coercion.py` (installed on import, here): takes the place of graphql-core's
  `coerce_input_value` and `input_is_nested_too_deeply` in graphql/execution/values.py, which
  `coerce_variable_values` looks up by name, for lists of flat input objects.
- `schema/root_fields.py` (installed on import, here): takes the place of graphql-core's
  `collect_fields` in graphql/execution/executor.py (looked up by name in `execute_operation`),
  keeping an operation's root fields with its shared plans when it has no directive.
- `schema/literal_arguments.py` (installed on import, here): takes the place of graphql-core's
  `get_argument_values` in graphql/execution/executor.py (looked up by name in
  `execute_field`), keeping the values of a field's literal arguments by field and node.
- `schema/variable_signatures.py` (installed on import, here): takes the place of graphql-core's
  `get_variable_signature` in graphql/execution/values.py (looked up by name there too),
  keeping the signature of a variable without a default by its name and type's shape.
- `execute_document` (the lean path, schema/operation.py): graphql-core's execution as
  `Schema._execute_operation` runs it (strawberry/schema/schema.py), on `Schema._schema`, with
  `optimized_is_awaitable` and the schema's `execution_context_class` (which takes
  `operation_extensions`); `execute`'s two steps inline (`Executor.build`, `execute_operation`);
  once the operation has answered, the executor's `async_helpers` (bound methods of its own, a
  cycle) are dropped, so reference counting frees the request (tests/server/
  test_request_garbage.py).
  Skipped: the extension runner and middleware manager (none unless `runs_extensions`; the
  traced path takes `Schema.execute`, `execute_with_extensions`, its refusals from
  strawberry/schema/exceptions.py made `OperationRefused`) and `_process_errors`' suggestion
  removal (`disable_field_suggestions`, left off: `label_errors` removes suggestions).
- `TypedErrorsExecutionContext.execute_field`: graphql-core's `Executor.execute_field` (its
  arguments, `middleware_manager`) and `collect_subfields`, Strawberry's basic-field resolver
  (`_get_basic_result`, `is_basic_field`), `default_resolver`, its `is_type_of`, and the
  "strawberry-definition" back-reference (schema/leaf_fields.py, schema/object_fields.py).
- `TypedErrorsExecutionContext`: graphql-core's plain `Executor` with Strawberry's
  `StrawberryGraphQLCoreExecutionContext.build_resolve_info` (the resolve info its `Info`
  reads). Strawberry's class extends `IncrementalExecutor`, a third slower to build and needed
  only for `@defer`/`@stream`, which the schema does not declare. `build` coerces variables and
  answers a list of errors when they do not fit (made `VariablesInvalid`); the schema's
  `ExecutionCheck` (the cost limit) runs there too, and a refusal is answered the same way.
- `PreparedDocumentSchema._create_execution_context` (the traced path): Strawberry skips parsing
  when `graphql_document` is set and validation when `pre_execution_errors` is not None;
  `_provided_operation_name` is the operationName the client sent.
- `resolvers/selection.py`: `Info._raw_info` (graphql-core's resolve info: `field_nodes`,
  `fragments`) and `strawberry.types.nodes.convert_arguments`, instead of `selected_fields`.
- `validate_document`: Strawberry's validation with its own rules (MaybeNull, OneOf) added.
- `OperationFields` (schema/operation_fields.py): graphql-core's `collect_fields` ("for internal
  use only", graphql/execution/collect_fields.py), the executor's memoised `collect_subfields`
  and `get_argument_values`, on the built executor's fragments and variables, so that a check
  sees the fields exactly as execution will; `execute_collected_root_fields` then executes the
  root fields the check collected, so that each collection serves both.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, ClassVar, cast

import strawberry
from graphql import DocumentNode, GraphQLObjectType
from graphql.execution import ExecutionResult, Executor
from graphql.pyutils import AwaitableOrValue
from strawberry.exceptions import MissingQueryError
from strawberry.execution import optimized_is_awaitable
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema import validate_document as validate_document
from strawberry.types import ExecutionContext
from strawberry.types import ExecutionResult as StrawberryResult
from strawberry.types.graphql import OperationType

from schema import literal_arguments as literal_arguments  # installs it
from schema import root_fields as root_fields  # installs it
from schema import variable_coercion as variable_coercion  # installs it
from schema import variable_signatures as variable_signatures  # installs it
from schema.errors import VariablesInvalid, retyped
from schema.input_builders import attach_input_builders
from schema.leaf_fields import SLOW, leaf_reader
from schema.list_chunks import Chunks
from schema.object_fields import Plans, field_plan, plans_for
from schema.operation_choice import (
    KINDS_BY_METHOD,
    NO_QUERY,
    OperationRefused,
    unresolved_operation,
)
from schema.operation_fields import ExecutionCheck, FieldGroup, OperationFields

if TYPE_CHECKING:
    from schema.document_cache import DocumentCache


class TypedErrorsExecutionContext(Executor[None]):
    """graphql-core's executor, with the resolve info Strawberry's resolvers read; its
    variable-coercion errors are `VariablesInvalid`, and it runs the schema's `check` (if any)
    once variables are coerced."""

    check: ClassVar[ExecutionCheck | None] = None
    build_resolve_info = StrawberryGraphQLCoreExecutionContext.build_resolve_info

    def __init__(self, *args: Any, operation_extensions: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.operation_extensions = operation_extensions
        self.plans: Plans = plans_for(self.operation, self.fragments)
        self.checked_root: dict[str, FieldGroup] | None = None

    def execute_field(
        self,
        parent_type: GraphQLObjectType,
        source: Any,
        field_details_list: FieldGroup,
        path: Any,
        position_context: Any,
    ) -> Any:
        """A field that reads attributes only (`schema.leaf_fields`, `schema.object_fields`)
        in one step; any other, and every field under middleware, as graphql-core executes it."""
        node = field_details_list[0].node
        if self.middleware_manager is None and not node.arguments:
            reader = leaf_reader(parent_type, node.name.value) or field_plan(
                self, self.plans, parent_type, field_details_list
            )
            if reader is not None:
                value = reader(source)
                if type(value) is Chunks:  # a long list (schema/list_chunks.py)
                    field = (parent_type, source, field_details_list, path, position_context)
                    return self._in_chunks(value, field)
                if value is not SLOW:
                    return value
        return super().execute_field(
            parent_type, source, field_details_list, path, position_context
        )

    async def _in_chunks(self, chunks: Chunks, field: tuple[Any, ...]) -> Any:
        """A long list's answer, a chunk at a time; as graphql-core executes it when the plan
        cannot complete an item."""
        answers = await chunks.completed()
        if answers is not SLOW:
            return answers
        result = super().execute_field(*field)
        if optimized_is_awaitable(result):
            return await cast("Awaitable[Any]", result)
        return result

    def execute_collected_root_fields(
        self, root_type: Any, root: Any, fields: Any, *rest: Any
    ) -> Any:
        """The root fields the check collected, if it did (the same fields): each subfield
        collection, memoised by field group, then serves both."""
        fields = fields if self.checked_root is None else self.checked_root
        return super().execute_collected_root_fields(root_type, root, fields, *rest)

    @classmethod
    def build(cls, *args: Any, **kwargs: Any) -> Any:
        built = super().build(*args, **kwargs)
        if isinstance(built, list):
            return [retyped(error, VariablesInvalid, "BAD_USER_INPUT") for error in built]
        refused = None if cls.check is None else cls.check(OperationFields(built))
        return built if refused is None else [refused]


def checked_execution_context(check: ExecutionCheck) -> type[TypedErrorsExecutionContext]:
    """The execution context class that runs `check` before executing."""
    attributes = {"check": staticmethod(check)}
    return type("CheckedExecutionContext", (TypedErrorsExecutionContext,), attributes)


class PreparedDocumentSchema(strawberry.Schema):
    """A schema whose documents come parsed and validated from a `DocumentCache`."""

    def __init__(
        self, *, document_cache: DocumentCache, check: ExecutionCheck | None = None, **kwargs: Any
    ) -> None:
        context_class = TypedErrorsExecutionContext
        if check is not None:
            context_class = checked_execution_context(check)
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
