"""A collection's reads, as PyMongo's async collection offers them: find, aggregate, the counts
and distinct, each run on the engine's read path (`embedded.stages.reads`).

A read past its first batch costs `getMore`s (`embedded.adapter.cursors`), as with PyMongo.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pymongo.errors import ConfigurationError

from embedded.adapter.commands import CollectionCommands
from embedded.adapter.cursors import BatchCursor, EmbeddedCursor
from embedded.planner import command_options
from embedded.protocols import Document
from embedded.stages import bounds, distinct, reads, unions


class CollectionReads(CollectionCommands):
    def find(self, filter: Any = None, *args: Any, **kwargs: Any) -> EmbeddedCursor:
        if args:
            kwargs["projection"] = args[0]
        batch_size = kwargs.pop("batch_size", None) or None
        limit = int(kwargs.get("limit") or 0)
        if limit < 0:  # PyMongo's single batch of at most -limit documents
            kwargs["limit"] = -limit
        coll = self._coll
        sent = {"find": self.name, "filter": filter or {}, **_options(kwargs)}
        return EmbeddedCursor(
            lambda: self._read(
                sent,
                lambda: reads.find(coll, filter, kwargs),
                batch_size,
                single=limit < 0,
                small=lambda: reads.examines_one_document(coll, filter),
            )
        )

    async def find_one(self, filter: Any = None, *args: Any, **kwargs: Any) -> Any:
        kwargs["limit"] = -1  # as PyMongo's find_one asks: one document, one batch
        found = await self.find(filter, *args, **kwargs).to_list()
        return found[0] if found else None

    async def aggregate(
        self, pipeline: Any, *args: Any, let: Any = None, **kwargs: Any
    ) -> BatchCursor:
        stages = list(pipeline)
        batch_size = kwargs.get("batchSize")
        sent = {"aggregate": self.name, "pipeline": stages, "let": let}

        def run() -> list[Document]:
            command_options.check(
                self._coll, _index_hint(kwargs.get("hint")), kwargs.get("collation")
            )
            return unions.aggregate(self._coll, stages, let)

        return await self._read(
            sent,
            run,
            batch_size,
            single=False,
            small=lambda: reads.examines_one_document(self._coll, None, stages, let),
        )

    async def count_documents(
        self, filter: Mapping[str, Any], session: Any = None, comment: Any = None, **kwargs: Any
    ) -> int:
        """PyMongo's aggregation of `[$match, $skip?, $limit?, $group]`: `skip` and `limit`
        bound what is counted, as those stages do on a server."""
        hint, collation = _index_hint(kwargs.get("hint")), kwargs.get("collation")
        pipeline: list[dict[str, Any]] = [{"$match": filter}]
        skip = limit = 0
        if "skip" in kwargs:
            skip = bounds.skip_argument(kwargs.pop("skip"))
            pipeline.append({"$skip": skip})
        if "limit" in kwargs:
            limit = bounds.limit_argument(kwargs.pop("limit"))
            pipeline.append({"$limit": limit})
        sent = {"aggregate": self.name, "pipeline": [*pipeline, {"$group": {"_id": 1}}]}

        def run() -> int:
            command_options.check(self._coll, hint, collation)
            return reads.count(self._coll, filter, skip, limit)

        return await self._run("aggregate", run, sent=sent)

    async def estimated_document_count(self, comment: Any = None, **kwargs: Any) -> int:
        """The `count` command of the whole collection (0 when it does not exist)."""
        if "session" in kwargs:
            raise ConfigurationError("estimated_document_count does not support sessions")
        return await self._run(
            "count", lambda: reads.count(self._coll, None), sent={"count": self.name}
        )

    async def distinct(
        self,
        key: str,
        filter: Mapping[str, Any] | None = None,
        session: Any = None,
        comment: Any = None,
        hint: Any = None,
        **kwargs: Any,
    ) -> list[Any]:
        if not isinstance(key, str):
            raise TypeError(f"key must be an instance of str, not {type(key)}")
        if filter is not None:
            if "query" in kwargs:
                raise ConfigurationError("can't pass both filter and query")
            kwargs["query"] = filter
        query = kwargs.get("query")
        options = {"hint": _index_hint(hint), "collation": kwargs.get("collation")}
        sent = {"distinct": self.name, "key": key, "query": query or {}}
        return await self._run(
            "distinct", lambda: distinct.distinct(self._coll, key, query, options), sent=sent
        )


def _index_hint(hint: Any) -> Any:
    """A hint as PyMongo sends it: an index name, or a key document (from a list of pairs)."""
    if hint is None or isinstance(hint, str | Mapping):
        return hint
    return dict(hint)


def _options(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a find that PyMongo sends as documents (the rest are small numbers)."""
    return {k: kwargs[k] for k in ("projection", "sort") if kwargs.get(k) is not None}
