"""The ids of `node(id:)` and `nodes(ids:)`: each read as a global id of one of the kinds the
schema's Node types declare (resolvers/global_ids.py: `NodeKind`), all checked before any read.
Which kinds there are, and how each loads, is the schema's to say: this knows no domain."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from resolvers import validation
from resolvers.errors import BadUserInput, shown
from resolvers.global_ids import Key, NodeKind, global_id_of
from settings import MAX_NODES_PER_QUERY


def node_key(value: str, kinds: Mapping[str, NodeKind], *, argument: str) -> tuple[str, Key]:
    """The type and key of a global id of one of `kinds`; BadUserInput for anything else."""
    found = global_id_of(value, kinds)
    if found is None:
        raise BadUserInput(
            f"{argument}: {shown(value)} is not a global object id", argument=argument
        )
    kind, key = found
    return kind.type_name, key


def node_keys(ids: Sequence[str], kinds: Mapping[str, NodeKind]) -> list[tuple[str, Key]]:
    """Each of `ids`, in order, read as `node_key` reads one; at most MAX_NODES_PER_QUERY."""
    validation.at_most(ids, MAX_NODES_PER_QUERY, argument="ids")
    return [node_key(value, kinds, argument=f"ids[{i}]") for i, value in enumerate(ids)]
