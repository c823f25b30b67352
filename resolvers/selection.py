"""What a query selects under the current field, seen through fragments.

Resolvers decide what to fetch from the selection (a page's `totalCount`, a payload's
`sensors`, an `orders` page to bring along with its user). A field may be selected directly,
or inside named fragments (`...F`) and inline fragments (`... on T { }`), at any nesting of
fragments; these walks descend through fragments but never into child fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import strawberry
from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField, Selection


def fields_named(selections: Iterable[Selection], name: str) -> Iterator[SelectedField]:
    """The fields called `name` among `selections`, in document order, through fragments."""
    for selection in selections:
        if isinstance(selection, SelectedField):
            if selection.name == name:
                yield selection
        elif isinstance(selection, FragmentSpread | InlineFragment):
            yield from fields_named(selection.selections, name)


def selected(info: strawberry.Info[Any, Any], name: str) -> list[SelectedField]:
    """The fields called `name` selected directly under the field being resolved."""
    return [
        child for field in info.selected_fields for child in fields_named(field.selections, name)
    ]


def selects(info: strawberry.Info[Any, Any], name: str) -> bool:
    return bool(selected(info, name))
