"""Global object ids: unique across types and owners, opaque, exact; `node` and `nodes` fetch
every entity type back through the loaders."""

from __future__ import annotations

import pytest

from resolvers.global_ids import global_id, parse_global_id
from resolvers.trades import CUSTOMER, TRADE
from resolvers.users import ORDER
from schema.nodes import node_kinds
from tests.clients.entities import seed_entities
from tests.support import Api, assert_rejected

NODE = """
query($id: ID!) {
  node(id: $id) {
    __typename id
    ...on Sensor { sensorId title }
    ...on User { userId orderCount }
    ...on Order { orderId userId }
    ...on Customer { customerId tradeCount }
    ...on Trade { ticker qty }
    ...on ChatSession { sessionId title }
    ...on Message { messageId text }
    ...on Measurement { name fields }
  }
}
"""
NODES = "query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }"
ORDERS = """
mutation($u: String!) {
  upsertOrders(userId: $u, orders: [{id: "1", createTime: "2024-01-01T00:00:00Z"}]) {
    orders(first: 1) { edges { node { __typename id orderId userId } } }
  }
}
"""


async def test_global_ids_of_two_users_orders_never_collide(api: Api) -> None:
    ada = (await api.data(ORDERS, {"u": "ada"}))["upsertOrders"]["orders"]["edges"][0]["node"]
    bob = (await api.data(ORDERS, {"u": "bob"}))["upsertOrders"]["orders"]["edges"][0]["node"]
    assert ada["orderId"] == bob["orderId"] == "1"
    assert ada["id"] != bob["id"]
    assert (ada["userId"], bob["userId"]) == ("ada", "bob")


async def test_global_ids_differ_across_every_type(api: Api) -> None:
    entities = await seed_entities(api)
    assert len(set(entities.ids.values())) == len(entities.ids) == 8


async def test_node_round_trips_every_entity_type(api: Api) -> None:
    entities = await seed_entities(api)
    expected: dict[str, dict[str, object]] = {
        "Sensor": {"sensorId": entities.sensor_id, "title": "boiler"},
        "User": {"userId": "ada", "orderCount": 1},
        "Order": {"orderId": "order-1", "userId": "ada"},
        "Customer": {"customerId": 7, "tradeCount": 1},
        "Trade": {"ticker": "MDB", "qty": 3},
        "ChatSession": {"sessionId": entities.session_id, "title": "lobby"},
        "Message": {"messageId": entities.message_id, "text": "hi"},
        "Measurement": {"name": "insects", "fields": ["bees"]},
    }
    for type_name, node_id in entities.ids.items():
        found = (await api.data(NODE, {"id": node_id}))["node"]
        assert found == {"__typename": type_name, "id": node_id, **expected[type_name]}


async def test_global_ids_hold_their_type_and_domain_key(api: Api) -> None:
    entities = await seed_entities(api)
    session_id = entities.session_id
    keys: dict[str, tuple[str | int, ...]] = {
        "Sensor": (entities.sensor_id,),
        "User": ("ada",),
        "Order": ("ada", "order-1"),
        "Customer": (7,),
        "Trade": (7, 1, 0),  # customer 7, page 1, first of its page
        "ChatSession": (session_id,),
        "Message": (session_id, entities.message_id),
        "Measurement": ("insects",),
    }
    kinds = node_kinds()
    decoded = {name: parse_global_id(id_, kinds[name]) for name, id_ in entities.ids.items()}
    assert decoded == keys


async def test_nodes_answer_in_order_with_null_for_unknown_ids(api: Api) -> None:
    entities = await seed_entities(api)
    gone = global_id("Sensor", "65f000000000000000000000")
    ids = [entities.ids["Message"], gone, entities.ids["Sensor"]]
    found = (await api.data(NODES, {"ids": ids}))["nodes"]
    assert found == [
        {"__typename": "Message", "id": ids[0]},
        None,
        {"__typename": "Sensor", "id": ids[2]},
    ]


