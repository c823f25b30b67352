"""Arguments and input objects built from graphql-core's coerced values without Strawberry's
generic conversion. `runtime.install` puts `convert_argument` and `convert_arguments` in the
place of Strawberry's, which their callers look up by name (`runtime/internals.py`;
`tests/server/test_fast_paths.py` fails when they stop being used).

Strawberry converts a field's arguments on every call: each name through its name converter,
each value through `convert_argument`'s dispatch. `convert_arguments` here does that work once
per field (and schema): the names, and which arguments pass as they are (a scalar or enum-free
leaf, nullable or not, as Strawberry's conversion returns it unchanged)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, cast

from graphql import GraphQLInputObjectType, GraphQLSchema
from strawberry.relay.types import GlobalID
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types import arguments as strawberry_arguments
from strawberry.types.base import StrawberryList, StrawberryMaybe, StrawberryOptional
from strawberry.types.enum import StrawberryEnumDefinition
from strawberry.utils.str_converters import to_camel_case

# Input types marked by `build_directly`, built once `runtime.install` runs (or a schema holding
# one is built): their Strawberry definitions change then, not when the types are declared.
_MARKED: dict[type, None] = {}
# Input types built, each with its Strawberry definition (whose `from_input` builds it from a
# value by GraphQL name) and its builder from its fields by Python name: an argument of one, or
# a list of them, is taken as graphql-core's coercion built it, without Strawberry's generic
# per-item dispatch.
_BUILT: dict[type, tuple[Any, Callable[[dict[str, Any]], object]]] = {}


def convert_argument(
    value: object,
    type_: Any,
    scalar_registry: Any,
    config: Any,
    info: Any = None,
    *,
    path: tuple[str | int, ...] = (),
) -> object:
    """Strawberry's `convert_argument`, with the built input types (and lists of them) taken
    as graphql-core's coercion built them."""
    if type(value) is list and type(type_) is StrawberryList:
        item_type = cast(type, type_.of_type)
        built = _BUILT.get(item_type)
        if built is not None:
            return [
                item if type(item) is item_type else built[0].from_input(item_type, item, None)
                for item in value
            ]
    elif type(value) in _BUILT:
        return value
    return _strawberry_convert_argument(value, type_, scalar_registry, config, info, path=path)


_strawberry_convert_argument = strawberry_arguments.convert_argument


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


def build_directly(input_type: type) -> type:
    """Mark `input_type` (a class decorator) to be built in graphql-core's coercion from the
    value it coerced, once `runtime.install` runs (`attach_input_builders`): every field
    already parsed and defaulted, for none of Strawberry's generic per-field conversion, the
    largest cost of a batch. Marking changes nothing of Strawberry's."""
    _MARKED[input_type] = None
    return input_type


def install_builders() -> None:
    """Build every input type marked so far from coerced values (`runtime.install`)."""
    for input_type in list(_MARKED):
        if input_type not in _BUILT:
            _install_builder(input_type)


def _install_builder(input_type: type) -> None:
    """Build `input_type` from a coerced value, and from a value Strawberry's own conversion
    hands over (`from_input`). Enum fields arrive as their values (or, in some releases, names
    or members)."""
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

    def build(fields: dict[str, Any]) -> object:
        """The instance of `fields` by Python name (a new dict: it becomes the instance's)."""
        for name, enum in enums.items():
            if name in fields:
                fields[name] = _enum_member(enum, fields[name])
        if len(fields) == every_field:  # what `__init__` would set, set at once
            built: Any = object.__new__(input_type)
            built.__dict__ = fields
            return built
        return input_type(**fields)

    def from_input(cls: type, value: Mapping[str, Any], context: object) -> object:
        if type(value) is input_type:
            return value
        return build({name: value[key] for name, key in names if key in value})

    definition.from_input = from_input
    _BUILT[input_type] = (definition, build)


DEFINITION_BACKREF = GraphQLCoreConverter.DEFINITION_BACKREF


def attach_input_builders(graphql_schema: GraphQLSchema) -> None:
    """graphql-core's coercion of each input type marked by `build_directly` (of variables and
    literals alike) gives its instance: each field's value under its Python name (`out_name`),
    the instance from those (`out_type`)."""
    for graphql_type in graphql_schema.type_map.values():
        if not isinstance(graphql_type, GraphQLInputObjectType):
            continue
        origin = getattr(graphql_type.extensions.get(DEFINITION_BACKREF), "origin", None)
        if origin in _MARKED and origin not in _BUILT:
            _install_builder(origin)
        built = _BUILT.get(origin) if isinstance(origin, type) else None
        if built is None or graphql_type.is_one_of:  # a one-of type's `out_type` checks it
            continue
        for field in graphql_type.fields.values():  # each the schema's, whatever its naming
            field.out_name = field.extensions[DEFINITION_BACKREF].python_name
        graphql_type.out_type = built[1]  # type: ignore[method-assign,assignment]


def _set_directly(input_type: type) -> bool:
    """Whether an instance given every field is its `__init__`'s when its attributes are set
    directly: a plain dataclass (no `__post_init__`, no slots, every field an argument). The
    definition's fields are the dataclass's, a private one (`strawberry.Private`) included."""
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
