"""`node(id:)` and `nodes(ids:)`: the one conversion from what a global id named to its type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import strawberry

from resolvers import nodes as resolve
from resolvers.context import Info
from resolvers.nodes import NodeRecord
from schema.chat import ChatSession, Message
from schema.node import Node
from schema.orders import Order, User
from schema.sensors import Sensor
from schema.series import Measurement
from schema.trades import Customer, Trade

CONVERSIONS: dict[str, Callable[[Info, Any], Node]] = {
    "Sensor": lambda info, doc: Sensor.from_doc(doc, now=info.context.now),
    "User": lambda info, loaded: User.from_loaded(loaded),
    "Order": lambda info, owned: Order.from_doc(owned.order, user_id=owned.user_id),
    "Customer": lambda info, customer_id: Customer.of(customer_id),
    "Trade": lambda info, placed: Trade.from_placed(placed),
    "ChatSession": lambda info, doc: ChatSession.from_doc(doc),
    "Message": lambda info, record: Message.from_record(record),
    "Measurement": lambda info, doc: Measurement.from_doc(doc),
}


def _converted(info: Info, found: NodeRecord | None) -> Node | None:
    return None if found is None else CONVERSIONS[found.type_name](info, found.record)


async def _node(info: Info, id: strawberry.ID) -> Node | None:
    return _converted(info, await resolve.node(info, id=id))


async def _nodes(info: Info, ids: list[strawberry.ID]) -> list[Node | None]:
    return [_converted(info, found) for found in await resolve.nodes(info, ids=ids)]


@strawberry.type
class NodeQueries:
    node: Node | None = strawberry.field(
        resolver=_node, description="The object of a global id; null when it no longer exists."
    )
    nodes: list[Node | None] = strawberry.field(
        resolver=_nodes,
        description="In the order asked, null where unknown; at most 100 ids; one read per type.",
    )
