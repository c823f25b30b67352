"""Forged cursors of every connection: a real cursor of the list is accepted; anything else is
BAD_USER_INPUT "not a cursor of this list", naming the argument, or (a forgery that happens to
spell another real position of the list) a page. A connection type added to the schema without
a probe here fails the coverage test."""

from __future__ import annotations

from typing import Any

import graphql
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz import oracle
from tests.fuzz.cursors import PROBES, SENSOR_ORDERS, forged_cursors, kind
from tests.fuzz.harness import Fuzz
from tests.fuzz.strategies import SCHEMA, fuzz_settings
from tests.fuzz.world import World


def connection_types() -> set[str]:
    return {
        name
        for name, type_ in SCHEMA.type_map.items()
        if isinstance(type_, graphql.GraphQLObjectType)
        and {"edges", "pageInfo"} <= set(type_.fields)
    }


def connection_fields() -> set[str]:
    """Every field of the schema that returns a connection, as "Parent.field"."""
    connections = connection_types()
    return {
        f"{name}.{field_name}"
        for name, type_ in SCHEMA.type_map.items()
        if isinstance(type_, graphql.GraphQLObjectType | graphql.GraphQLInterfaceType)
        for field_name, field in type_.fields.items()
        if graphql.get_named_type(field.type).name in connections
    }


class _ConnectionFields(graphql.Visitor):
    """Collects "Parent.field" of every field of a document that returns a connection."""

    def __init__(self, info: graphql.TypeInfo, connections: set[str]) -> None:
        super().__init__()
        self.info = info
        self.connections = connections
        self.found: set[str] = set()

    def enter_field(self, node: graphql.FieldNode, *_: Any) -> None:
        field, parent = self.info.get_field_def(), self.info.get_parent_type()
        if field is not None and graphql.get_named_type(field.type).name in self.connections:
            self.found.add(f"{parent}.{node.name.value}")


def probed_fields() -> set[str]:
    """The connection fields the probes read, found by walking their documents."""
    found: set[str] = set()
    for probe in PROBES.values():
        for argument in probe.arguments:
            document = graphql.parse(probe.document(argument))
            assert graphql.validate(SCHEMA, document) == [], probe.document(argument)
            info = graphql.TypeInfo(SCHEMA)
            visitor = _ConnectionFields(info, connection_types())
            graphql.visit(document, graphql.TypeInfoVisitor(info, visitor))
            found |= visitor.found
    return found


def test_forged_cursors_cover_every_connection_of_the_schema() -> None:
    assert set(PROBES) == connection_types()
    assert probed_fields() == connection_fields()
    for name, probe in PROBES.items():
        arguments = {"after", "before"} & set(_field_arguments(name))
        assert set(probe.arguments) == arguments, name


def _field_arguments(connection: str) -> list[str]:
    return [
        argument
        for type_ in SCHEMA.type_map.values()
        if isinstance(type_, graphql.GraphQLObjectType)
        for field in type_.fields.values()
        if graphql.get_named_type(field.type).name == connection
        for argument in field.args
    ]


@fuzz_settings(0.15)
@given(data=st.data())
async def test_forged_cursors_are_bad_user_input_naming_the_argument(
    fuzz: Fuzz, world: World, data: st.DataObject
) -> None:
    connection = data.draw(st.sampled_from(sorted(PROBES)), label="connection")
    probe = PROBES[connection]
    argument = data.draw(st.sampled_from(probe.arguments), label="argument")
    cursor = data.draw(forged_cursors(world, connection), label="cursor")
    variables: dict[str, Any] = {"c": cursor}
    if connection in ("MessageConnection", "ChatMemberConnection"):
        variables["s"] = world.session_id
    if connection == "SensorConnection":
        variables["o"] = data.draw(st.sampled_from(sorted(SENSOR_ORDERS.values())))
    body = await fuzz.exercise("forged cursors", probe.document(argument), variables)
    codes = oracle.codes(body)
    if cursor in world.cursors[connection] and _same_order(connection, cursor, variables):
        assert codes == [], body
    assert set(codes) <= {"BAD_USER_INPUT"}, body
    for error in body.get("errors", []):
        assert error["extensions"].get("argument") == argument, body
        assert "not a cursor of this list" in error["message"], body
    await fuzz.assert_healthy()


def _same_order(connection: str, cursor: str, variables: dict[str, Any]) -> bool:
    return connection != "SensorConnection" or SENSOR_ORDERS[kind(cursor)] == variables["o"]
