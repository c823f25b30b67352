"""The docs' list of what the engine does not support is the one the declared table gives
(`make engine-docs` writes both from a run), never a list kept by hand."""

from __future__ import annotations

from tests.conformance.declared import DOCS_FILE, docs_list, docs_section, load_declared


def test_docs_hold_the_declared_list() -> None:
    text = DOCS_FILE.read_text(encoding="utf-8")
    assert docs_section(text) == docs_list(load_declared())
