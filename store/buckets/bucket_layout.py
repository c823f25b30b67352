"""A bucket's shape (`store/buckets/buckets.py` appends to buckets,
`store/buckets/bucket_reads.py` reads them): which fields hold its owner, items, position and
keys, what a write learns of a bucket, and a new bucket's document."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from store.protocols import Document

# Set on a bucket that must never take another item (see `store/buckets/buckets.py`).
SEALED = "sealed"
# The items in the owner's earlier buckets, where known to be final (see
# `store/buckets/buckets.py`).
BEFORE = "before"
DUPLICATE_KEY = 11000
# How long a call that has stored nothing keeps losing races before it gives up. A count would
# be wrong: every race lost means another writer stored a full bucket, so under N concurrent
# writers a call waits in line behind up to N - 1 of them (hundreds of races at 64 writers).
# Waits are not fair: under many writers on one owner the unluckiest call waits for most of the
# run (tests/trades/test_bucket_races.py), so the limit only stops a call that can never win,
# and is not a latency target.
MAX_CONTENTION_SECONDS = 120.0


class KeyHeld(Exception):
    """An item's key is held already, by the newest bucket or another one: nothing stored."""


@dataclass(frozen=True, slots=True)
class BucketLayout:
    owner_field: str  # "customerId"
    items_field: str  # "history"
    first_page: int
    # The `_id` of a new bucket: (owner, its first item, the previous bucket's `_id` or None);
    # None: an ObjectId.
    bucket_id: Callable[[Any, Document, Any], Any] | None = None
    # Where a bucket keeps the number of its owner's earlier items, plus `position_offset`.
    position_field: str = BEFORE
    position_offset: int = 0
    item_number: str | None = None  # each item's number in its owner's order (see module doc)
    keys_field: str | None = None  # the bucket's list of its items' keys (see module doc)
    item_key: str | None = None  # where an item holds its key, if it has one

    def keys(self, items: Sequence[Document]) -> list[Any]:
        """Each item's key (None: it has none), in order; none at all unless keyed."""
        if self.keys_field is None or self.item_key is None:
            return []
        return [item.get(self.item_key) for item in items]

    def position(self, doc: Document) -> int | None:
        """The owner's items before the bucket, where the bucket knows it."""
        value = doc.get(self.position_field)
        return value - self.position_offset if type(value) is int else None


@dataclass(frozen=True, slots=True)
class BucketState:
    id: Any
    page: int
    count: int
    sealed: bool = False  # takes nothing more, though it may hold fewer than `size`
    before: int | None = None  # items in the owner's earlier buckets, when known final


@dataclass(frozen=True, slots=True)
class Placement:
    """Where some items of a call went: `count` items into `bucket.page`, from index `start`."""

    bucket: BucketState  # as this write left it
    start: int
    count: int


def new_bucket(
    layout: BucketLayout, owner: Any, state: BucketState, items: list[Document]
) -> Document:
    doc: Document = {"_id": state.id, layout.owner_field: owner, "page": state.page}
    doc["count"] = len(items)
    if state.before is not None:
        doc[layout.position_field] = state.before + layout.position_offset
        if layout.item_number is not None:
            first = state.before + layout.position_offset
            items = [{**item, layout.item_number: first + i} for i, item in enumerate(items)]
    elif layout.item_number is not None:
        raise RuntimeError(f"page {state.page} of {owner!r}: the numbers before it are unknown")
    doc[layout.items_field] = items
    if layout.keys_field is not None:
        doc[layout.keys_field] = [key for key in layout.keys(items) if key is not None]
    if state.sealed:
        doc[SEALED] = True
    return doc
