"""A field's domain facts, declared where the field is defined, for the runtime's checks.

A field declares them in its Strawberry `metadata`, built here: `strawberry.field(resolver=...,
metadata=facts(list_size=page_size))`. `schema/field_facts.py` reads them from the built schema
once, and answers the runtime's questions (`runtime.FieldFacts`) from them:

- `list_size`: how many items a list field holds at most, from its arguments or those of the
  field that returned its object (a connection's `edges` hold the page its field asks for), at
  most what the resolver accepts (`Sizing`). Every list field declares one.
- `value_units`: what each of a field's values counts in the cost: one unit per COST_VALUE_BYTES
  it may take, so that the cost bounds the bytes an answer can hold and not only its values
  (counted 1, a message's text let a 6 KB query, 100 `nodes` naming one session and its last 100
  messages, build 160 MB). A text counts 4 bytes a character (`text_units`: a character outside
  the BMP takes 4 in UTF-8 and in a Python string), an ASCII value a byte (`byte_units`: ids,
  cursors). Every `String` and `ID` field declares its units, `SHORT` when its values take less
  than COST_VALUE_BYTES. An edge's `cursor` counts the longest cursor that the field paging its
  connection declares it hands out (`cursors`); a `PageInfo` cursor, the longest of any.
- `work_units`: what a field counts in the cost, each time it is answered, for the work it does
  besides what it answers: a `series` reads its range cut into pieces and builds every point's
  stats; a batch mutation writes each item (an answer of one number let thirty aliases each
  write a whole batch for a cost of some sixty units). Every root field declares its work,
  `NO_WORK` when it does no more than it answers.
- `payload_check`: the check of a field's arguments its resolver runs first, for a field a
  mutation's payload can reach: it runs before the write (`runtime/limits/payload_arguments.py`),
  so that a wrong argument (a forged cursor, `orders(first: 1000)`) does not fail after the write
  and null the payload, answering `data: null` for a call that did happen. Every field with
  arguments a payload reaches declares one, or `NO_CHECK` when its arguments cannot fail.
- `permission`: what a caller must hold to call a field (resolvers/access/permissions.py),
  checked before its resolver runs (schema/permissions.py). A root field declares its
  `Permission`, or `EACH_NODE` for `node`/`nodes`, whose ids are each checked by their Node
  type's permission (`NodeKind.permission`). A field of an object declares `AS_ITS_OBJECT`: it
  answers whoever was answered the object, whose permission and record rules were checked where
  it was reached (its root field, `node`, a mutation's payload); or a `Permission` of its own.
  Every field declares one: a field without is refused to everyone, so a new field is closed
  until someone opens it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from resolvers.access.permissions import Permission
from resolvers.cursors import CursorCodec
from settings import COST_VALUE_BYTES, DEFAULT_PAGE_SIZE, Settings

FACTS = "arraygraph.facts"  # the metadata key the facts are declared under


class Sizing(NamedTuple):
    """A list's field's coerced arguments, those of the field that returned its object."""

    arguments: Mapping[str, Any]
    parent: Mapping[str, Any]
    settings: Settings


Size = Callable[[Sizing], int]
Work = Callable[[Mapping[str, Any]], int]  # a field's coerced arguments -> its work's units
ArgumentCheck = Callable[[Mapping[str, Any], Settings], object]  # raises an ApiError to refuse


class Declared(Enum):
    """A fact declared to be absent: the field was looked at, and has none."""

    NONE = "none"


class Cursor(Enum):
    """A cursor's units, known once the schema is built: from the cursors the field that pages
    its connection hands out (`OF_ITS_CONNECTION`), or the longest of any (`LONGEST`)."""

    OF_ITS_CONNECTION = "of its connection"
    LONGEST = "longest"


class Rule(Enum):
    """A field's rule when it needs no permission of its own."""

    EACH_NODE = "each node's permission"  # `node`/`nodes`: each id by its Node type's
    AS_ITS_OBJECT = "its object's"  # a field of an object: whoever was answered the object


EACH_NODE = Rule.EACH_NODE
AS_ITS_OBJECT = Rule.AS_ITS_OBJECT
SHORT = 1  # the units of a value that takes less than COST_VALUE_BYTES
BYTES_PER_CHARACTER = 4
NO_WORK = Declared.NONE  # a root field that does no more work than it answers
NO_CHECK = Declared.NONE  # a payload-reachable field whose arguments cannot fail


@dataclass(frozen=True, slots=True)
class Facts:
    list_size: Size | None = None
    value_units: int | Cursor | None = None
    cursors: tuple[CursorCodec[Any], ...] | None = None
    work_units: Work | Declared | None = None
    payload_check: ArgumentCheck | Declared | None = None
    permission: Permission | Rule | None = None


def facts(
    *,
    list_size: Size | None = None,
    value_units: int | Cursor | None = None,
    cursors: tuple[CursorCodec[Any], ...] | None = None,
    work_units: Work | Declared | None = None,
    payload_check: ArgumentCheck | Declared | None = None,
    permission: Permission | Rule | None = None,
) -> dict[str, object]:
    """The `metadata` of a field with these facts (None: not declared)."""
    return {FACTS: Facts(list_size, value_units, cursors, work_units, payload_check, permission)}


def declared(metadata: Mapping[str, object]) -> Facts:
    """The facts a field's `metadata` declares (none declared: all None)."""
    found = metadata.get(FACTS)
    return found if isinstance(found, Facts) else Facts()


def byte_units(size: int) -> int:
    """The units of a value of at most `size` bytes."""
    return max(1, math.ceil(size / COST_VALUE_BYTES))


def text_units(characters: int) -> int:
    """The units of a text of at most `characters` characters."""
    return byte_units(characters * BYTES_PER_CHARACTER)


def cursor_units(cursors: tuple[CursorCodec[Any], ...]) -> int:
    """The units of the longest of these cursors (ASCII: a byte a character)."""
    return byte_units(max(codec.longest for codec in cursors))


def clamp(value: object, maximum: int) -> int:
    return max(0, min(value, maximum)) if isinstance(value, int) else 0


def page_size(s: Sizing) -> int:
    """A connection's `edges`: the page its field asks for (`first` or `last`)."""
    first, last = s.parent.get("first"), s.parent.get("last")
    asked = first if first is not None else last if last is not None else DEFAULT_PAGE_SIZE
    return clamp(asked, s.settings.max_page_size)


def length_of(name: str, maximum: int, *, parent: bool = False) -> Size:
    """One item per item of the list argument `name` (of the field, or of its parent's)."""
    return lambda s: clamp(len((s.parent if parent else s.arguments).get(name) or ()), maximum)


def fixed(count: int) -> Size:
    return lambda s: count


def given(arguments: Mapping[str, Any], name: str) -> list[Any] | tuple[Any, ...]:
    """The list argument `name`, or nothing."""
    found = arguments.get(name)
    return found if isinstance(found, list | tuple) else ()


def per_item(name: str, units: int) -> Work:
    """`units` for each item of the list argument `name`."""
    return lambda arguments: units * len(given(arguments, name))
