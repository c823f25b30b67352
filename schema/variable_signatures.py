"""Variable signatures worked out once per variable definition, not once per request.

graphql-core's `coerce_variable_values` asks `get_variable_signature` for each variable of
each request: `type_from_ast` rebuilds the variable's type (new `NonNull` and `List`
wrappers) and the signature around it, though both depend only on the schema and the
definition node, which the document cache keeps alive and unchanged. Here the signature of a
(schema, node) pair is kept while both live; an error (a type that is not an input type,
which validation refuses first) is not kept.

One of the uses of graphql-core internals listed in `schema.strawberry_internals`: this module
takes the place of `get_variable_signature` in graphql/execution/values.py, which
`coerce_variable_values` looks up by name.
"""

from __future__ import annotations

from typing import Any

from graphql import GraphQLError, GraphQLSchema, VariableDefinitionNode
from graphql.execution import values as graphql_values

_graphql_get_variable_signature = graphql_values.get_variable_signature  # type: ignore[attr-defined]
_LIMIT = 4_096  # signatures kept; all forgotten at once past it
# By the ids of the schema and the node, each held (so that its id stays its own).
_kept: dict[tuple[int, int], tuple[GraphQLSchema, VariableDefinitionNode, Any]] = {}


def get_variable_signature(schema: GraphQLSchema, var_def_node: VariableDefinitionNode) -> Any:
    """graphql-core's `get_variable_signature`, its answer kept."""
    key = (id(schema), id(var_def_node))
    found = _kept.get(key)
    if found is not None and found[0] is schema and found[1] is var_def_node:
        return found[2]
    signature = _graphql_get_variable_signature(schema, var_def_node)
    if not isinstance(signature, GraphQLError):
        if len(_kept) >= _LIMIT:
            _kept.clear()
        _kept[key] = (schema, var_def_node, signature)
    return signature


graphql_values.get_variable_signature = get_variable_signature  # type: ignore[attr-defined]
