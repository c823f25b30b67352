"""`arraygraph migrate --check` lists the stored ids that read as another object's id (user
ids, order ids and measurement names stored before ids shaped like global ids were refused),
reads only, and exits 1 when it lists any, 0 on a clean database."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime
from typing import Any

import pytest

import cli
import store.database
from resolvers.global_ids import global_id, stored_id_reading
from schema.nodes import node_kinds
from settings import EMBEDDED_URI, Settings
from store.commands import CommandLog
from store.database import Database, open_database
from store.migrations import AmbiguousId, ambiguous_ids
from store.registry import NAMES
from tests.ids.support import ALPHA, BOB, RECORD, UPSERT
from tests.support import Api


def _reading(value: str) -> str | None:
    return stored_id_reading(value, node_kinds())


BOBS_1 = global_id("Order", "bob", "1")
AT = datetime(2024, 1, 1, tzinfo=UTC)
# What the API stored before: a user whose id is bob's global id, an order whose id is the
# global id of bob's order "1", a measurement named alpha's global id, and a user id shaped like
# a global id that names nothing.
OFFENDING = [
    AmbiguousId("user", BOB, "the User 'bob'"),
    AmbiguousId("order", BOBS_1, "the Order 'bob', '1'", user_id="dave"),
    AmbiguousId(
        "user", "WyJ4Il0", "nothing: it is shaped like a global id, and every argument refuses it"
    ),
    AmbiguousId("measurement", ALPHA, "the Measurement 'alpha'"),
]


async def _seed_offending(database: Database) -> None:
    """Written straight to the collections, as the API let them be written."""
    users = database.collection("users")
    await users.insert_one({"userId": BOB, "orderList": []})
    await users.insert_one({"userId": "dave", "orderList": [{"_id": BOBS_1, "createTime": AT}]})
    await users.insert_one({"userId": "WyJ4Il0", "orderList": []})
    measurements = database.collection("measurements")
    await measurements.insert_one({"_id": ALPHA, "fields": ["bees"], "tagKeys": []})


async def _seed_clean(api: Api) -> None:
    """Ids that begin as a global id does and are none: what the check must leave out."""
    for user_id, order_id in [("bob", "1"), ("Wendy", "W10"), ("W1sxXV0", "WyJ")]:
        await api.data(UPSERT, {"u": user_id, "o": order_id})
    for name in ("alpha", "Wendy", "W10"):
        await api.data(RECORD, {"x": name})


async def test_the_check_lists_every_stored_id_that_reads_as_another_objects(api: Api) -> None:
    await _seed_clean(api)
    await _seed_offending(api.database)
    before = await api.snapshot()
    found = await ambiguous_ids(api.database, reads_as=_reading)
    assert found == OFFENDING
    assert await api.snapshot() == before


async def test_the_check_lists_nothing_on_a_database_the_api_wrote(api: Api) -> None:
    await _seed_clean(api)
    assert await ambiguous_ids(api.database, reads_as=_reading) == []


async def _everything(database: Database) -> dict[str, list[dict[str, Any]]]:
    return {
        name: await database.collection(name).find({}, sort=[("_id", 1)]).to_list()
        for name in NAMES
    }


@pytest.fixture
def command_database(monkeypatch: pytest.MonkeyPatch) -> Database:
    """The embedded database `arraygraph migrate --check` opens (one engine, kept open)."""
    database = open_database(dataclasses.replace(Settings(), mongodb_uri=EMBEDDED_URI))

    def twin(settings: Settings) -> Database:
        async def keep_open() -> None:
            return None

        return Database(db=database.db, commands=CommandLog(), embedded=True, close=keep_open)

    monkeypatch.setattr(store.database, "open_database", twin)
    monkeypatch.delenv("MONGODB_URI", raising=False)
    return database


def test_migrate_check_prints_them_and_exits_1(
    command_database: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_seed_offending(command_database))
    before = asyncio.run(_everything(command_database))
    assert cli.main(["migrate", "--check"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"arraygraph: user {BOB!r} reads as the User 'bob'",
        f"arraygraph: order {BOBS_1!r} of user 'dave' reads as the Order 'bob', '1'",
        "arraygraph: user 'WyJ4Il0' reads as nothing: it is shaped like a global id, and every "
        "argument refuses it",
        f"arraygraph: measurement {ALPHA!r} reads as the Measurement 'alpha'",
        "arraygraph: 0 shapes to migrate, 4 stored ids that read as another object's",
    ]
    assert asyncio.run(_everything(command_database)) == before  # the check only reads


def test_migrate_check_exits_0_on_a_clean_database(
    command_database: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["migrate", "--check"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "arraygraph: 0 shapes to migrate, 0 stored ids that read as another object's"
    ]
