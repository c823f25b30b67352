"""The fields an operation selects, as the executor collects them, for the checks that run
before it executes (the cost limit, payload arguments): `OperationFields` and `ExecutionCheck`.
It reads graphql-core internals (runtime/internals.py lists them)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, cast

from graphql import (
    FieldNode,
    GraphQLError,
    GraphQLField,
    GraphQLInterfaceType,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLUnionType,
    OperationDefinitionNode,
)
from graphql.execution.collect_fields import FieldDetails, collect_fields
from graphql.execution.values import VariableValues, get_argument_values

FieldGroup = list[FieldDetails]  # the field nodes of one response key, merged as executed


class OperationFields:
    """The fields an operation selects, collected as the executor will collect them: fragments
    spread where their type condition can match, `@skip`/`@include` applied, one group per
    response key (aliases apart), with the operation's coerced variables."""

    def __init__(self, executor: Any) -> None:
        self._executor = executor
        self._root: tuple[GraphQLObjectType, dict[str, FieldGroup]] | None = None

    @property
    def operation(self) -> OperationDefinitionNode:
        operation: OperationDefinitionNode = self._executor.operation
        return operation

    @property
    def variables(self) -> Mapping[str, Any]:
        """The operation's coerced variables, by name."""
        coerced: Mapping[str, Any] = self._executor.variable_values.coerced
        return coerced

    def root(self) -> tuple[GraphQLObjectType, dict[str, FieldGroup]] | None:
        """The root type and its fields; collected once, however many checks ask."""
        if self._root is not None:
            return self._root
        ex = self._executor
        root_type = ex.schema.get_root_type(ex.operation.operation)
        if root_type is None:
            return None
        collected = collect_fields(
            ex.schema,
            ex.fragments,
            ex.variable_values,
            root_type,
            ex.operation,
            ex.hide_suggestions,
        )
        self._root = root_type, collected.grouped_field_set
        ex.checked_root = collected.grouped_field_set  # the executor's, so subfields are shared
        return self._root

    def children(self, runtime_type: GraphQLObjectType, group: FieldGroup) -> dict[str, FieldGroup]:
        """As the executor collects them: once, for the check and the execution."""
        return dict(self._executor.collect_subfields(runtime_type, group).grouped_field_set)

    def arguments(self, field: GraphQLField, group: FieldGroup) -> Mapping[str, Any]:
        """The field's coerced arguments, coerced when first read (so that the variables a
        check reads are those of the arguments it reads); none when they do not coerce (the
        field then fails when it runs, and answers nothing)."""
        return FieldArguments(self._executor, field, group[0])

    @contextmanager
    def recording(self) -> Iterator[set[str]]:
        """The names of the variables read while in the block (by collection, `@skip` and
        `@include`, and arguments read), gathered into the set it gives."""
        executor, read = self._executor, set[str]()
        values: VariableValues = executor.variable_values
        executor.variable_values = VariableValues(
            _Reads(values.sources, read), _Reads(values.coerced, read)
        )
        try:
            yield read
        finally:
            executor.variable_values = values

    def possible_types(self, named: GraphQLNamedType) -> Sequence[GraphQLObjectType]:
        """The object types a value of `named` may be: itself, or an interface's."""
        if isinstance(named, GraphQLObjectType):
            return [named]
        if isinstance(named, GraphQLInterfaceType | GraphQLUnionType):
            found: Sequence[GraphQLObjectType] = self._executor.schema.get_possible_types(named)
            return found
        return []

    @staticmethod
    def node(group: FieldGroup) -> FieldNode:
        return group[0].node


class FieldArguments(Mapping[str, Any]):
    """A field's arguments, coerced (with the executor's variables) when first read."""

    __slots__ = ("_details", "_executor", "_field", "_values")

    def __init__(self, executor: Any, field: GraphQLField, details: FieldDetails) -> None:
        self._executor, self._field, self._details = executor, field, details
        self._values: dict[str, Any] | None = None

    def _coerced(self) -> dict[str, Any]:
        if self._values is None:
            details = self._details
            try:
                self._values = get_argument_values(
                    self._field,
                    details.node,
                    self._executor.variable_values,
                    details.fragment_variable_values,
                )
            except GraphQLError:
                self._values = {}
        return self._values

    def __getitem__(self, name: str) -> Any:
        return self._coerced()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._coerced())

    def __len__(self) -> int:
        return len(self._coerced())


class _Reads(dict[str, Any]):
    """A dict of variables that notes each name read, by key or by a walk of them all."""

    def __init__(self, values: Mapping[str, Any], read: set[str]) -> None:
        super().__init__(values)
        self.read = read

    def __getitem__(self, name: str) -> Any:
        self.read.add(name)
        return super().__getitem__(name)

    def __contains__(self, name: object) -> bool:
        self.read.add(cast("str", name))
        return super().__contains__(name)

    def get(self, name: str, default: Any = None) -> Any:
        self.read.add(name)
        return super().get(name, default)

    def __iter__(self) -> Iterator[str]:
        self.read.update(super().keys())
        return super().__iter__()

    def keys(self) -> Any:
        self.read.update(super().keys())
        return super().keys()

    def items(self) -> Any:
        self.read.update(super().keys())
        return super().items()

    def values(self) -> Any:
        self.read.update(super().keys())
        return super().values()


# A check of an operation before it runs: an error refuses it, and nothing executes. Its answer
# must follow from the operation's fields, arguments and the variables it reads alone: it is
# kept by the values of those (runtime/limits/check_memo.py).
# A check's answer: its refusal, or the operation's cost (what the caller's budget is charged,
# web/endpoint/view.py), or None when it has nothing to say.
Checked = GraphQLError | int | None
ExecutionCheck = Callable[[OperationFields], Checked]
# Charged before execution, once the checks passed: the request's context and the cost; a
# refusal (the caller's budget spent) or None.
Charge = Callable[[Any, int], GraphQLError | None]
