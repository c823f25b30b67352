"""Input objects built by `runtime.execution.input_builders` are the objects their classes'
`__init__` builds: given every field, a plain dataclass's attributes are set at once; a field left
out takes its default, and a class with a `__post_init__` is built by its `__init__`. graphql-core's
coercion gives them, of variables and of literals alike."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

import strawberry
from graphql import coerce_input_value, parse_value, value_from_ast

from runtime.execution.input_builders import build_directly, install_builders
from schema.schema import build_schema
from schema.sensors import SensorEventInput
from schema.trades import TradeInput
from store.trades import TradeType

WHEN = datetime(2024, 1, 1, tzinfo=UTC)


@strawberry.input
class CheckedInput:
    amount: int
    note: str = "none"

    def __post_init__(self) -> None:
        self.checked = True


build_directly(CheckedInput)


@strawberry.input
class WithPrivateInput:
    amount: int
    seen: strawberry.Private[list[int]] = dataclasses.field(default_factory=list)


build_directly(WithPrivateInput)


def _built(input_type: type, value: dict[str, Any]) -> Any:
    install_builders()  # what `runtime.install` does when a schema is built
    definition: Any = getattr(input_type, "__strawberry_definition__")  # noqa: B009
    return definition.from_input(input_type, value, None)


def test_input_builder_given_every_field_builds_what_init_builds() -> None:
    value = {"sensorId": "s", "at": WHEN, "count": 2, "value": 1.5}
    built = _built(SensorEventInput, value)
    expected = SensorEventInput(sensor_id=strawberry.ID("s"), at=WHEN, count=2, value=1.5)
    assert type(built) is SensorEventInput
    assert built == expected
    assert vars(built) == vars(expected)


def test_input_builder_gives_a_field_left_out_its_default() -> None:
    built = _built(SensorEventInput, {"sensorId": "s", "at": WHEN})
    assert vars(built) == {"sensor_id": "s", "at": WHEN, "count": 1, "value": None}


def test_input_builder_runs_a_post_init() -> None:
    built = _built(CheckedInput, {"amount": 3, "note": "n"})
    assert vars(built) == {"amount": 3, "note": "n", "checked": True}


def test_input_builder_gives_a_private_field_its_default() -> None:
    built = _built(WithPrivateInput, {"amount": 3})
    assert vars(built) == {"amount": 3, "seen": []}


def test_graphql_cores_coercion_of_a_variable_builds_the_input() -> None:
    graphql_type: Any = build_schema()._schema.type_map["SensorEventInput"]
    coerced = coerce_input_value({"sensorId": "s", "at": "2024-01-01T00:00:00Z"}, graphql_type)
    assert type(coerced) is SensorEventInput
    assert vars(coerced) == {"sensor_id": "s", "at": WHEN, "count": 1, "value": None}


def test_graphql_cores_coercion_of_a_literal_builds_the_input() -> None:
    graphql_type: Any = build_schema()._schema.type_map["TradeInput"]
    literal = parse_value('{type: SELL, ticker: "T", qty: 2, date: "2024-01-01T00:00:00Z"}')
    coerced = value_from_ast(literal, graphql_type)
    assert type(coerced) is TradeInput
    assert coerced == TradeInput(type=TradeType.SELL, ticker="T", qty=2, date=WHEN)
