"""The bucket pattern: an owner's items appended to capped "bucket" documents, in order, with
any number of concurrent writers on any number of server instances. A customer's trades
(`store/trades.py`) and a chat session's messages (`store/chat/chat_pages.py`) are both kept so;
each declares its `BucketLayout`.

A bucket is `{_id, <owner field>, page, count, <items field>: [...], sealed?, before?}`, with a
unique index on (owner, page). Invariants, and why they hold by construction:
- items go only into the newest bucket: a push targets the owner's highest page (found on the
  index, by its sort) and takes what room it has (none when full or sealed), and a bucket is
  opened only after the newest one was seen full. A size raised over stored buckets therefore
  fills the newest up to the new size (unless it is sealed) and never reopens an older one;
- two writers never open two buckets for one page: the page is the newest's plus one and
  (owner, page) is unique, so the second insert fails with E11000;
- the loser of that race pushes into the newest bucket again, which is now the winner's: it
  joins it, or, when it is full already, learns so from the same command and opens the next
  one; every race lost means another writer stored a full bucket, so a writer that keeps losing
  still finishes once the others have;
- no bucket holds more than `size`: a push takes at most `size - count` items (none when the
  bucket is full), in one atomic update;
- an owner's buckets are walked by page, on the unique (owner, page) index, never by a pattern
  (`_id`s keep the article's format, but older data's `_id`s need not sort in page order);
- a bucket may hold fewer than `size` items and not be the newest (the articles' own buckets,
  sealed by `arraygraph migrate`): nothing is pushed into a sealed bucket, and walks read on
  until they have enough items.

**Sealed before it is followed.** A bucket is sealed (`sealed: true`, never pushed into again,
whatever size any writer runs with) by the push that leaves it full or finds it full, in that
same atomic update; a call that inserts several buckets inserts all but its last sealed. This
code opens a bucket after another only once that one is sealed, so every bucket but the newest
is sealed and its count is final.

**`before`: counts from the newest bucket alone.** A bucket this code opens holds `before`, the
number of items in the owner's earlier buckets, when that number is known to be final: the
first bucket (0), or the bucket after one that is sealed and holds `before` itself (its
`before + count`, read by the command that sealed it, or written by the same insert). By
induction, a bucket that holds `before` has every earlier bucket sealed, each holding `before`
too, and sealed buckets never change: so the owner's items are the newest bucket's
`before + count` and its buckets its page, from one indexed read. Buckets written otherwise
(the articles' code, older versions of this code, a direct write) lack `before`, and so does
every bucket opened after one of them: their owners' counts are summed over every bucket (an
aggregation). `arraygraph migrate` renumbers pages, so it removes `before` from the buckets of
every owner it renumbers.

A call spanning several buckets is several writes (no transaction): if it stored part of
itself, it keeps going until all is stored. Only a call that stored nothing gives up, after
losing races for `MAX_CONTENTION_SECONDS`, with `WriteContention` (nothing stored, retry).
Reads (pages, walks, counts) are in `store/buckets/bucket_reads.py`.

**Numbered, keyed items** (chat messages): a layout may keep its position as the number of its
first item (`firstSeq`: `before` plus 1, always known, as every such bucket is opened by this
code), number each item in its owner's order (`seq`: the position plus its place in the
bucket, computed by the database in the push that stores it), and list its items' keys
(`clientIds`, unique per owner across buckets by a unique index): a push none of whose keys
the bucket holds stores them with the items; one that finds a key held, or an insert that
the keys' index refuses, stores nothing and raises `KeyHeld`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from bson import ObjectId
from pymongo import ReturnDocument
from pymongo.errors import BulkWriteError, DuplicateKeyError

from store.buckets.bucket_layout import (
    DUPLICATE_KEY,
    MAX_CONTENTION_SECONDS,
    SEALED,
    BucketLayout,
    BucketState,
    KeyHeld,
    Placement,
    new_bucket,
)
from store.errors import WriteContention
from store.expressions import literal
from store.protocols import AsyncCollection, Document


def _taken(layout: BucketLayout, items: Sequence[Document], room: Any) -> Any:
    """The items a push stores (as many as `room`), numbered where the layout numbers them."""
    if layout.item_number is None:
        return {"$slice": [literal(list(items)), room]}
    number = {"$add": [f"${layout.position_field}", "$count", "$$i"]}
    return {
        "$map": {
            "input": {"$range": [0, {"$min": [room, len(items)]}]},
            "as": "i",
            "in": {
                "$mergeObjects": [
                    {"$arrayElemAt": [literal(list(items)), "$$i"]},
                    {layout.item_number: number},
                ]
            },
        }
    }


def _append_pipeline(layout: BucketLayout, items: Sequence[Document], size: int) -> list[Any]:
    """Append as many of `items` as fit (`size - count`, none when full or sealed, or when
    the bucket holds one of their keys), count them, and seal the bucket when left full."""
    field = layout.items_field
    sealed = {"$eq": [{"$ifNull": [f"${SEALED}", False]}, True]}
    blocked: Any = sealed
    keys = layout.keys(items)
    held_keys = {"$ifNull": [f"${layout.keys_field}", []]}
    if any(key is not None for key in keys):
        held = [{"$in": [literal(key), held_keys]} for key in keys if key is not None]
        blocked = {"$or": [sealed, *held]}
    room = {"$cond": [blocked, 0, {"$max": [0, {"$subtract": [size, "$count"]}]}]}
    full = {"$gte": ["$count", size]}
    added: dict[str, Any] = {
        field: {"$concatArrays": [{"$ifNull": [f"${field}", []]}, _taken(layout, items, room)]},
        "count": {"$add": ["$count", {"$min": [room, len(items)]}]},
    }
    if any(key is not None for key in keys):
        taken_keys = {"$slice": [literal(keys), room]}
        fresh = {"$filter": {"input": taken_keys, "cond": {"$ne": ["$$this", None]}}}
        added[str(layout.keys_field)] = {"$concatArrays": [held_keys, fresh]}
    return [
        {"$set": added},
        # `$count` is the new count here: a full bucket's count is final from this update on.
        {"$set": {SEALED: {"$cond": [{"$or": [sealed, full]}, True, "$$REMOVE"]}}},
    ]


def _projection(layout: BucketLayout, items: Sequence[Document]) -> dict[str, Any]:
    projection: dict[str, Any] = {"_id": 1, "page": 1, "count": 1, SEALED: 1}
    projection[layout.position_field] = 1
    keys = [key for key in layout.keys(items) if key is not None]
    if keys:  # which of them the bucket held: its own list may be long
        held = {"$ifNull": [f"${layout.keys_field}", []]}
        listed = literal(keys)
        projection["held"] = {"$filter": {"input": held, "cond": {"$in": ["$$this", listed]}}}
    return projection


async def _push(
    coll: AsyncCollection,
    layout: BucketLayout,
    owner: Any,
    items: Sequence[Document],
    size: int,
) -> tuple[Placement | None, BucketState | None]:
    """Push as many items as fit into the newest bucket: where they went (None if none did),
    and the bucket's state after (None if the owner has no bucket). One command."""
    try:
        before = await coll.find_one_and_update(
            {layout.owner_field: owner},
            _append_pipeline(layout, items, size),
            sort=[("page", -1)],
            projection=_projection(layout, items),
            return_document=ReturnDocument.BEFORE,
        )
    except DuplicateKeyError:
        if layout.keys_field is None:
            raise
        raise KeyHeld from None  # another bucket holds a key: the keys' index refused it
    if before is None:
        return None, None
    if before.get("held"):
        raise KeyHeld
    start = int(before["count"])
    sealed = before.get(SEALED) is True
    taken = 0 if sealed else min(len(items), max(0, size - start))
    state = BucketState(
        before["_id"],
        int(before["page"]),
        start + taken,
        sealed or start + taken >= size,
        layout.position(before),
    )
    return (Placement(state, start, taken) if taken else None), state


