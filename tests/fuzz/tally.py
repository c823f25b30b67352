"""What the fuzz tried, counted over the run: printed at the end of it (tests/fuzz/conftest.py)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import graphql


@dataclass
class Tally:
    operations: int = 0
    snapshots_compared: int = 0
    by_test: Counter[str] = field(default_factory=Counter)
    by_root_field: Counter[str] = field(default_factory=Counter)
    by_status: Counter[int] = field(default_factory=Counter)
    by_code: Counter[str] = field(default_factory=Counter)
    answered_data: int = 0  # answers with some data and no error

    def record(self, test: str, roots: list[str], status: int, codes: list[str]) -> None:
        self.operations += 1
        self.by_test[test] += 1
        self.by_root_field.update(roots or ["(none)"])
        self.by_status[status] += 1
        self.by_code.update(codes)
        if not codes and status == 200:
            self.answered_data += 1

    def lines(self) -> list[str]:
        if not self.operations:
            return []
        out = [
            f"operations sent: {self.operations} (answered without error: {self.answered_data}; "
            f"rejected mutations checked against a snapshot: {self.snapshots_compared})",
            "by test: " + _counts(self.by_test),
            "by HTTP status: " + _counts(self.by_status),
            "errors by extensions.code: " + (_counts(self.by_code) or "none"),
            "by root field:",
        ]
        names = sorted(self.by_root_field.items(), key=lambda item: (-item[1], item[0]))
        out += [f"  {count:>7}  {name}" for name, count in names]
        return out


def _counts(counter: Counter[str] | Counter[int]) -> str:
    ordered = sorted(counter.items(), key=lambda item: (-item[1], str(item[0])))
    return ", ".join(f"{name} {count}" for name, count in ordered)


def root_fields(document: str) -> tuple[str, list[str]]:
    """The operation type and root field names of a document's first operation (through
    fragments at the root): ("?", []) when it does not parse."""
    try:
        parsed = graphql.parse(document, max_tokens=20_000)
    except (graphql.GraphQLError, RecursionError):
        return "?", ["(does not parse)"]
    fragments = {
        d.name.value: d for d in parsed.definitions if isinstance(d, graphql.FragmentDefinitionNode)
    }
    operations = [d for d in parsed.definitions if isinstance(d, graphql.OperationDefinitionNode)]
    if not operations:
        return "?", ["(no operation)"]
    first = operations[0]
    kind = first.operation.value
    return kind, [f"{kind}.{name}" for name in _names(first.selection_set, fragments, 0)]


def _names(
    selection_set: graphql.SelectionSetNode | None,
    fragments: dict[str, graphql.FragmentDefinitionNode],
    depth: int,
) -> list[str]:
    if selection_set is None or depth > 5:
        return []
    names: list[str] = []
    for node in selection_set.selections:
        if isinstance(node, graphql.FieldNode):
            names.append(node.name.value)
        elif isinstance(node, graphql.InlineFragmentNode):
            names += _names(node.selection_set, fragments, depth + 1)
        elif isinstance(node, graphql.FragmentSpreadNode) and node.name.value in fragments:
            names += _names(fragments[node.name.value].selection_set, fragments, depth + 1)
    return names


TALLY = Tally()
