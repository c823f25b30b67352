"""Input objects built by `schema.input_builders` are the objects their classes' `__init__`
builds: given every field, a plain dataclass's attributes are set at once; a field left out
takes its default, and a class with a `__post_init__` is built by its `__init__`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import strawberry

from schema.input_builders import install_input_builder
from schema.sensors import SensorEventInput

WHEN = datetime(2024, 1, 1, tzinfo=UTC)


@strawberry.input
class CheckedInput:
    amount: int
    note: str = "none"

    def __post_init__(self) -> None:
        self.checked = True


install_input_builder(CheckedInput)


def _built(input_type: type, value: dict[str, Any]) -> Any:
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
