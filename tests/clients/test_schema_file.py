"""`schema.graphql`, committed, is the served schema: a change to the API shows in review."""

from __future__ import annotations

from pathlib import Path

from app import sdl

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "schema.graphql"


def test_schema_file_is_the_served_schema() -> None:
    committed = SCHEMA_FILE.read_text(encoding="utf-8")
    assert committed == sdl() + "\n", "the API changed: run `make schema > schema.graphql`"
