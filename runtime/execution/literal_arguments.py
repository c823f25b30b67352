"""Arguments written as literals, coerced once per field node.

graphql-core's `execute_field` coerces a field's arguments on every execution
(`get_argument_values`: each argument's definition, default and literal walked: a twentieth
of an orders page), though a document's literal arguments (`orders(first: 20)`) give the same
values every time: a cached document's nodes are the same objects in every request that sends
it. For a field whose arguments read no variable, the coerced values are kept by field
definition and node when each is an immutable value; a list or an input object, which a
resolver could change, is coerced anew each time. The node is held weakly: an entry lives as
long as its document (its id then stays its own), and the memo keeps no syntax tree alive.
Each caller gets its own copy of the mapping.

An argument that does not coerce once variables are in is the client's error (BAD_USER_INPUT,
naming the argument): an explicit null for a nullable variable where a default let validation
pass (`count: $c` of `count: Int! = 1`, `first: $f` of `first: Int! = 100`, `@include(if: $v)`
with `$v: Boolean = true`) was graphql-core's untyped error, masked as INTERNAL_SERVER_ERROR.

`runtime.install` puts `get_argument_values` in the place of graphql-core's in
graphql/execution/executor.py, which `execute_field` looks up by name, and in
graphql/execution/collect_fields.py, where `@skip` and `@include` are read
(`runtime/internals.py`).
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

from graphql import (
    DirectiveNode,
    FieldNode,
    GraphQLDirective,
    GraphQLError,
    GraphQLField,
)
from graphql.execution.values import FragmentVariableValues, VariableValues
from graphql.execution.values import get_argument_values as _graphql_argument_values

from runtime.errors import ArgumentInvalid
from runtime.node_keyed import NodeKeyed
from runtime.selection.fields import variables_in

_IMMUTABLE = frozenset({str, int, float, bool, type(None), datetime})
_LIMIT = 4096
# By node (held weakly: an entry goes with its document): the field definition its answer is
# for, and that answer, or None when it cannot be kept.
_kept = NodeKeyed[
    FieldNode | DirectiveNode,
    tuple[GraphQLField | GraphQLDirective, dict[str, Any] | None],
](_LIMIT)


def get_argument_values(
    type_def: GraphQLField | GraphQLDirective,
    node: FieldNode | DirectiveNode,
    variable_values: VariableValues | None = None,
    fragment_variable_values: FragmentVariableValues | None = None,
    hide_suggestions: bool = False,
) -> dict[str, Any]:
    """graphql-core's `get_argument_values`, its answer kept per field and node when the node's
    arguments are literals that coerce to immutable values; a node whose answer cannot be kept
    is remembered as such (None), so that it is not examined again."""
    found = _kept.get((node,))
    if found is not None and found[0] is type_def and found[1] is not None:
        return dict(found[1])
    try:
        values = _graphql_argument_values(
            type_def, node, variable_values, fragment_variable_values, hide_suggestions
        )
    except GraphQLError as error:
        raise _invalid(error, node) from None
    if found is not None and found[0] is type_def:
        return values
    literal = not any(next(variables_in(a.value), None) is not None for a in node.arguments or ())
    keep = literal and all(_immutable(value) for value in values.values())
    _kept.put((node,), (type_def, dict(values) if keep else None))
    return values


def _invalid(error: GraphQLError, node: FieldNode | DirectiveNode) -> ArgumentInvalid:
    """graphql-core's refusal of an argument as the client's error, naming the argument whose
    value it is: a field error at the field, a request error at a directive that decides
    which fields run (the executor and the view type a resolver's error by its class)."""
    starts = [n.loc.start for n in error.nodes or () if n.loc is not None]
    at_fault = next(
        (
            a.name.value
            for a in node.arguments or ()
            if a.loc is not None and any(a.loc.start <= at < a.loc.end for at in starts)
        ),
        None,
    )
    return ArgumentInvalid(error.message, argument=at_fault)


def _immutable(value: Any) -> bool:
    return type(value) in _IMMUTABLE or isinstance(value, Enum)
