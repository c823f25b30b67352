"""Variables that are lists of flat input objects (every field a scalar or an enum, or a list
of flat input objects itself, one level deep: an observation's tags and field values), coerced
by a function written once per type instead of graphql-core's generic recursion.

A batch mutation's variable holds up to a thousand input objects: graphql-core coerces each
field of each through `coerce_input_value` with its type checks, after walking the whole value
once more to check its nesting depth. A list of flat objects nests three deep whatever it
holds (five with lists of flat objects in it), and its coercion is the same steps each time:
each type's are written out as Python source, its fields one after the other (the field names
as `repr()` literals, nothing else of the schema in the source). The answer is graphql-core's
in every case (the value, or `Undefined` when it does not fit, after which graphql-core's own
validation reports why); anything else, and a value that is not a list, goes to graphql-core.

`runtime.install` puts `coerce_input_value` and `input_is_nested_too_deeply` in the place of
graphql-core's in graphql/execution/values.py, which `coerce_variable_values` looks up by name
(`runtime/internals.py`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from graphql import (
    GRAPHQL_MAX_INT,
    GRAPHQL_MIN_INT,
    GraphQLBoolean,
    GraphQLFloat,
    GraphQLID,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLInt,
    GraphQLList,
    GraphQLNonNull,
    GraphQLString,
    Undefined,
    is_leaf_type,
    is_required_input_field,
)
from graphql.execution import values as graphql_values
from graphql.utilities.coerce_input_value import coerce_default_value

Coerce = Callable[[list[Any]], Any]
# One field: name, name in the coerced dict, its value's coercion when not as it is (Undefined
# when it does not fit, _SKIP when left out), and the Python type a value of the leaf keeps as
# it is with the check it must pass too (None: none; see `_AS_IS`).
_Field = tuple[str, str, Callable[[Any], Any], type | None, Callable[[Any], bool] | None]
_REQUIRED = object()


def _is_int32(value: int) -> bool:
    return GRAPHQL_MIN_INT <= value <= GRAPHQL_MAX_INT


# graphql-core's built-in scalars return a value of exactly these types unchanged when it
# passes the check (`coerce_id`, `coerce_string`, `coerce_float`, `coerce_int`,
# `coerce_boolean`): such a value needs no call.
_AS_IS: dict[Any, tuple[type | None, Callable[[Any], bool] | None]] = {
    GraphQLID: (str, None),
    GraphQLString: (str, None),
    GraphQLBoolean: (bool, None),
    GraphQLFloat: (float, math.isfinite),
    GraphQLInt: (int, _is_int32),
}
_NOT_AS_IS: tuple[type | None, Callable[[Any], bool] | None] = (None, None)

# By item nullability, nesting allowed and input object type (variable types are built anew
# per operation).
_coercers: dict[tuple[bool, bool, int], tuple[GraphQLInputObjectType, Coerce | None]] = {}


def _fields(object_type: GraphQLInputObjectType, *, lists: bool) -> list[_Field] | None:
    """The fields of `object_type`; None when one is not a scalar or an enum (or, with
    `lists`, a list of flat input objects)."""
    fields: list[_Field] = []
    for name, field in object_type.fields.items():
        type_, non_null = field.type, isinstance(field.type, GraphQLNonNull)
        leaf = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
        default = _REQUIRED if is_required_input_field(field) else coerce_default_value(field)
        if is_leaf_type(leaf):
            as_is, check = _AS_IS.get(leaf, _NOT_AS_IS)
            slow = _absent_or_parsed(non_null, leaf, default)
        else:
            items = _coercer(type_, nested=False) if lists else None
            if items is None:
                return None
            as_is, check, slow = None, None, _absent_or_listed(type_, items, default)
        fields.append((name, field.out_name or name, slow, as_is, check))
    return fields


_SKIP = object()  # a field given no value and no default: left out


def _absent_or_parsed(non_null: bool, leaf: Any, default: Any) -> Callable[[Any], Any]:
    """A field's value when not of its type as it is: its default when not given (`_SKIP`
    without one), None when null, else its leaf's parse; Undefined when it does not fit."""

    def coerce(given: Any) -> Any:
        if given is Undefined:
            if default is _REQUIRED:
                return Undefined
            return _SKIP if default is Undefined else default
        if given is None:
            return Undefined if non_null else None
        try:
            return leaf.coerce_input_value(given)  # Undefined when it does not fit
        except Exception:
            return Undefined

    return coerce


def _absent_or_listed(type_: GraphQLInputType, items: Coerce, default: Any) -> Callable[[Any], Any]:
    """A field's value when it is a list of flat objects: a list by `items`; its default when
    not given (`_SKIP` without one); anything else (null, one object for a list of one) as
    graphql-core coerces it."""

    def coerce(given: Any) -> Any:
        if type(given) is list:
            return items(given)
        if given is Undefined:
            if default is _REQUIRED:
                return Undefined
            return _SKIP if default is Undefined else default
        return _graphql_coerce_input_value(given, type_)

    return coerce


