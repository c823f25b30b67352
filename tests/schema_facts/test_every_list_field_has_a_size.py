"""Every list field of the built schema declares its size (`facts(list_size=...)`): the cost
walk refuses to guess one, and a list without one would fail every operation that selects it."""

from __future__ import annotations

from graphql import get_nullable_type, is_list_type

from tests.schema_facts.support import built, facts_of, fields_of


def test_every_list_field_declares_its_size() -> None:
    unsized = [
        f"{parent_type.name}.{name}"
        for parent_type, name, field in fields_of(built())
        if is_list_type(get_nullable_type(field.type))
        and facts_of(parent_type, name).list_size is None
    ]
    assert unsized == [], f"list fields that declare no size (facts(list_size=...)): {unsized}"
