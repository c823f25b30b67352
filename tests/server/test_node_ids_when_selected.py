"""Global ids are computed only when selected, by a method the one-step path
(`runtime/execution/leaf_fields.py`) reads as an attribute: a page that asks for none encodes
none."""

from __future__ import annotations

import pytest

import schema.node as node
from resolvers.global_ids import parse_global_id
from resolvers.users import ORDER, USER
from tests.support import Api
from tests.support.executed import count_calls, executed_fields

UPSERT = """mutation { upsertOrders(userId: "u", orders: [
  {id: "1", createTime: "2024-01-01T00:00:00Z"}]) { orderCount } }"""


async def test_computed_ids_skip_graphql_cores_execute_field(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    await api.data(UPSERT)
    executed = executed_fields(monkeypatch)
    query = '{ user(userId: "u") { id orders(first: 5) { edges { node { ...O } } } } }'
    query += " fragment O on Order { id orderId }"
    data = await api.data(query)
    order = data["user"]["orders"]["edges"][0]["node"]
    assert parse_global_id(order["id"], ORDER) == ("u", "1")
    assert parse_global_id(data["user"]["id"], USER) == ("u",)
    assert executed == ["user", "orders"]


async def test_a_page_that_selects_no_id_encodes_none(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    await api.data(UPSERT)
    calls: list[str] = []
    count_calls(monkeypatch, node, "global_id", calls)
    query = '{ user(userId: "u") { orders(first: 5) { edges { node { orderId } } } } }'
    data = await api.data(query)
    assert data["user"]["orders"]["edges"] == [{"node": {"orderId": "1"}}]
    assert calls == []
    await api.data('{ user(userId: "u") { id } }')
    assert calls == ["global_id"]
