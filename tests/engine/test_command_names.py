"""Commands are named and counted as PyMongo sends them to a server (its command monitoring)."""

from __future__ import annotations

import bson
import pytest
from pymongo import DeleteOne, InsertOne, UpdateOne
from pymongo.errors import BulkWriteError, InvalidOperation

from embedded import CommandCounts, EmbeddedCollection, EmbeddedEngine
from embedded.writes import bulk


@pytest.fixture
def counts() -> CommandCounts:
    return CommandCounts()


@pytest.fixture
async def coll(counts: CommandCounts) -> EmbeddedCollection:
    things = EmbeddedEngine(counts)["test"]["things"]
    await things.insert_one({"_id": 1, "n": 0})
    counts.reset()
    return things


def _sent(counts: CommandCounts) -> dict[str, int]:
    return dict(counts.by_name)


async def test_a_bulk_write_of_updates_is_one_update_command(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    await coll.bulk_write([UpdateOne({"_id": 1}, {"$inc": {"n": 1}})] * 3, ordered=False)
    assert _sent(counts) == {"update": 1}


EIGHT_ALIKE, TWELVE_SIZES = [40] * 8, [40 * n for n in range(12)]


@pytest.mark.parametrize(
    ("pads", "fit", "room", "commands"),
    [
        (EIGHT_ALIKE, 3, 0, 3),  # room for three statements: three commands
        (EIGHT_ALIKE, 3, -1, 4),  # a byte less: PyMongo then sends two per command
        (TWELVE_SIZES, 12, 0, 1),  # room for them all, of different sizes: one command
        (TWELVE_SIZES, 12, -1, 2),  # a byte less: the last one in a second command
    ],
)
async def test_a_bulk_of_updates_is_split_where_pymongo_splits_it(
    coll: EmbeddedCollection,
    counts: CommandCounts,
    monkeypatch: pytest.MonkeyPatch,
    pads: list[int],
    fit: int,
    room: int,
    commands: int,
) -> None:
    pipeline = [{"$set": {"note": {"$literal": "x" * 200}}}]  # one pipeline, sent in each
    filters = [{"_id": n, "pad": "y" * pad} for n, pad in enumerate(pads)]
    statements = [{"q": q, "u": pipeline, "multi": False, "upsert": False} for q in filters]
    limit = sum(len(bson.encode(statement)) for statement in statements[:fit]) + room
    monkeypatch.setattr(bulk, "MAX_MESSAGE_BYTES", limit)
    await coll.bulk_write([UpdateOne(q, pipeline) for q in filters])
    assert _sent(counts) == {"update": commands}


async def test_insert_many_is_one_insert_command(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    await coll.insert_many([{"_id": 2}, {"_id": 3}])
    assert _sent(counts) == {"insert": 1}


async def test_a_bulk_write_of_deletes_is_one_delete_command(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    await coll.bulk_write([DeleteOne({"_id": 1}), DeleteOne({"_id": 2})])
    assert _sent(counts) == {"delete": 1}


async def test_an_ordered_mixed_bulk_is_one_command_per_run_of_a_kind() -> None:
    seen: list[str] = []

    class Observer:
        def started(self, name: str) -> None:
            seen.append(name)

        def replied(self, result: object) -> None:
            return None

    things = EmbeddedEngine(Observer())["test"]["things"]
    await things.bulk_write(
        [
            InsertOne({"_id": 1}),
            InsertOne({"_id": 2}),
            UpdateOne({"_id": 1}, {"$set": {"a": 1}}),
            InsertOne({"_id": 3}),
            DeleteOne({"_id": 2}),
            DeleteOne({"_id": 3}),
        ]
    )
    assert seen == ["insert", "update", "insert", "delete"]


async def test_an_unordered_mixed_bulk_is_one_command_per_kind(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    await coll.bulk_write(
        [
            InsertOne({"_id": 2}),
            UpdateOne({"_id": 1}, {"$set": {"a": 1}}),
            InsertOne({"_id": 3}),
            DeleteOne({"_id": 2}),
            UpdateOne({"_id": 3}, {"$set": {"a": 1}}),
        ],
        ordered=False,
    )
    assert _sent(counts) == {"insert": 1, "update": 1, "delete": 1}
    assert [d["_id"] for d in await coll.find({}).to_list()] == [1, 3]


async def test_an_ordered_bulk_sends_no_command_after_a_write_error(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write([InsertOne({"_id": 1}), UpdateOne({"_id": 1}, {"$set": {"a": 1}})])
    assert _sent(counts) == {"insert": 1}
    assert [e["index"] for e in raised.value.details["writeErrors"]] == [0]


async def test_an_unordered_bulk_reports_errors_of_every_command_by_request_index(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write(
            [
                UpdateOne({"_id": 1}, {"$set": {"n": "x"}}),
                InsertOne({"_id": 1}),
                UpdateOne({"_id": 1}, {"$inc": {"n": 1}}),
            ],
            ordered=False,
        )
    errors = raised.value.details["writeErrors"]
    assert [(e["index"], e["code"]) for e in errors] == [(1, 11000), (2, 14)]
    assert _sent(counts) == {"insert": 1, "update": 1}


async def test_count_documents_is_an_aggregate(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    assert await coll.count_documents({}) == 1
    assert _sent(counts) == {"aggregate": 1}


async def test_a_bulk_write_of_nothing_is_refused_before_sending(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    with pytest.raises(InvalidOperation):
        await coll.bulk_write([])
    assert _sent(counts) == {}
