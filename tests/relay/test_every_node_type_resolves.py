"""Every type of the built schema that implements `Node` declares its kind and how it loads
(schema/node.py), and its id, sent to `node(id:)`, answers that very object: `node` and `nodes`
dispatch over the declared types, with no table to forget a type in."""

from __future__ import annotations

from graphql import GraphQLObjectType, assert_interface_type, build_schema

from schema.node import Node
from schema.nodes import node_types
from schema.schema import build_schema as build_arraygraph
from tests.clients.entities import seed_entities
from tests.support import Api

NODE = """query($id: ID!) { node(id: $id) { __typename ...Identified } }
fragment Identified on Node { id }"""


def _implementers() -> set[str]:
    served = build_schema(build_arraygraph().as_str())
    node = assert_interface_type(served.get_type("Node"))
    implementations = served.get_implementations(node).objects
    return {t.name for t in implementations if isinstance(t, GraphQLObjectType)}


def test_every_node_type_declares_its_kind_and_load() -> None:
    declared = node_types()
    for name in sorted(_implementers()):
        assert name in declared, f"{name} implements Node but declares no KIND"
        own = declared[name].resolve_node.__func__  # type: ignore[attr-defined]
        inherited = Node.resolve_node.__func__  # type: ignore[attr-defined]
        assert own is not inherited, f"{name} declares no resolve_node"


async def test_the_id_of_every_node_type_reads_back_its_object(api: Api) -> None:
    entities = await seed_entities(api)
    for name in sorted(_implementers()):
        assert name in entities.ids, f"{name}: tests/clients/entities.py seeds none"
        id_ = entities.ids[name]
        found = (await api.data(NODE, {"id": id_}))["node"]
        assert found == {"__typename": name, "id": id_}, name
