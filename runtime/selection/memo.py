"""What a resolver derives from a field's selection, remembered while its document lives.

A cached document's nodes are the same objects in every request that sends it, so a resolver that
works something out from the fields under its own (the page a user's `orders` will ask for, a
visible share of an orders page's time) need do it once per field and values of the variables those
fields' arguments read. The memo holds the field nodes weakly (`runtime.node_keyed`): an entry goes
with its document, so it never keeps a syntax tree alive however many distinct documents clients
send.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import strawberry
from graphql import FieldNode, GraphQLResolveInfo
from strawberry.types.nodes import get_variable_values

from runtime.node_keyed import NodeKeyed
from runtime.selection.fields import selected, variables_in

T = TypeVar("T")
_MISSING: Any = object()


@dataclass(slots=True)
class _Entry(Generic[T]):
    """One field's: the variables its arguments read, and the answers by `extra` and those
    variables' values."""

    reads: tuple[str, ...]
    answers: dict[tuple[Hashable, ...], T] = field(default_factory=dict)


class SelectionMemo(Generic[T]):
    """`compute()`'s answer for the fields called `name` under the resolver's own, per field
    (its nodes), values of the variables their arguments read, and `extra`; at most `limit`
    fields, and `limit` answers a field."""

    def __init__(self, name: str, limit: int = 4096) -> None:
        self.name = name
        self.limit = limit
        self._entries = NodeKeyed[FieldNode, _Entry[T]](limit)

    def get(self, info: strawberry.Info[Any, Any], compute: Callable[[], T], *extra: Hashable) -> T:
        raw: GraphQLResolveInfo[Any] = info._raw_info
        nodes = tuple(raw.field_nodes)
        entry = self._entries.get(nodes)
        if entry is None:
            entry = self._entries.put(nodes, _Entry(self._reads(info)))
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

    def _reads(self, info: strawberry.Info[Any, Any]) -> tuple[str, ...]:
        """The variables that the arguments of the fields called `name` read."""
        reads = {
            variable
            for found in selected(info, self.name)
            for argument in found.node.arguments or ()
            for variable in variables_in(argument.value)
        }
        return tuple(sorted(reads))
