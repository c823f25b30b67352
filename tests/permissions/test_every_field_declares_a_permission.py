"""Default deny: every field declares its rule where it is defined: a root query or mutation
field its permission, a field of an object `AS_ITS_OBJECT` (or a permission of its own), and
every Node type its permission beside its `KIND` (what `node`/`nodes` check for each id); a field
that declares none, or one that does not fit where it is, is refused to everyone, even with
nothing configured."""

from __future__ import annotations

import strawberry
from graphql import GraphQLObjectType

import runtime
from resolvers.access.permissions import Permission
from resolvers.access.roles import ROLE_PERMISSIONS, SIGNED_IN
from schema.facts import EACH_NODE, declared
from schema.nodes import node_types
from schema.permissions import guard_fields, needed, root_types
from settings import Settings
from tests.permissions.expected import built


def test_every_field_of_the_schema_declares_its_rule() -> None:
    schema = built()
    roots = root_types(schema)
    undeclared = [
        f"{parent_type.name}.{name}"
        for parent_type, name in runtime.object_fields(schema)
        if declared(runtime.field_metadata(parent_type, name)).permission is None
    ]
    assert undeclared == []
    misplaced = [
        f"{parent_type.name}.{name}"
        for parent_type, name in runtime.object_fields(schema)
        if needed(parent_type, name, frozenset(), root=parent_type in roots) is None
    ]
    assert misplaced == []


def test_root_fields_declare_a_permission_and_node_fields_each_nodes() -> None:
    schema = built()
    query = schema.query_type
    assert isinstance(query, GraphQLObjectType)
    for root in root_types(schema):
        for name in root.fields:
            permission = declared(runtime.field_metadata(root, name)).permission
            if (root.name, name) in {("Query", "node"), ("Query", "nodes")}:
                assert permission is EACH_NODE
            else:
                assert isinstance(permission, Permission), f"{root.name}.{name}"


def test_every_node_type_declares_the_permission_that_reads_it() -> None:
    found = {name: cls.KIND.permission for name, cls in node_types().items()}
    assert set(found) == {
        "Sensor", "User", "Order", "Customer", "Trade", "Measurement", "ChatSession", "Message",
    }  # fmt: skip
    assert all(isinstance(permission, Permission) for permission in found.values())


def test_every_permission_is_granted_by_some_role_and_admin_holds_all() -> None:
    granted = set().union(*ROLE_PERMISSIONS.values(), SIGNED_IN)
    assert granted == set(Permission)
    assert ROLE_PERMISSIONS["admin"] == frozenset(Permission)


async def test_a_root_field_without_a_permission_is_refused_even_when_open() -> None:
    @strawberry.type
    class Query:
        @strawberry.field
        def secret(self) -> str:
            return "datum"

    schema = strawberry.Schema(query=Query)
    graphql_schema = runtime.graphql_schema(schema)
    guard_fields(graphql_schema, Settings(), frozenset())
    result = await schema.execute("{ secret }")
    assert result.data is None and result.errors is not None
    assert result.errors[0].message == "secret: not allowed: it declares no permission"
