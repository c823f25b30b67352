"""A field of an object may declare a permission of its own: checked as a root field's is, so
a caller who reads the object but lacks it gets the object without that field (FORBIDDEN,
naming it), and one who holds it gets both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolvers.access.permissions import Permission
from schema.facts import SHORT, facts
from schema.sensors import Sensor
from tests.permissions.callers import ADMIN, caller_named, known_callers
from tests.support import ApiFactory, error_codes

TITLE = "a title only chat owners read"
PAGE = (
    "{ sensors(first: 5) { edges { node { sensorId ...Titled } } } }"
    " fragment Titled on Sensor { title }"
)


def _title_needs(monkeypatch: pytest.MonkeyPatch, permission: Permission) -> None:
    definition = Sensor.__strawberry_definition__  # type: ignore[attr-defined]
    field = next(field for field in definition.fields if field.python_name == "title")
    monkeypatch.setattr(field, "metadata", facts(value_units=SHORT, permission=permission))


async def test_an_object_field_checks_its_own_permission(
    make_api: ApiFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _title_needs(monkeypatch, Permission.CHAT_OWN)  # which `reader` does not hold
    async with make_api(known_callers(tmp_path)) as api:
        created = await api.post(
            f'mutation {{ createSensor(title: "{TITLE}") {{ id }} }}', headers=ADMIN
        )
        assert "errors" not in created, created
        as_reader = await api.post(PAGE, headers=caller_named("reader").headers)
        as_admin = await api.post(PAGE, headers=ADMIN)
    assert error_codes(as_reader) == ["FORBIDDEN"]
    assert as_reader["errors"][0]["path"] == ["sensors", "edges", 0, "node", "title"]
    assert "Sensor.title" in as_reader["errors"][0]["message"]
    assert TITLE not in json.dumps(as_reader)
    assert "errors" not in as_admin
    assert as_admin["data"]["sensors"]["edges"][0]["node"]["title"] == TITLE
