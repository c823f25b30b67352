"""The Relay connection types every list shares: `Connection[T]`, `Edge[T]`, `PageInfo`.

A domain declares its connection by naming the node type (`class OrderConnection(Connection[
Order])`), and builds it from its resolver's `Page` with `from_page`, in one place. Every
connection's `edges` hold the page its field asks for, and an edge's `cursor` counts the
longest cursor the field that pages it declares (`facts(cursors=...)`, `schema/facts.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Self, TypeVar

import strawberry

from resolvers.paging import Page
from schema.facts import AS_ITS_OBJECT, Cursor, facts, page_size

NodeType = TypeVar("NodeType")
R = TypeVar("R")


@strawberry.type(description="Where a page sits in its list (Relay PageInfo).")
class PageInfo:
    has_next_page: bool = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    has_previous_page: bool = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    start_cursor: str | None = strawberry.field(
        metadata=facts(value_units=Cursor.LONGEST, permission=AS_ITS_OBJECT)
    )
    end_cursor: str | None = strawberry.field(
        metadata=facts(value_units=Cursor.LONGEST, permission=AS_ITS_OBJECT)
    )


@strawberry.type
class Edge(Generic[NodeType]):
    cursor: str = strawberry.field(
        description="Opaque; pass it as `after` or `before`.",
        metadata=facts(value_units=Cursor.OF_ITS_CONNECTION, permission=AS_ITS_OBJECT),
    )
    node: NodeType = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))


_new = object.__new__


def edge_of(cursor: str, node: NodeType) -> Edge[NodeType]:
    """`Edge(cursor=cursor, node=node)`, built without its keyword matching (a third of its
    cost; a page builds one per node): the object the dataclass's `__init__` builds, its two
    fields set (tests/server/test_direct_construction.py)."""
    edge: Edge[NodeType] = _new(Edge)
    edge.cursor = cursor
    edge.node = node
    return edge


def _total_count(root: Connection[Any]) -> int:
    if root.total is None:
        raise RuntimeError("totalCount was selected, but the resolver did not count")
    return root.total


@strawberry.type
class Connection(Generic[NodeType]):
    edges: list[Edge[NodeType]] = strawberry.field(
        metadata=facts(list_size=page_size, permission=AS_ITS_OBJECT)
    )
    page_info: PageInfo = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    total_count: int = strawberry.field(
        resolver=_total_count,
        description="The nodes of the whole list (with its filters), all pages.",
        metadata=facts(permission=AS_ITS_OBJECT),
    )
    # None when the resolver saw no `totalCount` in the selection and did not count.
    total: strawberry.Private[int | None] = None

    @classmethod
    def from_page(cls, page: Page[R], node: Callable[[R], NodeType]) -> Self:
        edges = [edge_of(cursor, node(record)) for cursor, record in page.edges]
        return cls(
            edges=edges,
            page_info=PageInfo(
                has_next_page=page.has_next,
                has_previous_page=page.has_previous,
                start_cursor=edges[0].cursor if edges else None,
                end_cursor=edges[-1].cursor if edges else None,
            ),
            total=page.total,
        )
