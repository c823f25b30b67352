"""The fast paths on Strawberry internals are taken (`schema/strawberry_internals.py`).

Each would vanish silently on an upgrade that stops calling it; these tests fail instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from strawberry.http.async_base_view import AsyncBaseHTTPView

from schema.orders import OrderInput
from schema.sensors import SensorEventInput
from schema.trades import TradeInput
from tests.support import Api

RECORD_EVENTS = """mutation { recordSensorEvents(events: [
  {sensorId: "5a934e000102030405000000", at: "2022-09-12T12:00:00Z"},
  {sensorId: "5a934e000102030405000000", at: "2022-09-12T12:10:00Z", value: 1.5}]) { accepted } }"""
UPSERT = """mutation { upsertOrders(userId: "u", orders: [
  {id: "1", createTime: "2024-01-01T00:00:00Z"}]) { orderCount } }"""
RECORD_TRADES = """mutation { recordTrades(customerId: 1, trades: [
  {type: SELL, ticker: "T", qty: 1, date: "2024-01-01T00:00:00Z"}]) { pageNumbers } }"""


async def test_input_builders_convert_every_input_object(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: Counter[str] = Counter()
    for input_type in (SensorEventInput, OrderInput, TradeInput):
        definition: Any = getattr(input_type, "__strawberry_definition__")  # noqa: B009
        original: Callable[..., Any] = definition.from_input

        def counting(*args: Any, _name: str = input_type.__name__, _f: Any = original) -> Any:
            built[_name] += 1
            return _f(*args)

        monkeypatch.setattr(definition, "from_input", counting)
    for mutation in (RECORD_EVENTS, UPSERT, RECORD_TRADES):
        await api.data(mutation)
    assert built == {"SensorEventInput": 2, "OrderInput": 1, "TradeInput": 1}


async def test_a_plain_json_post_skips_strawberrys_request_parsing(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[str] = []
    general = AsyncBaseHTTPView.parse_http_body

    async def counting(self: Any, request: Any) -> Any:
        parsed.append(request.method)
        return await general(self, request)

    monkeypatch.setattr(AsyncBaseHTTPView, "parse_http_body", counting)
    await api.client.post("/graphql", json={"query": "{ __typename }"})
    assert parsed == []
    await api.client.get("/graphql", params={"query": "{ __typename }"})
    assert parsed == ["GET"]
