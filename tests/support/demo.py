"""The demo data, seeded once per test session and copied into each test's own database.

A template is what an app started with `demo=True` on a fresh database leaves there (indexes,
the data shape in `meta`, the demo), read back collection by collection (`store.registry.NAMES`)
and kept as BSON; each copy decodes new documents from it and writes them with one
`insert_many` a collection, so no test sees another's writes. Storing the documents is most of
a seeding's time and of a copy's (the series rollups above all): a test that reads
a part of the demo names its collections, and gets those alone.

The demo depends on the moment it is seeded at and on two settings, so a template is kept for
each: the tests on the fake clock share one, and those on the real clock one seeded at the
first moment one asked for it, as if a server had been started with `--demo` then. A template
is seeded where its copies go: in an in-process engine for a database of one, on the session's
backend otherwise.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import bson
from bson.codec_options import CodecOptions
from bson.tz_util import utc

from app import create_app
from settings import EMBEDDED_URI, Settings
from store.database import Database, open_database
from store.registry import DEMO_NAMES, NAMES
from tests.support.backends import Backend
from tests.support.servers import running
from web.state import utc_now

# As the drivers read stored times: aware, in UTC.
CODEC: CodecOptions[dict[str, object]] = CodecOptions(tz_aware=True, tzinfo=utc)


@dataclass(frozen=True, slots=True)
class DemoKey:
    """What the demo's documents depend on, and where they are stored."""

    now: datetime
    max_orders_per_user: int
    messages_per_page: int
    embedded: bool

    @classmethod
    def of(cls, now: datetime, settings: Settings, target: Database) -> DemoKey:
        return cls(now, settings.max_orders_per_user, settings.messages_per_page, target.embedded)


class DemoTemplates:
    """The session's seeded demos, by key."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._documents: dict[DemoKey, dict[str, list[bytes]]] = {}
        self._real_now: datetime | None = None

    def real_now(self) -> datetime:
        """The moment the session's real-clock demo is seeded at (fixed at its first use)."""
        if self._real_now is None:
            self._real_now = utc_now()
        return self._real_now

    async def copy_into(
        self, target: Database, settings: Settings, now: datetime, only: Sequence[str] = DEMO_NAMES
    ) -> None:
        """Write the demo seeded at `now` under `settings` into `target`, with its indexes:
        of the demo's collections those in `only` (a test names those it reads), and whatever
        else the start left (the data shape in `meta`)."""
        unknown = set(only) - set(DEMO_NAMES)
        assert not unknown, f"not collections of the demo: {sorted(unknown)}"
        key = DemoKey.of(now, settings, target)
        documents = self._documents.get(key)
        if documents is None:
            documents = self._documents[key] = await self._seed(key, settings)
        for name in NAMES:
            if documents[name] and (name in only or name not in DEMO_NAMES):
                copies = [bson.decode(raw, CODEC) for raw in documents[name]]
                await target.collection(name).insert_many(copies)
        await target.create_indexes()

    async def _seed(self, key: DemoKey, settings: Settings) -> dict[str, list[bytes]]:
        if key.embedded:
            template = open_database(dataclasses.replace(settings, mongodb_uri=EMBEDDED_URI))
        else:
            template = self._backend.open(settings)
        try:
            app = create_app(settings, clock=lambda: key.now, database=template, demo=True)
            async with running(app):
                pass
            return {
                name: [
                    bson.encode(d) for d in await template.collection(name).find({}).to_list(None)
                ]
                for name in NAMES
            }
        finally:
            if key.embedded:
                await template.close()
            else:
                await self._backend.release(template)


async def stored(database: Database, names: Sequence[str]) -> dict[str, list[Any]]:
    """Every document of each collection, in `_id` order (as text: some ids are documents)."""
    found = {}
    for name in names:
        documents = await database.collection(name).find({}).to_list(None)
        found[name] = sorted(documents, key=lambda document: repr(document["_id"]))
    return found
