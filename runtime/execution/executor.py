"""graphql-core's executor as the schema runs it: the resolve info Strawberry's resolvers read,
variable-coercion errors typed, the schema's check run before anything executes, and the fast
paths of fields that only read attributes (`leaf_fields`, `object_fields`, `list_chunks`).

Strawberry's own execution context extends `IncrementalExecutor`, a third slower to build and
needed only for `@defer`/`@stream`, which the schema does not declare: this one is graphql-core's
plain `Executor` with Strawberry's `build_resolve_info` (every internal it reads is listed in
`runtime/internals.py`).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, ClassVar, cast

from graphql import GraphQLError, GraphQLObjectType
from graphql.execution import Executor
from strawberry.execution import optimized_is_awaitable
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from runtime.errors import VariablesInvalid, retyped
from runtime.execution.leaf_fields import SLOW, leaf_reader
from runtime.execution.list_chunks import Chunks
from runtime.execution.object_fields import Plans, field_plan, plans_for
from runtime.limits.operation_fields import Charge, ExecutionCheck, FieldGroup, OperationFields


class TypedErrorsExecutionContext(Executor[None]):
    """graphql-core's executor, with the resolve info Strawberry's resolvers read; its
    variable-coercion errors are `VariablesInvalid`, and it runs the schema's `check` (if any)
    once variables are coerced, then `charge`s the cost it answered (if it did)."""

    check: ClassVar[ExecutionCheck | None] = None
    charge: ClassVar[Charge | None] = None
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
        """A field that reads attributes only (`runtime.execution.leaf_fields`,
        `runtime.execution.object_fields`) in one step; any other, and every field under middleware,
        as graphql-core executes it."""
        node = field_details_list[0].node
        if self.middleware_manager is None and not node.arguments:
            reader = leaf_reader(parent_type, node.name.value) or field_plan(
                self, self.plans, parent_type, field_details_list
            )
            if reader is not None:
                value = reader(source)
                if type(value) is Chunks:  # a long list (runtime/execution/list_chunks.py)
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
        answer = None if cls.check is None else cls.check(OperationFields(built))
        if isinstance(answer, GraphQLError):
            return [answer]
        charge = cls.charge
        if charge is not None and answer is not None:
            refused = charge(built.context_value, answer)
            if refused is not None:
                return [refused]
        return built


def checked_execution_context(
    check: ExecutionCheck, charge: Charge | None = None
) -> type[TypedErrorsExecutionContext]:
    """The execution context class that runs `check` before executing, and `charge`s the
    cost it answers."""
    charged = None if charge is None else staticmethod(charge)
    attributes = {"check": staticmethod(check), "charge": charged}
    return type("CheckedExecutionContext", (TypedErrorsExecutionContext,), attributes)
