"""`_id` filters: plain values are looked up as the `_id` index would find them; patterns
and NaN are matched as a server matches them, not by key."""

from __future__ import annotations

import re

from bson.regex import Regex

from embedded import EmbeddedCollection, EmbeddedEngine


async def _things(engine: EmbeddedEngine) -> EmbeddedCollection:
    things = engine["test"]["ids"]
    await things.insert_many([{"_id": "alpha"}, {"_id": "beta"}, {"_id": 1}, {"_id": float("nan")}])
    return things


async def test_id_lookup_finds_a_plain_value(engine: EmbeddedEngine) -> None:
    things = await _things(engine)
    assert await things.find({"_id": "beta"}).to_list() == [{"_id": "beta"}]
    assert await things.find({"_id": 1.0}).to_list() == [{"_id": 1}]


async def test_id_lookup_matches_a_pattern(engine: EmbeddedEngine) -> None:
    things = await _things(engine)
    found = await things.find({"_id": re.compile("^a")}).to_list()
    assert found == [{"_id": "alpha"}]
    assert await things.find({"_id": Regex("ta$")}).to_list() == [{"_id": "beta"}]


async def test_id_lookup_matches_nan_as_a_server_does(engine: EmbeddedEngine) -> None:
    things = await _things(engine)
    nan = await things.find({"_id": float("nan")}).to_list()
    assert len(nan) == 1 and nan[0]["_id"] != nan[0]["_id"]  # NaN equals NaN in a query
