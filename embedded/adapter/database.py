"""A database of the engine: its collections, and the commands PyMongo's async database sends
(`create`, `drop`, `dropDatabase`, `ping`), run as the engine runs every command.

A database given options (`with_options`) gives its collections those options. What the engine
does not do (views and the other kinds of collection, `collMod`, database-level aggregation) is
refused with its clear error (`embedded.rules.unsupported`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pymongo.errors import CollectionInvalid

from embedded import rules
from embedded.adapter.collection import EmbeddedCollection
from embedded.adapter.options import DEFAULT_OPTIONS, Options
from embedded.writes import namespaces
from embedded.writes import write_path as writes

if TYPE_CHECKING:  # the engine creates its databases: a type, not an import, of the engine
    from embedded.adapter.engine import EmbeddedEngine


class EmbeddedDatabase:
    def __init__(self, engine: EmbeddedEngine, db: Any, options: Options = DEFAULT_OPTIONS) -> None:
        self._engine = engine
        self._db = db
        self._options = options
        self._collections: dict[str, EmbeddedCollection] = {}

    @property
    def name(self) -> str:
        return str(self._db.name)

    @property
    def client(self) -> EmbeddedEngine:
        """The engine, as PyMongo's database names its client."""
        return self._engine

    @property
    def engine(self) -> EmbeddedEngine:
        """The engine that holds this database, and its observers (`engine.examined`)."""
        return self._engine

    @property
    def mongomock_database(self) -> Any:
        """The synchronous internals, for a caller that holds `engine.lock` (the wire front)."""
        return self._db

    def __getitem__(self, name: str) -> EmbeddedCollection:
        if name not in self._collections:
            if self._options is not DEFAULT_OPTIONS:  # the engine's own collection, cloned
                return self._engine[self.name][name].with_options(**self._options_given())
            self._collections[name] = EmbeddedCollection(self._engine, self._db[name])
        return self._collections[name]

    def _options_given(self) -> dict[str, Any]:
        options = self._options
        return {
            "codec_options": options.codec_options,
            "read_preference": options.read_preference,
            "write_concern": options.write_concern,
            "read_concern": options.read_concern,
        }

    def with_options(
        self,
        codec_options: Any = None,
        read_preference: Any = None,
        write_concern: Any = None,
        read_concern: Any = None,
    ) -> EmbeddedDatabase:
        """This database with the options given changed, for the collections it gives."""
        options = self._options.with_options(
            codec_options, read_preference, write_concern, read_concern
        )
        return EmbeddedDatabase(self._engine, self._db, options)

    async def command(self, command: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        body = {command: 1} if isinstance(command, str) else dict(command)
        name = next(iter(body))
        actions: dict[str, Callable[[], dict[str, Any]]] = {
            "ping": lambda: {"ok": 1.0},
            "dropDatabase": lambda: self._drop_database(),
            "create": lambda: self._create(str(body["create"]), body),
        }
        if name == "collMod":
            namespaces.refuse_coll_mod()
        if name not in actions:
            raise rules.unsupported(f"the {name!r} command in process")
        await asyncio.sleep(0)
        return await self._engine.run(name, actions[name])

    def _drop_database(self) -> dict[str, Any]:
        writes.drop_database(self._db)
        return {"ok": 1.0, "dropped": self._db.name}

    def _create(self, name: str, body: Mapping[str, Any]) -> dict[str, Any]:
        options = {key: value for key, value in body.items() if key != "create"}
        namespaces.create_collection(self._db, name, options)
        return {"ok": 1.0}

    async def create_collection(
        self,
        name: str,
        codec_options: Any = None,
        read_preference: Any = None,
        write_concern: Any = None,
        read_concern: Any = None,
        session: Any = None,
        check_exists: bool | None = True,
        **kwargs: Any,
    ) -> EmbeddedCollection:
        """A plain collection, created (PyMongo's: refused when `check_exists` finds it);
        the options that make another kind are refused (`embedded.writes.namespaces`)."""
        namespaces.check_create_options(kwargs)
        if check_exists and name in await self.list_collection_names():
            raise CollectionInvalid(f"collection {name} already exists")
        await self.command({"create": name, **kwargs})
        return self[name].with_options(codec_options, read_preference, write_concern, read_concern)

    async def list_collection_names(
        self, session: Any = None, filter: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> list[str]:
        await asyncio.sleep(0)
        return await self._engine.run(
            "listCollections", lambda: namespaces.collection_names(self._db, filter)
        )

    async def drop_collection(
        self, name_or_collection: Any, session: Any = None, comment: Any = None, **kwargs: Any
    ) -> dict[str, Any]:
        name = getattr(name_or_collection, "name", name_or_collection)
        if not isinstance(name, str):
            raise TypeError(f"name_or_collection must be an instance of str, not {type(name)}")

        def drop() -> dict[str, Any]:
            indexes = namespaces.drop_collection(self._db, name)
            return {"nIndexesWas": indexes, "ns": f"{self.name}.{name}", "ok": 1.0}

        await asyncio.sleep(0)
        return await self._engine.run("drop", drop)

    async def aggregate(self, pipeline: Any, session: Any = None, **kwargs: Any) -> Any:
        """A database-level aggregation (`$documents`, `$currentOp`, `$listLocalSessions`...):
        refused, as the wire front refuses it."""
        raise rules.unsupported("database-level aggregate")