def _object_coercer(
    object_type: GraphQLInputObjectType, *, nested: bool
) -> Callable[[Any], Any] | None:
    """A coercer of one `object_type` value, written out as straight-line Python: the loop
    over the fields was most of a batch's coercion. Field names enter the source only as
    `repr()` string literals; every other value is passed in. With `nested`, a field may be a
    list of flat objects."""
    fields = _fields(object_type, lists=nested)
    if fields is None or object_type.is_one_of:
        return None
    names = frozenset(object_type.fields)
    namespace: dict[str, Any] = {"names": names, "build": object_type.out_type}
    namespace |= {"Undefined": Undefined, "SKIP": _SKIP, "unknown": _has_unknown_key}
    lines = [
        "def coerce(value):",
        "    if not isinstance(value, dict) or (",
        "        not names.issuperset(value) and unknown(value, names)",
        "    ):",
        "        return Undefined",
        "    get = value.get",
        "    coerced = {}",
    ]
    for i, (name, out_name, slow, as_is, check) in enumerate(fields):
        namespace[f"slow{i}"] = slow
        lines.append(f"    given = get({name!r}, Undefined)")
        indent = "    "
        if as_is is not None:  # a value of exactly its type first: the common case
            namespace[f"type{i}"], namespace[f"check{i}"] = as_is, check
            test = f"type(given) is type{i}" + (f" and check{i}(given)" if check else "")
            lines += [f"    if {test}:", f"        coerced[{out_name!r}] = given", "    else:"]
            indent = "        "
        lines += [
            f"{indent}given = slow{i}(given)",
            f"{indent}if given is Undefined:",
            f"{indent}    return Undefined",
            f"{indent}if given is not SKIP:",
            f"{indent}    coerced[{out_name!r}] = given",
        ]
    lines.append("    return build(coerced)")
    exec(compile("\n".join(lines), f"<coercion of {object_type.name}>", "exec"), namespace)
    coerce: Callable[[Any], Any] = namespace["coerce"]
    return coerce


def _has_unknown_key(value: dict[str, Any], names: frozenset[str]) -> bool:
    """Whether `value` names a field `names` lacks (with a value other than Undefined)."""
    return any(given is not Undefined and key not in names for key, given in value.items())


def _list_coercer(
    items_non_null: bool, object_type: GraphQLInputObjectType, *, nested: bool
) -> Coerce | None:
    """A coercer of a list of `object_type` objects (`[T!]` when `items_non_null`): flat, or
    with lists of flat objects when `nested`."""
    coerce_item = _object_coercer(object_type, nested=nested)
    if coerce_item is None:
        return None

    def coerce(items: list[Any]) -> Any:
        coerced: list[Any] = []
        for item in items:
            if item is None:
                if items_non_null:
                    return Undefined
                coerced.append(None)
                continue
            value = coerce_item(item)
            if value is Undefined:
                return Undefined
            coerced.append(value)
        return coerced

    return coerce


def _coercer(type_: GraphQLInputType, *, nested: bool = True) -> Coerce | None:
    """The coercer of `type_` when it is a list of input objects (`[T!]!`, `[T]`...) that are
    flat or, when `nested`, hold lists of flat ones; None for any other type."""
    list_type = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
    if not isinstance(list_type, GraphQLList):
        return None
    item_type, items_non_null = list_type.of_type, isinstance(list_type.of_type, GraphQLNonNull)
    object_type = item_type.of_type if items_non_null else item_type
    if not isinstance(object_type, GraphQLInputObjectType):
        return None
    key = (items_non_null, nested, id(object_type))
    found = _coercers.get(key)
    if found is None or found[0] is not object_type:
        coercer = _list_coercer(items_non_null, object_type, nested=nested)
        found = _coercers[key] = (object_type, coercer)
    return found[1]


_graphql_coerce_input_value = graphql_values.coerce_input_value  # type: ignore[attr-defined]
_graphql_input_is_nested_too_deeply = graphql_values.input_is_nested_too_deeply


def coerce_input_value(input_value: Any, type_: GraphQLInputType) -> Any:
    """graphql-core's `coerce_input_value`, a list of flat input objects coerced here."""
    if type(input_value) is list:
        coerce = _coercer(type_)
        if coerce is not None:
            return coerce(input_value)
    return _graphql_coerce_input_value(input_value, type_)


_FLAT = frozenset({str, int, float, bool, type(None)})


def input_is_nested_too_deeply(value: Any, type_: GraphQLInputType) -> bool:
    """graphql-core's check; a list of flat input objects nests three deep at most (five with
    lists of flat objects in them, far below MAX_NESTING_DEPTH), a scalar value not at all."""
    if type(value) in _FLAT or _coercer(type_) is not None:
        return False
    return _graphql_input_is_nested_too_deeply(value, type_)
