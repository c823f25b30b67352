"""Round trips: a user with its page is one command, and so are 100 users with theirs."""

from __future__ import annotations

from tests.orders.support import DELETE, PAGE, UPSERT, at, order, seed_orders
from tests.support import Api

USERS = """
query($ids: [String!]!, $max: DateTime) {
  users(userIds: $ids) {
    userId orderCount
    orders(first: 5, maxCreateTime: $max) {
      totalCount edges { node { orderId } } pageInfo { hasNextPage }
    }
  }
}
"""


async def test_user_with_an_orders_page_takes_one_round_trip(api: Api) -> None:
    await seed_orders(api, "u", 300)
    assert await api.round_trips(PAGE, {"userId": "u", "first": 20, "max": at(150)}) == 1


async def test_user_with_a_backward_page_takes_one_round_trip(api: Api) -> None:
    await seed_orders(api, "u", 300)
    assert await api.round_trips(PAGE, {"userId": "u", "last": 20}) == 1


async def test_users_of_100_ids_with_pages_take_one_round_trip(api: Api) -> None:
    for i in range(100):
        await seed_orders(api, f"u{i:03}", 10 + i)
    ids = [f"u{i:03}" for i in range(100)]
    assert await api.round_trips(USERS, {"ids": ids, "max": at(50)}) == 1
    data = await api.data(USERS, {"ids": [ids[3], "ghost", ids[97]], "max": at(50)})
    assert [u and u["orderCount"] for u in data["users"]] == [13, None, 107]
    assert data["users"][0]["orders"]["totalCount"] == 13
    assert data["users"][2]["orders"]["totalCount"] == 51
    assert data["users"][2]["orders"]["edges"][0]["node"]["orderId"] == "o000050"


async def test_two_differently_aliased_pages_take_one_command_each(api: Api) -> None:
    await seed_orders(api, "u", 30)
    query = """{ user(userId: "u") {
        newest: orders(first: 2) { edges { node { orderId } } }
        oldest: orders(last: 2) { edges { node { orderId } } } } }"""
    assert await api.round_trips(query) == 2
    data = await api.data(query)
    ids = {k: [e["node"]["orderId"] for e in v["edges"]] for k, v in data["user"].items()}
    assert ids == {"newest": ["o000029", "o000028"], "oldest": ["o000001", "o000000"]}


async def test_upsert_orders_payload_with_orders_takes_two(api: Api) -> None:
    mutation = """mutation($o: [OrderInput!]!) { upsertOrders(userId: "u", orders: $o) {
        orderCount orders(first: 1) { edges { node { orderId } } } } }"""
    assert await api.round_trips(mutation, {"o": [order("1", 1)]}) == 2
    assert await api.round_trips(UPSERT, {"userId": "u", "orders": [order("2", 2)]}) == 1


async def test_orders_selected_twice_under_one_key_are_read_with_the_users(api: Api) -> None:
    await seed_orders(api, "u", 30)
    query = """{ users(userIds: ["u"]) {
        orders(first: 1) { edges { node { orderId } } } orders(first: 1) { totalCount } } }"""
    assert await api.round_trips(query) == 1
    assert (await api.data(query))["users"][0]["orders"]["totalCount"] == 30


async def test_delete_orders_payload_with_orders_takes_two(api: Api) -> None:
    await seed_orders(api, "u", 30)
    mutation = """mutation { deleteOrders(userId: "u", orderIds: ["o000029"]) {
        orderCount orders(first: 2) { totalCount edges { node { orderId } } } } }"""
    assert await api.round_trips(mutation) == 2
    assert await api.round_trips(DELETE, {"userId": "u", "ids": ["o000028"]}) == 1
    data = await api.data(mutation)  # o000029 is gone already: nothing changes
    assert data["deleteOrders"]["orderCount"] == 28
    orders = data["deleteOrders"]["orders"]
    assert [e["node"]["orderId"] for e in orders["edges"]] == ["o000027", "o000026"]
    assert orders["totalCount"] == 28


async def test_user_and_users_without_orders_take_one_round_trip(api: Api) -> None:
    for i in range(3):
        await seed_orders(api, f"u{i}", 10)
    assert await api.round_trips('{ user(userId: "u1") { userId orderCount } }') == 1
    query = '{ users(userIds: ["u0", "u1", "u2", "ghost"]) { userId orderCount } }'
    assert await api.round_trips(query) == 1
    data = await api.data(query)
    assert [u and u["orderCount"] for u in data["users"]] == [10, 10, 10, None]


async def test_one_document_with_other_variables_brings_the_page_they_ask_for(api: Api) -> None:
    # The page a user's `orders` asks for is remembered per document and variable values.
    await seed_orders(api, "u", 30)
    for first, after in ((1, None), (3, None), (1, None), (2, "o000028")):
        variables = {"userId": "u", "first": first}
        if after is not None:
            page = await api.data(PAGE, {"userId": "u", "first": 2})
            variables["after"] = page["user"]["orders"]["pageInfo"]["endCursor"]
        assert await api.round_trips(PAGE, variables) == 1
        edges = (await api.data(PAGE, variables))["user"]["orders"]["edges"]
        newest = 29 if after is None else 27
        assert [e["node"]["orderId"] for e in edges] == [
            f"o{n:06}" for n in range(newest, newest - first, -1)
        ]
