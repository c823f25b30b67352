"""Every id the API answers, sent back, names the object that answered it: whatever a client
tries as new user ids, order ids and measurement names (plain ones, ones that begin as a global
id does, global ids, global ids of global ids), each object stored answers an own id and a
global id that read it, and nothing else."""

from __future__ import annotations

from typing import Any

from resolvers.global_ids import global_id
from tests.ids.support import ALPHA, BOB, RECORD, UPSERT
from tests.support import Api

CAROLS_1 = global_id("Order", "carol", "1")
TRIED = [
    *("bob", "carol", "alpha", "1", "W", "W10", "W1sxXV0", "WyJ", "Wendy", "x-y"),
    *(BOB, global_id("User", BOB), CAROLS_1, global_id("Order", "carol", CAROLS_1)),
    *(ALPHA, global_id("Measurement", ALPHA)),
]
NODE = """query($id: ID!) { node(id: $id) {
  id ...on User { userId } ...on Order { orderId } ...on Measurement { name } } }"""
ORDERS = '{ user(userId: "carol") { orders(first: 100) { edges { node { id orderId } } } } }'
DELETE = """mutation($o: ID!) { deleteOrders(userId: "carol", orderIds: [$o]) {
  orders(first: 100) { edges { node { orderId } } } } }"""
TOTAL = """query($x: String!) { seriesTotal(measurement: $x, from: "2024-01-03T00:00:00Z",
  to: "2024-01-04T00:00:00Z") { sum } }"""


async def _tried(api: Api, document: str, **variables: Any) -> list[dict[str, Any]]:
    """Each value of TRIED in the document's `$x`: the answers of the calls that succeeded."""
    answers = []
    for value in TRIED:
        body = await api.post(document, {**variables, "x": value})
        if "errors" not in body:
            answers.append(body["data"])
    return answers


async def test_every_user_the_api_answers_reads_back_by_its_user_id_and_its_id(api: Api) -> None:
    document = UPSERT.replace("$u", "$x")  # a user for each id tried, with order "1"
    answered = {
        a["upsertOrders"]["id"]: a["upsertOrders"] for a in await _tried(api, document, o="1")
    }
    for user_id, user in answered.items():
        own = {"id": user_id, "userId": user["userId"]}
        by_user_id = await api.data(
            "query($u: String!) { user(userId: $u) { id userId } }", {"u": user["userId"]}
        )
        assert (by_user_id["user"], (await api.data(NODE, {"id": user_id}))["node"]) == (own, own)


async def test_every_order_the_api_answers_reads_and_deletes_by_its_order_id_and_its_id(
    api: Api,
) -> None:
    await _tried(api, UPSERT.replace("$o", "$x"), u="carol")  # an order of carol for each
    edges = (await api.data(ORDERS))["user"]["orders"]["edges"]
    left = {edge["node"]["orderId"] for edge in edges}
    for edge in edges:
        order = edge["node"]
        assert (await api.data(NODE, {"id": order["id"]}))["node"] == order
        after = (await api.data(DELETE, {"o": order["orderId"]}))["deleteOrders"]
        left.discard(order["orderId"])  # that order, and only that one, is gone
        assert {e["node"]["orderId"] for e in after["orders"]["edges"]} == left
    assert left == set()


async def test_every_measurement_the_api_answers_reads_by_its_name_and_its_id(api: Api) -> None:
    await _tried(api, RECORD)  # a measurement for each name tried that is a name
    listed = (await api.data("{ measurements { id name } }"))["measurements"]
    for number, measurement in enumerate(listed, start=1):  # one total each, on 3 January
        await api.data(
            RECORD, {"x": measurement["name"], "v": number, "at": "2024-01-03T01:00:00Z"}
        )
    for number, measurement in enumerate(listed, start=1):
        by_name = await api.data(
            "query($x: String!) { measurement(name: $x) { id name } }", {"x": measurement["name"]}
        )
        assert by_name["measurement"] == measurement
        assert (await api.data(NODE, {"id": measurement["id"]}))["node"] == measurement
        assert (await api.data(TOTAL, {"x": measurement["name"]}))["seriesTotal"] == [
            {"sum": number}
        ]
