"""Dependencies run one way: app (app.py, cli.py, web/) -> schema/ -> resolvers/ -> store/ ->
(PyMongo | embedded/). `settings` (a package) may be imported by anything except embedded/ and
runtime/, and imports nothing of arraygraph but its own modules.

runtime/ (the GraphQL runtime) sits beside that line: app, schema/ and resolvers/ may import it,
store/ may not, and it imports nothing of arraygraph's: Strawberry, graphql-core and the
standard library only, as embedded/ imports only the libraries it stands in for.

Only the database handle (`store/database.py`) opens the embedded engine, through the package's
face (`embedded`, never one of its sub-packages); `bench/` may import the face and the wire
front (`embedded.wire`), which no other module of `embedded/` imports, since the product's wheel
leaves it out. `bench/` does not lean on `tests/`.

`python tools/check_layers.py [ROOT]` parses every module outside .venv/, tests/ and tools/ and
prints one line per import that runs the wrong way (imports under `if TYPE_CHECKING:` and inside
functions count too: they are still a dependency direction). Exit 1 on any violation.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

from sources import ROOT, python_files

# Not checked: these top-level directories, and hidden directories and __pycache__ anywhere.
SKIPPED = frozenset({".venv", "tests", "tools", "build", "dist"})
PACKAGES = frozenset(
    {"web", "schema", "runtime", "resolvers", "store", "embedded", "tests", "bench", "tools"}
)
ARRAYGRAPH = PACKAGES | {"app", "cli", "settings"}
EMBEDDED_MAY_IMPORT = frozenset({"pymongo", "bson", "mongomock_ng", "embedded"})
RUNTIME_MAY_IMPORT = frozenset({"strawberry", "graphql", "aiodataloader", "runtime"})
# Sealed packages: the top-level names each may import besides the standard library.
SEALED = {
    "embedded": (
        EMBEDDED_MAY_IMPORT,
        "embedded/ may import only the standard library, pymongo, bson, mongomock_ng",
    ),
    "runtime": (
        RUNTIME_MAY_IMPORT,
        "runtime/ may import only the standard library, strawberry, graphql, aiodataloader",
    ),
}
# The layer a module is in -> the top-level names it must not import.
FORBIDDEN = {
    "web": ("app", "cli", "embedded"),
    "schema": ("web", "app", "cli", "embedded"),
    "resolvers": ("schema", "web", "app", "cli", "embedded"),
    "store": ("runtime", "resolvers", "schema", "web", "app", "cli"),
    "bench": ("tests",),  # benchmarks measure the product, not the test helpers
}
DATABASE_HANDLE = "store/database.py"
EMBEDDED_FACE = "embedded"
WIRE_FRONT = "embedded.wire"  # not in the product's wheel (pyproject.toml): tests and bench only


def module_name(relative: Path) -> str:
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, absolute dotted name) for every import in the tree; relative imports resolved."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                anchor = ".".join(parts[: max(len(parts) - node.level + 1, 0)])
                base = ".".join(part for part in (anchor, base) if part)
            if base:
                yield node.lineno, base
            else:  # `from .. import schema` at the top: each name is a module
                for alias in node.names:
                    yield node.lineno, alias.name


def shown(top: str) -> str:
    return f"{top}/" if top in PACKAGES else f"{top}.py"


def rule_broken(relative: str, layer: str, name: str) -> str | None:
    """Why `name` may not be imported by the module at `relative` in `layer`, or None."""
    top = name.partition(".")[0]
    if layer in SEALED:
        may_import, rule = SEALED[layer]
        if top in ARRAYGRAPH and top != layer:
            return f"{layer}/ must not import arraygraph"
        if top not in may_import and top not in sys.stdlib_module_names:
            return rule
        if _within(name, WIRE_FRONT) and not relative.startswith("embedded/wire/"):
            return "only embedded/wire/ imports the wire front (it is not in the wheel)"
        return None
    if layer == "settings" and top in ARRAYGRAPH and top != "settings":
        return "settings must not import arraygraph (every layer imports it)"
    if top in FORBIDDEN.get(layer, ()):
        return f"{layer}/ must not import {shown(top)}"
    if layer == "store" and top == "embedded" and relative != DATABASE_HANDLE:
        return f"store/ imports embedded/ only in {DATABASE_HANDLE}"
    if top == "embedded" and name != EMBEDDED_FACE:
        if layer == "bench" and _within(name, WIRE_FRONT):
            return None
        return "outside embedded/, only its face is imported (`embedded`; bench/ `embedded.wire`)"
    return None


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def violations(root: Path) -> tuple[list[str], int]:
    """The violation lines, and how many modules were checked."""
    found: list[str] = []
    checked = 0
    for path in python_files(root, skipped=SKIPPED):
        relative = path.relative_to(root)
        shown_path, module = relative.as_posix(), module_name(relative)
        try:
            tree = ast.parse(path.read_bytes(), filename=shown_path)
        except SyntaxError as error:
            found.append(f"{shown_path}:{error.lineno or 0}: cannot parse: {error.msg}")
            continue
        checked += 1
        layer = relative.parts[0] if len(relative.parts) > 1 else module
        is_package = relative.name == "__init__.py"
        for line, name in sorted(imported_names(tree, module, is_package)):
            rule = rule_broken(shown_path, layer, name)
            if rule:
                found.append(f"{shown_path}:{line}: {module} imports {name}: {rule}")
    return found, checked


def main(root: Path) -> int:
    found, checked = violations(root)
    for line in found:
        print(line)
    if found:
        print(f"check-layers: {len(found)} violation(s) in {checked} modules", file=sys.stderr)
        return 1
    print(f"check-layers: {checked} modules, dependencies run one way")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT))
