"""The ways a read can find its documents through the indexes of `embedded.planner.indexes`.

- `_id` values (an equality or `$in` of plain `_id`s): the documents' dictionary finds each by
  hashing, as the `_id` index finds it;
- `Ranges`: the entries of one index whose leading fields hold the keys a filter requires
  (`embedded.planner.conditions`): several keys on each leading field, then ranges on the next; a
  unique index found by its whole key is a hash lookup;
- `Walk`: one index's entries in the order of a sort that its fields give, after leading fields
  held to one key each, so that a sorted page stops where the page ends; under a top-level
  `$or`, only the entries one of its branches may match.

Each says how many documents it examines (its cost), exceptions of the index included.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bson import ObjectId

from embedded import bson_order
from embedded.planner.conditions import Interval, Required, is_point
from embedded.planner.index_keys import TOP, Key, Keys
from embedded.planner.sorted_index import Index

Span = tuple[int, int]  # positions in an index's entries, end excluded
# Keys of leading fields combined; past this, fewer fields are used: finding a key (two
# bisections, its span merged) costs several times reading an entry and checking its document
# (an `$in` by a set lookup, `embedded.planner.fast_filters`).
_MAX_PREFIXES = 1024


@dataclass(frozen=True, slots=True)
class Ranges:
    index: Index
    spans: list[Span]
    hashed: list[Keys] | None  # whole keys of a unique index, found by hashing instead

    @property
    def cost(self) -> int:
        exceptions = len(self.index.exceptions)
        if self.hashed is not None and self.index.by_key is not None:
            return exceptions + sum(len(self.index.by_key.get(k, ())) for k in self.hashed)
        return exceptions + sum(end - start for start, end in self.spans)

    def seqs(self) -> set[int]:
        found = set(self.index.exceptions)
        if self.hashed is not None and self.index.by_key is not None:
            for keys in self.hashed:
                found.update(self.index.by_key.get(keys, ()))
            return found
        entries = self.index.entries
        for start, end in self.spans:
            found.update(entries[position][1] for position in range(start, end))
        return found


@dataclass(frozen=True, slots=True)
class Walk:
    index: Index
    spans: list[Span]
    descending: bool
    sort_keys: slice  # the part of an entry's keys that the sort compares

    def cost(self, wanted: int) -> int:
        """Documents examined for `wanted` of them (all, when the sort keys are all equal)."""
        entries = sum(end - start for start, end in self.spans)
        ties = self.sort_keys.start == self.sort_keys.stop
        return len(self.index.exceptions) + (entries if ties else min(wanted, entries))

    def positions(self) -> Iterator[int]:
        if not self.descending:
            for start, end in self.spans:
                yield from range(start, end)
            return
        for start, end in reversed(self.spans):
            yield from range(end - 1, start - 1, -1)


def id_values(filter: Mapping[str, Any]) -> list[Any] | None:
    """The `_id`s an `{_id: value}`, `{_id: {$eq: value}}` or `{_id: {$in: [...]}}` condition
    names, when each is plain: a string, a whole number, a finite double, an ObjectId, a date,
    or a subdocument of these (no operator); None otherwise (a pattern, NaN, a range...)."""
    if "_id" not in filter:
        return None
    value = filter["_id"]
    if isinstance(value, Mapping) and any(str(key).startswith("$") for key in value):
        if len(value) != 1:
            return None
        [(operator, argument)] = value.items()
        if operator == "$eq":
            values = [argument]
        elif operator == "$in" and isinstance(argument, list):
            values = argument
        else:
            return None
    else:
        values = [value]
    return values if all(_plain_id(v) for v in values) else None


def _plain_id(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, str | int | ObjectId | datetime):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, Mapping):
        return all(
            isinstance(key, str) and not key.startswith("$") and _plain_id(item)
            for key, item in value.items()
        )
    return False


def same_id(a: Any, b: Any) -> bool:
    """BSON equality of two `_id`s: a subdocument's fields compare in order."""
    return bson_order.equal(a, b)


