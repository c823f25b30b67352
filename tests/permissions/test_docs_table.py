"""docs/security.md holds the roles and permissions table as the declarations write it."""

from __future__ import annotations

from pathlib import Path

from tests.permissions.docs_table import table

DOCS = Path(__file__).parents[2] / "docs" / "security.md"


def test_the_security_docs_hold_the_table_the_declarations_write() -> None:
    expected = table()
    assert expected in DOCS.read_text(encoding="utf-8"), (
        "docs/security.md's table is not the declarations': replace it with the output of "
        "`python -m tests.permissions.docs_table`:\n" + expected
    )
