"""Arguments and input objects built from graphql-core's coerced values without Strawberry's
generic conversion: one of the uses of Strawberry's internals listed in
`schema.strawberry_internals` (re-check on an upgrade; `tests/server/test_fast_paths.py` fails
when it stops being used).

Strawberry converts a field's arguments on every call: each name through its name converter,
each value through `convert_argument`'s dispatch. `convert_arguments` here does that work once
per field (and schema): the names, and which arguments pass as they are (a scalar or enum-free
leaf, nullable or not, as Strawberry's conversion returns it unchanged)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import Enum
from typing import Any, cast

from strawberry.relay.types import GlobalID
from strawberry.schema import schema_converter
from strawberry.types import arguments as strawberry_arguments
from strawberry.types.base import StrawberryList, StrawberryMaybe, StrawberryOptional
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


# Per field's argument list, config and scalar registry (each held, so that ids stay their own):
# each argument's GraphQL name, Python name, type, and whether its value passes as it is.
ArgumentPlan = list[tuple[str, str, Any, bool]]
_argument_plans: dict[tuple[int, int, int], tuple[object, object, object, ArgumentPlan]] = {}


def convert_arguments(
    value: dict[str, Any],
    arguments: list[Any],
    scalar_registry: Any,
    config: Any,
    info: Any = None,
) -> dict[str, Any]:
    """Strawberry's `convert_arguments`, its per-field work done once."""
    if not arguments:
        return {}
    key = (id(arguments), id(config), id(scalar_registry))
    found = _argument_plans.get(key)
    if found is None or found[0] is not arguments or found[1] is not config:
        plan = [_argument_entry(a, scalar_registry, config) for a in arguments]
        found = _argument_plans[key] = (arguments, config, scalar_registry, plan)
    kwargs = {}
    for name, python_name, type_, as_is in found[3]:
        if name in value:
            raw = value[name]
            kwargs[python_name] = (
                raw
                if as_is
                else convert_argument(raw, type_, scalar_registry, config, info, path=(name,))
            )
    return kwargs


def _argument_entry(argument: Any, scalar_registry: Any, config: Any) -> tuple[str, str, Any, bool]:
    type_ = argument.type
    leaf = type_.of_type if type(type_) is StrawberryOptional else type_
    as_is = (
        not isinstance(leaf, StrawberryMaybe | StrawberryOptional)
        and leaf is not GlobalID
        and strawberry_arguments._is_leaf_type(leaf, scalar_registry)
    )
    return config.name_converter.from_argument(argument), argument.python_name, type_, as_is


# `get_arguments` looks it up by name (the module does not re-export it)
schema_converter.convert_arguments = convert_arguments  # type: ignore[attr-defined]


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

    every_field = len(names) if _set_directly(input_type) else -1

    def from_input(cls: type, value: Mapping[str, Any], context: object) -> object:
        fields = {name: value[key] for name, key in names if key in value}
        for name, enum in enums.items():
            if name in fields:
                fields[name] = _enum_member(enum, fields[name])
        if len(fields) == every_field:  # what `__init__` would set, set at once
            built: Any = object.__new__(input_type)
            built.__dict__ = fields
            return built
        return input_type(**fields)

    definition.from_input = from_input
    _LIST_ITEMS_BUILT[input_type] = definition


def _set_directly(input_type: type) -> bool:
    """Whether an instance given every field is its `__init__`'s when its attributes are set
    directly: a plain dataclass (no `__post_init__`, no slots, every field an argument)."""
    return (
        dataclasses.is_dataclass(input_type)
        and not hasattr(input_type, "__post_init__")
        and "__slots__" not in vars(input_type)
        and all(f.init for f in dataclasses.fields(input_type))
    )


def _enum_member(enum: type[Enum], raw: Any) -> Enum:
    if isinstance(raw, enum):
        return raw
    return enum[raw] if raw in enum.__members__ else enum(raw)
