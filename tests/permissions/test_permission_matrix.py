"""Every root query and mutation field, called by each caller (anonymous, reader, ingest,
admin, user A, user B), answers as the rules say: allowed, FORBIDDEN, UNAUTHENTICATED, or
as if the record did not exist; a refused call writes nothing, and no answer holds a datum
the caller may not read (in data, errors, counts or page flags)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schema.permissions import root_types
from tests.permissions.callers import (
    CALLER_NAMES,
    Caller,
    caller_named,
    hidden_markers,
    known_callers,
    seed,
)
from tests.permissions.calls import MUTATIONS, QUERIES, Call
from tests.permissions.expected import (
    ABSENT,
    ALLOWED,
    built,
    outcome,
)
from tests.support import Api, ApiFactory, error_codes


def test_every_root_field_has_a_call_in_the_matrix() -> None:
    schema = built()
    assert schema.query_type is not None and schema.mutation_type is not None
    assert sorted(schema.query_type.fields) == sorted(QUERIES)
    assert sorted(schema.mutation_type.fields) == sorted(MUTATIONS)


def _absent(value: Any) -> bool:
    """Null, a list of nulls, or an empty page counting nothing."""
    if value is None:
        return True
    if isinstance(value, list):
        return all(item is None for item in value)
    return isinstance(value, dict) and value.get("edges") == [] and value.get("totalCount") == 0


async def _check(
    api: Api, caller: Caller, name: str, call: Call, expected: str, seeded: Any
) -> str:
    is_mutation = name in MUTATIONS
    before = await api.snapshot() if is_mutation and expected != ALLOWED else None
    body = await api.post(call.document, call.variables(seeded), headers=caller.headers)
    where = f"{name} as {caller.name}: {body}"
    shown = json.dumps(body, ensure_ascii=False)
    leaked = [marker for marker in hidden_markers(caller) if marker in shown]
    assert leaked == [], where
    value = (body.get("data") or {}).get(name)
    if expected == ALLOWED:
        assert "errors" not in body and value is not None, where
    elif expected == ABSENT and not is_mutation:
        assert "errors" not in body and _absent(value), where
    else:
        code = "NOT_FOUND" if expected == ABSENT else expected
        assert error_codes(body) == [code], where
        assert value is None, where
    if before is not None:
        assert await api.snapshot() == before, where
    return expected


@pytest.mark.parametrize("caller_name", CALLER_NAMES)
async def test_every_root_field_answers_each_caller_as_the_rules_say(
    make_api: ApiFactory, tmp_path: Path, caller_name: str
) -> None:
    caller = caller_named(caller_name)
    async with make_api(known_callers(tmp_path)) as api:
        seeded = await seed(api)
        seen = set()
        for root in root_types(built()):
            calls = QUERIES if root.name == "Query" else MUTATIONS
            for name, call in calls.items():
                expected = outcome(root, name, call, caller)
                seen.add(await _check(api, caller, name, call, expected, seeded))
    assert seen  # each caller met at least one outcome; the matrix's cells are asserted above
