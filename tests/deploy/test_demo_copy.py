"""The tests' copy of the demo (`make_api(..., demo=True)`: the session's seeding, copied) holds
what `serve --demo` writes into a fresh database, document for document, in every collection;
the ids the seeding generates (ObjectIds of this run, as a second seeding's differ) aside."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId

from settings import Settings
from store.database import Database
from store.registry import NAMES
from tests.support import ApiFactory
from tests.support.demo import stored

# Before any test of the run seeded anything: collected modules are imported first.
RUN_STARTED = datetime.now(UTC) - timedelta(minutes=1)


def _generated_ids_blanked(value: Any) -> Any:
    if isinstance(value, ObjectId) and value.generation_time >= RUN_STARTED:
        return "generated"
    if isinstance(value, dict):
        return {key: _generated_ids_blanked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_generated_ids_blanked(item) for item in value]
    return value


async def _documents(database: Database) -> dict[str, list[Any]]:
    found = await stored(database, NAMES)
    return {
        name: sorted((_generated_ids_blanked(d) for d in documents), key=repr)
        for name, documents in found.items()
    }


async def test_demo_copy_holds_what_seeding_writes(
    make_api: ApiFactory, database: Database, demo_database: Database
) -> None:
    async with make_api(Settings(), seed_demo=True, database=database):
        pass
    seeded = await _documents(database)
    assert sum(len(documents) for documents in seeded.values()) > 1_500  # the whole demo
    assert await _documents(demo_database) == seeded
