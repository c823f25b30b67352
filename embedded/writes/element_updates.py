"""Operators on an array's element (`{"$addToSet": {"a.0": 2}}`, `{"$pull": {"a.3.tags": "x"}}`),
what array updates resolve to (`embedded.writes.array_filters`), applied as on a plain field.

mongomock-ng applies few operators through an array's element: `$min`, `$max`, `$unset`,
`$currentDate` and `$pull` of an element leave it unchanged, `$addToSet` fails. The engine
applies such an operator to the element alone, as the value of a one-field document, then puts
the element back: the paths of one update are disjoint (checked at parse time, and when array
updates resolve), so each element's update is its own. `$unset` of an element sets it to null,
as on a server. A path whose element does not exist (past the array's end) is left to
mongomock-ng, as is any path through no array.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from embedded.protocols import Document

FIELD = "v"  # the element's field in the one-field document it is updated in


class ElementUpdate(NamedTuple):
    array: list[str]  # the path of the array
    offset: int  # the element's offset in it
    operator: str
    rest: str  # the path inside the element ("" for the element itself)
    value: Any


def _element_at(doc: Any, parts: list[str]) -> tuple[int, int] | None:
    """(the position in `parts` of the deepest existing array element on the path, its
    offset), or None when the path goes through no existing array element."""
    found = None
    here = doc
    for position, part in enumerate(parts):
        if isinstance(here, Mapping):
            here = here.get(part)
        elif isinstance(here, list) and part.isdigit() and int(part) < len(here):
            found = (position, int(part))
            here = here[int(part)]
        else:
            break
    return found


def split(update: Mapping[str, Any], doc: Document) -> tuple[dict[str, Any], list[ElementUpdate]]:
    """`update` without its paths through an existing array element of `doc`, and those."""
    plain: dict[str, Any] = {}
    elements: list[ElementUpdate] = []
    for operator, fields in update.items():
        if not isinstance(fields, Mapping) or operator == "$rename":
            plain[operator] = fields  # a server refuses `$rename` through an array element
            continue
        kept: dict[str, Any] = {}
        for path, value in fields.items():
            parts = str(path).split(".")
            found = _element_at(doc, parts) if len(parts) > 1 else None
            if found is None:
                kept[path] = value
            else:
                position, index = found
                rest = ".".join(parts[position + 1 :])
                elements.append(ElementUpdate(parts[:position], index, operator, rest, value))
        if kept or not fields:
            plain[operator] = kept
    return plain, elements


def apply(
    doc: Document,
    elements: list[ElementUpdate],
    update_one: Callable[[Document, Mapping[str, Any]], Document],
) -> Document:
    """`doc` (changed in place: a copy of the caller's) with each element updated by
    `update_one(document, update)`, which applies operators to a one-field document."""
    for element in elements:
        array: Any = doc
        for part in element.array:
            array = array[int(part)] if isinstance(array, list) else array[part]
        if element.operator == "$unset" and not element.rest:
            array[element.offset] = None
            continue
        path = f"{FIELD}.{element.rest}" if element.rest else FIELD
        single = {"_id": 0, FIELD: array[element.offset]}
        updated = update_one(single, {element.operator: {path: element.value}})
        array[element.offset] = updated.get(FIELD)
    return doc
