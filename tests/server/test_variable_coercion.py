"""Lists of flat input objects are coerced by `runtime/execution/variable_coercion.py` exactly as
graphql-core coerces them: the same value, or `Undefined` where it refuses one (its own
validation then says why)."""

from __future__ import annotations

from typing import Any

import pytest
from graphql import GraphQLInputType, GraphQLList, GraphQLNonNull, Undefined

from runtime.execution import variable_coercion
from schema.schema import build_schema

SCHEMA = build_schema()._schema
EVENT_INPUT: Any = SCHEMA.get_type("SensorEventInput")
TRADE_INPUT: Any = SCHEMA.get_type("TradeInput")
EVENT = {"sensorId": "5a934e000102030405000000", "at": "2024-01-01T00:00:00Z"}
TRADE = {"type": "SELL", "ticker": "T", "qty": 1, "date": "2024-01-01T00:00:00Z"}


def _types(object_type: Any) -> list[GraphQLInputType]:
    return [
        GraphQLNonNull(GraphQLList(GraphQLNonNull(object_type))),
        GraphQLList(GraphQLNonNull(object_type)),
        GraphQLList(object_type),
    ]


VALUES: list[list[Any]] = [
    [EVENT],
    [EVENT, {**EVENT, "count": 3, "value": 1.5}],
    [{**EVENT, "value": None}],
    [{**EVENT, "value": 2}],  # an Int for a Float
    [],
    [None],
    [{**EVENT, "count": None}],  # null for a field with a default: null
    [{"at": EVENT["at"]}],  # a required field missing
    [{**EVENT, "sensorId": None}],
    [{**EVENT, "other": 1}],  # an unknown field
    [{**EVENT, "at": "yesterday"}],  # the scalar refuses it
    [{**EVENT, "count": "3"}],
    [{**EVENT, "count": 2**40}],
    [{**EVENT, "sensorId": 5}],  # an ID from an Int
    [{**EVENT, "value": True}],
    [{**EVENT, "value": float("nan")}],  # a float its check refuses
    [{**EVENT, "value": float("inf")}],
    [{**EVENT, "count": 2**31 - 1}, {**EVENT, "count": -(2**31)}],  # the 32-bit bounds
    [{**EVENT, "count": 2**31}],
    [{**EVENT, "count": 3.0}],  # a whole Float for an Int
    [{**EVENT, "count": True}],  # a bool is no Int
    [{**EVENT, "sensorId": 5.0}],
    [{**EVENT, "sensorId": ""}],
    [{**EVENT, "value": Undefined}],
    ["not an object"],
    [[EVENT]],
]


def assert_as_graphql_core(value: Any, type_: Any) -> None:
    """The written-out coercion's answer is graphql-core's, errors included."""
    expected = variable_coercion._graphql_coerce_input_value(value, type_)
    found = variable_coercion.coerce_input_value(value, type_)
    assert repr(found) == repr(expected)


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("type_", _types(EVENT_INPUT))
def test_flat_list_coercion_answers_as_graphql_core(value: list[Any], type_: Any) -> None:
    assert_as_graphql_core(value, type_)


@pytest.mark.parametrize(
    "value", [[TRADE], [{**TRADE, "type": "NOPE"}], [{**TRADE, "type": "SELL", "x": 1}]]
)
def test_flat_list_coercion_of_enum_fields_answers_as_graphql_core(value: list[Any]) -> None:
    type_ = GraphQLNonNull(GraphQLList(GraphQLNonNull(TRADE_INPUT)))
    assert_as_graphql_core(value, type_)


def test_flat_list_coercion_is_built_for_a_list_of_flat_objects_only() -> None:
    assert variable_coercion._coercer(_types(EVENT_INPUT)[0]) is not None
    assert variable_coercion._coercer(GraphQLNonNull(EVENT_INPUT)) is None
    assert variable_coercion._coercer(SCHEMA.get_type("String")) is None  # type: ignore[arg-type]


OBSERVATION_INPUT: Any = SCHEMA.get_type("ObservationInput")
OBSERVATION = {
    "measurement": "m",
    "at": "2024-01-01T00:00:00Z",
    "tags": [{"key": "k", "value": "v"}],
    "fields": [{"name": "x", "value": 1.5}, {"name": "y", "value": 2}],
}
NESTED_VALUES: list[list[Any]] = [
    [OBSERVATION, {**OBSERVATION, "tags": []}],
    [{**OBSERVATION, "tags": {"key": "k", "value": "v"}}],  # one object for a list of one
    [{**OBSERVATION, "tags": None}],
    [{**OBSERVATION, "fields": Undefined}],
    [{k: v for k, v in OBSERVATION.items() if k != "fields"}],  # a required list missing
    [{**OBSERVATION, "fields": [None]}],
    [{**OBSERVATION, "fields": [{"name": "x", "value": "1"}]}],  # the scalar refuses it
    [{**OBSERVATION, "fields": [{"name": "x", "value": 1, "other": 1}]}],  # an unknown field
    [{**OBSERVATION, "fields": [[{"name": "x", "value": 1}]]}],  # a list for an object
    [{**OBSERVATION, "tags": "k=v"}],
    [{**OBSERVATION, "tags": [{"key": "k"}]}],
]


@pytest.mark.parametrize("value", NESTED_VALUES)
@pytest.mark.parametrize("type_", _types(OBSERVATION_INPUT))
def test_lists_of_flat_objects_inside_answer_as_graphql_core(value: list[Any], type_: Any) -> None:
    assert_as_graphql_core(value, type_)


def test_lists_nest_one_level_deep_at_most() -> None:
    assert variable_coercion._coercer(_types(OBSERVATION_INPUT)[0]) is not None
    assert variable_coercion._coercer(_types(OBSERVATION_INPUT)[0], nested=False) is None
