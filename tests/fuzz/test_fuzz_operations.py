"""Queries and mutations from the served schema, positive and negative, with literals or with
random variables, and raw requests of any shape: every answer passes the oracle
(tests/fuzz/oracle.py), a rejected mutation writes nothing, and /healthz still answers."""

from __future__ import annotations

import hypothesis_graphql
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.harness import Fuzz
from tests.fuzz.operations import variable_operations
from tests.fuzz.shapes import pools
from tests.fuzz.strategies import SCHEMA, documents, fuzz_settings, raw_requests
from tests.fuzz.world import World

MODES = st.sampled_from([hypothesis_graphql.Mode.POSITIVE, hypothesis_graphql.Mode.NEGATIVE])


@fuzz_settings(0.15)
@given(data=st.data())
async def test_schema_queries_pass_the_oracle(
    fuzz: Fuzz, world: World, data: st.DataObject
) -> None:
    document = data.draw(documents(pools(world), "query", data.draw(MODES)), label="document")
    await fuzz.exercise("schema queries", document)
    await fuzz.assert_healthy()


@fuzz_settings(0.2)
@given(data=st.data())
async def test_schema_mutations_pass_the_oracle_and_rejected_ones_write_nothing(
    fuzz: Fuzz, world: World, data: st.DataObject
) -> None:
    document = data.draw(documents(pools(world), "mutation", data.draw(MODES)), label="document")
    await fuzz.exercise("schema mutations", document)
    await fuzz.assert_healthy()


@fuzz_settings(0.2)
@given(data=st.data())
async def test_operations_with_random_variables_pass_the_oracle(
    fuzz: Fuzz, world: World, data: st.DataObject
) -> None:
    kind = data.draw(st.sampled_from(["query", "mutation"]))
    operation = data.draw(variable_operations(SCHEMA, kind, pools(world)), label="operation")
    await fuzz.exercise("random variables", operation.document, operation.variables)
    await fuzz.assert_healthy()


@fuzz_settings(0.15)
@given(data=st.data())
async def test_raw_requests_pass_the_oracle(fuzz: Fuzz, world: World, data: st.DataObject) -> None:
    request = data.draw(raw_requests(), label="request")
    await fuzz.exercise_raw("raw requests", request)
    await fuzz.assert_healthy()