def _new_buckets(
    layout: BucketLayout,
    owner: Any,
    newest: BucketState | None,
    items: Sequence[Document],
    size: int,
) -> list[tuple[BucketState, Document]]:
    """The buckets after `newest` (sealed, or None) holding `items`, all but the last sealed."""
    page = layout.first_page if newest is None else newest.page + 1
    previous = None if newest is None else newest.id
    before: int | None = 0
    if newest is not None:
        before = None
        if newest.sealed and newest.before is not None:
            before = newest.before + newest.count
    made = []
    for start in range(0, len(items), size):
        taken = list(items[start : start + size])
        sealed = start + size < len(items)
        made_id = layout.bucket_id or (lambda owner, first, previous: ObjectId())
        state = BucketState(made_id(owner, taken[0], previous), page, len(taken), sealed, before)
        made.append((state, new_bucket(layout, owner, state, taken)))
        if before is not None:
            before += len(taken)
        page, previous = page + 1, state.id
    return made


def _inserted_before_a_duplicate(layout: BucketLayout, error: BulkWriteError) -> int:
    """How many documents of an ordered insert went in before the one a race took; any
    error but a duplicate key is raised again, and a duplicate key of the layout's keys
    (or one a server does not name) is `KeyHeld`."""
    errors = error.details.get("writeErrors") or []
    if not errors or any(e.get("code") != DUPLICATE_KEY for e in errors):
        raise error
    if layout.keys_field is not None:
        pattern = errors[0].get("keyPattern")
        if not isinstance(pattern, dict) or layout.keys_field in pattern:
            raise KeyHeld from error
    return int(errors[0]["index"])


