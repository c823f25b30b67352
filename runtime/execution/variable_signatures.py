"""Variable signatures worked out once per variable definition, not once per request.

graphql-core's `coerce_variable_values` asks `get_variable_signature` for each variable of
each request: `type_from_ast` rebuilds the variable's type (new `NonNull` and `List`
wrappers) and the signature around it, though both depend only on the schema, the variable's
name and its type's shape. Here the signature is kept by those; a variable with a default, and
an error (a type that is not an input type, which validation refuses first), are not kept.

`runtime.install` puts `get_variable_signature` in the place of graphql-core's in
graphql/execution/values.py, which `coerce_variable_values` looks up by name
(`runtime/internals.py`).
"""

from __future__ import annotations

from typing import Any

from graphql import (
    GraphQLError,
    GraphQLSchema,
    ListTypeNode,
    NamedTypeNode,
    NonNullTypeNode,
    TypeNode,
    VariableDefinitionNode,
)
from graphql.execution import values as graphql_values

_graphql_get_variable_signature = graphql_values.get_variable_signature  # type: ignore[attr-defined]
_LIMIT = 4_096  # signatures kept; all forgotten at once past it
# By the schema's id, the variable's name and its type's shape; each entry holds the schema
# (so that its id stays its own) and nothing of the document: a node would keep its whole
# document (its tokens and source) alive, past the document cache's own limits.
_kept: dict[tuple[int, str, Any], tuple[GraphQLSchema, Any]] = {}


def _shape(node: TypeNode) -> Any:
    """A type reference's shape (`[ID!]!` is `("!", ("[", ("!", "ID")))`); None for another
    node."""
    kind = type(node)
    if kind is NamedTypeNode:
        return node.name.value  # type: ignore[attr-defined]
    if kind is NonNullTypeNode or kind is ListTypeNode:
        inner = _shape(node.type)  # type: ignore[attr-defined]
        return None if inner is None else ("!" if kind is NonNullTypeNode else "[", inner)
    return None


def get_variable_signature(schema: GraphQLSchema, var_def_node: VariableDefinitionNode) -> Any:
    """graphql-core's `get_variable_signature`, kept for a variable without a default (a
    default's literal belongs to its document)."""
    if var_def_node.default_value is not None:
        return _graphql_get_variable_signature(schema, var_def_node)
    shape = _shape(var_def_node.type)
    if shape is None:
        return _graphql_get_variable_signature(schema, var_def_node)
    key = (id(schema), var_def_node.variable.name.value, shape)
    found = _kept.get(key)
    if found is not None and found[0] is schema:
        return found[1]
    signature = _graphql_get_variable_signature(schema, var_def_node)
    if not isinstance(signature, GraphQLError):
        if len(_kept) >= _LIMIT:
            _kept.clear()
        _kept[key] = (schema, signature)
    return signature
