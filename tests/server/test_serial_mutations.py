"""Mutations of one request run in order, and each sees what the ones before it wrote.

Loaders cache what they read for the rest of a request; each mutation starts with fresh ones,
so a payload never answers from a read made before an earlier mutation's write.
"""

from __future__ import annotations

from tests.support import Api

TWO_UPSERTS = """mutation {
  a: upsertOrders(userId: "m", orders: [{id: "1", createTime: "2024-01-01T00:00:00Z"}]) {
    orders(first: 5) { totalCount } }
  b: upsertOrders(userId: "m", orders: [{id: "2", createTime: "2024-01-02T00:00:00Z"}]) {
    orderCount orders(first: 5) { totalCount edges { node { orderId } } } }
}"""
TWO_TRADES = """mutation {
  a: recordTrades(customerId: 9, trades: [{type: BUY, ticker: "T", qty: 1,
    date: "2024-01-01T00:00:00Z"}]) { customer { tradeCount } }
  b: recordTrades(customerId: 9, trades: [{type: BUY, ticker: "T", qty: 2,
    date: "2024-01-01T00:00:01Z"}]) { customer { tradeCount trades(first: 5) { totalCount } } }
}"""
TWO_EVENTS = """mutation($id: ID!) {
  a: recordSensorEvents(events: [{sensorId: $id, at: "2022-09-12T12:00:00Z", count: 2}]) {
    sensors { count24h } }
  b: recordSensorEvents(events: [{sensorId: $id, at: "2022-09-12T12:00:00Z", count: 3}]) {
    sensors { count24h } }
}"""


async def test_a_later_upsert_orders_payload_sees_the_earlier_write(api: Api) -> None:
    data = await api.data(TWO_UPSERTS)
    assert data["a"]["orders"]["totalCount"] == 1
    assert data["b"]["orderCount"] == 2
    assert data["b"]["orders"]["totalCount"] == 2
    assert [e["node"]["orderId"] for e in data["b"]["orders"]["edges"]] == ["2", "1"]


async def test_a_later_record_trades_payload_sees_the_earlier_write(api: Api) -> None:
    data = await api.data(TWO_TRADES)
    assert data["a"]["customer"]["tradeCount"] == 1
    assert data["b"]["customer"] == {"tradeCount": 2, "trades": {"totalCount": 2}}


async def test_a_later_record_sensor_events_payload_sees_the_earlier_write(api: Api) -> None:
    created = await api.data('mutation { createSensor(title: "S") { id } }')
    data = await api.data(TWO_EVENTS, {"id": created["createSensor"]["id"]})
    assert [data["a"]["sensors"], data["b"]["sensors"]] == [[{"count24h": 2}], [{"count24h": 5}]]


CREATE_THEN_FAIL = """mutation {
  a: createSensor(title: "kept") { title }
  b: renameSensor(id: "65f000000000000000000000", title: "x") { title }
  c: createSensor(title: "never") { title }
}"""


async def test_mutations_ran_names_the_writes_that_stand_when_a_later_field_fails(
    api: Api,
) -> None:
    body = await api.post(CREATE_THEN_FAIL)
    # `b` is non-null: its NOT_FOUND nulls `data`, which alone would hide that `a` stored.
    assert body["data"] is None
    assert [e["extensions"]["code"] for e in body["errors"]] == ["NOT_FOUND"]
    assert body["extensions"]["mutationsRan"] == ["a"]
    stored = await api.data("{ sensors { edges { node { title } } } }")
    assert stored["sensors"]["edges"] == [{"node": {"title": "kept"}}]


async def test_mutations_ran_is_absent_when_nothing_failed_or_nothing_ran(api: Api) -> None:
    fine = await api.post('mutation { createSensor(title: "t") { title } }')
    failed = await api.post(
        'mutation { renameSensor(id: "65f000000000000000000000", title: "x") { title } }'
    )
    assert "extensions" not in fine
    assert "extensions" not in failed
