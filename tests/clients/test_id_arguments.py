"""Every argument that names an object takes its global id or its domain id, so clients
written before global ids keep working; another type's id, or another owner's, is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest

from resolvers.global_ids import global_id
from tests.clients.entities import Entities, seed_entities
from tests.support import Api, assert_rejected

SPAN = 'from: "2024-01-01T00:00:00Z", to: "2024-01-02T00:00:00Z"'
AT = '"2024-01-01T00:30:00Z"'
NOW = '"2022-09-12T12:30:00Z"'  # within the test clock's window
# (name, document, variables from (entities, form)): each reads or writes one named object.
CASES: list[tuple[str, str, Any]] = [
    ("sensor", "query($x: ID!) { sensor(id: $x) { sensorId } }", lambda e, f: {"x": f("Sensor")}),
    ("renameSensor", 'mutation($x: ID!) { renameSensor(id: $x, title: "t") { sensorId } }',
     lambda e, f: {"x": f("Sensor")}),
    ("recordSensorEvents",
     f"mutation($x: ID!) {{ recordSensorEvents(events: [{{sensorId: $x, at: {NOW}}}]) "
     "{ accepted } }", lambda e, f: {"x": f("Sensor")}),
    ("user", "query($x: String!) { user(userId: $x) { userId } }", lambda e, f: {"x": f("User")}),
    ("users", "query($x: String!) { users(userIds: [$x]) { userId } }",
     lambda e, f: {"x": f("User")}),
    ("upsertOrders",
     'mutation($x: String!, $o: ID!) { upsertOrders(userId: $x, orders: [{id: $o, '
     'createTime: "2024-02-01T00:00:00Z"}]) { orderCount } }',
     lambda e, f: {"x": f("User"), "o": f("Order")}),
    ("deleteOrders",
     "mutation($x: String!, $o: ID!) { deleteOrders(userId: $x, orderIds: [$o]) { orderCount } }",
     lambda e, f: {"x": f("User"), "o": f("Order")}),
    ("chatSession", "query($x: ID!) { chatSession(id: $x) { sessionId } }",
     lambda e, f: {"x": f("ChatSession")}),
    ("postMessage",
     'mutation($x: ID!) { postMessage(sessionId: $x, author: "a", text: "t") { seq } }',
     lambda e, f: {"x": f("ChatSession")}),
    ("editMessage",
     'mutation($x: ID!, $m: ID!) { editMessage(sessionId: $x, messageId: $m, text: "e") '
     "{ text } }", lambda e, f: {"x": f("ChatSession"), "m": f("Message")}),
    ("deleteMessage",
     "mutation($x: ID!, $m: ID!) { deleteMessage(sessionId: $x, messageId: $m) { deleted } }",
     lambda e, f: {"x": f("ChatSession"), "m": f("Message")}),
    ("deleteChatSession", "mutation($x: ID!) { deleteChatSession(id: $x) }",
     lambda e, f: {"x": f("ChatSession")}),
    ("measurement", "query($x: String!) { measurement(name: $x) { name } }",
     lambda e, f: {"x": f("Measurement")}),
    ("series",
     f"query($x: String!) {{ series(measurement: $x, {SPAN}, granularity: DAY) {{ start }} }}",
     lambda e, f: {"x": f("Measurement")}),
    ("seriesTotal", f"query($x: String!) {{ seriesTotal(measurement: $x, {SPAN}) {{ sum }} }}",
     lambda e, f: {"x": f("Measurement")}),
    ("recordObservations",
     f"mutation($x: String!) {{ recordObservations(observations: [{{measurement: $x, at: {AT}, "
     'tags: [], fields: [{name: "bees", value: 2}]}]) { applied } }',
     lambda e, f: {"x": f("Measurement")}),
]  # fmt: skip


ORDER_FOR_BOB = """mutation { upsertOrders(userId: "bob", orders: [{id: "2",
  createTime: "2024-01-01T00:00:00Z"}]) { userId } }"""


def _domain(entities: Entities) -> dict[str, str]:
    return {
        "Sensor": entities.sensor_id,
        "User": entities.user_id,
        "Order": entities.order_id,
        "ChatSession": entities.session_id,
        "Message": entities.message_id,
        "Measurement": "insects",
    }


@pytest.mark.parametrize(("name", "document", "variables"), CASES, ids=[c[0] for c in CASES])
async def test_id_arguments_take_the_global_and_the_domain_id_alike(
    make_api: Any, settings: Any, name: str, document: str, variables: Any
) -> None:
    answers = []
    for form in ("global", "domain"):
        async with make_api(settings) as api:  # a fresh database for each form
            entities = await seed_entities(api)
            ids = entities.ids if form == "global" else _domain(entities)
            data = await api.data(document, variables(entities, ids.__getitem__))
            answers.append((_named(data, entities), await _counts(api)))
    assert answers[0] == answers[1]
    assert json.loads(answers[0][0])[name] not in (None, [None], [])


def _named(data: Any, entities: Entities) -> str:
    """The answer with generated ids (ObjectIds differ between databases) named by type.

    Whole values only: a short domain id such as "ada" is also a run of hex digits, so a
    substring replacement would rename part of an ObjectId."""
    names = {own: f"<{t}>" for t, own in _domain(entities).items() if own != t}
    names.update({entities.ids[t]: f"<{t}>" for t in _domain(entities)})

    def rename(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: rename(item) for key, item in value.items()}
        if isinstance(value, list):
            return [rename(item) for item in value]
        return names.get(value, value) if isinstance(value, str) else value

    return json.dumps(rename(data))


async def _counts(api: Api) -> dict[str, int]:
    names = ("sensors", "users", "trades", "chat_sessions", "chat_pages", "series")
    return {n: await api.collection(n).count_documents({}) for n in names}


async def test_customer_takes_customer_id_or_its_global_id(api: Api) -> None:
    entities = await seed_entities(api)
    by_int = await api.data("query($c: Int!) { customer(customerId: $c) { id } }", {"c": 7})
    by_id = await api.data(
        "query($c: ID!) { customer(id: $c) { id } }", {"c": entities.ids["Customer"]}
    )
    assert by_int == by_id == {"customer": {"id": entities.ids["Customer"]}}


async def test_record_trades_takes_the_customer_global_id(api: Api) -> None:
    entities = await seed_entities(api)
    document = """mutation($c: ID!) { recordTrades(customer: $c, trades: [{type: SELL,
      ticker: "MDB", qty: 1, date: "2024-01-02T00:00:00Z"}]) {
        customer { customerId tradeCount } } }"""
    data = await api.data(document, {"c": entities.ids["Customer"]})
    assert data["recordTrades"]["customer"] == {"customerId": 7, "tradeCount": 2}


@pytest.mark.parametrize("arguments", ["", "customerId: 7, id: $c"], ids=["neither", "both"])
async def test_customer_needs_exactly_one_form(api: Api, arguments: str) -> None:
    entities = await seed_entities(api)
    if arguments:
        document = f"query($c: ID) {{ customer({arguments}) {{ id }} }}"
        variables = {"c": entities.ids["Customer"]}
    else:
        document, variables = "{ customer { id } }", {}
    await assert_rejected(api, document, variables, code="BAD_USER_INPUT", argument="customerId")


async def test_id_arguments_refuse_another_types_global_id(api: Api) -> None:
    entities = await seed_entities(api)
    document = 'mutation($x: ID!) { renameSensor(id: $x, title: "t") { sensorId } }'
    body = await assert_rejected(
        api, document, {"x": entities.ids["ChatSession"]}, code="BAD_USER_INPUT", argument="id"
    )
    assert "ChatSession" in body["errors"][0]["message"]


async def test_order_ids_refuse_an_order_of_another_user(api: Api) -> None:
    entities = await seed_entities(api)
    document = (
        """mutation($o: ID!) { deleteOrders(userId: "bob", orderIds: [$o]) { orderCount } }"""
    )
    await api.data(ORDER_FOR_BOB)
    await assert_rejected(
        api, document, {"o": entities.ids["Order"]}, code="BAD_USER_INPUT", argument="orderIds[0]"
    )


async def test_record_trades_refuses_a_customer_past_graphql_int(api: Api) -> None:
    document = """mutation($c: ID!) { recordTrades(customer: $c, trades: [{type: BUY,
      ticker: "MDB", qty: 1, date: "2024-01-02T00:00:00Z"}]) { pageNumbers } }"""
    variables = {"c": global_id("Customer", 2**31)}
    await assert_rejected(api, document, variables, code="BAD_USER_INPUT", argument="customer")
