"""The `Node` interface: every entity's opaque global `id` (resolvers/global_ids.py)."""

from __future__ import annotations

import strawberry

from resolvers.global_ids import KeyPart, global_id


@strawberry.interface(
    description="An object with a global id: unique across types and owners, stable, opaque; "
    "`node(id:)` fetches it back."
)
class Node:
    id: strawberry.ID


def node_id(type_name: str, *key: KeyPart) -> strawberry.ID:
    return strawberry.ID(global_id(type_name, *key))
