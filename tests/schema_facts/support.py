"""The built schema's fields, and the facts each declares (schema/facts.py), for the tests that
walk it for a field that declares too few."""

from __future__ import annotations

from collections.abc import Iterator

from graphql import GraphQLField, GraphQLObjectType, GraphQLSchema

import runtime
from schema.facts import Facts, declared
from schema.schema import build_schema


def built() -> GraphQLSchema:
    """The graphql-core schema of `build_schema()`, as it serves."""
    return runtime.graphql_schema(build_schema())


def fields_of(schema: GraphQLSchema) -> Iterator[tuple[GraphQLObjectType, str, GraphQLField]]:
    """Every field of the schema's object types (introspection's apart)."""
    for parent_type, name in runtime.object_fields(schema):
        yield parent_type, name, parent_type.fields[name]


def facts_of(parent_type: GraphQLObjectType, field_name: str) -> Facts:
    return declared(runtime.field_metadata(parent_type, field_name))
