"""A sorted read under a keyset `$or` (a later first key, or the same first key and a later
second) walks only the index entries one branch may match: a page after a cursor examines the
page, not the entries that share the cursor's first key before it. Answers stay the scan's."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pymongo import IndexModel

from tests.engine.fronts import Front
from tests.engine.test_index_answers import INDEXES, VALUES, _document, _expected


def _keyset(first: Any, second: Any, sort: list[tuple[str, int]]) -> dict[str, Any]:
    """After (first, second) in `sort`'s order of b, then a."""
    b_later, a_later = ("$gt" if direction == 1 else "$lt" for _, direction in sort)
    return {"$or": [{"b": {b_later: first}}, {"b": first, "a": {a_later: second}}]}


async def test_keyset_walks_examine_the_page_whatever_shares_the_cursors_key(
    front: Front,
) -> None:
    coll = front.collection("things")
    await coll.create_indexes([IndexModel([("t", 1), ("_id", 1)], name="t_id")])
    await coll.insert_many([{"_id": n, "t": "same"} for n in range(1_000)])
    front.examined.reset()
    keyset = {"$or": [{"t": {"$gt": "same"}}, {"t": "same", "_id": {"$gt": 900}}]}
    found = await coll.find(keyset, sort=[("t", 1), ("_id", 1)], limit=21).to_list()
    assert [doc["_id"] for doc in found] == list(range(901, 922))
    assert front.examined.total == 21


@pytest.mark.parametrize("seed", range(4))
async def test_keyset_walks_are_the_scans(front: Front, seed: int) -> None:
    rng = random.Random(seed)
    coll = front.collection("things")
    await coll.create_indexes([*INDEXES, IndexModel([("b", 1), ("a", 1)], name="b_a_up")])
    docs = list({d["_id"]: d for d in (_document(rng, n) for n in range(120))}.values())
    await coll.insert_many([dict(d) for d in docs])
    plain = [v for v in VALUES if not isinstance(v, list | dict)]
    for _ in range(100):
        sort = rng.choice([[("b", 1), ("a", 1)], [("b", -1), ("a", -1)], [("b", 1), ("a", -1)]])
        keyset = _keyset(rng.randrange(-1, 5), rng.choice(plain), sort)
        query = {"filter": keyset, "sort": sort, "skip": 0, "limit": rng.choice([0, 1, 5])}
        options = {"sort": sort, "limit": query["limit"]}
        found = await coll.find(keyset, **options).to_list()
        assert [d["_id"] for d in found] == _expected(docs, query), query
