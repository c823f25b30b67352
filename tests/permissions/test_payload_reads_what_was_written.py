"""A mutation's payload answers whoever may make the call: `ingest` writes sensor events and
trades, and reads them back in the payload though it reads no sensor or customer otherwise."""

from __future__ import annotations

from pathlib import Path

from tests.permissions.callers import caller_named, known_callers, seed
from tests.support import ApiFactory, error_codes

EVENTS = """mutation($s: ID!, $at: DateTime!) { recordSensorEvents(events: [{sensorId: $s,
    at: $at}]) { accepted sensors { title count24h } } }"""
TRADES = """mutation { recordTrades(customerId: 7, trades: [{type: SELL, ticker: "T", qty: 1,
    date: "2024-01-02T00:00:00Z"}]) { customer { tradeCount trades(last: 1) {
    edges { node { ticker } } } } } }"""


async def test_ingest_reads_what_it_wrote_in_the_payload_and_nothing_by_a_query(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    ingest = caller_named("ingest")
    async with make_api(known_callers(tmp_path)) as api:
        seeded = await seed(api)
        variables = {"s": seeded.sensor, "at": seeded.now}
        events = await api.post(EVENTS, variables, headers=ingest.headers)
        recorded = events["data"]["recordSensorEvents"]
        assert recorded == {"accepted": 1, "sensors": [{"title": "Mk-sensor", "count24h": 1}]}
        trades = await api.post(TRADES, headers=ingest.headers)
        customer = trades["data"]["recordTrades"]["customer"]
        assert customer == {"tradeCount": 2, "trades": {"edges": [{"node": {"ticker": "T"}}]}}
        query = "query($s: ID!) { sensor(id: $s) { title } }"
        read = await api.post(query, {"s": seeded.sensor}, headers=ingest.headers)
        assert error_codes(read) == ["FORBIDDEN"]
