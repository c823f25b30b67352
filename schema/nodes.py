"""`node(id:)` and `nodes(ids:)`: dispatched over the Node types, each by the `KIND` and
`resolve_node` it declares (schema/node.py); this module names no domain."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping

import strawberry

from resolvers import nodes as resolve
from resolvers.access.records import may_read_key
from resolvers.context import Info
from resolvers.global_ids import Key, NodeKind
from schema.facts import EACH_NODE, NO_WORK, facts, length_of
from schema.node import Node
from settings import MAX_NODES_PER_QUERY


def _declared(cls: type[Node]) -> list[type[Node]]:
    found = []
    for sub in cls.__subclasses__():
        if "KIND" in vars(sub):
            found.append(sub)
        found += _declared(sub)
    return found


@functools.cache
def node_types() -> Mapping[str, type[Node]]:
    """Every Node type that declares its kind, by its name in ids (read once they are all
    defined: at the first `node` or `nodes`)."""
    return {cls.KIND.type_name: cls for cls in _declared(Node)}


@functools.cache
def node_kinds() -> Mapping[str, NodeKind]:
    return {name: cls.KIND for name, cls in node_types().items()}


async def _resolved(info: Info, type_name: str, key: Key) -> Node | None:
    """The object, or None: when nothing is stored, and (the same answer) when the caller may
    not read it (its type's `KIND.permission`, resolvers/access/records.py)."""
    node_type = node_types()[type_name]
    if not await may_read_key(info, node_type.KIND.permission, key):
        return None
    return await node_type.resolve_node(info, key)


async def _node(info: Info, id: strawberry.ID) -> Node | None:
    type_name, key = resolve.node_key(id, node_kinds(), argument="id")
    return await _resolved(info, type_name, key)


async def _nodes(info: Info, ids: list[strawberry.ID]) -> list[Node | None]:
    """In the order asked, None where nothing is stored; every id is checked before any read."""
    keys = resolve.node_keys(ids, node_kinds())
    return list(await asyncio.gather(*(_resolved(info, name, key) for name, key in keys)))


@strawberry.type
class NodeQueries:
    node: Node | None = strawberry.field(
        resolver=_node,
        description="The object of a global id; null when it no longer exists.",
        metadata=facts(work_units=NO_WORK, permission=EACH_NODE),
    )
    nodes: list[Node | None] = strawberry.field(
        resolver=_nodes,
        description="In the order asked, null where unknown; at most 100 ids; one read per type.",
        # One entry per id asked, in the order asked, a repeated one each time.
        metadata=facts(
            list_size=length_of("ids", MAX_NODES_PER_QUERY),
            work_units=NO_WORK,
            permission=EACH_NODE,
        ),
    )
