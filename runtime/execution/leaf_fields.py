"""Fields that only read an attribute and return a scalar or an enum, completed in one step.

A page of twenty orders selects some eighty such fields (`cursor`, `orderId`, `createTime`...);
graphql-core executes each with its whole machinery: the field looked up again, a resolve info
built, Strawberry's resolver wrapper called, the result tested for awaitability and completed
through `complete_value`'s dispatch. For a field Strawberry resolves as a basic field (no
resolver, no extension, no permission, no exception handler: `_get_basic_result`), without
arguments, whose type is a scalar or an enum, the answer is the attribute read with
Strawberry's default resolver and coerced by the type: `TypedErrorsExecutionContext.
execute_field` (runtime/execution/executor.py) takes it from the reader built here, once per
type and field. Whatever else can happen (a null for a non-null
field, an exception, a value the type refuses) is left to graphql-core, which answers it, and
its error, as always; so is every field when middleware runs (tracing sees every field).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from types import FunctionType
from typing import Any

from graphql import (
    GraphQLEnumType,
    GraphQLID,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLScalarType,
    GraphQLString,
    Undefined,
)
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.field import StrawberryField

SLOW = object()  # the reader's answer when graphql-core must complete the field
Reader = Callable[[Any], Any]
_STRAWBERRY_FIELD = GraphQLCoreConverter.DEFINITION_BACKREF

# A field's read in its parts: the read of the value from the source, the value's completion,
# and the type whose values are their own answer without it (None: every value is completed).
ReadParts = tuple[Reader, Reader, type | None]
# By parent type (held, so that its id stays its own) and field name: the parts, and the reader.
_readers: dict[tuple[int, str], tuple[GraphQLObjectType, ReadParts | None, Reader | None]] = {}


def leaf_reader(parent_type: GraphQLObjectType, field_name: str) -> Reader | None:
    """The reader of `parent_type.field_name`, or None when graphql-core must execute it."""
    found = _readers.get((id(parent_type), field_name))
    if found is None or found[0] is not parent_type:
        found = _remembered(parent_type, field_name)
    return found[2]


def leaf_parts(parent_type: GraphQLObjectType, field_name: str) -> ReadParts | None:
    """The parts of `leaf_reader`'s reader, for a plan that reads several fields in one loop."""
    found = _readers.get((id(parent_type), field_name))
    if found is None or found[0] is not parent_type:
        found = _remembered(parent_type, field_name)
    return found[1]


def _remembered(
    parent_type: GraphQLObjectType, field_name: str
) -> tuple[GraphQLObjectType, ReadParts | None, Reader | None]:
    parts = _parts(parent_type, field_name)
    reader = None if parts is None else read_then(*parts)
    if field_name == "__typename" and parts is not None:
        reader = parts[0]  # a name: its own answer, without the wrapper's call
    found = _readers[(id(parent_type), field_name)] = (parent_type, parts, reader)
    return found


def _parts(parent_type: GraphQLObjectType, field_name: str) -> ReadParts | None:
    if field_name == "__typename":
        name = parent_type.name
        return (lambda source: name), _as_it_is, str
    attribute = basic_attribute(parent_type, field_name)
    if attribute is None:
        return None
    return_type, attribute_of = attribute
    non_null = isinstance(return_type, GraphQLNonNull)
    leaf = return_type.of_type if isinstance(return_type, GraphQLNonNull) else return_type
    if not isinstance(leaf, GraphQLScalarType | GraphQLEnumType):
        return None
    completion = leaf_completion(leaf.coerce_output_value, non_null)
    # graphql-core's `serialize_string` and `serialize_id` answer a `str` as it is.
    as_is = str if leaf is GraphQLString or leaf is GraphQLID else None
    return attribute_of, completion, as_is


def _as_it_is(value: Any) -> Any:
    return value


def read_then(attribute_of: Reader, complete: Reader, as_is: type | None = None) -> Reader:
    """A field's answer from its source: the attribute read, then completed (a value of exactly
    the type `as_is` is its own answer, without the completion's call); SLOW when the read
    raises (graphql-core makes it this field's error)."""

    def read(source: Any) -> Any:
        try:
            value = attribute_of(source)
        except Exception:
            return SLOW
        return value if type(value) is as_is else complete(value)

    return read


def leaf_completion(coerce: Callable[[Any], Any], non_null: bool) -> Reader:
    """A leaf value's answer, coerced by its type; SLOW for what graphql-core must answer (a
    null for a non-null type, an exception as the value, a value the type refuses)."""

    def complete(value: Any) -> Any:
        if value is None:
            return SLOW if non_null else None
        if isinstance(value, Exception):
            return SLOW
        try:
            coerced = coerce(value)
        except Exception:
            return SLOW
        return SLOW if coerced is None or coerced is Undefined else coerced

    return complete


def basic_attribute(
    parent_type: GraphQLObjectType, field_name: str
) -> tuple[GraphQLOutputType, Reader] | None:
    """The type of `parent_type.field_name` and the read of its value from a source, when
    Strawberry resolves it as a basic field without arguments, or by a plain method of the
    object (`computed_attribute`); else None."""
    field_def = parent_type.fields.get(field_name)
    if field_def is None or field_def.args:
        return None
    strawberry_field = (field_def.extensions or {}).get(_STRAWBERRY_FIELD)
    computed = computed_attribute(field_def, strawberry_field)
    if computed is not None:
        return field_def.type, computed
    # Strawberry's resolver of a basic field without exception handlers is `_get_basic_result`
    # (`_is_default` alone marks every field without a resolver of its own, permissions too).
    resolver_name = getattr(field_def.resolve, "__name__", None)
    if strawberry_field is None or not strawberry_field.is_basic_field:
        return None
    if resolver_name != "_get_basic_result":
        return None
    resolve: Callable[[Any, str], Any] = strawberry_field.default_resolver
    python_name: str = strawberry_field.python_name
    if resolve is getattr:  # the default: one C call
        return field_def.type, attrgetter(python_name)
    return field_def.type, lambda source: resolve(source, python_name)


def computed_attribute(field_def: Any, strawberry_field: Any) -> Reader | None:
    """The read of a field Strawberry resolves by calling a method of the object with the
    object alone (`def id(self)`: synchronous, no info, no arguments, no extension), as
    `_resolver` calls it through `get_arguments` and `StrawberryField.get_result`; else None.
    Such a method reads the object and nothing else (`schema.node.node_id_field`): when it
    fails, graphql-core calls it again to report the error, as for an attribute."""
    if type(strawberry_field) is not StrawberryField or strawberry_field.extensions:
        return None
    resolver = strawberry_field.base_resolver
    if resolver is None or getattr(field_def.resolve, "__name__", None) != "_resolver":
        return None
    if resolver.is_async or resolver.self_parameter is None:
        return None
    if len(resolver.signature.parameters) != 1:
        return None
    method = resolver.wrapped_func
    return method if isinstance(method, FunctionType) else None
