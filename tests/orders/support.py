"""GraphQL documents and helpers the order tests share."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.support import Api

UPSERT = """
mutation($userId: String!, $userType: String, $name: String, $orders: [OrderInput!]!) {
  upsertOrders(userId: $userId, userType: $userType, name: $name, orders: $orders) {
    userId userType name orderCount
  }
}
"""
DELETE = """
mutation($userId: String!, $ids: [ID!]!) {
  deleteOrders(userId: $userId, orderIds: $ids) { orderCount }
}
"""
PAGE = """
query($userId: String!, $first: Int, $after: String, $last: Int, $before: String, $max: DateTime) {
  user(userId: $userId) {
    orderCount
    orders(first: $first, after: $after, last: $last, before: $before, maxCreateTime: $max) {
      totalCount
      edges { cursor node { orderId info createTime } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
}
"""
BASE = datetime(2024, 1, 1, tzinfo=UTC)


def at(minutes: int) -> str:
    return (BASE + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")


def order(order_id: str, minutes: int, info: str | None = None) -> dict[str, Any]:
    return {"id": order_id, "createTime": at(minutes), "info": info}


async def stored_orders(api: Api, user_id: str) -> list[dict[str, Any]]:
    doc = await api.collection("users").find_one({"userId": user_id})
    assert doc is not None
    orders: list[dict[str, Any]] = doc["orderList"]
    return orders


async def seed_orders(api: Api, user_id: str, count: int, *, info: str = "x") -> None:
    """A user with `count` orders, order i created at minute i, stored sorted newest first.

    Written as one document: these tests are about reading, and upserts are tested elsewhere.
    """
    orders = [
        {"_id": f"o{i:06}", "info": info, "createTime": BASE + timedelta(minutes=i)}
        for i in reversed(range(count))
    ]
    await api.collection("users").insert_one({"userId": user_id, "orderList": orders})
