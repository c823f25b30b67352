"""A field's domain facts, declared where the field is defined, for the runtime's checks.

A field declares them in its Strawberry `metadata`, built here: `strawberry.field(resolver=...,
metadata=facts(list_size=page_size))`. `schema/field_facts.py` reads them from the built schema
once, and answers the runtime's questions (`runtime.FieldFacts`) from them:

- `list_size`: how many items a list field holds at most, from its arguments or those of the
  field that returned its object (a connection's `edges` hold the page its field asks for), at
  most what the resolver accepts (`Sizing`). Every list field declares one.
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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from settings import DEFAULT_PAGE_SIZE, Settings

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


NO_WORK = Declared.NONE  # a root field that does no more work than it answers
NO_CHECK = Declared.NONE  # a payload-reachable field whose arguments cannot fail


@dataclass(frozen=True, slots=True)
class Facts:
    list_size: Size | None = None
    work_units: Work | Declared | None = None
    payload_check: ArgumentCheck | Declared | None = None


def facts(
    *,
    list_size: Size | None = None,
    work_units: Work | Declared | None = None,
    payload_check: ArgumentCheck | Declared | None = None,
) -> dict[str, object]:
    """The `metadata` of a field with these facts (None: not declared)."""
    return {FACTS: Facts(list_size, work_units, payload_check)}


def declared(metadata: Mapping[str, object]) -> Facts:
    """The facts a field's `metadata` declares (none declared: all None)."""
    found = metadata.get(FACTS)
    return found if isinstance(found, Facts) else Facts()


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
