"""The engine's query planner: which stored documents a read examines, and in what order.

A read's filter (`matching`) is answered from the cheapest access path of
`embedded.planner.access_paths`, or by a scan when none costs less: `_id` values by hashing, the
ranges of an index that the filter requires (`embedded.planner.conditions`), each candidate then
matched against the whole filter, so the answer is the scan's; documents come back in natural order,
as a scan gives them. A sorted read (`ordered`) walks an index in the sort's order when its fields
give it, and stops once the page (skip and limit) is full: it examines what it returns and what the
filter rejects on the way, not the collection. Equal sort keys keep natural order, as the scan's
stable sort keeps it. Under a top-level `$or`, a walk reads only the entries one of its branches may
match (a keyset cursor's page starts right after the cursor). Whatever an index cannot answer
exactly (an exception of the index that the filter matches: an array, NaN...) falls back to the
scan. A count of one condition that an index's keys decide (`counted`) is read off the index's
entries, as a server's covered count is: only its exceptions are examined.

Each read reports the documents it examined (`embedded.examined`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeGuard

from bson import ObjectId

from embedded import examined
from embedded import mongomock_internals as mongomock
from embedded.planner import access_paths, conditions, fast_filters
from embedded.planner.access_paths import Ranges, Walk
from embedded.planner.index_keys import Keys, value_key
from embedded.planner.indexes import IndexedDocuments, table_of
from embedded.planner.sorted_index import Index
from embedded.protocols import Document

Match = Callable[[Document], bool]
# Values that name one key of `_id` or of a unique index: not an array, which names each of its
# elements, nor null, which every document without the field has.
_KEY_VALUES = frozenset({str, int, float, ObjectId})
# `_id` values filed under themselves whose Python equality is BSON's (not numbers: True == 1
# in Python): `{_id: value}` finds its document by one hash lookup.
HASHED_IDS = frozenset({ObjectId, str})


def is_point_read(filter: Any) -> TypeGuard[dict[str, Any]]:
    """Whether `filter` is `{_id: value}` of a value found by one hash lookup."""
    return type(filter) is dict and len(filter) == 1 and type(filter.get("_id")) in HASHED_IDS


def matching(
    coll: Any, filter: Mapping[str, Any], table: IndexedDocuments | None = None, limit: int = 0
) -> list[Document]:
    """The stored documents (not copies) that `filter` (stored datetimes) matches, in natural
    order; `table` is the collection's, when the caller has it. With a `limit`, the first
    `limit` of them, examining no more than it takes to find them (a server's `$limit` after
    `$match`, or a find's limit without a sort)."""
    table = table_of(coll) if table is None else table
    mongomock.expire_documents(coll)
    if is_point_read(filter):  # the common read
        doc = table.filed_under(filter["_id"])
        examined.report(coll, 0 if doc is None else 1)
        return [] if doc is None else [doc]
    by_id = access_paths.id_values(filter)
    if by_id is not None and len(filter) == 1:  # found exactly by key: nothing to match
        found = _by_id(table, by_id)
        found = found[:limit] if limit else found
        examined.report(coll, len(found))
        return found
    candidates = _by_unique_key(table, filter) if by_id is None else None
    if candidates is None:
        candidates = _candidates(table, filter, by_id)
    if candidates is None:
        if limit:
            return _first_matching(coll, list(mongomock.stored_documents(coll)), filter, limit)
        examined.report(coll, len(table))
        return _scan(coll, filter)
    if not candidates:
        mongomock.filter_applies(filter, {})  # an invalid filter fails as on an empty store
    if limit:
        return _first_matching(coll, candidates, filter, limit)
    examined.report(coll, len(candidates))
    match = fast_filters.matcher(filter)
    return [doc for doc in candidates if match(doc)]


def _first_matching(
    coll: Any, candidates: Sequence[Document], filter: Mapping[str, Any], limit: int
) -> list[Document]:
    match = fast_filters.matcher(filter)
    found: list[Document] = []
    count = 0
    for doc in candidates:
        if len(found) >= limit:
            break
        count += 1
        if match(doc):
            found.append(doc)
    examined.report(coll, count)
    return found


def counted(coll: Any, filter: Mapping[str, Any]) -> int | None:
    """How many stored documents `filter` matches, counted on the entries of an index without
    examining them, as a server's covered count does, when the filter is one condition on the
    index's first field that its keys decide (`conditions.decided_by_keys`): only the index's
    exceptions are examined. None when no index decides the filter."""
    field = conditions.decided_by_keys(filter)
    if field is None:
        return None
    table = table_of(coll)
    mongomock.expire_documents(coll)
    required = {field: conditions.required(filter)[field]}
    paths = [
        r
        for i in table.indexes()
        if i.fields[0] == field and (r := access_paths.ranges(i, required))
    ]
    if not paths:
        return None
    best = min(paths, key=lambda r: len(r.index.exceptions))
    exceptions = [table.document(seq) for seq in sorted(best.index.exceptions)]
    examined.report(coll, len(exceptions))
    match = fast_filters.matcher(filter)
    return best.cost - len(exceptions) + sum(1 for doc in exceptions if match(doc))


def examines_at_most_one(coll: Any, filter: Mapping[str, Any]) -> bool:
    """Whether matching `filter` (stored datetimes) examines one stored document at most: a
    lookup by `_id` or by the key of a unique index without a partial filter, or one whose index
    ranges hold one entry (they count every document with the key), or a collection of one."""
    table = table_of(coll)
    if len(filter) == 1 and type(filter.get("_id")) in _KEY_VALUES:  # `{_id: value}`
        return True
    if _unique_key(table, filter) is not None:  # `{field: value}` of a plain unique index
        return True
    return _cost(table, filter, conditions.required(filter)) <= 1


def count(coll: Any, filter: Mapping[str, Any], skip: int = 0, limit: int = 0) -> int:
    found = len(matching(coll, filter)) - skip
    return max(0, min(found, limit) if limit else found)


def ordered(
    coll: Any, filter: Mapping[str, Any], sort: Sequence[tuple[str, Any]], skip: int, limit: int
) -> list[Document] | None:
    """A sorted read's stored documents, skip and limit applied, from an index walked in the
    sort's order; None when no index gives the order, or matching and sorting costs less (the
    caller does that)."""
    if not sort or any(direction not in (1, -1) for _, direction in sort):
        return None
    table = table_of(coll)
    mongomock.expire_documents(coll)
    required = conditions.required(filter)
    wanted = skip + limit if limit else len(table)
    alternatives = conditions.alternatives(filter)
    walks = [
        w for i in table.indexes() if (w := access_paths.walk(i, required, sort, alternatives))
    ]
    if not walks:
        return None
    best = min(walks, key=lambda w: w.cost(wanted))
    if _cost(table, filter, required) <= best.cost(wanted):
        return None  # matching and sorting examines no more
    found = _walk(coll, table, best, fast_filters.matcher(filter), wanted)
    if found is None:
        return None
    return found[skip : skip + limit] if limit else found[skip:]


def _by_id(table: IndexedDocuments, values: list[Any]) -> list[Document]:
    found: dict[int, Document] = {}
    for value in values:
        key = mongomock.store_key(value)
        if key in table:
            doc = table[key]
            if access_paths.same_id(doc["_id"], value):
                found[table.seq(key)] = doc
    return [found[seq] for seq in sorted(found)]


def _unique_key(table: IndexedDocuments, filter: Mapping[str, Any]) -> tuple[Index, Keys] | None:
    """For `{field: value}` naming one key of a plain unique index (one without a partial
    filter), that index and the key; None for any other filter."""
    if len(filter) != 1:
        return None
    [(field, value)] = filter.items()
    key = value_key(value) if type(value) in _KEY_VALUES else None
    if key is None:
        return None
    for index in table.indexes():
        if index.one_per_key and index.fields == (field,):
            return index, (key,)
    return None


def _by_unique_key(table: IndexedDocuments, filter: Mapping[str, Any]) -> list[Document] | None:
    """For `{field: value}` of a plain unique index, the documents `_candidates` finds (those
    filed under the value's key, and the index's exceptions), in natural order, found by
    hashing without working out every index's ranges; None for any other filter."""
    found = _unique_key(table, filter)
    if found is None:
        return None
    index, keys = found
    seqs = index.exceptions | (index.by_key or {}).get(keys, set())
    return [table.document(seq) for seq in sorted(seqs)]


def _cheapest(table: IndexedDocuments, required: conditions.Required) -> Ranges | None:
    paths = [r for i in table.indexes() if (r := access_paths.ranges(i, required))]
    return min(paths, key=lambda r: r.cost) if paths else None


def _cost(table: IndexedDocuments, filter: Mapping[str, Any], required: Any) -> int:
    """What matching `filter` examines, by the cheapest way."""
    by_id = access_paths.id_values(filter)
    if by_id is not None:
        return len(by_id)
    best = _cheapest(table, required)
    return len(table) if best is None else min(best.cost, len(table))


def _candidates(
    table: IndexedDocuments, filter: Mapping[str, Any], by_id: list[Any] | None
) -> list[Document] | None:
    """The documents an index finds for `filter`, in natural order; None to scan."""
    if by_id is not None:
        return _by_id(table, by_id)
    best = _cheapest(table, conditions.required(filter))
    if best is None or best.cost >= len(table):
        return None
    return [table.document(seq) for seq in sorted(best.seqs())]


def _scan(coll: Any, filter: Mapping[str, Any]) -> list[Document]:
    checks = fast_filters.conditions(filter)
    if checks is None:
        return list(mongomock.iter_documents(coll, filter))
    return fast_filters.matching(mongomock.stored_documents(coll), filter, checks)


def _walk(
    coll: Any, table: IndexedDocuments, walk: Walk, match: Match, wanted: int
) -> list[Document] | None:
    """The documents `walk` finds that `match` accepts, until `wanted` of them and the rest of
    their last sort key; None when an exception of the index matches (its place in the order
    is not the index's to give)."""
    count = 0
    for seq in walk.index.exceptions:
        count += 1
        if match(table.document(seq)):
            examined.report(coll, count)
            return None
    found: list[tuple[Keys, int, Document]] = []
    entries = walk.index.entries
    for position in walk.positions():
        keys, seq = entries[position]
        sort_key = keys[walk.sort_keys]
        if len(found) >= wanted and sort_key != found[-1][0]:
            break
        doc = table.document(seq)
        count += 1
        if match(doc):
            found.append((sort_key, seq, doc))
    examined.report(coll, count)
    return _ties_in_natural_order(found)


def _ties_in_natural_order(found: list[tuple[Keys, int, Document]]) -> list[Document]:
    """The documents in sort order; those with equal sort keys in natural order."""
    ordered: list[Document] = []
    start = 0
    for end in range(1, len(found) + 1):
        if end == len(found) or found[end][0] != found[start][0]:
            run = found[start:end]
            if len(run) > 1:
                run.sort(key=lambda item: item[1])
            ordered.extend(doc for _, _, doc in run)
            start = end
    return ordered
