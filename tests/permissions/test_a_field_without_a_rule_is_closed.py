"""Default deny, under a root field too: a field of an object that declares no rule is refused
to everyone, even with nothing configured (every caller open), whether the runtime reads it as
an attribute in one plan (`Sensor.title` in a page) or runs its resolver (`Customer.trades`), and
its value appears nowhere in the answer."""

from __future__ import annotations

import json

import pytest

from schema.sensors import Sensor
from schema.trades import Customer
from settings import Settings
from tests.support import ApiFactory, error_codes

TITLE = "a title no rule opened"


def _undeclare(monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> None:
    """Take the rule (and every other fact) off `owner`'s field `name`, for this test."""
    definition = owner.__strawberry_definition__  # type: ignore[attr-defined]
    field = next(field for field in definition.fields if field.python_name == name)
    monkeypatch.setattr(field, "metadata", {})


async def test_an_attribute_of_an_object_without_a_rule_is_refused(
    make_api: ApiFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    _undeclare(monkeypatch, Sensor, "title")
    async with make_api(Settings()) as api:
        created = await api.post(f'mutation {{ createSensor(title: "{TITLE}") {{ sensorId }} }}')
        assert "errors" not in created, created
        body = await api.post(
            "{ sensors(first: 5) { edges { node { sensorId ...Titled } } } }"
            " fragment Titled on Sensor { title }"
        )
    assert error_codes(body) == ["FORBIDDEN"]
    assert body["errors"][0]["message"] == "Sensor.title: not allowed: it declares no permission"
    assert body["errors"][0]["path"] == ["sensors", "edges", 0, "node", "title"]
    assert TITLE not in json.dumps(body)


async def test_a_resolved_field_of_an_object_without_a_rule_is_refused(
    make_api: ApiFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    _undeclare(monkeypatch, Customer, "trades")
    async with make_api(Settings()) as api:
        recorded = await api.post(
            'mutation { recordTrades(customerId: 7, trades: [{type: BUY, ticker: "MKT", qty: 1, '
            'date: "2024-01-01T00:00:00Z"}]) { customer { customerId } } }'
        )
        assert "errors" not in recorded, recorded
        body = await api.post(
            "query { customer(customerId: 7) { customerId trades(first: 3) { totalCount } } }"
        )
    assert error_codes(body) == ["FORBIDDEN"], body
    assert body["errors"][0]["message"] == (
        "Customer.trades: not allowed: it declares no permission"
    )
    assert body["errors"][0]["path"] == ["customer", "trades"]
