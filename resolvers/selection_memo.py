"""What a resolver derives from a field's selection, remembered while its document lives.

A cached document's nodes are the same objects in every request that sends it, so a resolver
that works something out from the fields under its own (the page a user's `orders` will ask
for: some 11 µs of an orders page) need do it once per field and values of the variables those
fields' arguments read. The memo holds the field nodes weakly: an entry goes with its document
(an uncached one after its request, a cached one when the cache lets it go), so it never keeps
a syntax tree alive however many distinct documents clients send, and an id it is keyed by is
its node's for as long as the entry lives.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import strawberry
from graphql import FieldNode, GraphQLResolveInfo
from strawberry.types.nodes import get_variable_values

from resolvers.selection import selected, variables_in

T = TypeVar("T")
_MISSING: Any = object()


@dataclass(slots=True)
class _Entry(Generic[T]):
    """One field's: its nodes (weakly), the variables its arguments read, and the answers by
    `extra` and those variables' values."""

    nodes: tuple[weakref.ref[FieldNode], ...]
    reads: tuple[str, ...]
    answers: dict[tuple[Hashable, ...], T] = field(default_factory=dict)


class SelectionMemo(Generic[T]):
    """`compute()`'s answer for the fields called `name` under the resolver's own, per field
    (its nodes), values of the variables their arguments read, and `extra`; at most `limit`
    fields, and `limit` answers a field."""

    def __init__(self, name: str, limit: int = 4096) -> None:
        self.name = name
        self.limit = limit
        self._entries: dict[tuple[int, ...], _Entry[T]] = {}

    def get(self, info: strawberry.Info[Any, Any], compute: Callable[[], T], *extra: Hashable) -> T:
        raw: GraphQLResolveInfo[Any] = info._raw_info
        nodes = tuple(raw.field_nodes)
        ids = tuple(map(id, nodes))
        entry = self._entries.get(ids)
        if entry is None or any(
            ref() is not node for ref, node in zip(entry.nodes, nodes, strict=True)
        ):
            entry = self._entry(info, nodes, ids)
        values = get_variable_values(raw)
        key = (extra, tuple(values.get(name) for name in entry.reads))
        try:
            found = entry.answers.get(key, _MISSING)
        except TypeError:  # a variable's value is a list or an object: not remembered
            return compute()
        if found is _MISSING:
            if len(entry.answers) >= self.limit:
                entry.answers.clear()
            found = entry.answers[key] = compute()
        return found  # type: ignore[no-any-return]

    def _entry(
        self, info: strawberry.Info[Any, Any], nodes: tuple[FieldNode, ...], ids: tuple[int, ...]
    ) -> _Entry[T]:
        reads = {
            variable
            for found in selected(info, self.name)
            for argument in found.node.arguments or ()
            for variable in variables_in(argument.value)
        }
        if len(self._entries) >= self.limit:
            self._entries.clear()
        refs = tuple(weakref.ref(node, self._forgetting(ids)) for node in nodes)
        entry = self._entries[ids] = _Entry(refs, tuple(sorted(reads)))
        return entry

    def _forgetting(self, ids: tuple[int, ...]) -> Callable[[weakref.ref[FieldNode]], None]:
        def forget(ref: weakref.ref[FieldNode]) -> None:
            entry = self._entries.get(ids)
            if entry is not None and ref in entry.nodes:  # not a newer field's, at those ids
                del self._entries[ids]

        return forget