async def _open(
    coll: AsyncCollection,
    layout: BucketLayout,
    owner: Any,
    newest: BucketState | None,
    items: Sequence[Document],
    size: int,
) -> tuple[list[Placement], int | None]:
    """Insert the buckets after `newest` holding `items`, in one command (an ordered insert):
    where items went, and the page another writer opened (or whose `_id` it took) first, at
    which the insert stopped (None when every bucket went in)."""
    made = _new_buckets(layout, owner, newest, items, size)
    inserted = len(made)
    try:
        await coll.insert_many([doc for _, doc in made], ordered=True)
    except BulkWriteError as error:
        inserted = _inserted_before_a_duplicate(layout, error)
    placements = [Placement(state, 0, state.count) for state, _ in made[:inserted]]
    return placements, (None if inserted == len(made) else made[inserted][0].page)


async def append(
    coll: AsyncCollection,
    *,
    layout: BucketLayout,
    owner: Any,
    items: Sequence[Document],
    size: int,
    open_first: bool = True,
    clock: Callable[[], float] = time.monotonic,
) -> list[Placement]:
    """Append `items` in order; where each run of them went, in order (none when the owner
    has no bucket and `open_first` is False).

    One command when they fit the newest bucket; two when they need new buckets, however many
    (the push that fills or finds the newest full, and one insert of every new bucket); two
    more for each race lost to another writer (push into the winner's bucket, insert again).
    """
    placements: list[Placement] = []
    remaining = list(items)
    lost_at, started = layout.first_page - 1, clock()
    while True:
        placed, newest = await _push(coll, layout, owner, remaining, size)
        if placed is not None:
            placements.append(placed)
            remaining = remaining[placed.count :]
        if not remaining or (newest is None and not open_first):
            return placements
        opened, lost = await _open(coll, layout, owner, newest, remaining, size)
        placements += opened
        remaining = remaining[sum(p.count for p in opened) :]
        if lost is None:
            return placements
        if lost <= lost_at:  # not opened, and not found by the push: something else holds it
            raise RuntimeError(f"bucket {lost} of {owner!r} cannot be opened or found")
        lost_at = lost
        if not placements and clock() - started > MAX_CONTENTION_SECONDS:
            raise WriteContention(
                f"{layout.items_field}: other writers kept winning the race for a new "
                f"bucket for {MAX_CONTENTION_SECONDS:.0f} s; nothing of this call was "
                "stored, retry"
            )
