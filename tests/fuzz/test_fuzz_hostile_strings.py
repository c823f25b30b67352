"""Hostile strings (lone surrogates, NUL, operators spelled as strings, every kind of unicode,
lengths past every limit) in every String and ID argument and input field, as variables:
every answer passes the oracle, and none of them is ever stored."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.harness import Fuzz
from tests.fuzz.operations import variable_operations
from tests.fuzz.shapes import pools
from tests.fuzz.strategies import SCHEMA, fuzz_settings
from tests.fuzz.world import World


def unstorable(value: Any) -> list[str]:
    """Every string in a stored document holding a NUL or a lone surrogate."""
    if isinstance(value, str):
        bad = "\x00" in value or any("\ud800" <= c <= "\udfff" for c in value)
        return [value] if bad else []
    if isinstance(value, dict):
        return [found for v in [*value.keys(), *value.values()] for found in unstorable(v)]
    if isinstance(value, list | tuple):
        return [found for v in value for found in unstorable(v)]
    return []


@fuzz_settings(0.15)
@given(data=st.data())
async def test_hostile_strings_pass_the_oracle_and_are_never_stored(
    fuzz: Fuzz, world: World, data: st.DataObject
) -> None:
    kind = data.draw(st.sampled_from(["query", "mutation", "mutation"]))
    hostile = pools(world, hostile_only=True)
    operation = data.draw(variable_operations(SCHEMA, kind, hostile), label="operation")
    await fuzz.exercise("hostile strings", operation.document, operation.variables)
    if kind == "mutation":
        stored = unstorable(await fuzz.api.snapshot())
        assert stored == [], f"stored: {stored!r:.500}"
    await fuzz.assert_healthy()
