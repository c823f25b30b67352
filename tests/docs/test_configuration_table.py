"""docs/configuration.md names every environment variable the code reads, and only those:
each `ARRAYGRAPH_*` variable found in the code (settings/, cli, web, bench, tests, the image,
compose, the Makefile) has a row in one of its tables, every row names one the code reads, and
each whole-number setting's default is the settings package's."""

from __future__ import annotations

import ast
import importlib
import os
import re
from pathlib import Path

import settings
from tests.docs.markdown import DOCS, ROOT

PAGE = DOCS / "configuration.md"
VARIABLE = re.compile(r"\bARRAYGRAPH_[A-Z0-9_]*[A-Z0-9]\b")
ROW = re.compile(r"^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|\s*([^|]*)\|")
SKIPPED = frozenset({".venv", ".venv-bench", "docs", ".git", "build", "dist", "node_modules"})
READ_BY_SUFFIX = frozenset({".py", ".sh", ".yml", ".yaml"})
READ_BY_NAME = frozenset({"Dockerfile", "Makefile", "run"})


def code_files() -> list[Path]:
    found: list[Path] = []
    for folder, subfolders, names in os.walk(ROOT):
        # Pruned in place, so that os.walk never enters a virtual environment or node_modules.
        subfolders[:] = [name for name in subfolders if name not in SKIPPED]
        found += [
            Path(folder, name)
            for name in names
            if Path(name).suffix in READ_BY_SUFFIX or name in READ_BY_NAME
        ]
    return found


def read_by_code() -> set[str]:
    return {
        name
        for path in code_files()
        for name in VARIABLE.findall(path.read_text(encoding="utf-8", errors="replace"))
    }


def table_rows() -> dict[str, str]:
    """Each variable of the page's tables: its default cell."""
    return {
        row.group(1): row.group(2).strip()
        for line in PAGE.read_text(encoding="utf-8").splitlines()
        if (row := ROW.match(line))
    }


def whole_number_defaults() -> dict[str, int]:
    """`_int(env, "ARRAYGRAPH_X", CONSTANT)` in the settings package: each variable's default."""
    found: dict[str, int] = {}
    for path in sorted(Path(settings.__file__).parent.glob("*.py")):
        module = (
            importlib.import_module(f"settings.{path.stem}")
            if path.stem != "__init__"
            else settings
        )
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_int"
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[2], ast.Name)
            ):
                found[str(node.args[1].value)] = getattr(module, node.args[2].id)
    return found


def test_every_variable_the_code_reads_has_a_row() -> None:
    missing = sorted(read_by_code() - set(table_rows()))
    assert not missing, f"docs/configuration.md lacks {missing}"


def test_every_row_names_a_variable_the_code_reads() -> None:
    read = read_by_code() | {"MONGODB_URI", "MONGODB_URI_FILE"}
    unknown = sorted(name for name in table_rows() if name not in read and "OTEL" not in name)
    assert not unknown, f"docs/configuration.md names {unknown}, which no code reads"


def test_mongodb_uri_has_a_row() -> None:
    assert "MONGODB_URI" in table_rows()


def test_whole_number_defaults_are_those_of_settings() -> None:
    defaults = whole_number_defaults()
    assert len(defaults) >= 20, "the settings package's _int calls were not found"
    rows = table_rows()
    wrong = {
        name: (rows.get(name), value)
        for name, value in defaults.items()
        if str(value) not in re.sub(r"[,\s]", "", rows.get(name, ""))
    }
    assert not wrong, f"defaults in docs/configuration.md differ from settings/: {wrong}"
