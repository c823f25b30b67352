"""Every field with arguments that a mutation's payload can reach declares the check its
resolver runs first (`facts(payload_check=...)`, `NO_CHECK` when its arguments cannot fail):
the check runs before the write, so that a wrong argument does not fail after it and null the
payload (`data: null` for a call that did happen). The root mutation fields' own arguments are
their resolvers' to check, before they write."""

from __future__ import annotations

from graphql import (
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    get_named_type,
    is_abstract_type,
)

from tests.schema_facts.support import built, facts_of


def _objects(schema: GraphQLSchema, named: GraphQLNamedType) -> list[GraphQLObjectType]:
    """The object types a field of this type may answer (an interface's or union's too)."""
    if isinstance(named, GraphQLObjectType):
        return [named]
    if is_abstract_type(named):
        return list(schema.get_possible_types(named))
    return []  # a scalar or an enum


def _reachable(schema: GraphQLSchema, root: GraphQLObjectType) -> list[GraphQLObjectType]:
    """The object types below the root's fields, each once, in the order they are met."""
    seen: list[GraphQLObjectType] = []
    pending = [get_named_type(field.type) for field in root.fields.values()]
    while pending:
        for object_type in _objects(schema, pending.pop(0)):
            if object_type not in seen:
                seen.append(object_type)
                pending += [get_named_type(f.type) for f in object_type.fields.values()]
    return seen


def test_every_argument_a_payload_reaches_is_checked_before_the_write() -> None:
    schema = built()
    assert schema.mutation_type is not None
    unchecked = [
        f"{object_type.name}.{name}"
        for object_type in _reachable(schema, schema.mutation_type)
        for name, field in object_type.fields.items()
        if field.args and facts_of(object_type, name).payload_check is None
    ]
    assert unchecked == [], (
        "fields with arguments a mutation's payload reaches that declare no check "
        f"(facts(payload_check=... or NO_CHECK)): {unchecked}"
    )
