"""Arguments written as literals, coerced once per field node.

graphql-core's `execute_field` coerces a field's arguments on every execution
(`get_argument_values`: each argument's definition, default and literal walked: a twentieth
of an orders page), though a document's literal arguments (`orders(first: 20)`) give the same
values every time: a cached document's nodes are the same objects in every request that sends
it. For a field whose arguments read no variable, the coerced values are kept by field
definition and node (both held, so that their ids stay theirs) when each is an immutable
value; a list or an input object, which a resolver could change, is coerced anew each time.
Each caller gets its own copy of the mapping.

One of the uses of graphql-core internals listed in `schema.strawberry_internals`: this module
takes the place of `get_argument_values` in graphql/execution/executor.py, which
`execute_field` looks up by name.
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

from graphql import (
    DirectiveNode,
    FieldNode,
    GraphQLDirective,
    GraphQLField,
    ListValueNode,
    ObjectValueNode,
    ValueNode,
    VariableNode,
)
from graphql.execution import executor as graphql_executor
from graphql.execution.values import FragmentVariableValues, VariableValues
from graphql.execution.values import get_argument_values as _graphql_argument_values

_IMMUTABLE = frozenset({str, int, float, bool, type(None), datetime})
_LIMIT = 4096
_kept: dict[
    tuple[int, int],
    tuple[GraphQLField | GraphQLDirective, FieldNode | DirectiveNode, dict[str, Any]],
] = {}


def get_argument_values(
    type_def: GraphQLField | GraphQLDirective,
    node: FieldNode | DirectiveNode,
    variable_values: VariableValues | None = None,
    fragment_variable_values: FragmentVariableValues | None = None,
    hide_suggestions: bool = False,
) -> dict[str, Any]:
    """graphql-core's `get_argument_values`, its answer kept per field and node when the node's
    arguments are literals that coerce to immutable values."""
    key = (id(type_def), id(node))
    found = _kept.get(key)
    if found is not None and found[0] is type_def and found[1] is node:
        return dict(found[2])
    values = _graphql_argument_values(
        type_def, node, variable_values, fragment_variable_values, hide_suggestions
    )
    if _literal(node) and all(_immutable(value) for value in values.values()):
        if len(_kept) >= _LIMIT:
            _kept.clear()
        _kept[key] = (type_def, node, dict(values))
    return values


def _literal(node: FieldNode | DirectiveNode) -> bool:
    return not any(_reads_variable(argument.value) for argument in node.arguments or ())


def _reads_variable(value: ValueNode) -> bool:
    if isinstance(value, VariableNode):
        return True
    if isinstance(value, ListValueNode):
        return any(_reads_variable(item) for item in value.values)
    if isinstance(value, ObjectValueNode):
        return any(_reads_variable(field.value) for field in value.fields)
    return False


def _immutable(value: Any) -> bool:
    return type(value) in _IMMUTABLE or isinstance(value, Enum)


graphql_executor.get_argument_values = get_argument_values  # type: ignore[attr-defined]
