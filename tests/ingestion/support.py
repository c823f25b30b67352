"""GraphQL documents and helpers the ingestion tests share: the three ingestion mutations,
each with an `idempotencyKey`, and what each call counts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from tests.sensors.queries import SENSOR, create_sensor
from tests.series.support import TOTAL, observation
from tests.support import Api
from tests.trades.support import trade

AT = "2022-09-12T12:00:00Z"  # inside the sensors' window at the fake clock's start
SERIES_AT = "2024-01-01T10:06:00Z"
RECORD_EVENTS = """
mutation($events: [SensorEventInput!]!, $key: String) {
  recordSensorEvents(events: $events, idempotencyKey: $key) {
    accepted
    rejected { index sensorId code message }
    sensors { sensorId count24h }
  }
}
"""
RECORD_EVENTS_COUNTS = """
mutation($events: [SensorEventInput!]!, $key: String) {
  recordSensorEvents(events: $events, idempotencyKey: $key) { accepted rejected { index code } }
}
"""
RECORD_OBSERVATIONS = """
mutation($o: [ObservationInput!]!, $key: String) {
  recordObservations(observations: $o, idempotencyKey: $key) { applied }
}
"""
RECORD_TRADES = """
mutation($c: Int!, $t: [TradeInput!]!, $key: String) {
  recordTrades(customerId: $c, trades: $t, idempotencyKey: $key) { pageNumbers }
}
"""
TRADE_COUNT = "query($c: Int!) { customer(customerId: $c) { tradeCount } }"


def events_call(sensor_id: str, key: str | None, *, count: int = 1) -> dict[str, Any]:
    return {"events": [{"sensorId": sensor_id, "at": AT, "count": count, "value": 2.5}], "key": key}


def observations_call(key: str | None, *, value: float = 1.0) -> dict[str, Any]:
    return {"o": [observation(SERIES_AT, tag_pairs={"site": "a"}, v=value)], "key": key}


def trades_call(key: str | None, *, qtys: range = range(1, 4)) -> dict[str, Any]:
    return {"c": 7, "t": [trade(q) for q in qtys], "key": key}


MUTATIONS = ("recordSensorEvents", "recordObservations", "recordTrades")


@dataclass
class Ingestion:
    """One of the three mutations, ready to call: `variables(key, n)` is a call whose size is
    `n` (so other `n`, other arguments), `stored()` how much of such calls is stored."""

    document: str
    variables: Callable[[str | None, int], dict[str, Any]]
    stored: Callable[[], Awaitable[float]]


async def ingestion(api: Api, mutation: str) -> Ingestion:
    if mutation == "recordSensorEvents":
        sensor_id = await create_sensor(api, "Boiler")
        return Ingestion(
            RECORD_EVENTS_COUNTS,
            lambda key, n: events_call(sensor_id, key, count=n),
            lambda: sensor_count(api, sensor_id),
        )
    if mutation == "recordObservations":
        return Ingestion(
            RECORD_OBSERVATIONS,
            lambda key, n: observations_call(key, value=float(n)),
            lambda: series_sum(api),
        )
    return Ingestion(
        RECORD_TRADES,
        lambda key, n: trades_call(key, qtys=range(1, n + 1)),
        lambda: trade_count(api),
    )


async def sensor_count(api: Api, sensor_id: str) -> int:
    data = await api.data(SENSOR, {"id": sensor_id})
    count: int = data["sensor"]["count24h"]
    return count


async def series_sum(api: Api) -> float:
    window = {"m": "m", "from": "2024-01-01T00:00:00Z", "to": "2024-01-02T00:00:00Z"}
    data = await api.data(TOTAL, window)
    total: float = data["seriesTotal"][0]["sum"]
    return total


async def trade_count(api: Api, customer_id: int = 7) -> int:
    data = await api.data(TRADE_COUNT, {"c": customer_id})
    count: int = data["customer"]["tradeCount"] if data["customer"] else 0
    return count


async def key_records(api: Api) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = (
        await api.collection("idempotency_keys").find({}, sort=[("_id", 1)]).to_list()
    )
    return records
