"""The schema's answers to what the runtime's checks ask of a field (`runtime.FieldFacts`): its
list size, its values' units, its work's units and its payload check, as the field declares them
(`schema/facts.py`), with the settings the schema was built with.

They are read once, from the built schema (`read`), into answers by type and field name: the
checks ask for them field by field as they walk an operation, and find each ready.
"""

from __future__ import annotations

from collections.abc import Callable

from graphql import GraphQLObjectType, GraphQLSchema

import runtime
from resolvers.errors import ApiError
from runtime import Arguments, ListSize, PayloadCheck, WorkUnits
from schema.facts import ArgumentCheck, Declared, Facts, Size, Sizing, declared
from schema.value_sizes import VALUE_UNITS
from settings import Settings

Key = tuple[str, str]  # a field's parent type's name and its name


class DeclaredFacts:
    """`runtime.FieldFacts` from the fields' declarations, read from the built schema."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.sizes: dict[Key, ListSize] = {}
        self.works: dict[Key, WorkUnits] = {}
        self.checks: dict[Key, PayloadCheck] = {}

    def read(self, schema: GraphQLSchema) -> None:
        """Read every field's declared facts, once the schema is built."""
        for parent_type, field_name in runtime.object_fields(schema):
            found = declared(runtime.field_metadata(parent_type, field_name))
            self._keep((parent_type.name, field_name), found)

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
        return VALUE_UNITS.get((parent_type.name, field_name), 1)

    def work_units(self, parent_type: GraphQLObjectType, field_name: str) -> WorkUnits | None:
        return self.works.get((parent_type.name, field_name))

    def payload_check(self, parent_type: GraphQLObjectType, field_name: str) -> PayloadCheck | None:
        return self.checks.get((parent_type.name, field_name))


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
