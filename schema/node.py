"""The `Node` interface: every entity's opaque global `id` (resolvers/global_ids.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


def node_id_field(type_name: str, key: Callable[[Any], tuple[KeyPart, ...]]) -> Any:
    """A Node type's `id`, computed from the object's `key` when it is selected: a page that
    does not ask for ids encodes none (a method of the object alone, which
    `runtime.execution.leaf_fields` reads as an attribute)."""

    def id(self: Any) -> strawberry.ID:
        return strawberry.ID(global_id(type_name, *key(self)))

    return strawberry.field(resolver=id)
