"""The `Node` interface: every entity's opaque global `id` (resolvers/global_ids.py).

A Node type owns its identity, as Strawberry's relay `Node` does: it declares its `KIND` (its
name in ids and its key's shape, from its domain's resolvers) and `resolve_node`, which loads
it by its key; `node(id:)` and `nodes(ids:)` dispatch over the Node types that declare them
(schema/nodes.py), and a test walks the built schema for any that does not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import strawberry

from resolvers.context import Info
from resolvers.global_ids import Key, KeyPart, NodeKind, global_id
from schema.facts import AS_ITS_OBJECT, facts


@strawberry.interface(
    description="An object with a global id: unique across types and owners, stable, opaque; "
    "`node(id:)` fetches it back."
)
class Node:
    id: strawberry.ID
    KIND: ClassVar[NodeKind]

    @classmethod
    async def resolve_node(cls, info: Info, key: Key) -> Node | None:
        """The object of `key` (of this type's `KIND`); None when nothing is stored."""
        raise NotImplementedError(f"{cls.__name__} declares no resolve_node")


def node_id_field(key: Callable[[Any], tuple[KeyPart, ...]], *, value_units: int) -> Any:
    """A Node type's `id`, from its `KIND` and the object's `key`, computed when selected: a
    page that does not ask for ids encodes none (a method of the object alone, which
    `runtime.execution.leaf_fields` reads as an attribute). It declares its `value_units`
    (schema/facts.py): `SHORT`, or more for an id that holds a long key; it answers whoever was
    answered its object (`AS_ITS_OBJECT`)."""

    def id(self: Any) -> strawberry.ID:
        return strawberry.ID(global_id(self.KIND.type_name, *key(self)))

    return strawberry.field(
        resolver=id, metadata=facts(value_units=value_units, permission=AS_ITS_OBJECT)
    )
