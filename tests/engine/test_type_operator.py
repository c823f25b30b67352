"""`$type` knows every type of MongoDB 8.0 by alias and by number: "null" (10) matches a stored
null and not a missing field; "number" matches ints, longs, doubles and decimals; an array
matches "array" and the type of each of its elements; a list matches any of its types; an
unknown alias or number is the server's BadValue."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from bson import Binary, ObjectId, Regex, Timestamp
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.max_key import MaxKey
from bson.min_key import MinKey
from pymongo.errors import OperationFailure

from tests.engine.fronts import Front

VALUES: dict[str, Any] = {
    "double": 1.5,
    "string": "s",
    "object": {"a": 1},
    "binData": Binary(b"\x01", 0),
    "objectId": ObjectId("64b7f0c2a1b2c3d4e5f60718"),
    "bool": True,
    "date": datetime(2024, 1, 2, tzinfo=UTC),
    "null": None,
    "regex": Regex("^a", "i"),
    "int": 7,
    "timestamp": Timestamp(1, 2),
    "long": Int64(7),
    "decimal": Decimal128("7.5"),
    "minKey": MinKey(),
    "maxKey": MaxKey(),
}
CODES = {"double": 1, "string": 2, "object": 3, "null": 10, "int": 16, "long": 18, "decimal": 19}


async def _filled(front: Front) -> Any:
    values = front.collection("values")
    await values.insert_many([{"_id": name, "v": value} for name, value in VALUES.items()])
    await values.insert_many([{"_id": "missing"}, {"_id": "array", "v": ["s", None]}])
    return values


async def _ids(values: Any, wanted: Any) -> set[str]:
    return {doc["_id"] for doc in await values.find({"v": {"$type": wanted}}).to_list()}


async def test_null_matches_a_stored_null_not_a_missing_field(front: Front) -> None:
    values = await _filled(front)
    assert await _ids(values, "null") == {"null", "array"}
    assert await _ids(values, 10) == {"null", "array"}


async def test_each_alias_matches_its_own_type(front: Front) -> None:
    values = await _filled(front)
    found = {alias: await _ids(values, alias) for alias in VALUES}
    in_array = {"string", "null"}  # the array holds a string and a null
    assert found == {
        alias: {alias} | ({"array"} if alias in in_array else set()) for alias in VALUES
    }


@pytest.mark.parametrize(("alias", "code"), sorted(CODES.items()))
async def test_a_type_number_matches_as_its_alias(front: Front, alias: str, code: int) -> None:
    values = await _filled(front)
    assert await _ids(values, code) == await _ids(values, alias)


async def test_arrays_lists_and_number_match_as_a_server_matches(front: Front) -> None:
    values = await _filled(front)
    assert await _ids(values, "array") == {"array"}
    assert await _ids(values, ["bool", "decimal"]) == {"bool", "decimal"}
    assert await _ids(values, "number") == {"double", "int", "long", "decimal"}


async def test_a_regex_value_is_a_regex(front: Front) -> None:
    values = front.collection("patterns")
    await values.insert_one({"_id": "pattern", "v": re.compile("^b")})
    assert await _ids(values, "regex") == {"pattern"}


@pytest.mark.parametrize(
    ("wanted", "message"),
    [("text", "Unknown type name alias: text"), (99, "Invalid numerical type code: 99")],
)
async def test_an_unknown_type_is_refused(front: Front, wanted: Any, message: str) -> None:
    values = await _filled(front)
    with pytest.raises(OperationFailure) as refused:
        await values.find({"v": {"$type": wanted}}).to_list()
    assert refused.value.code == 2
    assert message in str(refused.value)
