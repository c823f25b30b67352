"""What a query selects under the current field, seen through fragments.

Resolvers decide what to fetch from the selection (a page's `totalCount`, a payload's
`sensors`, an `orders` page to bring along with its user). A field may be selected directly,
or inside named fragments (`...F`) and inline fragments (`... on T { }`), at any nesting of
fragments; these walks descend through fragments but never into child fields.

They walk graphql-core's field nodes (`Info._raw_info`: its `field_nodes`, `fragments`),
reading only the fields named: Strawberry's `Info.selected_fields` converts the whole subtree
under the field first, a visible share of a page of orders' time. Arguments read as Strawberry gives
them (`strawberry.types.nodes.convert_arguments`): variables' values as they are, literals as
their source text.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import strawberry
from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLResolveInfo,
    InlineFragmentNode,
    ListValueNode,
    ObjectValueNode,
    SelectionSetNode,
    ValueNode,
    VariableNode,
)
from strawberry.types.nodes import convert_arguments


@dataclass(frozen=True, slots=True)
class SelectedField:
    """A field selected under the current one."""

    node: FieldNode
    raw_info: GraphQLResolveInfo[Any]

    @property
    def name(self) -> str:
        return self.node.name.value

    @property
    def alias(self) -> str | None:
        return None if self.node.alias is None else self.node.alias.value

    @property
    def arguments(self) -> Mapping[str, Any]:
        return convert_arguments(self.raw_info, self.node.arguments)

    def selects(self, name: str) -> bool:
        """Whether a field called `name` is selected directly under this one."""
        found = _fields_named(self.node.selection_set, self.raw_info.fragments, name)
        return next(found, None) is not None


def _fields_named(
    selection_set: SelectionSetNode | None,
    fragments: Mapping[str, FragmentDefinitionNode],
    name: str,
) -> Iterator[FieldNode]:
    """The fields called `name` in `selection_set`, in document order, through fragments."""
    for selection in selection_set.selections if selection_set is not None else ():
        if isinstance(selection, FieldNode):
            if selection.name.value == name:
                yield selection
        elif isinstance(selection, InlineFragmentNode):
            yield from _fields_named(selection.selection_set, fragments, name)
        elif isinstance(selection, FragmentSpreadNode):
            fragment = fragments.get(selection.name.value)
            if fragment is not None:
                yield from _fields_named(fragment.selection_set, fragments, name)


def selected(info: strawberry.Info[Any, Any], name: str) -> list[SelectedField]:
    """The fields called `name` selected directly under the field being resolved."""
    raw: GraphQLResolveInfo[Any] = info._raw_info
    return [
        SelectedField(node, raw)
        for field in raw.field_nodes
        for node in _fields_named(field.selection_set, raw.fragments, name)
    ]


def selects(info: strawberry.Info[Any, Any], name: str) -> bool:
    raw: GraphQLResolveInfo[Any] = info._raw_info
    for field in raw.field_nodes:
        if next(_fields_named(field.selection_set, raw.fragments, name), None) is not None:
            return True
    return False


def variables_in(value: ValueNode) -> Iterator[str]:
    """The names of the variables an argument's value reads, at any depth."""
    if isinstance(value, VariableNode):
        yield value.name.value
    elif isinstance(value, ListValueNode):
        for item in value.values:
            yield from variables_in(item)
    elif isinstance(value, ObjectValueNode):
        for field in value.fields:
            yield from variables_in(field.value)
