"""What a schema's fields declare of themselves: the `metadata` given to `strawberry.field`.

A field of a built schema is graphql-core's; the Strawberry field it was made from, and so its
`metadata`, hangs from it by Strawberry's back-reference (an internal: runtime/internals.py).
The schema reads its domain's facts through these functions, once per schema, as it is built.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

import strawberry
from graphql import GraphQLObjectType, GraphQLSchema
from strawberry.schema.schema_converter import GraphQLCoreConverter

_STRAWBERRY_FIELD = GraphQLCoreConverter.DEFINITION_BACKREF
_NONE: Mapping[str, object] = MappingProxyType({})


def graphql_schema(schema: strawberry.Schema) -> GraphQLSchema:
    """The graphql-core schema a Strawberry schema executes."""
    return schema._schema


def field_metadata(parent_type: GraphQLObjectType, field_name: str) -> Mapping[str, object]:
    """The `metadata` the field was declared with (empty for a field Strawberry did not make,
    or one declared without)."""
    field = parent_type.fields.get(field_name)
    declared = None if field is None else field.extensions.get(_STRAWBERRY_FIELD)
    metadata = getattr(declared, "metadata", None)
    return metadata if isinstance(metadata, Mapping) else _NONE


def object_fields(schema: GraphQLSchema) -> Iterator[tuple[GraphQLObjectType, str]]:
    """Every field of the schema's object types, by its type and name (introspection's apart)."""
    for named in schema.type_map.values():
        if isinstance(named, GraphQLObjectType) and not named.name.startswith("__"):
            for field_name in named.fields:
                yield named, field_name
