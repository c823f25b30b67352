"""A collection's stored documents with their indexes, kept exact by every write.

`IndexedDocuments` takes the place of mongomock-ng's dictionary of a collection's documents
(`embedded.mongomock_internals.indexed_documents`): every write that mongomock-ng or the engine
makes to a collection (an insert and its rollback, a replacement and its rollback, a delete, a
TTL expiry) goes through its `__setitem__` and `__delitem__`, which keep the indexes in step, and
a drop puts a new dictionary in its place, which `table_of` indexes again. Its indexes are the
`_id`'s, in order (`by_id`; the dictionary itself finds an `_id` by hashing), and each declared
index (`createIndexes`), built when first seen and dropped with its declaration.

Keys are `bson_order.hash_key`s of the key mongomock-ng or the engine files a document under
(its `_id`, or `mongomock_internals.store_key` of it), so that `_id`s BSON deems equal share one
(1, 1.0 and `Decimal128("1")`) and no others do (`true` and 1), as in a server's `_id` index.

Each document has a `seq`, its place in natural order (insertion order; a replaced document
keeps its place), so that what an index finds can be given back in the order a scan gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping, ValuesView
from typing import Any

from bson import ObjectId

from embedded import mongomock_internals as mongomock
from embedded.bson_order import hash_key
from embedded.planner.index_keys import value_key
from embedded.planner.sorted_index import Index
from embedded.protocols import Document

_AS_IS = frozenset({str, ObjectId, int})  # the commonest `_id`s, their own `hash_key`


class IndexedDocuments(MutableMapping[Any, Document]):
    """Stored documents by their store key (`mongomock_internals.store_key` of the `_id`),
    filed under its `hash_key`."""

    def __init__(self, documents: Mapping[Any, Document] | None = None) -> None:
        self._documents: dict[Any, Document] = {}
        self._seqs: dict[Any, int] = {}
        self._keys: dict[int, Any] = {}  # seq -> store key
        self._next = 0
        self.by_id = Index(("_id",))
        self.declared: dict[str, Index] = {}
        self._names: list[str] = []
        self._declared_as: list[Mapping[str, Any]] = []  # the specs they were built from
        self._declared_ids: tuple[int, ...] = ()  # theirs (held, so their own): one compare
        # Bounds of the BSON size of documents the engine updated
        # (`embedded.writes.document_limits`), each beside the very document it bounds; any other
        # write of the document drops it.
        self._size_bounds: dict[Any, tuple[Document, int]] = {}
        for key, doc in (documents or {}).items():
            self._number(hash_key(key), doc)
        self.by_id.build(self.numbered())

    # The mapping mongomock-ng's CollectionStore uses.

    def __getitem__(self, key: Any) -> Document:
        return self._documents[key if type(key) in _AS_IS else hash_key(key)]

    def __contains__(self, key: object) -> bool:
        return (key if type(key) in _AS_IS else hash_key(key)) in self._documents

    def __iter__(self) -> Iterator[Any]:
        return iter(self._documents)

    def __len__(self) -> int:
        return len(self._documents)

    def values(self) -> ValuesView[Document]:
        return self._documents.values()

    def __setitem__(self, key: Any, doc: Document) -> None:
        key = hash_key(key)
        seq = self._seqs.get(key)
        if seq is None:
            seq = self._number(key, doc)
            for index in self.indexes():
                index.add(seq, doc)
            return
        previous, self._documents[key] = self._documents[key], doc
        self._size_bounds.pop(key, None)
        for index in self.indexes():
            index.replace(seq, doc, previous)

    def __delitem__(self, key: Any) -> None:
        key = hash_key(key)
        del self._documents[key]
        self._size_bounds.pop(key, None)
        seq = self._seqs.pop(key)
        del self._keys[seq]
        for index in self.indexes():
            index.remove(seq)

    # What the planner reads.

    def document(self, seq: int) -> Document:
        return self._documents[self._keys[seq]]

    def filed_under(self, key: Any) -> Document | None:
        """The document filed under store key `key`, if any (one hash lookup)."""
        return self._documents.get(key if type(key) in _AS_IS else hash_key(key))

    def size_bound(self, key: Any, doc: Document) -> int | None:
        """A bound of the BSON size of `doc`, filed under `key`, when one is known."""
        found = self._size_bounds.get(hash_key(key))
        return found[1] if found is not None and found[0] is doc else None

    def keep_size_bound(self, key: Any, doc: Document, bound: int) -> None:
        """`bound` bounds the size of `doc`, just stored under `key`."""
        self._size_bounds[hash_key(key)] = (doc, bound)

    def seq(self, key: Any) -> int:
        return self._seqs[hash_key(key)]

    def numbered(self) -> Iterator[tuple[int, Document]]:
        """(seq, document) of every document, in natural order."""
        for key, doc in self._documents.items():
            yield self._seqs[key], doc

    def indexes(self) -> list[Index]:
        return [self.by_id, *self.declared.values()]

    def index_of(self, spec: Mapping[str, Any]) -> Index | None:
        """The declared index built from `spec` (that very object), if it is kept."""
        for name, declared in zip(self._names, self._declared_as, strict=True):
            if declared is spec:
                return self.declared.get(name)
        return None

    def sync(self, specs: Mapping[str, Mapping[str, Any]]) -> None:
        """The declared indexes as `specs` (mongomock-ng's, by name) say: an index is built
        when its declaration first appears, dropped when it goes. Indexes of other kinds than
        ascending and descending fields (text, 2dsphere, hashed) are not kept."""
        if tuple(map(id, specs.values())) == self._declared_ids:
            return
        declared = {}
        for name, spec in specs.items():
            fields = [path for path, direction in spec["key"]]
            if any(direction not in (1, -1) for _, direction in spec["key"]):
                continue
            hashed = bool(spec.get("unique"))
            index = self.declared.get(name)
            if index is None or index.fields != tuple(fields) or (index.by_key is None) == hashed:
                index = Index(fields, hashed=hashed)
                index.build(self.numbered())
            # A unique index without a partial filter holds one document per key at most.
            index.one_per_key = hashed and not spec.get("partialFilterExpression")
            declared[name] = index
        self.declared = declared
        self._names = list(specs)
        self._declared_as = list(specs.values())  # held: compared by identity
        self._declared_ids = tuple(map(id, self._declared_as))

    def sharing(self, name: str, entries: Iterable[tuple[Any, ...]]) -> list[Document] | None:
        """The documents unique index `name` files under one of `entries` (values, one per
        field) and its exceptions, in natural order: every document that may share a key with
        them (a value with no key is an array, a subdocument...: only exceptions can hold
        one). None when the index is not kept."""
        index = self.declared.get(name)
        if index is None or index.by_key is None:
            return None
        found = set(index.exceptions)
        for entry in entries:
            keys = [value_key(value) for value in entry]
            plain = [key for key in keys if key is not None]
            if len(plain) == len(keys):
                found.update(index.by_key.get(tuple(plain), ()))
        return [self.document(seq) for seq in sorted(found)]

    def _number(self, key: Any, doc: Document) -> int:
        seq = self._next
        self._next += 1
        self._documents[key] = doc
        self._seqs[key] = seq
        self._keys[seq] = key
        return seq


def table_of(coll: Any) -> IndexedDocuments:
    """The indexed documents of mongomock-ng collection `coll`, its declarations in step."""
    table = mongomock.indexed_documents(coll, IndexedDocuments)
    table.sync(mongomock.declared_indexes(coll))
    return table
