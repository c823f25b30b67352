"""The request limits that run before the schema's rules: depth, aliases and fields selected,
in time linear in the document's size however its fragments spread.

Strawberry's `QueryDepthLimiter` and `MaxAliasesLimiter` walk a fragment again at every spread: a
chain of fragments each spreading the next twice (a short document) takes time exponential in its
length, before any other rule, on every distinct text. Here each fragment is measured once and its
measure reused at each spread, with the same answers and messages: a field's depth counts the
fields above it (root fields are at 0), a field under `__schema` or `__type` (introspection,
bounded by the schema) adds none, and every alias counts once per spread of the fragment that holds
it. Fields selected count the same way: the schema's rules compare fields of one response key
pairwise, so their time grows with the square of this count, faster still when each pair conflicts.
A spread of a fragment being measured (a cycle, which the schema's rules refuse) or of an unknown
one measures nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from graphql import (
    BREAK,
    ASTValidationRule,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    NameNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationContext,
)
from graphql.language.visitor import VisitorAction

T = TypeVar("T")
Measure = Callable[[SelectionSetNode, "FragmentMeasures[T]"], T]


class FragmentMeasures(Generic[T]):
    """One measure of each fragment, taken on first use; 0 for a cycle or an unknown name."""

    def __init__(
        self, document_fragments: Mapping[str, FragmentDefinitionNode], measure: Measure[T], zero: T
    ) -> None:
        self._fragments = document_fragments
        self._measure = measure
        self._zero = zero
        self._taken: dict[str, T] = {}

    def __getitem__(self, name: str) -> T:
        if name not in self._taken:
            fragment = self._fragments.get(name)
            self._taken[name] = self._zero  # a cycle back to it, meanwhile, measures nothing
            if fragment is not None:
                self._taken[name] = self._measure(fragment.selection_set, self)
        return self._taken[name]


def height(selections: SelectionSetNode, fragments: FragmentMeasures[int]) -> int:
    """How many levels of fields lie below this selection set's own (0: leaves only)."""
    deepest = 0
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            below = selection.selection_set
            introspection = selection.name.value.startswith("__")
            if below is not None and not introspection:
                deepest = max(deepest, 1 + height(below, fragments))
        elif isinstance(selection, InlineFragmentNode):
            deepest = max(deepest, height(selection.selection_set, fragments))
        elif isinstance(selection, FragmentSpreadNode):
            deepest = max(deepest, fragments[selection.name.value])
    return deepest


def counting(weigh: Callable[[FieldNode], int]) -> Measure[int]:
    """A measure adding up `weigh` of every field of a selection set, nested fields included,
    each fragment's once per spread."""

    def count(selections: SelectionSetNode, fragments: FragmentMeasures[int]) -> int:
        total = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                total += weigh(selection)
                if selection.selection_set is not None:
                    total += count(selection.selection_set, fragments)
            elif isinstance(selection, InlineFragmentNode):
                total += count(selection.selection_set, fragments)
            elif isinstance(selection, FragmentSpreadNode):
                total += fragments[selection.name.value]
        return total

    return count


aliases = counting(lambda field: field.alias is not None)
fields_selected = counting(lambda field: 1)


def _parts(
    context: ValidationContext,
) -> tuple[list[OperationDefinitionNode], dict[str, FragmentDefinitionNode]]:
    definitions = context.document.definitions
    operations = [d for d in definitions if isinstance(d, OperationDefinitionNode)]
    fragments = {d.name.value: d for d in definitions if isinstance(d, FragmentDefinitionNode)}
    return operations, fragments


def depth_limit(max_depth: int) -> type[ASTValidationRule]:
    """A rule: an operation whose fields nest deeper than `max_depth` is refused, once."""

    class DepthLimit(ASTValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            operations, fragments = _parts(context)
            measures = FragmentMeasures(fragments, height, 0)
            for operation in operations:
                if height(operation.selection_set, measures) > max_depth:
                    name = operation.name.value if operation.name else "anonymous"
                    message = f"'{name}' exceeds maximum operation depth of {max_depth}"
                    context.report_error(GraphQLError(message, operation))

    return DepthLimit


def count_limit(
    measure: Measure[int], limit: int, refusal: Callable[[int], str]
) -> type[ASTValidationRule]:
    """A rule: a document whose operations' `measure` adds up to more than `limit` is refused,
    with the message `refusal(total)`."""

    class CountLimit(ASTValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            operations, fragments = _parts(context)
            measures = FragmentMeasures(fragments, measure, 0)
            total = sum(measure(operation.selection_set, measures) for operation in operations)
            if total > limit:
                context.report_error(GraphQLError(refusal(total)))

    return CountLimit


def name_limit(max_length: int) -> type[ASTValidationRule]:
    """A rule: a document holding a name (of an operation, alias, fragment, variable...) longer
    than `max_length` is refused, once. Error messages quote names (every undefined variable's
    names its operation), and a 1 MB name quoted 100 times made a 100 MB answer."""

    class NameLimit(ASTValidationRule):
        def enter_name(self, node: NameNode, *_: object) -> VisitorAction:
            if len(node.value) <= max_length:
                return None
            message = f"A name of {len(node.value)} characters. Allowed: {max_length}"
            self.report_error(GraphQLError(message, node))
            return BREAK

    return NameLimit


def alias_limit(max_aliases: int) -> type[ASTValidationRule]:
    """A rule: a document of more than `max_aliases` aliases (all operations) is refused."""
    return count_limit(aliases, max_aliases, lambda n: f"{n} aliases found. Allowed: {max_aliases}")


def selection_limit(max_selections: int) -> type[ASTValidationRule]:
    """A rule: a document selecting more than `max_selections` fields, fragments spread, is
    refused. The schema's rules compare fields of one response key pairwise (graphql-core's
    OverlappingFieldsCanBeMerged), so their time grows with the square of this count."""
    return count_limit(
        fields_selected,
        max_selections,
        lambda n: f"{n} fields selected (fragments spread). Allowed: {max_selections}",
    )
