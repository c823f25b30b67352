"""Every internal of mongomock-ng and PyMongo that embedded/internals.py lists is there in the
installed releases and still read where the table says, every internal a module of `embedded`
reads is listed (an AST scan: tests/engine/internals_scan.py), and the installed releases are
the ones the engine is tested on (pyproject.toml's caps). Each failure names the internal and
the versions.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
from functools import cache
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from embedded import mongomock_internals
from embedded.internals import CATEGORIES, INTERNALS, OPERATORS, TESTED, Internal
from tests.engine.internals_scan import Read, Scan, internal, private, scan
from tests.install.support import project_requirements
from tests.support.attributes import MISSING, resolved

ROOT = Path(__file__).resolve().parents[2]
# The one module all of whose objects are mongomock-ng's: `self` there is a parser or a store.
STRICT = "embedded.mongomock_internals"
# Its functions that look internals up by a computed name: the operator categories' lists and
# handlers (`_CATEGORIES`), which the table lists one by one (`CATEGORIES`).
COMPUTED = {"has_operator", "add_operator", "wrap_handler", "operator_handlers"}
# `(module, attribute)`: a private attribute of embedded's own that a module reads of another
# object than `self` (the scan cannot tell it from a library's).
OWN: frozenset[tuple[str, str]] = frozenset()


def _modules() -> dict[str, Path]:
    paths = (ROOT / "embedded").rglob("*.py")
    found = {}
    for path in sorted(p for p in paths if "__pycache__" not in p.parts):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


@cache
def _scanned(module: str) -> Scan:
    return scan(_modules()[module].read_text(), strict=module == STRICT)


def _versions(package: str) -> str:
    installed = importlib.metadata.version(package)
    return f"{package} {installed} is installed; the engine is tested on {TESTED[package]}"


def _shown(row: Internal) -> str:
    return f"{row.module}.{row.name} ({row.use}; {row.used_in})"


def _covers(row: Internal, module: str, read: Read) -> bool:
    if row.used_in != module:
        return False
    if read.module is not None:
        return (row.module, row.name) == (read.module, read.name)
    return row.name.rpartition(".")[2] == read.name


def _id(row: Internal) -> str:
    return f"{row.module}.{row.name}@{row.used_in.removeprefix('embedded.')}"


@pytest.mark.parametrize("row", INTERNALS, ids=_id)
def test_the_internal_is_there(row: Internal) -> None:
    found = resolved(row.module, row.name)
    assert found is not MISSING, f"{_shown(row)} is missing: {_versions(row.package)}"


@pytest.mark.parametrize("row", INTERNALS, ids=_id)
def test_the_embedded_module_still_reads_the_internal(row: Internal) -> None:
    assert row.used_in in _modules(), f"{row.used_in}, said to read {_shown(row)}, is gone"
    reads = _scanned(row.used_in).reads
    first, _, rest = row.name.partition(".")
    if row in OPERATORS:
        used = any(row.name.endswith(n) for pair in mongomock_internals._CATEGORIES for n in pair)
    elif internal(row.module, first) or private(row.name.rpartition(".")[2]) or rest:
        used = any(_covers(row, row.used_in, read) for read in reads)
    else:  # a public-looking name (re-exported from an internal module): named in the source
        used = row.name in _modules()[row.used_in].read_text()
    assert used, (
        f"{row.used_in} no longer reads {row.name}: drop {_id(row)} from embedded/internals.py, "
        "or say which module reads it"
    )


@pytest.mark.parametrize("module", sorted(_modules()))
def test_every_internal_the_module_reads_is_listed(module: str) -> None:
    found = _scanned(module)
    unlisted = [
        f"{read.module or '<object>'}.{read.name} (line {read.line})"
        for read in sorted(found.reads, key=lambda read: read.line)
        if (module, read.name) not in OWN
        and not any(_covers(row, module, read) for row in INTERNALS)
    ]
    packages = "; ".join(_versions(package) for package in sorted(TESTED))
    assert not unlisted, (
        f"{module} reads internals embedded/internals.py does not list: {', '.join(unlisted)}. "
        f"List each (module, attribute path, use, used_in), checked in the installed releases "
        f"({packages}); "
        "one of embedded's own private attributes goes in this test's OWN"
    )
    computed = found.computed - (COMPUTED if module == STRICT else set())
    assert not computed, (
        f"{module}: {sorted(computed)} look internals up by a computed name the scan cannot "
        "follow: look them up by a literal name, or list what they read and add them to COMPUTED"
    )


def test_the_categories_looked_up_by_name_are_the_listed_ones() -> None:
    """The operator lists and handlers `mongomock_internals` looks up by a computed name, in the
    order the parser tries them, are `CATEGORIES` (each of which the table lists)."""
    expected = [(f"{c}_operators", f"_handle_{c}_operator") for c in CATEGORIES]
    assert list(mongomock_internals._CATEGORIES) == expected


def test_the_table_imports_neither_library() -> None:
    """Importing the table changes nothing: it names the internals as strings."""
    tree = ast.parse((ROOT / "embedded" / "internals.py").read_text())
    imported = {
        name.partition(".")[0]
        for node in ast.walk(tree)
        for name in (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
    }
    assert imported <= {"__future__", "typing"}, imported


@pytest.mark.parametrize("package", sorted(TESTED))
def test_the_installed_release_is_the_tested_one(package: str) -> None:
    (requirement,) = [
        r for r in project_requirements() if canonicalize_name(r.name) == canonicalize_name(package)
    ]
    caps = [s.version for s in requirement.specifier if s.operator in ("<=", "==")]
    assert caps == [TESTED[package]], f"pyproject.toml caps {package} at {caps}, not TESTED"
    installed = importlib.metadata.version(package)
    assert installed == TESTED[package], (
        f"{_versions(package)}: re-check embedded/internals.py (these tests), then raise TESTED "
        "and the cap together"
    )
