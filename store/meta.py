"""The `meta` collection: facts about the database itself, one document each.

`DATA_SHAPE` says the database was found to hold no data in an article's shape
(`store/migrations.py`), at that version of the check, so that the check runs once per
database, not at every start.
"""

from __future__ import annotations

from typing import Any

from store.protocols import AsyncCollection

COLLECTION = "meta"
INDEXES: list[Any] = []
DATA_SHAPE = {"_id": "data-shape", "version": 2}  # 2: sensors without `lastEventAt` too


async def data_shape_known(coll: AsyncCollection) -> bool:
    """Whether the current check found the database clean before."""
    found = await coll.find_one({"_id": DATA_SHAPE["_id"], "version": DATA_SHAPE["version"]})
    return found is not None


async def record_data_shape(coll: AsyncCollection) -> None:
    await coll.update_one(
        {"_id": DATA_SHAPE["_id"]}, {"$set": {"version": DATA_SHAPE["version"]}}, upsert=True
    )
