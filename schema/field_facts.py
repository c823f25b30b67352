"""The schema's answers to what the runtime's checks ask of a field (`runtime.FieldFacts`): its
list size, its values' units, its work's units and its payload check, as the field declares them
(`schema/facts.py`), with the settings the schema was built with.

They are read once, from the built schema (`read`), into answers by type and field name: the
checks ask for them field by field as they walk an operation, and find each ready. A cursor's
units are the schema's, known once every field is read: an edge's, from the cursors the field
that pages its connection hands out; a `PageInfo`'s, the longest of them.
"""

from __future__ import annotations

from collections.abc import Callable

from graphql import GraphQLField, GraphQLObjectType, GraphQLSchema, get_named_type

import runtime
from resolvers.errors import ApiError
from runtime import Arguments, ListSize, PayloadCheck, WorkUnits
from schema.facts import (
    ArgumentCheck,
    Cursor,
    Declared,
    Facts,
    Size,
    Sizing,
    cursor_units,
    declared,
)
from settings import Settings

Key = tuple[str, str]  # a field's parent type's name and its name


class DeclaredFacts:
    """`runtime.FieldFacts` from the fields' declarations, read from the built schema."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.sizes: dict[Key, ListSize] = {}
        self.works: dict[Key, WorkUnits] = {}
        self.checks: dict[Key, PayloadCheck] = {}
        self.values: dict[Key, int] = {}  # every declared one, `SHORT` ones too

    def read(self, schema: GraphQLSchema) -> None:
        """Read every field's declared facts, once the schema is built."""
        found: dict[Key, Facts] = {}
        cursors: dict[str, int] = {}  # an edge type's name -> its cursor's units
        for parent_type, name in runtime.object_fields(schema):
            key = (parent_type.name, name)
            found[key] = field_facts = declared(runtime.field_metadata(parent_type, name))
            self._keep(key, field_facts)
            edge = _edge_type(parent_type.fields[name])
            if field_facts.cursors and edge is not None:
                longest = cursor_units(field_facts.cursors)
                cursors[edge] = max(cursors.get(edge, longest), longest)
        for key, field_facts in found.items():
            units = _value_units(field_facts.value_units, cursors, key[0])
            if units is not None:
                self.values[key] = units

    def _keep(self, key: Key, found: Facts) -> None:
        if found.list_size is not None:
            self.sizes[key] = _sized(found.list_size, self.settings)
        if found.work_units is not None and not isinstance(found.work_units, Declared):
            self.works[key] = found.work_units
        if found.payload_check is not None and not isinstance(found.payload_check, Declared):
            self.checks[key] = _checked(found.payload_check, self.settings)

    def list_size(self, parent_type: GraphQLObjectType, field_name: str) -> ListSize | None:
        return self.sizes.get((parent_type.name, field_name))

    def value_units(self, parent_type: GraphQLObjectType, field_name: str) -> int:
        return self.values.get((parent_type.name, field_name), 1)

    def work_units(self, parent_type: GraphQLObjectType, field_name: str) -> WorkUnits | None:
        return self.works.get((parent_type.name, field_name))

    def payload_check(self, parent_type: GraphQLObjectType, field_name: str) -> PayloadCheck | None:
        return self.checks.get((parent_type.name, field_name))


def _edge_type(field: GraphQLField) -> str | None:
    """The name of the edge type of the connection the field answers, if it answers one."""
    connection = get_named_type(field.type)
    edges = getattr(connection, "fields", {}).get("edges")
    return None if edges is None else get_named_type(edges.type).name


def _value_units(
    declared: int | Cursor | None, cursors: dict[str, int], type_name: str
) -> int | None:
    """A field's units, as declared, a cursor's from its connection's cursors; None when it
    declares none (nor its connection)."""
    if declared is Cursor.OF_ITS_CONNECTION:
        return cursors.get(type_name)
    if declared is Cursor.LONGEST:
        return max(cursors.values(), default=None)
    return declared


def _sized(size: Size, settings: Settings) -> ListSize:
    def sized(arguments: Arguments, parent: Arguments) -> int:
        return size(Sizing(arguments, parent, settings))

    return sized


def _checked(check: ArgumentCheck, settings: Settings) -> Callable[[Arguments], Exception | None]:
    def checked(arguments: Arguments) -> Exception | None:
        """The resolver's refusal of the arguments (an `ApiError`, which the error table
        types), or None."""
        try:
            check(arguments, settings)
        except ApiError as refused:
            return refused
        return None

    return checked