def ranges(index: Index, required: Required) -> Ranges | None:
    """The entries of `index` that may match, when the filter constrains its first field."""
    prefixes: list[Keys] = [()]
    for field in index.fields:
        wanted = required.get(field)
        if wanted is None:
            break
        if not all(is_point(interval) for interval in wanted):
            spans = [index.span(p + _low(i), p + _high(i)) for p in prefixes for i in wanted]
            return Ranges(index, merged(spans), None)
        points = list(dict.fromkeys(interval[0] for interval in wanted))
        if len(prefixes) * len(points) > _MAX_PREFIXES:
            break
        prefixes = [(*p, key) for p in prefixes for key in points]
    if prefixes == [()]:
        return None
    if not prefixes:
        return Ranges(index, [], None)  # conditions no key meets: only exceptions may match
    whole = len(prefixes[0]) == len(index.fields) and index.by_key is not None
    spans = [] if whole else merged([index.span(p, (*p, TOP)) for p in prefixes])
    return Ranges(index, spans, prefixes if whole else None)


def walk(
    index: Index,
    required: Required,
    sort: Sequence[tuple[str, int]],
    alternatives: Sequence[Required] | None = None,
) -> Walk | None:
    """`index` walked in `sort`'s order, when its fields give it: leading fields held to one
    key each, then the sort's fields, all in one direction; with the `alternatives` of a
    top-level `$or` (`conditions.alternatives`), only the entries one of them may match."""
    fixed: Keys = ()
    for field in index.fields:
        wanted = required.get(field)
        if wanted is None or len(wanted) != 1 or not is_point(wanted[0]):
            break
        fixed += (wanted[0][0],)
    start = len(fixed)
    rest = [(field, direction) for field, direction in sort if field not in index.fields[:start]]
    fields = [field for field, _ in rest]
    if fields != list(index.fields[start : start + len(rest)]):
        return None
    if len({direction for _, direction in rest}) > 1:
        return None
    wanted = required.get(index.fields[start]) if start < len(index.fields) else None
    if wanted is not None:
        spans = merged([index.span(fixed + _low(i), fixed + _high(i)) for i in wanted])
    else:
        spans = [index.span(fixed, (*fixed, TOP))]
    if alternatives:
        spans = _narrowed(index, spans, alternatives)
    descending = bool(rest) and rest[0][1] == -1
    return Walk(index, spans, descending, slice(start, start + len(rest)))


def _narrowed(index: Index, spans: list[Span], alternatives: Sequence[Required]) -> list[Span]:
    """`spans` cut to the entries that some alternative's ranges hold, when every alternative
    constrains the index's first field (`spans` as they are otherwise). A cursor's keyset
    `$or` (a later title, or the same title and a later id) so starts right after the cursor,
    not at the first entry of its title."""
    each: list[Span] = []
    for alternative in alternatives:
        found = ranges(index, alternative)
        if found is None:
            return spans
        if found.hashed is not None:
            each += [index.span(keys, (*keys, TOP)) for keys in found.hashed]
        else:
            each += found.spans
    return _intersection(spans, merged(each))


def _intersection(a: list[Span], b: list[Span]) -> list[Span]:
    """The positions in both lists of ordered, disjoint spans."""
    found: list[Span] = []
    i = j = 0
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if start < end:
            found.append((start, end))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return found


def _low(interval: Interval) -> tuple[Key, ...]:
    low, included = interval[0], interval[1]
    return (low,) if included else (low, TOP)


def _high(interval: Interval) -> tuple[Key, ...]:
    high, included = interval[2], interval[3]
    return (high, TOP) if included else (high,)


def merged(spans: list[Span]) -> list[Span]:
    """Spans in order, overlapping ones joined (each position once), empty ones left out."""
    found: list[Span] = []
    for start, end in sorted(spans):
        if end <= start:
            continue
        if found and start <= found[-1][1]:
            found[-1] = (found[-1][0], max(end, found[-1][1]))
        else:
            found.append((start, end))
    return found
