"""Every `String` and `ID` field of the built schema declares what each of its values counts in
the cost (`facts(value_units=...)`: `SHORT`, or its units for a value that can take more than
COST_VALUE_BYTES): a long text counted as 1 would let an answer hold far more bytes than its
cost says. An edge's `cursor` counts its connection's cursors: the field that pages it declares
them (`facts(cursors=...)`)."""

from __future__ import annotations

from graphql import get_named_type

from schema.field_facts import DeclaredFacts
from settings import Settings
from tests.schema_facts.support import built, fields_of

TEXTS = ("String", "ID")


def test_every_string_field_declares_its_value_units() -> None:
    schema = built()
    facts = DeclaredFacts(Settings())
    facts.read(schema)
    undeclared = [
        f"{parent_type.name}.{name}"
        for parent_type, name, field in fields_of(schema)
        if get_named_type(field.type).name in TEXTS and (parent_type.name, name) not in facts.values
    ]
    assert undeclared == [], (
        f"String and ID fields that declare no value units (facts(value_units=...)): {undeclared}"
    )
