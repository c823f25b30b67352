"""A mutation's payload arguments are checked before it writes.

A mutation writes, then its payload's fields run. A payload field whose arguments are wrong (a
forged `messages(before:)` cursor, `orders(first: 1000)`, `page(number: 0)`) would fail after
the write, and its error would null the non-null payload: the client would see `data: null`
for a call that did happen. So every field with arguments that a payload can reach declares its
check here, keyed by type and field as `LIST_SIZES` is (`schema/cost.py`); the checks are the
ones its resolver runs first. They run once variables are coerced, before anything executes
(`ExecutionCheck`): a failing one answers BAD_USER_INPUT at that field's path, and nothing of
the operation runs. Queries are not checked here: a query's bad page argument fails that field
alone, beside the rest of the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from graphql import GraphQLError, GraphQLObjectType, get_named_type

from resolvers.chat_messages import MESSAGE_CURSOR
from resolvers.errors import ApiError
from resolvers.orders import ORDER_CURSOR
from resolvers.paging import check_page_arguments, check_page_number
from resolvers.trades import TRADE_CURSOR
from schema.operation_fields import FieldGroup, OperationFields
from settings import Settings

ArgumentCheck = Callable[[Mapping[str, Any], Settings], object]

PAYLOAD_ARGUMENT_CHECKS: Mapping[tuple[str, str], ArgumentCheck] = {
    ("ChatSession", "messages"): lambda arguments, settings: check_page_arguments(
        arguments, MESSAGE_CURSOR, maximum=settings.max_page_size
    ),
    ("User", "orders"): lambda arguments, settings: check_page_arguments(
        arguments, ORDER_CURSOR, maximum=settings.max_page_size
    ),
    ("Customer", "trades"): lambda arguments, settings: check_page_arguments(
        arguments, TRADE_CURSOR, maximum=settings.max_page_size
    ),
    ("Customer", "page"): lambda arguments, _: check_page_number(arguments["number"]),
}


class PayloadArgumentsFirst:
    """The schema's check: a mutation whose payload arguments fail is refused before it runs."""

    def __init__(self, settings: Settings, *, mutation_type: str) -> None:
        self.settings = settings
        self.mutation_type = mutation_type

    def __call__(self, fields: OperationFields) -> GraphQLError | None:
        root = fields.root()
        if root is None or root[0].name != self.mutation_type:
            return None
        root_type, groups = root
        for key, group in groups.items():
            definition = root_type.fields.get(fields.node(group).name.value)
            if definition is not None:
                refused = self._below(fields, definition.type, group, (key,))
                if refused is not None:
                    return refused
        return None

    def _below(
        self, fields: OperationFields, type_: Any, group: FieldGroup, path: tuple[str, ...]
    ) -> GraphQLError | None:
        """The first failing check among the fields selected under `group`, in document order."""
        for runtime_type in fields.possible_types(get_named_type(type_)):
            for key, child in fields.children(runtime_type, group).items():
                refused = self._field(fields, runtime_type, child, (*path, key))
                if refused is not None:
                    return refused
        return None

    def _field(
        self,
        fields: OperationFields,
        parent_type: GraphQLObjectType,
        group: FieldGroup,
        path: tuple[str, ...],
    ) -> GraphQLError | None:
        node = fields.node(group)
        definition = parent_type.fields.get(node.name.value)
        if definition is None:  # __typename
            return None
        check = PAYLOAD_ARGUMENT_CHECKS.get((parent_type.name, node.name.value))
        if check is not None:
            try:
                check(fields.arguments(definition, group), self.settings)
            except ApiError as refused:
                return GraphQLError(
                    str(refused), nodes=[node], path=list(path), original_error=refused
                )
        return self._below(fields, definition.type, group, path)
