"""`runtime/node_keyed.py`: values kept per syntax-tree node, by identity, while it lives."""

from __future__ import annotations

import gc

from graphql import FieldNode, OperationDefinitionNode, parse

from runtime.node_keyed import NodeKeyed


def _field(text: str) -> FieldNode:
    operation = parse(text).definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    node = operation.selection_set.selections[0]
    assert isinstance(node, FieldNode)
    return node


def test_node_keyed_answers_for_its_node_only() -> None:
    kept = NodeKeyed[FieldNode, str]()
    node, twin = _field("{ a(x: 1) }"), _field("{ a(x: 1) }")
    kept.put((node,), "found")
    assert kept.get((node,)) == "found"
    assert kept.get((twin,)) is None  # an equal node of another document


def test_node_keyed_entry_goes_with_its_node() -> None:
    kept = NodeKeyed[FieldNode, str]()
    kept.put((_field("{ a }"),), "gone")
    gc.collect()
    assert len(kept) == 0


def test_node_keyed_starts_again_past_its_limit() -> None:
    kept = NodeKeyed[FieldNode, int](limit=2)
    nodes = [_field("{ a }") for _ in range(3)]
    for number, node in enumerate(nodes):
        kept.put((node,), number)
    assert len(kept) == 1 and kept.get((nodes[2],)) == 2


def test_node_keyed_answers_for_its_nodes_together_only() -> None:
    kept = NodeKeyed[FieldNode, str]()
    first, second = _field("{ a }"), _field("{ b }")
    kept.put((first, second), "pair")
    assert kept.get((first, second)) == "pair"
    assert kept.get((second, first)) is None
    assert kept.get((first,)) is None
