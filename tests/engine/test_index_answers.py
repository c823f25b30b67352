"""What an index answers is what a scan answers: the same documents, in the same order (natural
order without a sort; a sort's order, equal keys in natural order), whatever the indexed fields
hold: arrays, missing fields, null, NaN, booleans, subdocuments, several types. Filters and sorts
are drawn at random (a fixed seed) and checked against the matcher and the sort
(`embedded.stages.sort_stage`) over every document, as a scan runs them."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from bson import ObjectId
from pymongo import IndexModel

from embedded import mongomock_internals as mongomock
from embedded.stages import sort_stage
from tests.engine.fronts import Front

WHEN = datetime(2024, 1, 1, tzinfo=UTC)
OIDS = [ObjectId(f"65f0000000000000000000{k:02d}") for k in range(4)]
VALUES: list[Any] = [
    *range(-1, 5),
    2.5,
    4.0,
    "a",
    "b",
    "bb",
    "",
    None,
    True,
    False,
    float("nan"),
    [1, "a"],
    [],
    [None],
    {"x": 1},
    *OIDS,
    WHEN,
    WHEN + timedelta(days=1),
]
INDEXES = [
    IndexModel([("a", 1)], name="a"),
    IndexModel([("b", 1), ("a", -1)], name="b_a"),
    IndexModel([("u", 1)], unique=True, sparse=True, name="u"),
    IndexModel([("s.t", 1), ("b", 1)], name="st_b"),
]


def _document(rng: random.Random, n: int) -> dict[str, Any]:
    doc: dict[str, Any] = {"_id": rng.choice([n, f"k{n:03d}", float(n) + 0.5]), "u": n}
    for field in ("a", "b"):
        if rng.random() < 0.85:
            doc[field] = rng.choice(VALUES) if field == "a" else rng.randrange(4)
    if rng.random() < 0.5:
        doc["s"] = {"t": rng.choice(["x", "y", 1])} if rng.random() < 0.8 else [{"t": "x"}]
    return doc


def _condition(rng: random.Random, field: str) -> Any:
    plain = [v for v in VALUES if not isinstance(v, list | dict)]
    pick = rng.randrange(6)
    if pick == 0:
        return rng.choice(plain)
    if pick == 1:
        return {"$in": rng.sample(plain, 3)}
    low, high = rng.choice(plain), rng.choice(plain)
    ops = [{"$gt": low}, {"$gte": low, "$lt": high}, {"$lte": high}, {"$eq": low, "$ne": high}]
    return ops[pick - 2]


def _filter(rng: random.Random) -> dict[str, Any]:
    fields = ["a", "b", "u", "s.t", "_id"]
    one = {f: _condition(rng, f) for f in rng.sample(fields, rng.randrange(1, 3))}
    pick = rng.randrange(4)
    if pick == 0:
        return one
    other = {f: _condition(rng, f) for f in rng.sample(fields, 1)}
    return {"$or": [one, other]} if pick == 1 else {"$and": [one, other]} if pick == 2 else {}


SORTS: list[list[tuple[str, int]] | None] = [
    None,
    [("a", 1)],
    [("a", -1)],
    [("b", 1), ("a", -1)],
    [("b", -1), ("a", 1)],
    [("_id", 1)],
    [("u", -1)],
    [("s.t", 1), ("b", 1)],
]


def _expected(docs: list[dict[str, Any]], query: dict[str, Any]) -> list[Any]:
    found = [
        d
        for d in docs
        if mongomock.filter_applies(
            mongomock.to_stored_datetimes(query["filter"]), mongomock.to_stored_datetimes(d)
        )
    ]
    if query["sort"]:
        found = sort_stage.sorted_documents(found, query["sort"])
    found = found[query["skip"] :]
    return [d["_id"] for d in (found[: query["limit"]] if query["limit"] else found)]


async def seeded_things(front: Front, rng: random.Random) -> tuple[Any, list[dict[str, Any]]]:
    """The collection `things` with INDEXES and 120 random documents (distinct ids), stored."""
    coll = front.collection("things")
    await coll.create_indexes(INDEXES)
    docs = list({d["_id"]: d for d in (_document(rng, n) for n in range(120))}.values())
    await coll.insert_many([dict(d) for d in docs])
    return coll, docs


@pytest.mark.parametrize("seed", range(4))
async def test_index_answers_are_the_scans(front: Front, seed: int) -> None:
    rng = random.Random(seed)
    coll, docs = await seeded_things(front, rng)
    for _ in range(150):
        query = {
            "filter": _filter(rng),
            "sort": rng.choice(SORTS),
            "skip": rng.choice([0, 0, 1, 3]),
            "limit": rng.choice([0, 1, 2, 5]),
        }
        options = {k: v for k, v in query.items() if k != "filter" and v}
        found = await coll.find(query["filter"], **options).to_list()
        assert [d["_id"] for d in found] == _expected(docs, query), query
