"""An operation's root fields, collected once while it lives when nothing can change them.

graphql-core's `execute_operation` collects the root fields of each execution anew: fragments
spread, `@skip`/`@include` applied, one group per response key (a noticeable share of a small
request's time). Without a directive in the operation or its fragments, and without fragment
variables, the answer depends on the document alone: it is kept with the operation's shared
plans (`runtime.execution.object_fields.shared_roots`), by root type, and every execution of the
operation reads the same groups, as its plans already do. With a directive, each execution collects
its own. The groups are read, never changed, by the executor.

`runtime.install` puts `collect_fields` in the place of graphql-core's in
graphql/execution/executor.py, which `execute_operation` looks up by name
(`runtime/internals.py`).
"""

from __future__ import annotations

from typing import Any

from graphql import GraphQLObjectType, GraphQLSchema, OperationDefinitionNode
from graphql.execution.collect_fields import CollectedFields
from graphql.execution.collect_fields import collect_fields as _graphql_collect_fields

from runtime.execution.object_fields import shared_roots


def collect_fields(
    schema: GraphQLSchema,
    fragments: dict[str, Any],
    variable_values: Any,
    runtime_type: GraphQLObjectType,
    operation: OperationDefinitionNode,
    hide_suggestions: bool = False,
    *rest: Any,
    **options: Any,
) -> CollectedFields:
    """graphql-core's `collect_fields`, its answer kept per operation and root type when the
    operation's fields cannot depend on its variables."""
    arguments = (schema, fragments, variable_values, runtime_type, operation, hide_suggestions)
    roots = None if rest or options else shared_roots(operation, fragments)
    if roots is None:
        return _graphql_collect_fields(*arguments, *rest, **options)
    found = roots.get(id(runtime_type))
    if found is None or found[0] is not runtime_type:
        found = roots[id(runtime_type)] = (runtime_type, _graphql_collect_fields(*arguments))
    collected: CollectedFields = found[1]
    return collected
