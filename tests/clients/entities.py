"""One stored object of every node type, with its global id and its domain id."""

from __future__ import annotations

from dataclasses import dataclass

from tests.support import Api

SEED = """
mutation {
  createSensor(title: "boiler") { id sensorId }
  upsertOrders(userId: "ada", orders: [{id: "order-1", createTime: "2024-01-01T00:00:00Z"}]) {
    id userId orders(first: 1) { edges { node { id orderId } } }
  }
  recordTrades(customerId: 7, trades: [{type: BUY, ticker: "MDB", qty: 3,
                                         date: "2024-01-01T00:00:00Z"}]) {
    customer { id customerId trades(first: 1) { edges { node { id } } } }
  }
  createChatSession(title: "lobby") { id sessionId }
  recordObservations(observations: [{measurement: "insects", at: "2024-01-01T00:00:00Z",
                                     tags: [], fields: [{name: "bees", value: 1}]}]) { applied }
}
"""
POST = """
mutation($s: ID!) { postMessage(sessionId: $s, author: "ada", text: "hi") { id messageId } }
"""
MEASUREMENT = '{ measurement(name: "insects") { id name } }'


@dataclass(frozen=True)
class Entities:
    """Global ids by type name, and the domain ids the API shows beside them."""

    ids: dict[str, str]
    sensor_id: str
    user_id: str
    order_id: str
    customer_id: int
    session_id: str
    message_id: str


async def seed_entities(api: Api) -> Entities:
    data = await api.data(SEED)
    sensor, user = data["createSensor"], data["upsertOrders"]
    order = user["orders"]["edges"][0]["node"]
    customer = data["recordTrades"]["customer"]
    session = data["createChatSession"]
    message = (await api.data(POST, {"s": session["sessionId"]}))["postMessage"]
    measurement = (await api.data(MEASUREMENT))["measurement"]
    ids = {
        "Sensor": sensor["id"],
        "User": user["id"],
        "Order": order["id"],
        "Customer": customer["id"],
        "Trade": customer["trades"]["edges"][0]["node"]["id"],
        "ChatSession": session["id"],
        "Message": message["id"],
        "Measurement": measurement["id"],
    }
    return Entities(
        ids=ids,
        sensor_id=sensor["sensorId"],
        user_id=user["userId"],
        order_id=order["orderId"],
        customer_id=customer["customerId"],
        session_id=session["sessionId"],
        message_id=message["messageId"],
    )