async def test_nodes_read_each_type_in_one_command(api: Api) -> None:
    sensors = [
        (await api.data(f'mutation {{ createSensor(title: "s{i}") {{ id }} }}'))["createSensor"]
        for i in range(5)
    ]
    orders = [
        (await api.data(ORDERS, {"u": user}))["upsertOrders"]["orders"]["edges"][0]["node"]
        for user in ("ada", "bob", "cy")
    ]
    ids = [s["id"] for s in sensors] + [o["id"] for o in orders]
    assert await api.round_trips(NODES, {"ids": ids}) == 2  # sensors, then orders


async def test_node_of_a_trade_reads_its_bucket_once_for_many_trades(api: Api) -> None:
    entities = await seed_entities(api)
    trade_ids = [global_id("Trade", entities.customer_id, 1, 0), entities.ids["Trade"]]
    assert await api.round_trips(NODES, {"ids": trade_ids}) == 1


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "not an id",
        "WyJTZW5zb3IiXQ",
        global_id("Sensor", "xyz"),
        "W10",
        "W1sxXV0",  # [[1]]: no type name (and a list cannot be looked up)
        "W3t9XQ",  # [{}]
    ],
)
async def test_node_refuses_what_is_not_a_global_id(api: Api, bad: str) -> None:
    await assert_rejected(api, NODE, {"id": bad}, code="BAD_USER_INPUT", argument="id")


async def test_a_user_id_that_decodes_to_no_global_id_is_the_domain_id(api: Api) -> None:
    query = 'query { user(userId: "W1sxXV0") { userId } sensor(id: "W3t9XQ") { title } }'
    body = await api.post(query)
    assert body["data"] == {"user": None, "sensor": None}
    [error] = body["errors"]  # a user id is free text; a sensor id is not
    assert (error["path"], error["extensions"]["code"]) == (["sensor"], "BAD_USER_INPUT")


async def test_nodes_refuse_more_than_100_ids(api: Api) -> None:
    ids = [global_id("User", f"u{i}") for i in range(101)]
    await assert_rejected(api, NODES, {"ids": ids}, code="BAD_USER_INPUT", argument="ids")


def test_global_ids_decode_exactly_what_they_encode() -> None:
    encoded = global_id("Order", "a:b", "c")
    assert parse_global_id(encoded, ORDER) == ("a:b", "c")
    assert parse_global_id(encoded + "=", ORDER) is None  # padding: not the canonical form
    assert parse_global_id(global_id("Trade", 1, 2), TRADE) is None  # a key part missing
    assert parse_global_id(global_id("Customer", True), CUSTOMER) is None  # a bool is not one
    assert parse_global_id(global_id("Nope", "x"), ORDER) is None


def test_global_ids_of_the_longest_keys_decode() -> None:
    user_id, order_id = "\U0001f600" * 128, "\U0001f600" * 64  # 4 bytes each in UTF-8
    encoded = global_id("Order", user_id, order_id)
    assert parse_global_id(encoded, ORDER) == (user_id, order_id)


async def test_node_of_a_user_reads_its_orders_page_in_the_same_command(api: Api) -> None:
    entities = await seed_entities(api)
    query = """query($id: ID!) { node(id: $id) { ...U } }
    fragment U on User { userId orders(first: 2) { edges { node { orderId } } } }"""
    assert await api.round_trips(query, {"id": entities.ids["User"]}) == 1
    found = (await api.data(query, {"id": entities.ids["User"]}))["node"]
    assert found == {"userId": "ada", "orders": {"edges": [{"node": {"orderId": "order-1"}}]}}


@pytest.mark.parametrize(
    "forged",
    [
        global_id("Customer", 2**31),  # past GraphQL's Int: could be stored, never shown
        global_id("Trade", 1, 2**31, 0),
        global_id("User", "a\nb"),  # what the userId argument refuses, the id refuses too
        global_id("User", "u" * 129),
        global_id("Order", "ada", "o" * 65),
        global_id("Measurement", "$x"),
        global_id("User", global_id("User", "ada")),  # encoded twice: names no object
        global_id("Order", "ada", global_id("Order", "ada", "order-1")),
        global_id("Measurement", global_id("Measurement", "insects")),
    ],
)
async def test_node_refuses_keys_the_domain_arguments_refuse(api: Api, forged: str) -> None:
    await assert_rejected(api, NODE, {"id": forged}, code="BAD_USER_INPUT", argument="id")
