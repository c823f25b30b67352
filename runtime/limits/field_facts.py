"""What the checks that run before execution ask of a field, and the runtime cannot know: its
domain's facts. The schema answers (`FieldFacts`); the runtime asks, by the field's parent
type and name, as it walks an operation's fields.

Each answer is a function of the field's coerced arguments (and, for a list's size, of those of
the field that returned its object: a connection's `edges` hold the page its field asks for),
so that the facts can be read once per field and the values come from each request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from graphql import GraphQLObjectType

Arguments = Mapping[str, Any]  # a field's coerced arguments, by name
ListSize = Callable[[Arguments, Arguments], int]  # (its arguments, its parent's) -> items
WorkUnits = Callable[[Arguments], int]  # its arguments -> the units of its work
PayloadCheck = Callable[[Arguments], Exception | None]  # its arguments -> the refusal, or None


class FieldFacts(Protocol):
    """A schema's facts about its fields, for the cost walk and the payload check."""

    def list_size(self, parent_type: GraphQLObjectType, field_name: str) -> ListSize | None:
        """How many items the list field holds at most; None when it declares none (the cost
        walk refuses to guess)."""

    def value_units(self, parent_type: GraphQLObjectType, field_name: str) -> int:
        """The units each of the field's values counts: 1, or more for a long text."""

    def work_units(self, parent_type: GraphQLObjectType, field_name: str) -> WorkUnits | None:
        """The units the field counts for its work (reads, writes) each time it is answered,
        besides what it answers; None when it does no more work than it answers."""

    def payload_check(self, parent_type: GraphQLObjectType, field_name: str) -> PayloadCheck | None:
        """The check of the field's arguments its resolver runs first, when a mutation's
        payload can reach it; None when it has none."""
