"""TTL indexes expire documents as mongomock-ng expired them, found on the TTL index's entries
rather than by testing every document before each read (`embedded/planner/expiry.py`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import mongomock_ng
import pytest
from pymongo import IndexModel

from embedded import mongomock_internals
from tests.engine.fronts import Front


@pytest.fixture
def tested(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The values TTL expiry tests, one per document it considers."""
    values: list[Any] = []
    expires = mongomock_internals.expires

    def counted(store: Any, value: Any, seconds: int, now: datetime) -> bool:
        values.append(value)
        return expires(store, value, seconds, now)

    monkeypatch.setattr(mongomock_internals, "expires", counted)
    return values


async def test_ttl_expiry_tests_only_the_documents_that_may_expire(
    front: Front, tested: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    records = front.collection("records")
    await records.create_indexes([IndexModel([("at", 1)], expireAfterSeconds=60, name="ttl")])
    now = datetime.now(UTC).replace(microsecond=0)
    soon = now - timedelta(seconds=50)
    await records.insert_many(
        [{"_id": i, "at": now} for i in range(500)]
        + [{"_id": "soon", "at": soon}, {"_id": "dates", "at": [soon, now]}, {"_id": "none"}]
    )
    tested.clear()
    later = now + timedelta(seconds=30)
    monkeypatch.setattr(mongomock_ng, "utcnow", lambda: later)
    assert await records.find_one({"_id": 7}) is not None
    assert tested == [
        soon.replace(tzinfo=None),
        [soon.replace(tzinfo=None), now.replace(tzinfo=None)],
    ]
    remaining = {doc["_id"] for doc in await records.find({}, {"_id": 1}).to_list()}
    assert remaining == {*range(500), "none"}
