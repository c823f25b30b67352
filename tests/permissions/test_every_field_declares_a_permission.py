"""Default deny: every root query and mutation field declares its permission where it is
defined, and every Node type beside its `KIND` (what `node`/`nodes` check for each id); a root
field that declares none is refused to everyone, even with nothing configured."""

from __future__ import annotations

import strawberry
from graphql import GraphQLObjectType

import runtime
from resolvers.access.permissions import Permission
from resolvers.access.roles import ROLE_PERMISSIONS, SIGNED_IN
from schema.facts import EACH_NODE, declared
from schema.nodes import node_types
from schema.permissions import guard_root_fields
from settings import Settings
from tests.permissions.expected import built, root_types


def test_every_root_field_declares_a_permission() -> None:
    schema = built()
    undeclared = [
        f"{root.name}.{name}"
        for root in root_types(schema)
        for name in root.fields
        if declared(runtime.field_metadata(root, name)).permission is None
    ]
    assert undeclared == []
    query = schema.query_type
    assert isinstance(query, GraphQLObjectType)
    assert declared(runtime.field_metadata(query, "node")).permission is EACH_NODE


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
    guard_root_fields(graphql_schema, Settings(), frozenset())
    result = await schema.execute("{ secret }")
    assert result.data is None and result.errors is not None
    assert result.errors[0].message == "secret: not allowed: it declares no permission"
