"""One index of a collection: its entries in a server's order, kept exact by every write.

Entries are `(keys, seq)`, in a list sorted by BSON's order of the keys
(`embedded.planner.index_keys`) and then by `seq`, the document's place in the collection's natural
order, so that a walk over a range touches only the entries in it (bisection finds its ends) and
equal keys keep the order a scan gives. A document whose key is not plain (an array in an indexed
field, a subdocument, NaN) is an exception: it has no entry, and every lookup examines it. A unique
index also finds its entries by key, as a hash lookup.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Sequence

from embedded.planner.index_keys import Keys, document_keys
from embedded.protocols import Document

Entry = tuple[Keys, int]
_ABSENT = object()


class Index:
    def __init__(self, fields: Sequence[str], *, hashed: bool = False) -> None:
        self.fields = tuple(fields)
        self._paths = tuple(tuple(field.split(".")) for field in fields)
        self._roots = tuple(dict.fromkeys(path[0] for path in self._paths))  # top-level fields
        self.entries: list[Entry] = []
        self.exceptions: set[int] = set()
        self.by_key: dict[Keys, set[int]] | None = {} if hashed else None
        self.one_per_key = False  # set by its table from the declaration (a plain unique index)
        self._keys: dict[int, Keys | None] = {}  # each document's key, to find its entry

    def build(self, documents: Iterable[tuple[int, Document]]) -> None:
        """Entries for `documents` (seq, document), at once: one sort, not one insert each."""
        for seq, doc in documents:
            keys = self._keys[seq] = document_keys(doc, self._paths)
            if keys is None:
                self.exceptions.add(seq)
                continue
            self.entries.append((keys, seq))
            if self.by_key is not None:
                self.by_key.setdefault(keys, set()).add(seq)
        self.entries.sort()

    def add(self, seq: int, doc: Document) -> None:
        keys = self._keys[seq] = document_keys(doc, self._paths)
        self._insert(seq, keys)

    def replace(self, seq: int, doc: Document, previous: Document) -> None:
        """`doc` now stored as document `seq` in place of `previous`: its entry moves only if
        its key changed. Stored documents are never changed in place: fields that are the same
        objects in both hold the same keys."""
        if all(doc.get(root, _ABSENT) is previous.get(root, _ABSENT) for root in self._roots):
            return
        keys = document_keys(doc, self._paths)
        old = self._keys[seq]
        if keys == old:
            return
        self._delete(seq, old)
        self._keys[seq] = keys
        self._insert(seq, keys)

    def remove(self, seq: int) -> None:
        self._delete(seq, self._keys.pop(seq))

    def span(self, low: Keys, high: Keys) -> tuple[int, int]:
        """The positions of the entries from the probe `low` to before the probe `high`."""
        return bisect_left(self.entries, (low,)), bisect_left(self.entries, (high,))

    def _insert(self, seq: int, keys: Keys | None) -> None:
        if keys is None:
            self.exceptions.add(seq)
            return
        insort(self.entries, (keys, seq))
        if self.by_key is not None:
            self.by_key.setdefault(keys, set()).add(seq)

    def _delete(self, seq: int, keys: Keys | None) -> None:
        if keys is None:
            self.exceptions.discard(seq)
            return
        del self.entries[bisect_left(self.entries, (keys, seq))]
        if self.by_key is not None:
            same = self.by_key[keys]
            same.discard(seq)
            if not same:
                del self.by_key[keys]
