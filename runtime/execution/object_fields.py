"""Fields whose whole answer is attribute reads, completed in one step with their selections.

A page of twenty orders answers `edges { cursor node { orderId info createTime } }`: for each
edge, graphql-core completes an object (its fields collected, its `is_type_of` asked), executes
`cursor` and `node` (a resolve info built, Strawberry's resolver wrapper called), completes the
order and executes its three fields; some ten steps of machinery per value read. When a field
and everything selected under it are basic fields (runtime/execution/leaf_fields.py: an attribute
read with Strawberry's default resolver, no arguments) over object types (no interface or union to
resolve), lists and leaves, the answer is those reads, shaped by the selection: a plan, built
once per execution from the fields graphql-core collects (fragments spread, `@skip`/`@include`
applied), reads them all.

Whatever else can happen (a null for a non-null field, a read that raises, a value its type
refuses, an object of another type, a list that is not a list) makes the plan answer SLOW, and
graphql-core executes the field as always, errors and paths included: the reads are attribute
reads, so reading again changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from graphql import (
    GraphQLEnumType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLScalarType,
    OperationDefinitionNode,
)
from graphql.execution.collect_fields import FieldDetails
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.cast import TYPE_CAST_ATTRIBUTE

from runtime.execution.leaf_fields import (
    SLOW,
    ReadParts,
    basic_attribute,
    leaf_completion,
    leaf_parts,
    read_then,
)
from runtime.execution.list_chunks import ListPlan, read_in_chunks
from runtime.node_keyed import NodeKeyed

Complete = Callable[[Any], Any]  # a value (or the source, for a field) to its answer, or SLOW
FieldGroup = list[FieldDetails]
# By parent type and the identities of the group's field nodes; each entry holds both, with the
# field's read in parts and as one reader (None when graphql-core must run the field).
Plans = dict[
    tuple[int, ...], tuple[GraphQLObjectType, FieldGroup, "ReadParts | None", "Complete | None"]
]
# Strawberry's own `is_type_of` (GraphQLCoreConverter.from_object) reads no resolve info.
_STRAWBERRY_IS_TYPE_OF = "_get_is_type_of.<locals>.is_type_of"
_NO_INFO: Any = None
_STRAWBERRY_DEFINITION = GraphQLCoreConverter.DEFINITION_BACKREF
_CAST = TYPE_CAST_ATTRIBUTE  # an object cast to another type (`strawberry.cast`) holds it


def field_plan(
    executor: Any, plans: Plans, parent_type: GraphQLObjectType, group: FieldGroup
) -> Complete | None:
    """The plan of the field `group` selects on `parent_type`, kept in `plans`
    (`plans_for`); None when graphql-core must run it."""
    return _planned(executor, plans, parent_type, group)[3]


def _planned(
    executor: Any, plans: Plans, parent_type: GraphQLObjectType, group: FieldGroup
) -> tuple[GraphQLObjectType, FieldGroup, ReadParts | None, Complete | None]:
    first = id(group[0].node)
    key = (id(parent_type), first) if len(group) == 1 else (id(parent_type), *map(_node_id, group))
    found = plans.get(key)
    if found is None:
        parts = _field_parts(executor, plans, parent_type, group)
        plan = None if parts is None else read_then(*parts)
        if parts is not None and isinstance(parts[1], ListPlan):
            plan = read_in_chunks(parts[0], parts[1])  # a long list: a chunk at a time
        found = plans[key] = (parent_type, group, parts, plan)
    return found


def _node_id(details: FieldDetails) -> int:
    return id(details.node)


# What executions of an operation without directives share while it lives (by its identity):
# its plans, and its root fields by root type (runtime/execution/root_fields.py).
# Both None for an operation with a directive: each execution plans and collects its own.
Roots = dict[int, tuple[GraphQLObjectType, Any]]
_Shared = tuple[Plans | None, Roots | None]
_shared = NodeKeyed[OperationDefinitionNode, _Shared]()  # while the operation lives


def plans_for(operation: OperationDefinitionNode, fragments: Mapping[str, Any]) -> Plans:
    """Where an execution of `operation` keeps its plans. Without a directive in the operation
    and its fragments, what a selection collects depends on the document alone: its plans are
    shared by every execution while the operation lives (the document cache keeps it), so a
    page's plan is built once, not per request. With one (`@skip(if: $v)`), each execution
    plans for itself."""
    plans = _shared_of(operation, fragments)[0]
    return {} if plans is None else plans


def shared_roots(operation: OperationDefinitionNode, fragments: Mapping[str, Any]) -> Roots | None:
    """Where executions of `operation` keep its root fields, shared as its plans are; None when
    each execution must collect its own."""
    return _shared_of(operation, fragments)[1]


def _shared_of(operation: OperationDefinitionNode, fragments: Mapping[str, Any]) -> _Shared:
    found = _shared.get((operation,))
    if found is None:
        shared: _Shared = (None, None) if _directed(operation, fragments) else ({}, {})
        found = _shared.put((operation,), shared)
    return found


def _directed(operation: OperationDefinitionNode, fragments: Mapping[str, Any]) -> bool:
    """Whether a selection of the operation or of a fragment (graphql-core's
    `FragmentDetails`) carries a directive, or a fragment declares variables."""
    if any(details.variable_signatures for details in fragments.values()):
        return True
    pending: list[Any] = [operation.selection_set]
    pending += [details.definition.selection_set for details in fragments.values()]
    while pending:
        selection_set = pending.pop()
        for selection in selection_set.selections if selection_set is not None else ():
            if selection.directives:
                return True
            pending.append(getattr(selection, "selection_set", None))
    return False


def _field_parts(
    executor: Any, plans: Plans, parent_type: GraphQLObjectType, group: FieldGroup
) -> ReadParts | None:
    node = group[0].node
    if node.arguments or (node.directives and _other_directives(group)):
        return None
    name = node.name.value
    leaf = leaf_parts(parent_type, name)
    if leaf is not None:
        return leaf
    attribute = basic_attribute(parent_type, name)
    if attribute is None:
        return None
    field_type, read = attribute
    complete = _value_plan(executor, plans, field_type, group)
    return None if complete is None else (read, complete, None)


def _other_directives(group: FieldGroup) -> bool:
    """Whether a field carries a directive other than `@skip`/`@include` (already applied)."""
    return any(
        directive.name.value not in ("skip", "include")
        for details in group
        for directive in details.node.directives or ()
    )


def _value_plan(
    executor: Any, plans: Plans, type_: GraphQLOutputType, group: FieldGroup
) -> Complete | None:
    non_null = isinstance(type_, GraphQLNonNull)
    inner = cast("GraphQLNonNull[Any]", type_).of_type if non_null else type_
    if isinstance(inner, GraphQLList):
        item = _value_plan(executor, plans, inner.of_type, group)
        return None if item is None else _list_plan(item, non_null)
    if isinstance(inner, GraphQLObjectType):
        return _object_plan(executor, plans, inner, group, non_null)
    if isinstance(inner, GraphQLScalarType | GraphQLEnumType):
        return leaf_completion(inner.coerce_output_value, non_null)
    return None  # an interface or a union: graphql-core resolves the type


def _origin(object_type: GraphQLObjectType) -> type | None:
    """The class of `object_type` whose instances (not cast to another type) Strawberry's
    `is_type_of` accepts, asked without its call; None when they have no `__dict__` to hold a
    cast."""
    definition = (object_type.extensions or {}).get(_STRAWBERRY_DEFINITION)
    origin = getattr(definition, "origin", None)
    if not isinstance(origin, type) or "__slots__" in vars(origin):
        return None
    return origin


def _list_plan(item: Complete, non_null: bool) -> Complete:
    return ListPlan(item, non_null)


def _object_plan(
    executor: Any,
    plans: Plans,
    object_type: GraphQLObjectType,
    group: FieldGroup,
    non_null: bool,
) -> Complete | None:
    is_type_of = object_type.is_type_of
    if is_type_of is not None and not getattr(is_type_of, "__qualname__", "").endswith(
        _STRAWBERRY_IS_TYPE_OF
    ):
        return None
    grouped, deferred, _forbidden = executor.collect_subfields(object_type, group)
    if deferred:
        return None
    # Each field read and completed here, in one loop: no call of a reader per field.
    fields: list[tuple[str, Complete, Complete, type | None]] = []
    for response_key, subgroup in grouped.items():
        parts = _planned(executor, plans, object_type, subgroup)[2]
        if parts is None:
            return None
        fields.append((response_key, *parts))

    origin = _origin(object_type)

    def complete(value: Any) -> Any:
        if value is None:
            return SLOW if non_null else None
        if (
            is_type_of is not None
            and not (type(value) is origin and _CAST not in value.__dict__)
            and not is_type_of(value, _NO_INFO)
        ):
            return SLOW
        answer = {}
        for response_key, read, finish, as_is in fields:
            try:
                found = read(value)
            except Exception:  # as `read_then`: graphql-core makes it the field's error
                return SLOW
            if type(found) is not as_is:
                found = finish(found)
                if found is SLOW:
                    return SLOW
            answer[response_key] = found
        return answer

    return complete
