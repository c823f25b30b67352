"""The part of PyMongo's async API that `store/` uses.

Both `pymongo.AsyncMongoClient` and the embedded engine satisfy these protocols, so every store
function runs unchanged on either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

Document = dict[str, Any]
Filter = Mapping[str, Any]
Update = Mapping[str, Any] | Sequence[Mapping[str, Any]]


class AsyncCursor(Protocol):
    async def to_list(self, length: int | None = None) -> list[Document]: ...


class AsyncCollection(Protocol):
    @property
    def name(self) -> str: ...

    def find(self, filter: Filter | None = None, *args: Any, **kwargs: Any) -> AsyncCursor: ...

    async def find_one(self, filter: Any | None = None, *args: Any, **kwargs: Any) -> Any: ...

    async def aggregate(self, pipeline: Any, *args: Any, **kwargs: Any) -> Any: ...

    async def count_documents(self, filter: Any, *args: Any, **kwargs: Any) -> int: ...

    async def insert_one(self, document: Any, *args: Any, **kwargs: Any) -> Any: ...

    async def insert_many(self, documents: Any, *args: Any, **kwargs: Any) -> Any: ...

    async def update_one(self, filter: Any, update: Any, *args: Any, **kwargs: Any) -> Any: ...

    async def find_one_and_update(
        self, filter: Any, update: Any, *args: Any, **kwargs: Any
    ) -> Any: ...

    async def delete_one(self, filter: Any, *args: Any, **kwargs: Any) -> Any: ...

    async def delete_many(self, filter: Any, *args: Any, **kwargs: Any) -> Any: ...

    async def bulk_write(self, requests: Any, *args: Any, **kwargs: Any) -> Any: ...

    async def create_indexes(self, indexes: Any, *args: Any, **kwargs: Any) -> Any: ...


class AsyncDatabase(Protocol):
    def __getitem__(self, name: str) -> AsyncCollection: ...

    async def command(self, command: Any, *args: Any, **kwargs: Any) -> Any: ...
