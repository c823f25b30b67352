"""Every collection arraygraph keeps, listed once: `Database.create_indexes` makes their
indexes, the demo writes those marked `demo` (and loads only into a database none of them
holds data in), tests and tools read them all.

Each collection's module declares its `COLLECTION` and `INDEXES`; a new one is added here
(`tests/store/test_registry.py` fails naming a store module that declares a collection this
list leaves out).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from pymongo import IndexModel

from store import idempotency, meta, trades
from store.chat import chat_members, chat_pages, chat_sessions
from store.orders import users
from store.sensors import sensors
from store.series import measurements, series, tag_values


@dataclass(frozen=True, slots=True)
class Collection:
    name: str
    indexes: tuple[IndexModel, ...]
    demo: bool  # written by the demo data

    @classmethod
    def of(cls, module: ModuleType, *, demo: bool = False) -> Collection:
        return cls(module.COLLECTION, tuple(module.INDEXES), demo)


COLLECTIONS: tuple[Collection, ...] = (
    Collection.of(sensors, demo=True),
    Collection.of(users, demo=True),
    Collection.of(trades, demo=True),
    Collection.of(series, demo=True),
    Collection.of(measurements, demo=True),
    Collection.of(tag_values, demo=True),
    Collection.of(chat_sessions, demo=True),
    Collection.of(chat_pages, demo=True),
    Collection.of(chat_members, demo=True),
    Collection.of(idempotency),
    Collection.of(meta),
)
NAMES: tuple[str, ...] = tuple(collection.name for collection in COLLECTIONS)
DEMO_NAMES: tuple[str, ...] = tuple(c.name for c in COLLECTIONS if c.demo)
