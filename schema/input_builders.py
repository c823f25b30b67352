"""Input objects built from graphql-core's coerced values without Strawberry's generic
conversion: one of the uses of Strawberry's internals listed in `schema.strawberry_internals`
(re-check on an upgrade; `tests/server/test_fast_paths.py` fails when it stops being used)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, cast

from strawberry.types import arguments as strawberry_arguments
from strawberry.types.base import StrawberryList
from strawberry.types.enum import StrawberryEnumDefinition
from strawberry.utils.str_converters import to_camel_case

# Input types built by `install_input_builder`: a list argument of one is converted item by
# item with its `from_input`, without Strawberry's generic per-item dispatch.
_LIST_ITEMS_BUILT: dict[type, Any] = {}


def convert_argument(
    value: object,
    type_: Any,
    scalar_registry: Any,
    config: Any,
    info: Any = None,
    *,
    path: tuple[str | int, ...] = (),
) -> object:
    """Strawberry's `convert_argument`, with lists of the built input types converted here."""
    if type(value) is list and type(type_) is StrawberryList:
        definition = _LIST_ITEMS_BUILT.get(cast(type, type_.of_type))
        if definition is not None:
            item_type = type_.of_type
            return [definition.from_input(item_type, item, None) for item in value]
    return _strawberry_convert_argument(value, type_, scalar_registry, config, info, path=path)


_strawberry_convert_argument = strawberry_arguments.convert_argument
strawberry_arguments.convert_argument = convert_argument  # its callers look it up by name


def install_input_builder(input_type: type) -> None:
    """Build `input_type` from graphql-core's coerced value directly: every field is already
    parsed and defaulted, and the generic per-field conversion is the largest cost of a batch.
    Enum fields arrive as their values (or, in some releases, names or members). A list of
    them (a non-null item type) is converted by `convert_argument` above."""
    definition: Any = getattr(input_type, "__strawberry_definition__")  # noqa: B009
    names = [
        (f.python_name, f.graphql_name or to_camel_case(f.python_name)) for f in definition.fields
    ]
    enums: dict[str, Any] = {  # the Python enum of each enum field
        f.python_name: f.type.wrapped_cls
        for f in definition.fields
        if isinstance(f.type, StrawberryEnumDefinition)
    }

    def from_input(cls: type, value: Mapping[str, Any], context: object) -> object:
        fields = {name: value[key] for name, key in names if key in value}
        for name, enum in enums.items():
            if name in fields:
                fields[name] = _enum_member(enum, fields[name])
        return input_type(**fields)

    definition.from_input = from_input
    _LIST_ITEMS_BUILT[input_type] = definition


def _enum_member(enum: type[Enum], raw: Any) -> Enum:
    if isinstance(raw, enum):
        return raw
    return enum[raw] if raw in enum.__members__ else enum(raw)
