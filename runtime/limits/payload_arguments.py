"""A mutation's payload arguments are checked before it writes.

A mutation writes, then its payload's fields run. A payload field whose arguments are wrong (a
forged cursor, a page too large) would fail after the write, and its error would null the
non-null payload: the client would see `data: null` for a call that did happen. So every field
with arguments that a payload can reach declares the checks its resolver runs first
(`FieldFacts.payload_check`), and they run once variables are coerced, before anything executes
(an `ExecutionCheck`): a failing one answers at that field's path, as the error its check gave,
and nothing of the operation runs. Queries are not checked here: a query's bad page argument
fails that field alone, beside the rest of the answer.
"""

from __future__ import annotations

from typing import Any

from graphql import GraphQLError, GraphQLObjectType, OperationType, get_named_type

from runtime.limits.field_facts import FieldFacts
from runtime.limits.operation_fields import FieldGroup, OperationFields


class PayloadArgumentsFirst:
    """The schema's check: a mutation whose payload arguments fail is refused before it runs."""

    def __init__(self, facts: FieldFacts) -> None:
        self.facts = facts

    def __call__(self, fields: OperationFields) -> GraphQLError | None:
        if fields.operation.operation is not OperationType.MUTATION:
            return None
        root = fields.root()
        if root is None:
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
        check = self.facts.payload_check(parent_type, node.name.value)
        refused = None if check is None else check(fields.arguments(definition, group))
        if refused is not None:
            return GraphQLError(str(refused), nodes=[node], path=list(path), original_error=refused)
        return self._below(fields, definition.type, group, path)
