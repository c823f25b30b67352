"""Every root field of the built schema declares the work it does besides what it answers
(`facts(work_units=...)`, `NO_WORK` when none): what a field reads or writes beyond its answer
counts in the cost only if it says so, so a new root field must say."""

from __future__ import annotations

from tests.schema_facts.support import built, facts_of


def test_every_root_field_declares_its_work_units() -> None:
    schema = built()
    undeclared = [
        f"{root.name}.{name}"
        for root in (schema.query_type, schema.mutation_type)
        if root is not None
        for name in root.fields
        if facts_of(root, name).work_units is None
    ]
    assert undeclared == [], (
        f"root fields that declare no work units (facts(work_units=... or NO_WORK)): {undeclared}"
    )
