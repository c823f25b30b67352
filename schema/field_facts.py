"""The schema's answers to what the runtime's checks ask of a field (`runtime.FieldFacts`):
its list size (`schema/cost.py`), its values' units (`schema/value_sizes.py`), its work's
units (`schema/work_costs.py`) and its payload check (`schema/payload_arguments.py`), read from
their tables by type and field, with the settings the schema was built with."""

from __future__ import annotations

from graphql import GraphQLObjectType

from resolvers.errors import ApiError
from runtime import Arguments, ListSize, PayloadCheck, WorkUnits
from schema.cost import LIST_SIZES, Sizing
from schema.payload_arguments import PAYLOAD_ARGUMENT_CHECKS
from schema.value_sizes import VALUE_UNITS
from schema.work_costs import WORK_UNITS
from settings import Settings


class TableFacts:
    """`runtime.FieldFacts` from the tables, keyed by type and field name."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def list_size(self, parent_type: GraphQLObjectType, field_name: str) -> ListSize | None:
        size = LIST_SIZES.get((parent_type.name, field_name))
        if size is None:
            return None
        settings = self.settings

        def sized(arguments: Arguments, parent: Arguments) -> int:
            return size(Sizing(arguments, parent, settings))

        return sized

    def value_units(self, parent_type: GraphQLObjectType, field_name: str) -> int:
        return VALUE_UNITS.get((parent_type.name, field_name), 1)

    def work_units(self, parent_type: GraphQLObjectType, field_name: str) -> WorkUnits | None:
        return WORK_UNITS.get((parent_type.name, field_name))

    def payload_check(self, parent_type: GraphQLObjectType, field_name: str) -> PayloadCheck | None:
        check = PAYLOAD_ARGUMENT_CHECKS.get((parent_type.name, field_name))
        if check is None:
            return None
        settings = self.settings

        def checked(arguments: Arguments) -> Exception | None:
            """The resolver's refusal of the arguments (an `ApiError`, which the error table
            types), or None."""
            try:
                check(arguments, settings)
            except ApiError as refused:
                return refused
            return None

        return checked
