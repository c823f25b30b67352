"""Values kept per syntax-tree node, or per several, for as long as the nodes live.

A cached document's nodes are the same objects in every request that sends it, so what is
worked out from them (a field's literal arguments, an operation's plans, the page a user's
orders will ask for) can be kept by their identity. The nodes are held weakly: an entry goes
when one of its nodes does (with its document: an uncached one after its request, a cached
one when the cache lets it go), so no syntax tree outlives its document for a memo's sake, and
an id an entry is keyed by is its node's for as long as the entry lives.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

N = TypeVar("N")
V = TypeVar("V")


class NodeKeyed(Generic[N, V]):
    """`value` by `nodes` (identity, held weakly); at most `limit` entries, then all go at once
    (None: as many as live)."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self._entries: dict[tuple[int, ...], tuple[tuple[weakref.ref[N], ...], V]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, nodes: tuple[N, ...]) -> V | None:
        if len(nodes) == 1:  # the common key (a request reads a few each)
            node = nodes[0]
            found = self._entries.get((id(node),))
            return None if found is None or found[0][0]() is not node else found[1]
        found = self._entries.get(tuple(map(id, nodes)))
        if found is None:
            return None
        for ref, node in zip(found[0], nodes, strict=True):  # their ids are the key
            if ref() is not node:
                return None
        return found[1]

    def put(self, nodes: tuple[N, ...], value: V) -> V:
        if self.limit is not None and len(self._entries) >= self.limit:
            self._entries.clear()
        ids = tuple(map(id, nodes))
        forget = self._forgetting(ids)
        self._entries[ids] = (tuple(weakref.ref(node, forget) for node in nodes), value)
        return value

    def _forgetting(self, ids: tuple[int, ...]) -> Callable[[weakref.ref[N]], None]:
        def forget(ref: weakref.ref[N]) -> None:
            found = self._entries.get(ids)
            if found is not None and ref in found[0]:  # not a newer entry's, at those ids
                del self._entries[ids]

        return forget
